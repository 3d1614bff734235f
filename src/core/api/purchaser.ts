/**
 * Purchases that never happen twice and never lose their outcome.
 *
 * Each purchase is journaled before it is sent and resolved after. A clear answer from the server
 * decides it (200 → bought, an error code → not bought). A timeout, a dropped connection, a 5xx or an
 * unreadable 200 leaves the outcome open, and the marketplace has no idempotency key, so nothing is
 * retried: the outcome is reconciled from `GET /orders` instead, before any other purchase is sent.
 *
 * Matching rule (reconciliation). An order row accounts for the intent when all of these hold:
 *   - `side` is `bought`;
 *   - `amount` equals the intent's amount and `price` (per copy) is at most its `max_price`;
 *   - `market_hash_name` and `app_id` equal the listing's, when those are known (given by the caller, or
 *     read from `GET /listings/{id}` before sending);
 *   - `created_at` is no earlier than the intent's creation time on the server's clock minus a skew
 *     tolerance (default 30 s). That time is journaled with the intent (our clock plus the offset the
 *     server's Date header showed then), so our clock set back or forward afterwards (NTP, the user)
 *     moves nothing: converted later with the offset of that moment, a clock set back would put the
 *     order before the cut-off ("not bought", then bought again), one set forward would reach back to
 *     older orders. Entries journaled before that time was kept, or while the offset was not known yet,
 *     are converted with the offset at reconciliation;
 *   - its `order_id` is not already claimed by another journal entry;
 *   - the order holds that one item only: a single purchase is an order of one item, so the order of a
 *     cart (several items, one of them the same item) is never taken for it.
 * A cart's lines (journaled with one `cartId`, see buyCart) are settled together: by one order whose
 * items cover every line, never line by line (the second line would find the first line's order
 * claimed). A cart's order id is recorded on its first line; the other lines name that order in their
 * note. Its sender and reconcileUnresolved settle it by the same rules as a single purchase.
 * Exactly one matching order → bought (that order). More than one → unknown (the ids are noted). None
 * → read again after a pause, because the server may still be applying the purchase; none in every
 * read, the last one reaching back past the intent and at least `settleMs` after the failure → not
 * bought. When the failure brought no answer at all (a timeout, a connection lost once the request may
 * have been written), the marketplace may still apply the request later, so "none" settles it only
 * `lateApplyMs` after the failure; until then it stays unknown. Orders unreadable → unknown, and the
 * intent stays in the journal to be reconciled again (`reconcileUnresolved`, run automatically before
 * the next purchase).
 *
 * Only the sending account's orders can settle a purchase: an entry the journal names as another
 * account's (the user changed keys) is left unknown for that account's order history, and an entry
 * that names none is tagged with the key's account (GET /user, read once) before it is reconciled.
 *
 * The backpack is not consulted: its rows carry neither an order id nor an asset id, so they cannot tie
 * an item to one purchase; the order history can.
 */
import { randomUUID } from 'node:crypto';
import { purchaseLine, type OrderItem, type PurchaseResult } from '../../shared/api/index.ts';
import type { ApiClient } from './client.ts';
import type { Clock } from './clock.ts';
import { ApiError, failureReason } from './errors.ts';
import {
  accountKey,
  type JournalEntry,
  type PurchaseIntent,
  type PurchaseJournal,
  type PurchaseOutcomeRecord,
} from './purchase-journal.ts';
import { SpendWatchers, type SpendSource, type SpendWatcher } from './purchase-spending.ts';

export type PurchaseStatus = 'bought' | 'not_bought' | 'unknown';

export interface PurchaseRequest {
  listingId: number;
  /** Copies to buy (default 1). */
  amount?: number;
  /** Ceiling per copy in cents. */
  maxPrice: number;
  /** Share-link token of a private listing. */
  privateToken?: string;
  /** The listing's item, when the caller knows it (the app does, from the book): used to match orders. */
  marketHashName?: string;
  appId?: number;
  triggerSeq?: bigint;
  watchlistId?: number;
  source?: string;
}

export interface PurchaseOutcome {
  status: PurchaseStatus;
  intentId: string;
  orderId: number | null;
  /** The purchase response, when the server's answer was read. */
  result: PurchaseResult | null;
  /** Why it is not bought, or why the outcome is unknown. */
  error: ApiError | null;
  /** True when the outcome came from the order history rather than the purchase response. */
  reconciled: boolean;
  note: string | null;
  /**
   * buy(): the listing's price per copy as read just before the purchase was sent; null when it was not
   * read (the caller named the item, or the read failed or would have waited). Above the maximum, a LISTING_PRICE_CHANGED is
   * the buyer's own maximum refusing the price, not a seller's raise.
   */
  listedPrice?: number | null;
  /**
   * buy(): not sent because an earlier purchase of the same listing, whose answer was lost, turned out
   * bought (its order, when known) or is still unknown; absent otherwise. The CLI reports a retry by it.
   */
  heldBackBy?: { state: 'bought' | 'unknown'; orderId: number | null };
}

/** One line of a cart: a listing bought with the others in one POST /purchase (all or none). */
export interface CartLineRequest {
  listingId: number;
  amount: number;
  maxPrice: number;
  privateToken?: string;
  /** The listing's item when the caller knows it (the app does, from the book; private listings: null). */
  marketHashName: string | null;
  appId: number | null;
}

/** The outcome of a whole cart: its lines are bought together or not at all. */
export interface CartPurchaseOutcome {
  status: PurchaseStatus;
  /** The journal entry of each line, in the order given. */
  intentIds: string[];
  orderId: number | null;
  result: PurchaseResult | null;
  error: ApiError | null;
  reconciled: boolean;
  note: string | null;
}

export interface PurchaserOptions {
  client: ApiClient;
  journal: PurchaseJournal;
  /** Pauses before each read of the order history after an ambiguous failure (default 1 s, 2 s, 4 s). */
  reconcileDelaysMs?: readonly number[];
  /** A "nothing found" read counts only this long after the failure (default 3 s). */
  settleMs?: number;
  /**
   * After a failure that brought no answer (a timeout, a connection lost once the request may have been
   * written, a send cut off by a crash), a "nothing found" read counts only this long after it (default
   * 60 s, as the crypto withdrawal guard waits): the request may still sit in the marketplace's queue
   * and be applied after its sender gave up, and a "not bought" before that lets a retry buy twice. A
   * 5xx or an unreadable answer came from the marketplace itself, done with the request: settleMs then.
   */
  lateApplyMs?: number;
  /** Tolerance between our clock and the server's order timestamps (default 30 s). */
  clockSkewToleranceMs?: number;
  /** Order pages (100 rows each) read per reconciliation at most (default 10). */
  maxOrderPages?: number;
  /** Read the listing's item before buying when the caller did not give it (default true). */
  lookupListing?: boolean;
  /**
   * An intent without any outcome yet, younger than this, may still be on its way (a cart being bought,
   * another process sharing the journal, a purchase waiting a moment for its rate budget):
   * reconcileUnresolved then writes only what it finds (bought), never "not bought" or "unknown" over
   * it. Default 30 s: a sender that gets no answer writes "unknown" itself after its timeout (10 s).
   */
  inFlightGraceMs?: number;
  /**
   * Each purchase of an earlier moment that reconcileUnresolved settled (or looked at again), with the
   * entry as it was before: nobody is waiting on those purchases' answers, so the caller tells the user.
   */
  onEarlierPurchase?: (before: JournalEntry, outcome: PurchaseOutcome) => void;
  /** Where a problem worked around goes (the app's log): a listing not read before buying. */
  warn?: (message: string) => void;
}

/** Buys run together; a reconciliation runs alone, after in-flight buys finish and before new ones start. */
class ExclusiveGate {
  #shared = 0;
  #exclusive = false;
  #waiting: { exclusive: boolean; go: () => void }[] = [];

  async shared<T>(work: () => Promise<T>): Promise<T> {
    await this.#enter(false);
    try {
      return await work();
    } finally {
      this.#shared -= 1;
      this.#next();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    await this.#enter(true);
    try {
      return await work();
    } finally {
      this.#exclusive = false;
      this.#next();
    }
  }

  #enter(exclusive: boolean): Promise<void> {
    // A waiting exclusive holder blocks newcomers, so reconciliation cannot be starved by new buys.
    const blocked = this.#exclusive || this.#waiting.length > 0 || (exclusive && this.#shared > 0);
    if (!blocked) {
      if (exclusive) this.#exclusive = true;
      else this.#shared += 1;
      return Promise.resolve();
    }
    return new Promise((go) => this.#waiting.push({ exclusive, go }));
  }

  #next(): void {
    while (this.#waiting.length > 0 && !this.#exclusive) {
      const head = this.#waiting[0] as { exclusive: boolean; go: () => void };
      if (head.exclusive) {
        if (this.#shared > 0) return;
        this.#waiting.shift();
        this.#exclusive = true;
        head.go();
        return;
      }
      this.#waiting.shift();
      this.#shared += 1;
      head.go();
    }
  }
}

const PURCHASE_ROUTE = 'POST /public/v1/purchase';

/** How long after an unanswered failure "nothing found" still leaves a purchase open, by default (see lateApplyMs). */
export const LATE_APPLY_MS = 60_000;

/** The longest the listing read before a purchase may take (see #describe): it is best effort. */
const LOOKUP_TIMEOUT_MS = 2_000;

/** Open purchases older than this are left for a person to check against the orders page. */
const UNRESOLVED_MAX_AGE_MS = 24 * 3600_000;

/** What a line needs of an order item: the item (when known), the copies, the ceiling per copy. */
type LineShape = Pick<PurchaseIntent, 'amount' | 'maxPrice' | 'marketHashName' | 'appId'>;

/**
 * Whether an order's items are exactly a cart's lines, each line matched by its own item. Not greedily:
 * lines of one item (two listings of the same skin, at different ceilings) or a line whose item is not
 * known fit several items, and the first fit may be the one another line needs, so each line that finds
 * its items taken tries to move the line holding one to another item (a matching by augmenting paths).
 */
export function coversCart(items: readonly OrderItem[], lines: readonly LineShape[]): boolean {
  if (items.length !== lines.length) return false;
  const fits = (row: OrderItem, line: LineShape) =>
    row.amount === line.amount &&
    row.price <= line.maxPrice &&
    (line.marketHashName === null || row.market_hash_name === line.marketHashName) &&
    (line.appId === null || row.app_id === line.appId);
  /** The line each item is given to. */
  const holder: (number | null)[] = items.map(() => null);
  const place = (line: number, tried: boolean[]): boolean => {
    for (let at = 0; at < items.length; at++) {
      if (tried[at] || !fits(items[at] as OrderItem, lines[line] as LineShape)) continue;
      tried[at] = true;
      const other = holder[at] ?? null;
      if (other === null || place(other, tried)) {
        holder[at] = line;
        return true;
      }
    }
    return false;
  };
  return lines.every((_, line) => place(line, items.map(() => false)));
}

/** The bought side of the order history back to some instant, by order, and whether it reached it. */
interface BoughtOrders {
  byOrder: Map<number, OrderItem[]>;
  complete: boolean;
}

/**
 * Reads the order history newest first, back to `since` (server clock), keeping the bought items by
 * order. `complete`: the read reached `since` or the last page (nothing older can match).
 *
 * Offset pages of a history that grows while it is read shift: an order placed between two pages
 * pushes the last row of one page onto the next, so that row comes twice. Kept twice, a one-item order
 * would look like an order of two items and match nothing — a purchase made, settled "not bought", and
 * bought again. The client's newestFirst keeps each order item once and re-reads a page when a row
 * may have slipped past between two pages.
 */
async function readBoughtOrders(client: ApiClient, since: number, maxPages: number): Promise<BoughtOrders> {
  const byOrder = new Map<number, OrderItem[]>();
  const read = await client.newestFirst('orders', { limit: '100' }, {
    priority: 'interactive',
    maxPages,
    olderThanWanted: (row) => Date.parse(row.created_at) < since,
  });
  for (const row of read.rows) {
    if (row.side !== 'bought') continue;
    const items = byOrder.get(row.order_id) ?? [];
    items.push(row);
    byOrder.set(row.order_id, items);
  }
  return { byOrder, complete: read.complete };
}

/**
 * The cart a journal entry is a line of, or null for a single purchase. Lines journaled before carts
 * were named carry no cart id: a cart's lines were written together, with one creation time.
 */
function cartOf(entry: JournalEntry): string | null {
  if (entry.cartId !== null) return entry.cartId;
  return entry.source === 'app-cart' ? `app-cart at ${entry.createdAtMs}` : null;
}

/**
 * What a purchase is held one at a time by (see Purchaser.buy): its item (name and copies), when known,
 * and its listing.
 */
function purchaseKeys(listingId: number, amount: number, marketHashName: string | null, appId: number | null): string[] {
  const listing = `listing ${listingId}`;
  return marketHashName === null ? [listing] : [`${appId ?? '?'} ${amount} ${marketHashName}`, listing];
}

/** A listing whose earlier open purchase holds a new purchase of it back, and why. */
interface Held {
  listingId: number;
  /** The earlier purchase turned out bought (else: still unknown). */
  bought: boolean;
  /** Its order, when it was bought and the order is known. */
  orderId: number | null;
  words: string;
}

/**
 * An earlier purchase in words: its item when the journal knows it, and always its listing (two copies of
 * one skin are two listings, so the name alone does not tell which).
 */
function earlierPurchaseWords(entry: Pick<JournalEntry, 'listingId' | 'marketHashName'>): string {
  return entry.marketHashName
    ? `the earlier purchase of “${entry.marketHashName}” (listing ${entry.listingId})`
    : `the earlier purchase of listing ${entry.listingId}`;
}

/** Why a purchase is not sent: the listings held back, and what a further click does. */
function heldBack(held: readonly Held[], line: number | null): ApiError {
  const next = held.every((h) => h.bought) ? 'buy again for another copy' : 'buy again to send it anyway';
  return new ApiError({
    kind: 'invalid_request',
    route: PURCHASE_ROUTE,
    message: `${PURCHASE_ROUTE}: ${held.map((h) => h.words).join('; ')}; ${next}`,
    ...(line === null ? {} : { details: { line } }),
  });
}

/** Not sent: the intent could not be journaled, and a purchase nobody could account for is the one risk the journal exists to remove. */
function unjournaled(err: unknown): ApiError {
  return new ApiError({
    kind: 'invalid_request',
    route: PURCHASE_ROUTE,
    message: `${PURCHASE_ROUTE}: not sent, the purchase journal could not be written (${(err as Error).message})`,
  });
}

/** What a purchase's POST threw, as an ApiError: anything else (an abort, a failure below the client) left its outcome open. */
function sendFailure(err: unknown): ApiError {
  return err instanceof ApiError
    ? err
    : new ApiError({
        kind: 'network',
        route: PURCHASE_ROUTE,
        message: `${PURCHASE_ROUTE}: interrupted (${err instanceof Error ? err.name : 'unknown'})`,
        maybeDelivered: true,
      });
}

/** The note of an open purchase that may still be on its way (see inFlightGraceMs): only a found order settles it. */
const MAY_BE_IN_FLIGHT = 'unknown — it may still be on its way (sent moments ago, not answered yet): check orders shortly';

/**
 * The note of a purchase whose answer never came and which is not in the order history yet: the
 * marketplace may still apply it (see lateApplyMs).
 */
const MAY_STILL_BE_APPLIED =
  'unknown — check orders: no order for it yet, but the marketplace may still apply a purchase whose answer was lost';

/**
 * Whether the failure was the marketplace's own answer (a 5xx, an answer that could not be read): it was
 * done with the request then. A timeout or a lost connection says nothing of when it will be, and
 * neither does a send no failure was journaled for (cut off by a crash).
 */
function answeredByMarketplace(error: ApiError | null): boolean {
  return error !== null && (error.kind === 'server' || error.kind === 'invalid_response');
}

/** What one read of the order history says of a purchase: its order, several candidates, or none (`complete`: read back past it). */
type MatchResult =
  | { kind: 'found'; orderId: number }
  | { kind: 'ambiguous'; orderIds: number[] }
  | { kind: 'none'; complete: boolean };

/**
 * How a purchase is reconciled: the send's error (kept with the outcome), when it failed (see settleMs),
 * the pauses before each read, and whether it may still be on its way (see inFlightGraceMs).
 */
interface Reconciling {
  error: ApiError | null;
  failedAt: number;
  delays: readonly number[];
  mayBeInFlight?: boolean;
}

/** The note of an open purchase sent with another account's key (`sentWith`): only that account's order history can settle it. */
function leftToItsAccount(sentWith: string, account: string | null): string {
  return account === null
    ? `unknown — check orders: it was sent with the key of ${sentWith}, and the account of the key in use could not be read`
    : `unknown — check orders: it was sent with the key of ${sentWith}, not with the key in use`;
}

function errorFields(error: ApiError | null): Pick<PurchaseOutcomeRecord, 'errorKind' | 'errorCode' | 'errorMessage'> {
  return { errorKind: error?.kind ?? null, errorCode: error?.code ?? null, errorMessage: error?.message ?? null };
}

export class Purchaser implements SpendSource {
  readonly #client: ApiClient;
  readonly #journal: PurchaseJournal;
  readonly #clock: Clock;
  readonly #delays: readonly number[];
  readonly #settleMs: number;
  readonly #lateApplyMs: number;
  readonly #skewMs: number;
  readonly #maxOrderPages: number;
  readonly #lookup: boolean;
  readonly #inFlightGraceMs: number;
  readonly #onEarlierPurchase: NonNullable<PurchaserOptions['onEarlierPurchase']>;
  readonly #gate = new ExclusiveGate();
  /** Order ids from the server's answer that could not be stored because another entry holds them. */
  readonly #orderOverrides = new Map<string, number>();
  #checkedJournal = false;
  /** The last purchase of each item and of each listing (see buy), so the next one waits for its outcome. */
  readonly #sameItem = new Map<string, Promise<void>>();
  /** The key's account (accountKey), once read from GET /user; a client's key never changes. */
  #readAccount: Promise<string | null> | null = null;
  readonly #warn: (message: string) => void;
  readonly #spending = new SpendWatchers();

  constructor(options: PurchaserOptions) {
    this.#client = options.client;
    this.#journal = options.journal;
    this.#clock = options.client.clock;
    this.#delays = options.reconcileDelaysMs ?? [1000, 2000, 4000];
    this.#settleMs = options.settleMs ?? 3000;
    this.#lateApplyMs = options.lateApplyMs ?? LATE_APPLY_MS;
    this.#skewMs = options.clockSkewToleranceMs ?? 30_000;
    this.#maxOrderPages = options.maxOrderPages ?? 10;
    this.#lookup = options.lookupListing ?? true;
    this.#inFlightGraceMs = options.inFlightGraceMs ?? 30_000;
    this.#onEarlierPurchase = options.onEarlierPurchase ?? (() => {});
    this.#warn = options.warn ?? (() => {});
  }

  /**
   * Buys one listing through the journal; resolves to bought, not bought or unknown — never throws
   * ApiError. Purchases of the same item (name and copies) go one at a time: order history rows carry no
   * listing id, so two purchases of one item whose answers were both lost could not be told apart in it
   * (the soak suite's chaos produced exactly that). So do purchases of the same listing, single or in a
   * cart: each one settles the listing's earlier open purchase before it is sent (see #earlierOf), which
   * a purchase of it still on its way would defeat. Different items are not held back.
   */
  buy(request: PurchaseRequest): Promise<PurchaseOutcome> {
    const amount = request.amount ?? 1;
    const keys = purchaseKeys(request.listingId, amount, request.marketHashName ?? null, request.appId ?? null);
    return this.#spending.track(request.maxPrice * amount, () => this.#oneAtATime(keys, () => this.#buyOnce(request)));
  }

  /** Tells `watcher` of every purchase and cart handed over from now on (see purchase-spending.ts). */
  watchSpending(watcher: SpendWatcher): () => void {
    return this.#spending.watchSpending(watcher);
  }

  /**
   * Runs `work` once every earlier purchase holding one of `keys` has its outcome, holding them until it
   * has its own. All keys are taken at once, in call order, so two purchases never wait on each other.
   */
  async #oneAtATime<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    const before = Promise.all(unique.map((key) => this.#sameItem.get(key) ?? Promise.resolve()));
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const mine = before.then(() => finished);
    for (const key of unique) this.#sameItem.set(key, mine);
    await before;
    try {
      return await work();
    } finally {
      done();
      for (const key of unique) if (this.#sameItem.get(key) === mine) this.#sameItem.delete(key);
    }
  }

  async #buyOnce(request: PurchaseRequest): Promise<PurchaseOutcome> {
    const held = await this.#earlierOfListing(request.listingId);
    const refusal = held ? heldBack([held], null) : null;
    const line = {
      listing_id: request.listingId,
      amount: request.amount ?? 1,
      max_price: request.maxPrice,
      ...(request.privateToken === undefined ? {} : { private_token: request.privateToken }),
    };
    let listedPrice: number | null = null;
    const entry = await this.#gate.shared(async () => {
      const item = await this.#describe(request);
      listedPrice = item.price;
      const createdAtMs = this.#clock.now();
      const intent = {
        intentId: randomUUID(),
        createdAtMs,
        serverCreatedAtMs: this.#onServerClock(createdAtMs),
        listingId: request.listingId,
        amount: line.amount,
        maxPrice: request.maxPrice,
        appId: item.appId,
        marketHashName: item.marketHashName,
        triggerSeq: request.triggerSeq ?? null,
        watchlistId: request.watchlistId ?? null,
        source: request.source ?? 'app',
        account: this.#journal.knownAccount() ?? (await this.#accountIfRead()),
      };
      try {
        this.#journal.recordIntent(intent);
      } catch (err) {
        return { intentId: intent.intentId, error: unjournaled(err), result: null, unjournaled: true };
      }
      if (refusal) {
        return { ...this.#settle(intent.intentId, { state: 'not_bought', orderId: null, resolution: 'response', ...errorFields(refusal) }), error: refusal, result: null };
      }
      const checked = purchaseLine.safeParse(line);
      if (!checked.success) {
        const error = new ApiError({
          kind: 'invalid_request',
          route: PURCHASE_ROUTE,
          message: `${PURCHASE_ROUTE}: invalid purchase: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        });
        return { ...this.#settle(intent.intentId, { state: 'not_bought', orderId: null, resolution: 'response', ...errorFields(error) }), error, result: null };
      }
      try {
        const result = await this.#client.purchase({ items: [checked.data] }, { priority: 'interactive' });
        return { ...this.#settle(intent.intentId, { state: 'bought', orderId: result.order_id, resolution: 'response' }), error: null, result };
      } catch (err) {
        const open = sendFailure(err);
        if (!open.outcomeUnknown) {
          return { ...this.#settle(intent.intentId, { state: 'not_bought', orderId: null, resolution: 'response', ...errorFields(open) }), error: open, result: null };
        }
        // Open outcome: mark it unknown now, so a crash during reconciliation leaves it to be re-checked.
        // settled bought while it was on its way (another process found its order): the lost answer does
        // not make it unknown again
        if (this.#journal.get(intent.intentId)?.state === 'bought') return { intentId: intent.intentId, error: open, result: null };
        return { ...this.#settle(intent.intentId, { state: 'unknown', orderId: null, resolution: 'response', ...errorFields(open) }), error: open, result: null, open: true };
      }
    });
    if ('unjournaled' in entry) {
      return { status: 'not_bought', intentId: entry.intentId, orderId: null, result: null, error: entry.error, reconciled: false, note: null, listedPrice };
    }
    if (held) return { ...this.#outcome(entry.intentId, entry.result, entry.error), listedPrice, heldBackBy: { state: held.bought ? 'bought' : 'unknown', orderId: held.orderId } };
    if (!('open' in entry)) return { ...this.#outcome(entry.intentId, entry.result, entry.error), listedPrice };
    const reconciled = await this.#gate.exclusive(async () => {
      const journalEntry = this.#journal.get(entry.intentId) as JournalEntry;
      return this.#reconcile(journalEntry, { error: entry.error, failedAt: this.#clock.now(), delays: this.#delays });
    });
    return { ...reconciled, listedPrice };
  }

  /**
   * Buys several listings in ONE atomic POST /purchase (the marketplace buys every line or none),
   * journaled one intent per line under one cart id, so that whoever settles the lines later settles them
   * together. Resolves to the cart's outcome — never throws ApiError. Like a single purchase it is sent
   * beside other purchases and reconciled alone; an open outcome is reconciled as a whole cart (see the
   * matching rule above). It follows a single purchase's rules for every line: it waits for purchases of
   * its items and listings on their way (see buy), settles what an earlier run left open, and a line
   * whose listing's earlier purchase was bought or is still unknown holds the whole cart back (journaled
   * not bought, the listing and the reason said; see #earlierOfCart).
   */
  buyCart(lines: readonly CartLineRequest[]): Promise<CartPurchaseOutcome> {
    const keys = lines.flatMap((line) => purchaseKeys(line.listingId, line.amount, line.marketHashName, line.appId));
    const ceiling = lines.reduce((sum, line) => sum + line.maxPrice * line.amount, 0);
    return this.#spending.track(ceiling, () => this.#oneAtATime(keys, () => this.#buyCartOnce(lines)));
  }

  async #buyCartOnce(lines: readonly CartLineRequest[]): Promise<CartPurchaseOutcome> {
    const refusal = await this.#earlierOfCart(lines);
    const sent = await this.#gate.shared(async () => {
      const createdAtMs = this.#clock.now();
      const cartId = randomUUID();
      const account = this.#journal.knownAccount() ?? (await this.#accountIfRead());
      const serverCreatedAtMs = this.#onServerClock(createdAtMs);
      const intents: PurchaseIntent[] = lines.map((line) => ({
        intentId: randomUUID(),
        createdAtMs,
        serverCreatedAtMs,
        listingId: line.listingId,
        amount: line.amount,
        maxPrice: line.maxPrice,
        appId: line.appId,
        marketHashName: line.marketHashName,
        triggerSeq: null,
        watchlistId: null,
        source: 'app-cart',
        account,
        cartId,
      }));
      const ids = intents.map((intent) => intent.intentId);
      try {
        this.#journal.database.transaction(() => {
          for (const intent of intents) this.#journal.recordIntent(intent);
        })();
      } catch (err) {
        return { ids: [], error: unjournaled(err), result: null, unjournaled: true };
      }
      if (refusal) {
        this.#writeCart(ids, { state: 'not_bought', orderId: null, resolution: 'response', note: null, ...errorFields(refusal) });
        return { ids, error: refusal, result: null };
      }
      const body = {
        items: lines.map((l) => ({
          listing_id: l.listingId,
          amount: l.amount,
          max_price: l.maxPrice,
          ...(l.privateToken === undefined ? {} : { private_token: l.privateToken }),
        })),
      };
      let result: PurchaseResult;
      try {
        result = await this.#client.purchase(body, { priority: 'interactive' });
      } catch (err) {
        const error = sendFailure(err);
        if (!error.outcomeUnknown) {
          this.#writeCart(ids, { state: 'not_bought', orderId: null, resolution: 'response', note: null, ...errorFields(error) });
          return { ids, error, result: null };
        }
        // settled bought while it was on its way (another process found its order): kept as it is
        if (ids.some((id) => this.#journal.get(id)?.state === 'bought')) return { ids, error, result: null };
        // open: unknown now, so a crash during reconciliation leaves it to be re-checked
        const note = 'unknown — check orders: the purchase was interrupted';
        this.#writeCart(ids, { state: 'unknown', orderId: null, resolution: 'response', note, ...errorFields(error) });
        return { ids, error, result: null, open: true };
      }
      try {
        this.#writeCart(ids, { state: 'bought', orderId: result.order_id, resolution: 'response', note: null });
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw err;
        // the order is claimed by another journal entry: the server's answer still decides this cart
        const note = `order ${result.order_id} is also claimed by another journal entry — check orders`;
        this.#writeCart(ids, { state: 'bought', orderId: null, resolution: 'response', note });
        this.#orderOverrides.set(ids[0] as string, result.order_id);
      }
      return { ids, error: null, result };
    });
    if ('unjournaled' in sent) {
      return { status: 'not_bought', intentIds: [], orderId: null, result: null, error: sent.error, reconciled: false, note: null };
    }
    if (!('open' in sent)) return this.#cartOutcome(sent.ids.map((id) => this.#outcome(id, sent.result, sent.error)), sent.result, sent.error);
    const failedAt = this.#clock.now();
    return this.#gate.exclusive(async () => {
      const entries = sent.ids.map((id) => this.#journal.get(id) as JournalEntry);
      return this.#cartOutcome(await this.#reconcileCart(entries, { error: sent.error, failedAt, delays: this.#delays }), null, sent.error);
    });
  }

  /** A cart's outcome from its lines' (settled together; a line bought means the whole cart was). */
  #cartOutcome(lines: PurchaseOutcome[], result: PurchaseResult | null, error: ApiError | null): CartPurchaseOutcome {
    const first = lines[0] as PurchaseOutcome;
    const bought = lines.some((line) => line.status === 'bought');
    return {
      status: bought ? 'bought' : first.status,
      intentIds: lines.map((line) => line.intentId),
      orderId: lines.find((line) => line.orderId !== null)?.orderId ?? null,
      result,
      error,
      reconciled: first.reconciled,
      note: first.note,
    };
  }

  /**
   * Writes one outcome on every line of a cart, in one transaction: the order id on the first line, the
   * others naming that order in their note. One line (a single purchase) gets the record as it is.
   * `atMs`: the time it is journaled with (now, unless an open outcome keeps the time of its failure).
   */
  #writeCart(intentIds: readonly string[], record: PurchaseOutcomeRecord, atMs = this.#clock.now()): void {
    this.#journal.database.transaction(() => {
      intentIds.forEach((intentId, i) => {
        const note =
          record.orderId !== null && i > 0 ? `bought in order ${record.orderId} with the cart of intent ${intentIds[0]}` : (record.note ?? null);
        this.#journal.recordOutcome(intentId, { ...record, orderId: i === 0 ? record.orderId : null, note }, atMs);
      });
    })();
  }

  /**
   * Settles the intents an earlier run left open (a crash, an unreadable order history), before the first
   * purchase. True when it read the order history for them.
   */
  async #settleEarlierRun(): Promise<boolean> {
    if (this.#checkedJournal) return false;
    this.#checkedJournal = true;
    if (this.#journal.unresolved().length === 0) return false;
    await this.reconcileUnresolved();
    return true;
  }

  /**
   * A purchase of a listing whose earlier purchase is still open (its answer lost, the order history
   * unreadable then) settles that one from the order history first, so a second attempt never goes out
   * blind. A click after "unknown" is a retry far more often than a wish for another copy, and a retry
   * is what buys twice: when the earlier one turns out bought, this one is not sent (the caller is told
   * so; a further purchase, the first one now known, is sent as usual); when it is still unknown, this
   * one is held back once, with that said. Returns what holds it back, or null.
   */
  async #earlierOfListing(listingId: number): Promise<Held | null> {
    const [held] = await this.#earlierOf([listingId]);
    return held ?? null;
  }

  /**
   * The same rule for a cart, line by line (the earlier open purchases of all its listings settled in one
   * go). The marketplace buys a cart's lines together, so one line held back holds the cart; every line
   * held back is named, and the first one is the failing line (`details.line`, as the marketplace names
   * one). Returns why the cart is not sent, or null.
   */
  async #earlierOfCart(lines: readonly CartLineRequest[]): Promise<ApiError | null> {
    const held = (await this.#earlierOf(lines.map((line) => line.listingId))).filter((h): h is Held => h !== null);
    return held.length === 0 ? null : heldBack(held, lines.findIndex((line) => line.listingId === held[0]?.listingId));
  }

  /** For each listing, why its earlier open purchase holds a new one back (see #earlierOfListing), or null. */
  async #earlierOf(listingIds: readonly number[]): Promise<(Held | null)[]> {
    const now = this.#clock.now();
    // Taken before an earlier run's intents are settled: a retry in a new process (`skindesk buy` after
    // "unknown") must still be held back when that settling finds the earlier purchase bought.
    const recent = this.#journal.unresolved().filter((e) => now - e.createdAtMs <= UNRESOLVED_MAX_AGE_MS);
    const open = listingIds.map((listingId) => recent.filter((e) => e.listingId === listingId).map((e) => e.intentId));
    const settled = await this.#settleEarlierRun();
    if (open.every((ids) => ids.length === 0)) return listingIds.map(() => null);
    if (!settled) await this.reconcileUnresolved();
    return listingIds.map((listingId, i) => {
      const earlier = (open[i] ?? []).map((id) => this.#journal.get(id)).filter((e): e is JournalEntry => e !== null);
      const bought = earlier.find((e) => e.state === 'bought');
      if (bought) {
        const order = bought.orderId ?? this.#orderOverrides.get(bought.intentId) ?? null;
        return { listingId, bought: true, orderId: order, words: `${earlierPurchaseWords(bought)}, whose answer was lost, was bought${order === null ? '' : ` (order ${order})`}` };
      }
      const unknown = earlier.find((e) => (e.state === 'unknown' || e.state === 'intent') && e.warnedAtMs === null);
      if (unknown) {
        this.#journal.markWarned(unknown.intentId, now);
        return { listingId, bought: false, orderId: null, words: `${earlierPurchaseWords(unknown)} may have been bought (unknown — check orders)` };
      }
      return null;
    });
  }

  /**
   * Reconciles journal entries left as intent or unknown (oldest first), one at a time; by default only
   * those of the last 24 hours (older ones are for a person to check against the orders page).
   */
  async reconcileUnresolved(maxAgeMs = UNRESOLVED_MAX_AGE_MS): Promise<PurchaseOutcome[]> {
    // the earlier run's intents are being looked at (the app does it at connect): the first purchase
    // after this one is not held back to read the same order history again
    this.#checkedJournal = true;
    return this.#gate.exclusive(async () => {
      const outcomes: PurchaseOutcome[] = [];
      const now = this.#clock.now();
      const carts = new Set<string>();
      for (const entry of this.#journal.unresolved()) {
        if (now - entry.createdAtMs > maxAgeMs) continue;
        const error = entry.errorKind
          ? new ApiError({
              kind: entry.errorKind as ApiError['kind'],
              route: PURCHASE_ROUTE,
              code: entry.errorCode,
              message: entry.errorMessage ?? 'outcome unknown',
              maybeDelivered: true,
            })
          : null;
        // An intent older than the whole pause schedule has long settled on the server: read at once.
        const age = now - entry.createdAtMs;
        const delays = age > this.#delays.reduce((a, b) => a + b, 0) ? [0] : this.#delays;
        // never answered and recent: perhaps still being sent elsewhere, so only a found order settles it
        const mayBeInFlight = entry.state === 'intent' && age < this.#inFlightGraceMs;
        // "Nothing found" counts only settleMs (or lateApplyMs) after the failure. An unknown entry was
        // written at its failure by its sender, and a reconciliation that leaves it open keeps that time
        // (see #settleFromHistory): timed from the creation instead, a send that took long to fail (a
        // timeout) would be "not bought" too early, while the marketplace may still be applying it. A
        // send never answered (a crash) journaled no failure: timed from the creation.
        const failedAt = entry.state === 'unknown' ? (entry.resolvedAtMs ?? entry.createdAtMs) : entry.createdAtMs;
        const run = { error, failedAt, delays, mayBeInFlight };
        const cartId = cartOf(entry);
        if (cartId !== null) {
          // the whole cart at once, when its first open line comes up
          if (carts.has(cartId)) continue;
          carts.add(cartId);
          const lines = this.#journal.unresolved().filter((e) => cartOf(e) === cartId);
          const settled = await this.#reconcileCart(lines, run);
          lines.forEach((line, i) => {
            outcomes.push(settled[i] as PurchaseOutcome);
            this.#onEarlierPurchase(line, settled[i] as PurchaseOutcome);
          });
          continue;
        }
        const outcome = await this.#reconcile(entry, run);
        outcomes.push(outcome);
        this.#onEarlierPurchase(entry, outcome);
      }
      return outcomes;
    });
  }

  /** The account of the key: the journal's owner may know it; otherwise GET /user, once (null: unreadable). */
  async #currentAccount(): Promise<string | null> {
    const known = this.#journal.knownAccount();
    if (known !== null) return known;
    this.#readAccount ??= this.#client.user({ priority: 'interactive' }).then(
      (user) => accountKey(this.#client.baseUrl, user.id),
      () => null,
    );
    const account = await this.#readAccount;
    // an unreadable answer is asked again next time (it may have been the network)
    if (account === null) this.#readAccount = null;
    return account;
  }

  /** The account when already read, without a request. */
  async #accountIfRead(): Promise<string | null> {
    return this.#readAccount === null ? null : await this.#readAccount;
  }

  async #describe(request: PurchaseRequest): Promise<{ appId: number | null; marketHashName: string | null; price: number | null }> {
    if (request.marketHashName !== undefined || !this.#lookup) {
      return { appId: request.appId ?? null, marketHashName: request.marketHashName ?? null, price: null };
    }
    const unread = (why: string) => {
      this.#warn(`purchase of listing ${request.listingId}: its item was not read first (${why}); buying without its name`);
      return { appId: request.appId ?? null, marketHashName: null, price: null };
    };
    // Best effort, so never worth a wait: a rate-limited listing route (Retry-After, retried five
    // times by default) or a slow answer would send the purchase seconds or minutes late.
    if (this.#client.budgetWaitMs('listing') > 0) return unread('the rate limit for reading listings would have made the purchase wait');
    try {
      const listing = await this.#client.listing(request.listingId, { priority: 'interactive', rateLimitRetries: 0, timeoutMs: LOOKUP_TIMEOUT_MS });
      return { appId: listing.app_id, marketHashName: listing.market_hash_name, price: listing.price };
    } catch (err) {
      // Best effort only (a private listing is not readable without its token): the purchase decides.
      return unread(failureReason(err));
    }
  }

  #settle(intentId: string, record: PurchaseOutcomeRecord): { intentId: string } {
    try {
      this.#journal.recordOutcome(intentId, record, this.#clock.now());
    } catch (err) {
      if (record.orderId === null || (err as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw err;
      // The server's own answer names an order another intent claimed by reconciliation: the answer wins
      // for this purchase, and the clash is written down for a person to look at.
      const note = `order ${record.orderId} is also claimed by another journal entry — check orders`;
      this.#journal.recordOutcome(intentId, { ...record, orderId: null, note }, this.#clock.now());
      this.#orderOverrides.set(intentId, record.orderId);
    }
    return { intentId };
  }

  #outcome(intentId: string, result: PurchaseResult | null, error: ApiError | null): PurchaseOutcome {
    const entry = this.#journal.get(intentId) as JournalEntry;
    return {
      status: entry.state === 'intent' ? 'unknown' : entry.state,
      intentId,
      orderId: entry.orderId ?? this.#orderOverrides.get(intentId) ?? null,
      result,
      error,
      reconciled: entry.resolution === 'reconciled',
      note: entry.note,
    };
  }

  /** One purchase: the order of that one item, several such orders paired in time order (see #findOrder). */
  async #reconcile(entry: JournalEntry, run: Reconciling): Promise<PurchaseOutcome> {
    const [outcome] = await this.#settleFromHistory([entry], 'purchase', ([line]) => this.#findOrder(line as JournalEntry), run);
    return outcome as PurchaseOutcome;
  }

  /** A cart's open lines, settled together by one order whose items cover them all (see #findCartOrder). */
  #reconcileCart(lines: readonly JournalEntry[], run: Reconciling): Promise<PurchaseOutcome[]> {
    return this.#settleFromHistory(lines, 'cart', (open) => this.#findCartOrder(open), run);
  }

  /**
   * Settles a purchase's open lines (a single purchase has one) with one outcome, from the order history
   * read after each of `run.delays`; `match` reads it once and says which order accounts for them all.
   * The matching is the caller's (a single purchase is not a cart of one: see the matching rule above);
   * everything else is the same for both. One outcome per line, in the order given.
   */
  async #settleFromHistory(
    open: readonly JournalEntry[],
    what: 'purchase' | 'cart',
    match: (lines: readonly JournalEntry[]) => Promise<MatchResult>,
    { error, failedAt, delays, mayBeInFlight = false }: Reconciling,
  ): Promise<PurchaseOutcome[]> {
    const ids = open.map((line) => line.intentId);
    const outcomes = () => ids.map((id) => this.#outcome(id, null, error));
    const settledBought = () => ids.some((id) => this.#journal.get(id)?.state === 'bought');
    // Settled bought meanwhile (by its sender, or by another reconciliation: reconcileUnresolved, another
    // process sharing the journal): its order is claimed by these very lines now, so a read would find
    // nothing and say "not bought".
    if (settledBought()) return outcomes();
    const settle = (state: PurchaseOutcomeRecord['state'], orderId: number | null, note: string): PurchaseOutcome[] => {
      // settled bought while the account or the order history was being read: never written over
      if (settledBought()) return outcomes();
      // perhaps still on its way (see inFlightGraceMs): only a found order is written, its sender writes
      // the answer it gets ("not bought" or "unknown" written here could land over it)
      if (mayBeInFlight && state !== 'bought') {
        return outcomes().map((outcome) => ({ ...outcome, status: 'unknown' as const, reconciled: true, note: MAY_BE_IN_FLIGHT }));
      }
      // left open, it keeps the time of its failure: a later reconciliation counts its waits from there
      this.#writeCart(ids, { state, orderId, resolution: 'reconciled', note, ...errorFields(error) }, state === 'unknown' ? failedAt : undefined);
      return outcomes();
    };
    // how long after the failure "nothing found" means not bought (see lateApplyMs)
    const quietMs = answeredByMarketplace(error) ? this.#settleMs : Math.max(this.#settleMs, this.#lateApplyMs);
    // as journaled now: the caller's copy may predate an earlier reconciliation of the same run
    let lines = open.map((line) => this.#journal.get(line.intentId) ?? line);
    // the lines of one purchase were sent with one key
    const journaled = (lines[0] as JournalEntry).account;
    const account = await this.#currentAccount();
    // another account's purchase: only its own order history can settle it; left unknown through settle,
    // so that one its sender answered meanwhile, or may still answer, is not written over
    if (journaled !== null && journaled !== account) return settle('unknown', null, leftToItsAccount(journaled, account));
    if (journaled === null && account !== null) {
      for (const id of ids) this.#journal.tagAccount(id, account);
      lines = lines.map((line) => ({ ...line, account })); // the matching compares accounts (#pairInTimeOrder)
    }
    // only the last read's failure says why it is still open: a later read that worked overcame it
    let lastFailure: unknown = null;
    let settledNone = false;
    /** The last read found nothing, past settleMs yet too soon after an unanswered failure to call it not bought. */
    let mayStillBeApplied = false;
    for (const delay of delays) {
      if (delay > 0) await this.#clock.sleep(delay);
      let found: MatchResult;
      try {
        found = await match(lines);
      } catch (err) {
        // the journal's reads while matching too: a journal busy for a moment is read again
        lastFailure = err;
        settledNone = false;
        mayStillBeApplied = false;
        continue;
      }
      if (found.kind === 'found') return settle('bought', found.orderId, `found order ${found.orderId} in the order history`);
      if (found.kind === 'ambiguous') {
        return settle('unknown', null, `unknown — check orders: orders ${found.orderIds.join(', ')} all match this ${what}`);
      }
      lastFailure = null;
      // "nothing found" counts once the read reached back past the purchase, quietMs after the failure
      const waited = this.#clock.now() - failedAt;
      settledNone = found.complete && waited >= quietMs;
      // what alone keeps it open is a request the marketplace may still apply: said so
      mayStillBeApplied = found.complete && !settledNone && waited >= this.#settleMs;
    }
    if (settledNone) return settle('not_bought', null, 'no matching order in the order history');
    if (mayStillBeApplied) return settle('unknown', null, MAY_STILL_BE_APPLIED);
    const why =
      lastFailure instanceof ApiError
        ? `the order history could not be read (${failureReason(lastFailure)})`
        : 'the order history did not settle the outcome';
    return settle('unknown', null, `unknown — check orders: ${why}`);
  }


  /** Reads the order history newest first, back to just before the intent, and applies the matching rule. */
  async #findOrder(entry: JournalEntry): Promise<MatchResult> {
    const claimed = this.#journal.claimedOrderIds();
    // only orders of OTHER entries are claimed: this entry's own order still accounts for it
    const own = this.#journal.get(entry.intentId)?.orderId ?? null;
    if (own !== null) claimed.delete(own);
    const offset = this.#client.serverTimeOffsetMs() ?? 0;
    const { byOrder, complete } = await this.#readOrders(this.#cutOff(entry, offset));
    const candidates = new Map<number, OrderItem>();
    for (const [orderId, items] of byOrder) {
      const row = items[0] as OrderItem;
      if (items.length === 1 && this.#matches(entry, row) && !claimed.has(orderId)) candidates.set(orderId, row);
    }
    if (candidates.size === 1) return { kind: 'found', orderId: [...candidates.keys()][0] as number };
    if (candidates.size > 1) return this.#pairInTimeOrder(entry, [...candidates.values()], offset);
    return { kind: 'none', complete };
  }

  /** Our clock's `ms` on the server's clock, by the offset its last Date header showed; null before one. */
  #onServerClock(ms: number): number | null {
    const offset = this.#client.serverTimeOffsetMs();
    return offset === null ? null : ms + offset;
  }

  /**
   * The oldest order (server clock) that can account for the intent: its creation on the server's clock
   * as journaled then, less the skew tolerance. An entry journaled without it: its creation on our clock,
   * converted with `offsetMs` (the offset now).
   */
  #cutOff(entry: JournalEntry, offsetMs: number): number {
    return (entry.serverCreatedAtMs ?? entry.createdAtMs + offsetMs) - this.#skewMs;
  }

  /** The bought items of the order history, newest first back to `since` (server clock), by order. */
  #readOrders(since: number): Promise<BoughtOrders> {
    return readBoughtOrders(this.#client, since, this.#maxOrderPages);
  }

  /** Reads the order history back to just before the cart: the unclaimed orders whose items are exactly its lines. */
  async #findCartOrder(lines: readonly JournalEntry[]): Promise<MatchResult> {
    const { byOrder, complete } = await this.#readOrders(this.#cutOff(lines[0] as JournalEntry, this.#client.serverTimeOffsetMs() ?? 0));
    const claimed = this.#journal.claimedOrderIds();
    const orderIds = [...byOrder]
      .filter(([orderId, items]) => !claimed.has(orderId) && coversCart(items, lines))
      .map(([orderId]) => orderId)
      .sort((a, b) => a - b);
    if (orderIds.length === 1) return { kind: 'found', orderId: orderIds[0] as number };
    return orderIds.length > 1 ? { kind: 'ambiguous', orderIds } : { kind: 'none', complete };
  }

  /**
   * Several unclaimed orders match: found only when they are exactly as many as the open intents that
   * each of them matches (two copies of the same item bought a few seconds apart, both answers lost).
   * Then every one of those intents was bought, and pairing them in time order (oldest intent, oldest
   * order) settles each without changing what was bought or spent. Otherwise it stays ambiguous.
   */
  #pairInTimeOrder(entry: JournalEntry, orders: OrderItem[], offsetMs: number): MatchResult {
    const orderIds = orders.map((o) => o.order_id).sort((a, b) => a - b);
    const couldBe = (e: JournalEntry) =>
      orders.every((row) => this.#matches(e, row) && Date.parse(row.created_at) >= this.#cutOff(e, offsetMs));
    const sameAccount = (e: JournalEntry) => e.account === null || e.account === entry.account;
    const intents = this.#journal
      .unresolved()
      .filter((e) => e.intentId === entry.intentId || (cartOf(e) === null && sameAccount(e) && couldBe(e)))
      .sort((a, b) => a.createdAtMs - b.createdAtMs || a.intentId.localeCompare(b.intentId));
    if (intents.length !== orders.length || !intents.some((e) => e.intentId === entry.intentId)) {
      return { kind: 'ambiguous', orderIds };
    }
    const byTime = [...orders].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.order_id - b.order_id);
    const rank = intents.findIndex((e) => e.intentId === entry.intentId);
    return { kind: 'found', orderId: (byTime[rank] as OrderItem).order_id };
  }

  #matches(entry: JournalEntry, row: OrderItem): boolean {
    return (
      row.side === 'bought' &&
      row.amount === entry.amount &&
      row.price <= entry.maxPrice &&
      (entry.marketHashName === null || row.market_hash_name === entry.marketHashName) &&
      (entry.appId === null || row.app_id === entry.appId)
    );
  }
}

/**
 * Guarded purchases for watchlists. A decision is taken synchronously, from facts already in memory and
 * a few indexed reads (the kill switch as stored, the spend), and written to the auto-buy log before the
 * purchase is handed to the journaled purchaser — so two triggers can never both pass a guardrail the
 * first one used up, and a restart remembers what was spent.
 *
 * Never twice: a listing gets a second purchase only after the first one ended "not bought" and a newer
 * event (higher seq) matched it again. Duplicated or reordered events cannot get here (the store's guard),
 * and the check holds across processes sharing the database (the app and `skindesk watch`).
 */
import { EventEmitter } from 'node:events';
import type { Watchlist } from '../../shared/watchlist.ts';
import type { ApiClient } from '../api/client.ts';
import { failureReason } from '../api/errors.ts';
import type { PurchaseOutcome, Purchaser } from '../api/purchaser.ts';
import type { BalanceTracker } from './balance.ts';
import { checkGuardrails, type PurchaseFacts } from './guardrails.ts';
import { type AlertFacts, type AutoBuyLogEntry, type WatchStore, failureWords } from './store.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Market {
  client: ApiClient;
  purchaser: Purchaser;
  /** Watches `purchaser` (see balance.ts): a purchase sent here is counted there, never by the auto-buyer. */
  balance: BalanceTracker;
}

export interface BuyRequest {
  watchlist: Watchlist;
  mode: 'confirm' | 'auto';
  alertId: number | null;
  listingId: number;
  appId: number;
  marketHashName: string;
  /** The price seen in the event: the purchase's max_price. */
  price: number;
  /** Copies the listing holds. */
  available: number;
  seq: bigint;
  listingAlive: boolean;
  /**
   * The alert of a match decided before its alert row exists (an automatic purchase's: the row is
   * written on the next turn), logged with the decision so a run that stops in between loses no alert.
   */
  alert?: AlertFacts;
}

type AutoBuyerEvents = {
  /** A log entry was written or its outcome arrived. */
  entry: [entry: AutoBuyLogEntry];
  killSwitch: [engaged: boolean];
};

export class AutoBuyer extends EventEmitter<AutoBuyerEvents> {
  readonly #store: WatchStore;
  readonly #now: () => number;
  #market: Market | null = null;
  #bookLive = false;
  #killSwitch: boolean;
  readonly #inFlight = new Set<Promise<void>>();
  /** Log entries of the purchases in #inFlight: their outcome is this process's to write. */
  readonly #inFlightEntries = new Set<number>();

  constructor(store: WatchStore, now: () => number = Date.now) {
    super();
    this.#store = store;
    this.#now = now;
    this.#killSwitch = store.killSwitch();
  }

  attachMarket(market: Market | null): void {
    this.#market = market;
  }

  get market(): Market | null {
    return this.#market;
  }

  setBookLive(live: boolean): void {
    this.#bookLive = live;
  }

  get bookLive(): boolean {
    return this.#bookLive;
  }

  /**
   * As stored, read each time: another process on the same desk file (the app, `skindesk watch`) may
   * have engaged it — one indexed read of a one-row table, before every purchase.
   */
  get killSwitch(): boolean {
    if (this.#store.db.open) this.#killSwitch = this.#store.killSwitch();
    return this.#killSwitch;
  }

  /** Engaged: no purchase is sent by any watchlist (purchases already sent cannot be called back). */
  setKillSwitch(engaged: boolean): void {
    const was = this.killSwitch;
    this.#store.setKillSwitch(engaged);
    if (was === engaged) return;
    this.#killSwitch = engaged;
    this.emit('killSwitch', engaged);
  }

  /**
   * Decides one purchase and, when every guardrail allows it, sends it. Returns the log entry at once
   * (blocked with the reason, or pending) and the entry with its outcome when the purchase settles (also
   * announced as an `entry` event).
   */
  buy(request: BuyRequest): { entry: AutoBuyLogEntry; settled: Promise<AutoBuyLogEntry> } {
    const w = request.watchlist;
    if (w.auto_buy.mode === 'off') throw new Error(`watchlist ${w.id} does not buy`);
    const rails = w.auto_buy.guardrails;
    const amount = Math.max(1, Math.min(w.auto_buy.copies, request.available));
    const now = this.#now();
    const market = this.#market;
    const facts: PurchaseFacts = {
      price: request.price,
      amount,
      killSwitch: this.killSwitch,
      marketConnected: market !== null,
      bookLive: this.#bookLive,
      purchaseThrottled: market !== null && throttled(market.client),
      alreadyAttempted: false,
      listingAlive: request.listingAlive,
      spentTotal: 0,
      spentDay: 0,
      purchasesHour: 0,
      balance: market?.balance.available() ?? null,
    };
    const base = {
      atMs: now,
      watchlistId: w.id,
      alertId: request.alertId,
      listingId: request.listingId,
      marketHashName: request.marketHashName,
      maxPrice: request.price,
      amount,
      triggerSeq: request.seq,
      mode: request.mode,
      alertFacts: request.alert ?? null,
    };
    // Checked and claimed under the desk's write lock: the app and `skindesk watch` on one data folder
    // judge the same frame within microseconds, and the second must see the first one's claim (its
    // attempt and its spend) before it judges, or both would send.
    const { verdict, entry } = this.#store.exclusively(() => {
      facts.alreadyAttempted = this.#attempted(request.listingId, request.seq);
      // the spend reads only when everything cheaper has passed
      if (!facts.killSwitch && facts.marketConnected && facts.bookLive && !facts.alreadyAttempted) {
        const spend = this.#store.spend(w.id, now - DAY, now - HOUR);
        facts.spentTotal = spend.total;
        facts.spentDay = spend.day;
        facts.purchasesHour = spend.hour;
      }
      const verdict = checkGuardrails(rails, facts);
      const entry =
        !verdict.ok || market === null
          ? this.#store.addLogEntry({ ...base, decision: 'blocked', reason: verdict.ok ? 'no_market' : verdict.reason, status: null })
          : this.#store.addLogEntry({ ...base, decision: 'sent', reason: null, status: 'pending' });
      return { verdict, entry };
    });
    if (!verdict.ok || market === null) {
      this.emit('entry', entry);
      return { entry, settled: Promise.resolve(entry) };
    }
    const purchase = market.purchaser.buy({
      listingId: request.listingId,
      amount,
      maxPrice: request.price,
      marketHashName: request.marketHashName,
      appId: request.appId,
      triggerSeq: request.seq,
      watchlistId: w.id,
      source: `watch:${request.mode}`,
    });
    const settled = purchase.then(
      (outcome) => this.#settle(entry, outcome),
      (err: unknown) => {
        // a local failure in the middle of a purchase (the journal's disk, say): it may have been sent
        return this.#resolve(entry, { status: 'unknown', orderId: null, error: `${(err as Error).message} — check orders`, intentId: null });
      },
    );
    const done: Promise<void> = settled.then(() => {
      this.#inFlight.delete(done);
      this.#inFlightEntries.delete(entry.id);
    });
    this.#inFlight.add(done);
    this.#inFlightEntries.add(entry.id);
    // listeners run after the purchase is on its way (its first steps are microtasks queued above)
    setImmediate(() => this.emit('entry', entry));
    return { entry, settled };
  }

  /** The log entries of purchases sent by this process and not settled yet. */
  get inFlightEntries(): ReadonlySet<number> {
    return this.#inFlightEntries;
  }

  /** Resolves when every purchase sent so far has its outcome. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #attempted(listingId: number, seq: bigint): boolean {
    return this.#store
      .attempts(listingId)
      .some((a) => a.status !== 'not_bought' || a.triggerSeq >= seq);
  }

  #settle(entry: AutoBuyLogEntry, outcome: PurchaseOutcome): AutoBuyLogEntry {
    const error =
      outcome.status === 'bought'
        ? null
        : failureWords(outcome.error?.code, outcome.note ?? (outcome.error ? failureReason(outcome.error, { withCause: true }) : null));
    return this.#resolve(entry, { status: outcome.status, orderId: outcome.orderId, error, intentId: outcome.intentId });
  }

  #resolve(pending: AutoBuyLogEntry, outcome: Parameters<WatchStore['resolveLogEntry']>[1]): AutoBuyLogEntry {
    if (!this.#store.db.open) {
      // closed meanwhile (a market switch): the journal holds the outcome; report it as it stands
      return { ...pending, ...outcome, resolvedAtMs: this.#now() };
    }
    const entry = this.#store.resolveLogEntry(pending.id, outcome);
    this.emit('entry', entry);
    return entry;
  }
}

/**
 * The governor would hold a purchase back now: blocked by the server, or no headroom in its window. Asked
 * of the purchase route alone: the whole stats read every route's window (with the desk's record of
 * releases, a query each) on the way to every automatic purchase.
 */
function throttled(client: ApiClient): boolean {
  return client.budgetWaitMs('purchase') > 0;
}

import Database from 'better-sqlite3';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { type Clock, ManualClock, systemClock } from '../../../src/core/api/clock.ts';
import { PURCHASE_JOURNAL_SCHEMA, PurchaseJournal, accountKey } from '../../../src/core/api/purchase-journal.ts';
import { Purchaser } from '../../../src/core/api/purchaser.ts';
import { buyCart } from '../../../src/core/app/market-buying/cart-purchase.ts';
import { fullListingExample } from '../shared/fixtures.ts';
import { metadataFor, sendError, sendJson, startFakeServer, type FakeServer, type RecordedRequest } from './fake-server.ts';

const KEY = 'test-key-123';
const NAME = 'AK-47 | Redline (Field-Tested)';
/** The note of a purchase whose answer never came, not in the order history yet (see lateApplyMs). */
const MAY_STILL_BE_APPLIED = 'unknown — check orders: no order for it yet, but the marketplace may still apply a purchase whose answer was lost';

type PurchaseMode = 'normal' | 'apply-then-drop' | 'apply-then-500' | 'fail-500' | 'drop' | 'hang' | 'price-changed';

/** A market with one account's order history, whose purchase route can misbehave on purpose. */
class TinyMarket {
  orders: { order_item_id: number; order_id: number; side: 'bought' | 'sold'; app_id: number; market_hash_name: string; price: number; amount: number; created_at: string }[] = [];
  listings = new Map<number, { price: number; amount: number; name: string }>([
    [101, { price: 1250, amount: 3, name: NAME }],
    [102, { price: 900, amount: 1, name: 'AWP | Asiimov (Field-Tested)' }],
  ]);
  mode: PurchaseMode = 'normal';
  /** Per-listing overrides of `mode`, and of how long the answer takes. */
  modeFor = new Map<number, PurchaseMode>();
  delayFor = new Map<number, number>();
  /** What happened, in order: requests received and purchase answers sent. */
  log: string[] = [];
  ordersMode: 'normal' | 'fail' = 'normal';
  nextOrderId = 500;
  /** How far the marketplace's clock (its Date header, its new orders) is ahead of the real one. */
  clockAheadMs = 0;
  server!: FakeServer;

  /** The marketplace's clock. */
  now(): number {
    return Date.now() + this.clockAheadMs;
  }

  async start(): Promise<void> {
    this.server = await startFakeServer({ now: () => this.now() });
    this.server.on('listing', (req, res) => {
      const id = Number(req.url.pathname.split('/').pop());
      const l = this.listings.get(id);
      if (!l) return sendError(res, 404, 'LISTING_NOT_FOUND', 'gone');
      sendJson(res, 200, { ...fullListingExample, id, price: l.price, amount: l.amount, market_hash_name: l.name });
    });
    this.server.on('orders', (req, res) => {
      this.log.push('orders');
      if (this.ordersMode === 'fail') return sendError(res, 503, 'INTERNAL_ERROR', 'orders unavailable');
      const page = Number(req.url.searchParams.get('page'));
      const limit = Number(req.url.searchParams.get('limit'));
      const newestFirst = [...this.orders].reverse();
      const totalPages = Math.ceil(newestFirst.length / limit);
      sendJson(res, 200, { orders: newestFirst.slice((page - 1) * limit, page * limit), metadata: metadataFor(page, totalPages, newestFirst.length, limit) });
    });
    this.server.on('purchase', async (req, res) => {
      const line = (JSON.parse(req.body) as { items: { listing_id: number }[] }).items[0];
      this.log.push(`purchase ${line?.listing_id}`);
      const delay = this.delayFor.get(line?.listing_id ?? 0) ?? 0;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      this.#purchase(req, res);
      this.log.push(`answered ${line?.listing_id}`);
    });
  }

  /** An order placed earlier (on the website, say). */
  addOrder(name: string, price: number, amount: number, createdAt: Date): number {
    const orderId = this.nextOrderId++;
    this.orders.push({ order_item_id: orderId * 10, order_id: orderId, side: 'bought', app_id: 730, market_hash_name: name, price, amount, created_at: createdAt.toISOString() });
    return orderId;
  }

  #purchase(req: RecordedRequest, res: ServerResponse): void {
    const line = (JSON.parse(req.body) as { items: { listing_id: number; amount: number; max_price: number }[] }).items[0];
    if (!line) return sendError(res, 400, 'VALIDATION_ERROR', 'no items');
    const mode = this.modeFor.get(line.listing_id) ?? this.mode;
    if (mode === 'hang') return;
    if (mode === 'drop') return void res.socket?.destroy();
    if (mode === 'fail-500') return sendError(res, 500, 'INTERNAL_ERROR', 'boom');
    const listing = this.listings.get(line.listing_id);
    if (!listing || listing.amount < line.amount) return sendError(res, 404, 'LISTING_NOT_FOUND', 'no such listing');
    if (mode === 'price-changed' || listing.price > line.max_price) return sendError(res, 409, 'LISTING_PRICE_CHANGED', 'price is higher now');
    listing.amount -= line.amount;
    const orderId = this.addOrder(listing.name, listing.price, line.amount, new Date(this.now()));
    if (mode === 'apply-then-drop') return void res.socket?.destroy();
    if (mode === 'apply-then-500') return sendError(res, 502, 'INTERNAL_ERROR', 'gateway lost the answer');
    sendJson(res, 200, {
      order_id: orderId,
      created_at: new Date(this.now()).toISOString(),
      items: [{ order_item_id: orderId * 10, app_id: 730, market_hash_name: listing.name, steam_asset_id: '1', price: listing.price, amount: line.amount }],
    });
  }

  get purchasesApplied(): number {
    return this.orders.filter((o) => o.order_id >= 500).length;
  }
}

/** Resolves once `done()` holds (checked every 5 ms). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
}

let market: TinyMarket;
let db: Database.Database;
let journal: PurchaseJournal;
const makePurchaser = (timeoutMs = 2000, extra: Partial<ConstructorParameters<typeof Purchaser>[0]> = {}) =>
  new Purchaser({
    client: new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs }),
    journal,
    reconcileDelaysMs: [30, 30, 30],
    settleMs: 50,
    ...extra,
  });

beforeEach(async () => {
  market = new TinyMarket();
  await market.start();
  db = new Database(':memory:');
  journal = new PurchaseJournal(db);
});
afterEach(async () => {
  await market.server.close();
  db.close();
});

describe('journaled purchases', () => {
  const CART_AWP = 'AWP | Asiimov (Field-Tested)';
  /** A two-line cart: listing 101 (NAME, up to 13.00) and 102 (the AWP, up to 10.00). */
  const CART_LINES = [
    { listingId: 101, amount: 1, maxPrice: 1300, marketHashName: NAME, appId: 730 },
    { listingId: 102, amount: 1, maxPrice: 1000, marketHashName: CART_AWP, appId: 730 },
  ];
  /**
   * The marketplace applies a purchase after `ms` as one order of the cart's two items (at 12.50 and
   * 9.00), then drops the connection (the answer lost) or answers.
   */
  function applyCartAfter(ms: number, orderId: number, then: 'drop' | 'answer'): void {
    market.server.on('purchase', (_req, res) => {
      setTimeout(() => {
        const { createdAt, items } = addCartOrder(orderId);
        if (then === 'drop') res.socket?.destroy();
        else sendJson(res, 200, { order_id: orderId, created_at: createdAt, items });
      }, ms);
    });
  }
  /** The cart's order (both items, at 12.50 and 9.00) appears in the order history now. */
  function addCartOrder(orderId: number) {
    const createdAt = new Date().toISOString();
    const items = ([[1, NAME, 1250], [2, CART_AWP, 900]] as const).map(([n, name, price]) => {
      market.orders.push({ order_item_id: orderId * 10 + n, order_id: orderId, side: 'bought', app_id: 730, market_hash_name: name, price, amount: 1, created_at: createdAt });
      return { order_item_id: orderId * 10 + n, app_id: 730, market_hash_name: name, steam_asset_id: String(n), price, amount: 1 };
    });
    return { createdAt, items };
  }
  /** The first read of the order history is held, with the history as it was when asked, until released. */
  function holdFirstOrdersRead(): { asked: () => boolean; release: () => void } {
    const held: { answer: (() => void) | null } = { answer: null };
    market.server.on('orders', (req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      const limit = Number(req.url.searchParams.get('limit'));
      const newestFirst = [...market.orders].reverse();
      const body = { orders: newestFirst.slice((page - 1) * limit, page * limit), metadata: metadataFor(page, Math.ceil(newestFirst.length / limit), newestFirst.length, limit) };
      if (held.answer === null) held.answer = () => sendJson(res, 200, body);
      else sendJson(res, 200, body);
    });
    return { asked: () => held.answer !== null, release: () => held.answer?.() };
  }
  /** The purchase is received and never answered: `drop` closes its connection. */
  function holdPurchase(): { received: () => boolean; drop: () => void } {
    const held: { res: ServerResponse | null } = { res: null };
    market.server.on('purchase', (_req, res) => void (held.res = res));
    return { received: () => held.res !== null, drop: () => void held.res?.socket?.destroy() };
  }
  it('a clean purchase is bought, journaled intent-first with its trigger seq and watchlist id', async () => {
    const purchaser = makePurchaser();
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, triggerSeq: 1900000000000000123n, watchlistId: 7, source: 'auto' });
    expect(outcome).toMatchObject({ status: 'bought', reconciled: false, error: null });
    expect(outcome.orderId).toBe(500);
    expect(outcome.result?.order_id).toBe(500);
    const entry = journal.get(outcome.intentId);
    expect(entry).toMatchObject({
      state: 'bought', orderId: 500, resolution: 'response', listingId: 101, amount: 1, maxPrice: 1300,
      marketHashName: NAME, appId: 730, triggerSeq: 1900000000000000123n, watchlistId: 7, source: 'auto',
    });
    // The listing was described before buying (for matching), and the purchase sent once.
    expect(market.server.requests.map((r) => r.name)).toEqual(['listing', 'purchase']);
  });

  it('a listing that cannot be read before buying is bought all the same, and the log says why its name is missing', async () => {
    market.server.on('listing', (_req, res) => sendJson(res, 404, { error: { code: 'LISTING_NOT_FOUND', message: 'private' } }));
    const warnings: string[] = [];
    const outcome = await makePurchaser(2000, { warn: (m) => warnings.push(m) }).buy({ listingId: 101, maxPrice: 1300 });
    expect(outcome.status).toBe('bought');
    expect(warnings).toEqual([
      'purchase of listing 101: its item was not read first (that listing is gone: sold, delisted, or private without its share token); buying without its name',
    ]);
  });

  it('a rate-limited listing read before buying never holds the purchase back: one read at most, no wait', async () => {
    // the best-effort item lookup is refused 429 with Retry-After 2 (a GET is otherwise retried 5 times)
    market.server.on('listing', (_req, res) => sendError(res, 429, 'RATE_LIMITED', 'slow down', { 'retry-after': '2' }));
    // time stands still: a purchase that waits for the Retry-After never goes out
    const clock = new ManualClock(Date.now());
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000, clock });
    const warnings: string[] = [];
    const purchaser = new Purchaser({ client, journal, reconcileDelaysMs: [30], settleMs: 50, warn: (m) => warnings.push(m) });
    const listingRoute = () => client.governorStats().endpoints.find((e) => e.key === 'GET /public/v1/listings/:id');
    let done = false;
    const waiting = until(() => done || (listingRoute()?.queuedInteractive ?? 0) > 0).then(() => 'waiting for the listing route' as const);
    const buy = (listingId: number, maxPrice: number) => Promise.race([purchaser.buy({ listingId, maxPrice }), waiting]);
    const first = await buy(101, 1300);
    // the listing route still blocked by its Retry-After: not read at all
    const second = await buy(102, 1000);
    done = true;
    expect([first, second]).toMatchObject([{ status: 'bought' }, { status: 'bought' }]);
    expect(market.server.calls('listing')).toHaveLength(1);
    expect(market.server.calls('purchase')).toHaveLength(2);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('its item was not read first (the rate limit for reading listings would have made the purchase wait)');
  });

  it('a refusal with a spec code is not bought, with the code journaled; nothing is reconciled', async () => {
    const outcome = await makePurchaser().buy({ listingId: 101, maxPrice: 1000, marketHashName: NAME });
    expect(outcome).toMatchObject({ status: 'not_bought', orderId: null, reconciled: false });
    expect(outcome.error?.code).toBe('LISTING_PRICE_CHANGED');
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'not_bought', errorCode: 'LISTING_PRICE_CHANGED', resolution: 'response' });
    expect(market.server.calls('orders')).toHaveLength(0);
  });

  it('server applies the purchase then drops the connection → exactly one purchase, reported bought', async () => {
    market.mode = 'apply-then-drop';
    const outcome = await makePurchaser().buy({ listingId: 101, amount: 2, maxPrice: 1300 });
    expect(outcome).toMatchObject({ status: 'bought', orderId: 500, reconciled: true });
    expect(outcome.error?.kind).toBe('network');
    expect(market.server.calls('purchase')).toHaveLength(1);
    expect(market.purchasesApplied).toBe(1);
    expect(market.listings.get(101)?.amount).toBe(1);
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'bought', orderId: 500, resolution: 'reconciled' });
  });

  it('applied then answered 502 → bought from the order history; the write is not retried', async () => {
    market.mode = 'apply-then-500';
    const outcome = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(outcome).toMatchObject({ status: 'bought', orderId: 500, reconciled: true });
    expect(market.server.calls('purchase')).toHaveLength(1);
  });

  it('a 500 that applied nothing → not bought after the order history settles', async () => {
    market.mode = 'fail-500';
    const outcome = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome).toMatchObject({ status: 'not_bought', orderId: null, reconciled: true });
    expect(outcome.error?.kind).toBe('server');
    expect(market.server.calls('purchase')).toHaveLength(1);
    expect(market.server.calls('orders').length).toBeGreaterThanOrEqual(1);
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'not_bought', resolution: 'reconciled', errorKind: 'server' });
  });

  it('a timeout with an unreadable order history → unknown, kept for later reconciliation', async () => {
    market.mode = 'hang';
    market.ordersMode = 'fail';
    const outcome = await makePurchaser(200).buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome.status).toBe('unknown');
    expect(outcome.error?.kind).toBe('timeout');
    expect(outcome.note).toContain('check orders');
    // the note is read by people (the buy dialog, the journal): plain words, not the request line
    expect(outcome.note).toBe('unknown — check orders: the order history could not be read (the marketplace had an internal error)');
    expect(journal.unresolved().map((e) => e.intentId)).toEqual([outcome.intentId]);
  });

  it('a cart timed out with an unreadable order history → unknown, said in plain words', async () => {
    market.mode = 'hang';
    market.ordersMode = 'fail';
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 200 });
    const outcome = await buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [30, 30], settleMs: 50 }), [
      { listingId: 101, amount: 1, maxPrice: 1300, marketHashName: NAME, appId: 730 },
    ]);
    expect(outcome.status).toBe('unknown');
    expect(outcome.note).toBe('unknown — check orders: the order history could not be read (the marketplace had an internal error)');
  });

  /** Buys one copy of listing 101, alone or as a cart of that one line: both paths settle it alike. */
  it('a purchase the marketplace applies after the client timed out is not declared not bought, so a retry does not buy twice', async () => {
    // the marketplace's queue holds the purchase past the client's timeout, and applies it afterwards
    market.delayFor.set(101, 600);
    const purchaser = makePurchaser(150);
    const first = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(first).toMatchObject({ status: 'unknown', orderId: null, reconciled: true, note: MAY_STILL_BE_APPLIED });
    expect(first.error?.kind).toBe('timeout');
    expect(journal.get(first.intentId)?.state).toBe('unknown');
    // the trader (or a script) tries again at once: held back, not sent
    const retry = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(retry).toMatchObject({ status: 'not_bought', heldBackBy: { state: 'unknown', orderId: null } });
    expect(market.log.filter((x) => x === 'purchase 101')).toHaveLength(1);
    // the marketplace applies it now; the next look at the journal finds it bought
    await until(() => market.purchasesApplied === 1);
    const [later] = await purchaser.reconcileUnresolved();
    expect(later).toMatchObject({ intentId: first.intentId, status: 'bought', orderId: 500 });
    expect(market.purchasesApplied).toBe(1);
  });

  it('a timed-out purchase with no order is settled not bought once the late-apply horizon has passed', async () => {
    market.mode = 'hang'; // nothing is ever applied
    const purchaser = makePurchaser(150, { lateApplyMs: 400 });
    const first = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(first).toMatchObject({ status: 'unknown', note: MAY_STILL_BE_APPLIED });
    const failedAt = journal.get(first.intentId)?.resolvedAtMs as number;
    await until(() => Date.now() - failedAt > 450);
    const [later] = await purchaser.reconcileUnresolved();
    expect(later).toMatchObject({ intentId: first.intentId, status: 'not_bought', note: 'no matching order in the order history' });
  });

  it('a purchase its reconciliation left open keeps the time of its failure, from which later waits count', async () => {
    market.mode = 'drop';
    let failedAt: number | null = null;
    // the first pause of the reconciliation comes after the sender journaled the failure
    const clock: Clock = {
      ...systemClock,
      sleep: (ms, signal) => {
        failedAt ??= journal.unresolved()[0]?.resolvedAtMs ?? null;
        return systemClock.sleep(ms, signal);
      },
    };
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000, clock });
    const outcome = await new Purchaser({ client, journal, reconcileDelaysMs: [30, 30], settleMs: 0 }).buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome).toMatchObject({ status: 'unknown', note: MAY_STILL_BE_APPLIED });
    expect(failedAt).not.toBeNull();
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'unknown', resolution: 'reconciled', resolvedAtMs: failedAt });
  });

  const buyOneAs = (kind: 'single' | 'cart', purchaser: Purchaser) => {
    const line = { listingId: 101, amount: 1, maxPrice: 1300, marketHashName: NAME, appId: 730 };
    return kind === 'single' ? purchaser.buy(line) : buyCart(purchaser, [line]);
  };

  it.each(['single', 'cart'] as const)(
    'a %s whose order history failed once, then read too early to settle, is unknown because it did not settle, not unreadable',
    async (kind) => {
      market.mode = 'hang';
      market.ordersMode = 'fail';
      // the first read fails; the history is readable again by the second (only reconciliation sleeps on this clock)
      let sleeps = 0;
      const clock: Clock = {
        ...systemClock,
        sleep: (ms, signal) => {
          sleeps += 1;
          if (sleeps === 2) market.ordersMode = 'normal';
          return systemClock.sleep(ms, signal);
        },
      };
      const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 200, clock });
      // "nothing found" never counts yet: the note says why it is still open, from the last read
      const purchaser = new Purchaser({ client, journal, reconcileDelaysMs: [30, 30], settleMs: 60_000 });
      const outcome = await buyOneAs(kind, purchaser);
      expect(market.log.filter((x) => x === 'orders')).toHaveLength(2);
      expect(outcome.status).toBe('unknown');
      expect(outcome.note).toBe('unknown — check orders: the order history did not settle the outcome');
    },
  );

  it.each(['single', 'cart'] as const)(
    'a %s whose claimed orders could not be read once (the journal busy) reads the order history again',
    async (kind) => {
      market.mode = 'hang';
      const claimed = journal.claimedOrderIds.bind(journal);
      let failed = false;
      journal.claimedOrderIds = () => {
        if (failed) return claimed();
        failed = true;
        throw new Error('database is locked');
      };
      const purchaser = makePurchaser(200);
      const outcome = await buyOneAs(kind, purchaser);
      expect(failed).toBe(true);
      // read again, and nothing found: a timed-out purchase stays open (the marketplace may still apply
      // it, see lateApplyMs), said in those words rather than "could not be read"
      expect(outcome).toMatchObject({ status: 'unknown', reconciled: true, note: MAY_STILL_BE_APPLIED });
    },
  );

  it('a cart left open is settled later as one cart: every line bought by its one order, none "not bought"', async () => {
    const AWP = 'AWP | Asiimov (Field-Tested)';
    market.mode = 'hang';
    market.ordersMode = 'fail';
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 200 });
    const cart = await buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [30], settleMs: 0 }), [
      { listingId: 101, amount: 1, maxPrice: 1300, marketHashName: NAME, appId: 730 },
      { listingId: 102, amount: 1, maxPrice: 1000, marketHashName: AWP, appId: 730 },
    ]);
    expect(cart.status).toBe('unknown');
    // the marketplace had applied the cart: one order of two items
    const createdAt = new Date().toISOString();
    const row = (n: number, name: string, price: number) =>
      ({ order_item_id: 7000 + n, order_id: 700, side: 'bought' as const, app_id: 730, market_hash_name: name, price, amount: 1, created_at: createdAt });
    market.orders.push(row(1, NAME, 1250), row(2, AWP, 900));
    market.ordersMode = 'normal';
    // what the app runs at connect (or before the next cart): each line was once settled on its own
    const outcomes = await makePurchaser().reconcileUnresolved();
    expect(outcomes.map((o) => o.status)).toEqual(['bought', 'bought']);
    const lines = journal.recent().filter((e) => e.source === 'app-cart');
    expect(lines.map((e) => e.state)).toEqual(['bought', 'bought']);
    expect(lines.map((e) => e.orderId).filter((id) => id !== null)).toEqual([700]);
  });

  it('cart lines journaled before carts were named (same time, source app-cart) are settled together too', async () => {
    const AWP = 'AWP | Asiimov (Field-Tested)';
    const at = Date.now() - 60_000;
    const line = (intentId: string, listingId: number, maxPrice: number, name: string) =>
      journal.recordIntent({ intentId, createdAtMs: at, listingId, amount: 1, maxPrice, appId: 730, marketHashName: name, triggerSeq: null, watchlistId: null, source: 'app-cart' });
    line('old-a', 101, 1300, NAME);
    line('old-b', 102, 1000, AWP);
    const createdAt = new Date(at + 300).toISOString();
    for (const [n, name, price] of [[1, NAME, 1250], [2, AWP, 900]] as const) {
      market.orders.push({ order_item_id: 6000 + n, order_id: 600, side: 'bought', app_id: 730, market_hash_name: name, price, amount: 1, created_at: createdAt });
    }
    const outcomes = await makePurchaser().reconcileUnresolved();
    expect(outcomes.map((o) => o.status)).toEqual(['bought', 'bought']);
    expect([journal.get('old-a')?.state, journal.get('old-b')?.state]).toEqual(['bought', 'bought']);
  });

  it('a cart whose lost answer reconcileUnresolved settled first stays bought', async () => {
    // the marketplace applies the cart after 200 ms, then drops the connection
    applyCartAfter(200, 900, 'drop');
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const buying = buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [400, 30], settleMs: 0 }), CART_LINES);
    await new Promise((r) => setTimeout(r, 50)); // in flight: the next cart settles earlier purchases first
    const earlier = await makePurchaser(2000, { reconcileDelaysMs: [250] }).reconcileUnresolved();
    expect(earlier.map((o) => o.status)).toEqual(['bought', 'bought']);
    const cart = await buying;
    expect(cart).toMatchObject({ status: 'bought', orderId: 900 });
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
  });

  it('a purchase still being sent (another cart, another process) is never declared not bought by reconcileUnresolved', async () => {
    // a slow marketplace: the cart is applied and answered after 400 ms
    applyCartAfter(400, 550, 'answer');
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const buying = buyCart(new Purchaser({ client, journal }), CART_LINES);
    await new Promise((r) => setTimeout(r, 30)); // sent, not answered: the next cart settles earlier purchases first
    const told: string[] = [];
    const earlier = await makePurchaser(2000, { onEarlierPurchase: (_before, o) => told.push(o.status) }).reconcileUnresolved();
    // nothing in the order history yet, but nothing says it was not bought: it may still go through
    expect(told).not.toContain('not_bought');
    expect(earlier.map((o) => o.status)).not.toContain('not_bought');
    expect(await buying).toMatchObject({ status: 'bought', orderId: 550 });
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
  });

  it('a cart its own reconciliation found bought is not turned into not bought by a later reconcileUnresolved', async () => {
    applyCartAfter(100, 440, 'drop');
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const buying = buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [200], settleMs: 0 }), CART_LINES);
    await new Promise((r) => setTimeout(r, 150)); // the answer was lost: the cart is open, reconciling itself
    const settling = makePurchaser(2000, { reconcileDelaysMs: [300] }).reconcileUnresolved();
    expect(await buying).toMatchObject({ status: 'bought', orderId: 440 });
    const earlier = await settling;
    expect(earlier.map((o) => o.status)).toEqual(['bought', 'bought']);
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
  });

  it('another process reconciling the same lost purchase never writes not bought over the bought its sender found', async () => {
    market.modeFor.set(101, 'apply-then-drop');
    market.delayFor.set(101, 100);
    const sender = makePurchaser(2000, { reconcileDelaysMs: [200] });
    const buying = sender.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await new Promise((r) => setTimeout(r, 150)); // answer lost; the sender is reconciling
    // the CLI (another process, another Purchaser on the same journal) settles open purchases first
    const other = makePurchaser(2000, { reconcileDelaysMs: [300] }).reconcileUnresolved();
    const outcome = await buying;
    expect(outcome).toMatchObject({ status: 'bought', orderId: 500 });
    expect((await other).map((o) => o.status)).toEqual(['bought']);
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'bought', orderId: 500 });
  });

  it('a cart timed out just before the marketplace applied it is not declared not bought: the settle time counts from the failure', async () => {
    const purchase = holdPurchase(); // the marketplace is slow to apply it; the client gives up at 500 ms
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 500 });
    const cart = await buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [0], settleMs: 400 }), CART_LINES);
    // one read at once after the timeout, nothing in it yet: too soon after the failure to say "not bought"
    expect(cart.status).toBe('unknown');
    expect(journal.recent().map((e) => e.state)).toEqual(['unknown', 'unknown']);
    addCartOrder(910);
    purchase.drop();
    expect((await makePurchaser().reconcileUnresolved()).map((o) => o.status)).toEqual(['bought', 'bought']);
  });

  it('a purchase whose send failed moments ago is not declared not bought by reconcileUnresolved: the settle time counts from the failure', async () => {
    holdPurchase(); // received, never answered: the sender gives up at 600 ms, then checks the history itself
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 600 });
    const buying = new Purchaser({ client, journal, reconcileDelaysMs: [800], settleMs: 500 }).buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await until(() => journal.unresolved().some((e) => e.state === 'unknown'));
    // another process settles open purchases right after the failure, before the order shows
    const told: string[] = [];
    const early = await makePurchaser(2000, { reconcileDelaysMs: [0], settleMs: 500, onEarlierPurchase: (_before, o) => told.push(o.status) }).reconcileUnresolved();
    expect(early.map((o) => o.status)).toEqual(['unknown']);
    expect(told).toEqual(['unknown']);
    const orderId = market.addOrder(NAME, 1250, 1, new Date()); // the marketplace applied it late
    expect(await buying).toMatchObject({ status: 'bought', orderId });
  });

  it('a cart another reconciliation settled bought while its own read was on the way is never written over as not bought', async () => {
    market.mode = 'fail-500'; // the gateway's answer; the marketplace applies the cart all the same
    const read = holdFirstOrdersRead(); // the cart's own read, asked before the order appeared, comes back late
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const buying = buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [0], settleMs: 0 }), CART_LINES);
    await until(read.asked);
    addCartOrder(920);
    const earlier = await makePurchaser(2000, { reconcileDelaysMs: [0] }).reconcileUnresolved();
    expect(earlier.map((o) => o.status)).toEqual(['bought', 'bought']);
    read.release();
    expect(await buying).toMatchObject({ status: 'bought', orderId: 920 });
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
    expect(journal.recent().map((e) => e.orderId).filter((id) => id !== null)).toEqual([920]);
  });

  it('a cart another reconciliation called not bought too early is bought when its own read finds the order', async () => {
    market.mode = 'fail-500';
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const buying = buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [400], settleMs: 0 }), CART_LINES);
    await until(() => journal.unresolved().filter((e) => e.state === 'unknown').length === 2);
    // another process reads the history before the order shows in it
    const early = await makePurchaser(2000, { reconcileDelaysMs: [0], settleMs: 0 }).reconcileUnresolved();
    expect(early.map((o) => o.status)).toEqual(['not_bought', 'not_bought']);
    addCartOrder(930);
    // a found order is the evidence: it settles the cart, whatever an empty read said before
    expect(await buying).toMatchObject({ status: 'bought', orderId: 930 });
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
  });

  it('a cart settled bought while it was still on its way is not written over as unknown when its answer is lost', async () => {
    const purchase = holdPurchase();
    const client = new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000 });
    const buying = buyCart(new Purchaser({ client, journal, reconcileDelaysMs: [0], settleMs: 0 }), CART_LINES);
    await until(purchase.received);
    addCartOrder(940); // applied; the answer not sent yet
    // another process: the cart is in flight, and its order is there already
    const other = await makePurchaser(2000, { reconcileDelaysMs: [0] }).reconcileUnresolved();
    expect(other.map((o) => o.status)).toEqual(['bought', 'bought']);
    market.ordersMode = 'fail'; // the sender can no longer read the history
    purchase.drop();
    expect(await buying).toMatchObject({ status: 'bought', orderId: 940 });
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
    expect(journal.recent().map((e) => e.orderId).filter((id) => id !== null)).toEqual([940]);
  });

  it('a cart being sent is not told as an earlier purchase by its own purchaser: its reconciliation waits for the answer', async () => {
    applyCartAfter(200, 950, 'answer');
    const told: string[] = [];
    const purchaser = makePurchaser(2000, { onEarlierPurchase: (_before, o) => told.push(o.status) });
    const buying = buyCart(purchaser, CART_LINES);
    await until(() => market.server.calls('purchase').length === 1);
    // a watchlist's purchase settles earlier open purchases first: the cart in flight is not one of them
    expect(await purchaser.reconcileUnresolved()).toEqual([]);
    expect(told).toEqual([]);
    expect(await buying).toMatchObject({ status: 'bought', orderId: 950 });
  });

  it('a purchase settled bought while it was still on its way is not written over as unknown when its answer is lost', async () => {
    const purchase = holdPurchase();
    const buying = makePurchaser(2000, { reconcileDelaysMs: [0], settleMs: 0 }).buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await until(purchase.received);
    const orderId = market.addOrder(NAME, 1250, 1, new Date());
    const other = await makePurchaser(2000, { reconcileDelaysMs: [0] }).reconcileUnresolved();
    expect(other.map((o) => o.status)).toEqual(['bought']);
    market.ordersMode = 'fail';
    purchase.drop();
    const outcome = await buying;
    expect(outcome).toMatchObject({ status: 'bought', orderId });
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'bought', orderId });
  });

  it('a single purchase is never settled by an order of several items (a cart of the same item)', async () => {
    market.mode = 'fail-500'; // applied nothing
    const createdAt = new Date(Date.now() + 50).toISOString();
    const row = (n: number, name: string, price: number) =>
      ({ order_item_id: 8000 + n, order_id: 800, side: 'bought' as const, app_id: 730, market_hash_name: name, price, amount: 1, created_at: createdAt });
    // meanwhile a cart bought in the app (its answer not yet written down) holds the same item
    market.orders.push(row(1, NAME, 1250), row(2, 'AWP | Asiimov (Field-Tested)', 900));
    const outcome = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(outcome).toMatchObject({ status: 'not_bought', orderId: null });
  });

  /** A purchase of listing 101 that went through, its answer lost and the order history unreadable: unknown. */
  async function boughtWithTheAnswerLost() {
    market.mode = 'apply-then-drop';
    market.ordersMode = 'fail';
    const purchaser = makePurchaser();
    const first = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(first.status).toBe('unknown');
    return { purchaser, first };
  }

  it('buying a listing again after its purchase ended unknown reads the order history first, and does not buy twice', async () => {
    const { purchaser, first } = await boughtWithTheAnswerLost();
    // the trader clicks buy again on the same listing (3 copies listed: a second one would be bought)
    market.mode = 'normal';
    market.ordersMode = 'normal';
    const again = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(market.purchasesApplied).toBe(1);
    expect(market.server.calls('purchase')).toHaveLength(1);
    expect(journal.get(first.intentId)).toMatchObject({ state: 'bought', orderId: 500 });
    expect(again.status).toBe('not_bought');
    expect(again.error?.message).toContain('bought');
    // now that the first is known, a further click is a purchase of another copy, and it is sent
    const third = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(third.status).toBe('bought');
    expect(market.purchasesApplied).toBe(2);
  });

  it('buying a listing again while its earlier purchase is still unknown is held back once, with that said', async () => {
    const { purchaser } = await boughtWithTheAnswerLost();
    market.mode = 'normal';
    const again = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(again).toMatchObject({ status: 'not_bought' });
    expect(again.error?.explanation).toBe(
      'Skindesk did not send the request: the earlier purchase of “AK-47 | Redline (Field-Tested)” (listing 101) may have been bought (unknown — check orders); buy again to send it anyway.',
    );
    expect(market.server.calls('purchase')).toHaveLength(1);
    // the trader was told: a further click is sent
    const third = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(third.status).toBe('bought');
    expect(market.server.calls('purchase')).toHaveLength(2);
  });

  it('a repeat held back once is sent by the next run too (the CLI: another process on the same journal)', async () => {
    await boughtWithTheAnswerLost();
    market.mode = 'normal';
    const held = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(held.error?.explanation).toContain('buy again to send it anyway');
    expect(market.server.calls('purchase')).toHaveLength(1);
    // the words said a further try is sent: a new process (a new purchaser over the file) keeps them
    const again = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(again.status).toBe('bought');
    expect(market.server.calls('purchase')).toHaveLength(2);
  });

  it('a retry in a new process whose earlier purchase turns out bought is not sent, and names that order', async () => {
    await boughtWithTheAnswerLost();
    // the next `skindesk buy`: a new purchaser on the same journal, the order history readable now; its
    // first step settles what the earlier run left open, which must not let this retry through
    market.mode = 'normal';
    market.ordersMode = 'normal';
    const again = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(market.purchasesApplied).toBe(1);
    expect(market.server.calls('purchase')).toHaveLength(1);
    expect(again).toMatchObject({ status: 'not_bought', heldBackBy: { state: 'bought', orderId: 500 } });
    expect(again.error?.message).toContain('was bought (order 500)');
  });

  it('a retry in a new process whose earlier purchase is still unknown is held back as unknown', async () => {
    await boughtWithTheAnswerLost();
    market.mode = 'normal';
    const again = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(again).toMatchObject({ status: 'not_bought', heldBackBy: { state: 'unknown', orderId: null } });
    expect(market.server.calls('purchase')).toHaveLength(1);
  });

  it('names the earlier purchase by its listing alone when the journal does not know its item', async () => {
    // journaled without the item's name (an older entry), its answer lost, the order history unreadable
    const at = Date.now() - 60_000;
    journal.recordIntent({ intentId: 'nameless', createdAtMs: at, listingId: 101, amount: 1, maxPrice: 1300, appId: 730, marketHashName: null, triggerSeq: null, watchlistId: null, source: 'app' });
    journal.recordOutcome('nameless', { state: 'unknown', orderId: null, note: null, resolution: 'response', errorKind: 'network', errorCode: null, errorMessage: 'interrupted' }, at + 1_000);
    market.ordersMode = 'fail';
    const again = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    expect(again.error?.explanation).toBe(
      'Skindesk did not send the request: the earlier purchase of listing 101 may have been bought (unknown — check orders); buy again to send it anyway.',
    );
    expect(market.server.calls('purchase')).toHaveLength(0);
  });

  it('a cart with a listing whose earlier purchase is still unknown is held back once, with that said', async () => {
    const { purchaser } = await boughtWithTheAnswerLost();
    market.mode = 'normal'; // the order history is still unreadable
    const cart = await buyCart(purchaser, CART_LINES);
    // the marketplace buys a cart's lines together: holding line 101 holds the cart
    expect(market.server.calls('purchase')).toHaveLength(1);
    expect(cart).toMatchObject({ status: 'not_bought', orderId: null });
    expect(cart.error?.explanation).toBe(
      'Skindesk did not send the request: the earlier purchase of “AK-47 | Redline (Field-Tested)” (listing 101) may have been bought (unknown — check orders); buy again to send it anyway.',
    );
    expect(cart.error?.details).toEqual({ line: 0 });
    expect(cart.intentIds.map((id) => journal.get(id)?.state)).toEqual(['not_bought', 'not_bought']);
    // the trader was told: a further click sends the cart
    applyCartAfter(0, 960, 'answer');
    expect(await buyCart(purchaser, CART_LINES)).toMatchObject({ status: 'bought', orderId: 960 });
    expect(market.server.calls('purchase')).toHaveLength(2);
  });

  it('a cart with a listing whose earlier purchase turns out bought is not sent, and says so', async () => {
    const { purchaser, first } = await boughtWithTheAnswerLost();
    market.mode = 'normal';
    market.ordersMode = 'normal'; // the earlier purchase's order is found when it is settled
    const cart = await buyCart(purchaser, [CART_LINES[1], CART_LINES[0]] as typeof CART_LINES);
    expect(market.server.calls('purchase')).toHaveLength(1);
    expect(market.purchasesApplied).toBe(1);
    expect(journal.get(first.intentId)).toMatchObject({ state: 'bought', orderId: 500 });
    expect(cart).toMatchObject({ status: 'not_bought', orderId: null });
    expect(cart.error?.explanation).toBe(
      'Skindesk did not send the request: the earlier purchase of “AK-47 | Redline (Field-Tested)” (listing 101), whose answer was lost, was bought (order 500); buy again for another copy.',
    );
    expect(cart.error?.details).toEqual({ line: 1 });
    // now that the first is known, the cart is a purchase of another copy, and it is sent
    applyCartAfter(0, 961, 'answer');
    expect(await buyCart(purchaser, CART_LINES)).toMatchObject({ status: 'bought', orderId: 961 });
  });

  it('a cart of two listings of the same item at different ceilings, its answer lost, is found bought', async () => {
    // two copies of one skin in one cart: the dearer line could take the cheaper copy, leaving the cheaper
    // line no copy it fits, and the bought cart was settled "not bought" (then bought again)
    const lines = [
      { listingId: 103, amount: 1, maxPrice: 1300, marketHashName: NAME, appId: 730 },
      { listingId: 104, amount: 1, maxPrice: 950, marketHashName: NAME, appId: 730 },
    ];
    market.server.on('purchase', (_req, res) => {
      const createdAt = new Date().toISOString();
      // newest first in the history: the 9.00 copy is read before the 12.50 one
      for (const [n, price] of [[1, 1250], [2, 900]] as const) {
        market.orders.push({ order_item_id: 8000 + n, order_id: 800, side: 'bought', app_id: 730, market_hash_name: NAME, price, amount: 1, created_at: createdAt });
      }
      res.socket?.destroy();
    });
    const cart = await buyCart(makePurchaser(), lines);
    expect(cart).toMatchObject({ status: 'bought', orderId: 800 });
    expect(journal.recent().map((e) => e.state)).toEqual(['bought', 'bought']);
  });

  it('a cart whose earlier purchases were settled not bought is sent as usual', async () => {
    market.mode = 'fail-500'; // applied nothing, the answer unclear
    market.ordersMode = 'fail';
    const purchaser = makePurchaser();
    expect((await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 })).status).toBe('unknown');
    market.ordersMode = 'normal';
    applyCartAfter(0, 962, 'answer');
    expect(await buyCart(purchaser, CART_LINES)).toMatchObject({ status: 'bought', orderId: 962 });
  });

  it('a single purchase and a cart of the same listing go one at a time, either way round', async () => {
    const purchaser = makePurchaser();
    market.delayFor.set(101, 150);
    const single = purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await until(() => market.log.includes('purchase 101'));
    const cart = buyCart(purchaser, CART_LINES);
    expect((await single).status).toBe('bought');
    expect((await cart).status).toBe('bought');
    // the cart (its first line is 101) went out only after the single purchase had its answer
    expect(market.log.filter((l) => l.startsWith('purchase') || l.startsWith('answered'))).toEqual([
      'purchase 101', 'answered 101', 'purchase 101', 'answered 101',
    ]);
    market.log = [];
    // a cart on its way holds a single purchase of one of its listings (one of the same copies, another amount)
    const slowCart = buyCart(purchaser, CART_LINES);
    await until(() => market.log.includes('purchase 101'));
    const after = purchaser.buy({ listingId: 101, amount: 2, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await Promise.all([slowCart, after]);
    expect(market.log.slice(0, 2)).toEqual(['purchase 101', 'answered 101']);
  });

  it('an older identical order (before the intent) is not mistaken for this purchase', async () => {
    market.addOrder(NAME, 1250, 1, new Date(Date.now() - 10 * 60_000));
    market.mode = 'fail-500';
    const outcome = await makePurchaser(2000, { clockSkewToleranceMs: 1000 }).buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome.status).toBe('not_bought');
  });

  it('two orders that both match → unknown naming both, never a guess', async () => {
    market.mode = 'drop';
    const purchaser = makePurchaser();
    const now = new Date();
    const a = market.addOrder(NAME, 1250, 1, now);
    const b = market.addOrder(NAME, 1200, 1, now);
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome.status).toBe('unknown');
    expect(outcome.note).toContain(`${a}, ${b}`);
  });

  it('two open purchases of the same item and two matching orders → both bought, paired in time order', async () => {
    // two copies bought a few seconds apart, both answers lost: each intent alone sees two candidates
    const now = Date.now();
    for (const [id, at] of [['copy-1', now - 5_000], ['copy-2', now - 3_000]] as const) {
      journal.recordIntent({ intentId: id, createdAtMs: at, listingId: 101, amount: 1, maxPrice: 1300, appId: 730, marketHashName: NAME, triggerSeq: null, watchlistId: null, source: 'app' });
    }
    const first = market.addOrder(NAME, 1250, 1, new Date(now - 4_900));
    const second = market.addOrder(NAME, 1250, 1, new Date(now - 2_900));
    const outcomes = await makePurchaser().reconcileUnresolved();
    expect(outcomes.map((o) => [o.status, o.orderId])).toEqual([['bought', first], ['bought', second]]);
    expect(journal.unresolved()).toEqual([]);
  });

  it('two purchases of the same item go one at a time, so two lost answers are still told apart', async () => {
    market.mode = 'apply-then-drop';
    const purchaser = makePurchaser();
    const [a, b] = await Promise.all([
      purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 }),
      purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 }),
    ]);
    expect([a.status, b.status]).toEqual(['bought', 'bought']);
    expect(new Set([a.orderId, b.orderId]).size).toBe(2);
    // the second was sent only after the first had its outcome
    expect(market.log.filter((l) => l.startsWith('purchase') || l === 'orders').slice(0, 3)).toEqual(['purchase 101', 'orders', 'purchase 101']);
  });

  it('purchases of different items are not held back by each other', async () => {
    market.delayFor.set(101, 200);
    const purchaser = makePurchaser();
    const slow = purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await new Promise((r) => setTimeout(r, 20));
    const other = await purchaser.buy({ listingId: 102, maxPrice: 1000, marketHashName: 'AWP | Asiimov (Field-Tested)', appId: 730 });
    expect(other.status).toBe('bought');
    expect(market.log).not.toContain('answered 101'); // the slow one is still on its way
    expect((await slow).status).toBe('bought');
  });

  it('more matching orders than open purchases stays unknown (someone else may have bought one)', async () => {
    const now = Date.now();
    journal.recordIntent({ intentId: 'only', createdAtMs: now - 5_000, listingId: 101, amount: 1, maxPrice: 1300, appId: 730, marketHashName: NAME, triggerSeq: null, watchlistId: null, source: 'app' });
    market.addOrder(NAME, 1250, 1, new Date(now - 4_900));
    market.addOrder(NAME, 1250, 1, new Date(now - 4_000));
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'unknown', orderId: null });
  });

  it('an order claimed by another journal entry is not claimed twice', async () => {
    const purchaser = makePurchaser();
    const first = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(first.orderId).toBe(500);
    market.mode = 'drop';
    const second = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    // not settled by order 500; open, for a dropped request may still be applied (see lateApplyMs)
    expect(second).toMatchObject({ status: 'unknown', orderId: null, note: MAY_STILL_BE_APPLIED });
    expect(journal.claimedOrderIds()).toEqual(new Set([500]));
  });

  it('a journal that cannot be written means nothing is sent', async () => {
    const readonlyDb = new Database(':memory:');
    const readonlyJournal = new PurchaseJournal(readonlyDb);
    readonlyDb.pragma('query_only = ON');
    const purchaser = new Purchaser({ client: new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY }), journal: readonlyJournal });
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome).toMatchObject({ status: 'not_bought', orderId: null });
    expect(outcome.error?.message).toContain('journal could not be written');
    expect(market.server.calls('purchase')).toHaveLength(0);
    readonlyDb.close();
  });

  it('a refused connection was never sent: not bought at once', async () => {
    const url = market.server.baseUrl;
    await market.server.close();
    const purchaser = new Purchaser({ client: new ApiClient({ baseUrl: url, apiKey: KEY }), journal, reconcileDelaysMs: [30] });
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome).toMatchObject({ status: 'not_bought', reconciled: false });
    expect(outcome.error).toMatchObject({ kind: 'network', maybeDelivered: false });
    await market.start(); // afterEach closes it
  });

  it('an intent left open by a crash is reconciled before the next purchase is sent', async () => {
    // A previous run wrote the intent, the server applied it, and the process died before the outcome.
    const crashedAt = Date.now() - 60_000;
    journal.recordIntent({
      intentId: 'crashed-1', createdAtMs: crashedAt, listingId: 102, amount: 1, maxPrice: 1000, appId: 730,
      marketHashName: 'AWP | Asiimov (Field-Tested)', triggerSeq: null, watchlistId: null, source: 'app',
    });
    const crashedOrder = market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(crashedAt + 200));
    const purchaser = makePurchaser();
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome.status).toBe('bought');
    expect(journal.get('crashed-1')).toMatchObject({ state: 'bought', orderId: crashedOrder, resolution: 'reconciled' });
    const names = market.server.requests.map((r) => r.name);
    expect(names.indexOf('orders')).toBeLessThan(names.indexOf('purchase'));
  });

  it('concurrent buys each go once; an open outcome is reconciled after in-flight buys end and before new ones start', async () => {
    market.listings.set(103, { price: 500, amount: 1, name: 'Sticker | Crown (Foil)' });
    market.modeFor.set(101, 'apply-then-drop');
    market.delayFor.set(102, 150);
    const purchaser = makePurchaser(2000, { reconcileDelaysMs: [0, 30] });
    const first = purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    const second = purchaser.buy({ listingId: 102, maxPrice: 1000, marketHashName: 'AWP | Asiimov (Field-Tested)' });
    await new Promise((r) => setTimeout(r, 75)); // 101 has failed, 102 is still in flight
    const third = purchaser.buy({ listingId: 103, maxPrice: 600, marketHashName: 'Sticker | Crown (Foil)' });
    const outcomes = await Promise.all([first, second, third]);
    expect(outcomes.map((o) => o.status)).toEqual(['bought', 'bought', 'bought']);
    expect(outcomes[0]?.reconciled).toBe(true);
    expect(new Set(outcomes.map((o) => o.orderId)).size).toBe(3);
    expect(market.server.calls('purchase')).toHaveLength(3);
    const log = market.log;
    const firstOrders = log.indexOf('orders');
    const lastOrders = log.lastIndexOf('orders');
    expect(firstOrders).toBeGreaterThan(log.indexOf('answered 102'));
    expect(log.indexOf('purchase 103')).toBeGreaterThan(lastOrders);
    expect(log.slice(firstOrders, lastOrders).some((e) => e.startsWith('purchase'))).toBe(false);
  });

  it('an open purchase settled by reconcileUnresolved while its answer was lost stays bought (its own order is not "claimed by another")', async () => {
    // The app's cart path (and its connect) run reconcileUnresolved while a single buy is in flight:
    // the buy's answer is lost, reconcileUnresolved gets the gate first and finds the order.
    market.modeFor.set(101, 'apply-then-drop');
    market.delayFor.set(101, 100);
    const purchaser = makePurchaser();
    const buying = purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME, appId: 730 });
    await new Promise((r) => setTimeout(r, 30)); // the purchase is in flight
    const earlier = await purchaser.reconcileUnresolved();
    const outcome = await buying;
    expect(earlier.map((o) => o.status)).toEqual(['bought']);
    expect(market.purchasesApplied).toBe(1);
    // bought, not "not bought": a trader told "not bought" buys it again
    expect(outcome).toMatchObject({ status: 'bought', orderId: 500 });
    expect(journal.get(outcome.intentId)).toMatchObject({ state: 'bought', orderId: 500 });
    expect(market.server.calls('purchase')).toHaveLength(1);
  });
});

describe('the account a purchase was sent with', () => {
  const openIntent = (intentId: string, account: string | null, createdAtMs: number) =>
    journal.recordIntent({
      intentId, createdAtMs, listingId: 102, amount: 1, maxPrice: 1000, appId: 730,
      marketHashName: 'AWP | Asiimov (Field-Tested)', triggerSeq: null, watchlistId: null, source: 'app', account,
    });
  const keyAccount = (id: number) => accountKey(market.server.baseUrl, id);
  const answerUser = (id: number) =>
    market.server.on('user', (_req, res) => sendJson(res, 200, { id, steam_id: '76561198000000000', name: 'trader', balance: 10_000 }));

  it("an open purchase of another account is never settled from this key's order history", async () => {
    answerUser(42);
    const at = Date.now() - 60_000;
    openIntent('other-account', keyAccount(7), at);
    // this key's account bought the same item at that moment: it must not be taken for the other's purchase
    market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(at + 200));
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'unknown', orderId: null });
    expect(outcome?.note).toContain(`sent with the key of ${keyAccount(7)}, not with the key in use`);
    expect(journal.get('other-account')).toMatchObject({ state: 'unknown', orderId: null, account: keyAccount(7) });
    expect(journal.claimedOrderIds().size).toBe(0);
    expect(market.server.calls('orders')).toHaveLength(0);
  });

  it("another account's purchase sent moments ago (its sender may still be waiting for the answer) is not written over", async () => {
    answerUser(42);
    openIntent('in-flight-elsewhere', keyAccount(7), Date.now() - 1_000);
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'unknown', reconciled: true });
    expect(outcome?.note).toContain('may still be on its way');
    // its sender, in another process with that key, writes the answer it gets
    expect(journal.get('in-flight-elsewhere')).toMatchObject({ state: 'intent' });
  });

  it("another account's purchase answered bought while the key's account was being read stays bought", async () => {
    const at = Date.now() - 60_000;
    openIntent('answered-meanwhile', keyAccount(7), at);
    market.server.on('user', (_req, res) => {
      // its sender (another process sharing the journal) writes the answer it got
      journal.recordOutcome('answered-meanwhile', { state: 'bought', orderId: 77, resolution: 'response' }, Date.now());
      sendJson(res, 200, { id: 42, steam_id: '76561198000000000', name: 'trader', balance: 10_000 });
    });
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'bought', orderId: 77 });
    expect(journal.get('answered-meanwhile')).toMatchObject({ state: 'bought', orderId: 77 });
  });

  it("an open purchase of this key's account is settled from its order history", async () => {
    answerUser(42);
    const at = Date.now() - 60_000;
    openIntent('same-account', keyAccount(42), at);
    const order = market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(at + 200));
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'bought', orderId: order, reconciled: true });
  });

  it('an open purchase that names no account is tagged with the key’s account before it is settled', async () => {
    answerUser(42);
    openIntent('untagged', null, Date.now() - 60_000);
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome?.status).toBe('not_bought');
    expect(journal.get('untagged')?.account).toBe(keyAccount(42));
  });

  it('a new purchase is journaled with the account its owner knows, without asking the market', async () => {
    const known = new PurchaseJournal(db, { account: () => keyAccount(42) });
    const purchaser = makePurchaser(2000, { journal: known });
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(journal.get(outcome.intentId)?.account).toBe(keyAccount(42));
    expect(market.server.calls('user')).toHaveLength(0);
  });

  it('an answer lost in the CLI (no account known) is tagged before its order history is read', async () => {
    answerUser(42);
    market.mode = 'apply-then-drop';
    const outcome = await makePurchaser().buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome).toMatchObject({ status: 'bought', reconciled: true });
    expect(journal.get(outcome.intentId)?.account).toBe(keyAccount(42));
  });

  it('earlier purchases settled by reconcileUnresolved are reported with the entry as it was', async () => {
    answerUser(42);
    const at = Date.now() - 60_000;
    openIntent('crashed', keyAccount(42), at);
    const order = market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(at + 200));
    const told: [string, string, number | null][] = [];
    const purchaser = makePurchaser(2000, { onEarlierPurchase: (before, outcome) => told.push([before.state, outcome.status, outcome.orderId]) });
    await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(told).toEqual([['intent', 'bought', order]]);
  });
});

describe('our wall clock set back or forward between a purchase and its reconciliation', () => {
  const MINUTE = 60_000;
  /** Our wall clock, `shift.ms` off the real one; waits and intervals run on the real one, as systemClock's do. */
  function shiftedClock(shift: { ms: number }): Clock {
    return {
      now: () => Date.now() + shift.ms,
      monotonic: () => performance.now(),
      setTimer: (ms, callback) => systemClock.setTimer(ms, callback),
      sleep: (ms, signal) => systemClock.sleep(ms, signal),
    };
  }
  const purchaserOn = (clock: Clock) =>
    new Purchaser({ client: new ApiClient({ baseUrl: market.server.baseUrl, apiKey: KEY, timeoutMs: 2000, clock }), journal, reconcileDelaysMs: [30, 30, 30], settleMs: 50 });

  it('a purchase whose answer was lost is found bought after a restart with our clock set back 10 minutes', async () => {
    const shift = { ms: 0 };
    market.mode = 'apply-then-drop';
    market.ordersMode = 'fail';
    // the listing is read before buying: the client knows the server's time when the intent is written
    const lost = await purchaserOn(shiftedClock(shift)).buy({ listingId: 101, maxPrice: 1300 });
    expect(lost.status).toBe('unknown');
    // journaled with the server's time (second resolution): our clock agreed with it then
    expect(Math.abs((journal.get(lost.intentId)?.serverCreatedAtMs ?? 0) - (journal.get(lost.intentId)?.createdAtMs ?? 0))).toBeLessThanOrEqual(1000);
    // 15 minutes later our clock has been set back 10 minutes (an NTP correction); the app restarts
    market.clockAheadMs = 15 * MINUTE;
    shift.ms = 5 * MINUTE;
    market.ordersMode = 'normal';
    const [outcome] = await purchaserOn(shiftedClock(shift)).reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'bought', orderId: 500, reconciled: true });
    expect(journal.get(lost.intentId)).toMatchObject({ state: 'bought', orderId: 500 });
  });

  it('a purchase that was not made is not settled by an older order after our clock was set forward 10 minutes', async () => {
    const shift = { ms: 0 };
    // the same item, bought on the website 5 minutes before
    market.addOrder(NAME, 1250, 1, new Date(Date.now() - 5 * MINUTE));
    market.mode = 'fail-500'; // applied nothing
    market.ordersMode = 'fail';
    const lost = await purchaserOn(shiftedClock(shift)).buy({ listingId: 101, maxPrice: 1300 });
    expect(lost.status).toBe('unknown');
    // 15 minutes later our clock has been set forward 10 minutes
    market.clockAheadMs = 15 * MINUTE;
    shift.ms = 25 * MINUTE;
    market.ordersMode = 'normal';
    const [outcome] = await purchaserOn(shiftedClock(shift)).reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'not_bought', orderId: null });
    expect(journal.claimedOrderIds().size).toBe(0);
  });
});

describe('purchases an earlier run left open, settled at connect', () => {
  it('are not read again before the first purchase: the app settled them when it connected', async () => {
    market.server.on('user', (_req, res) => sendJson(res, 200, { id: 42, steam_id: '76561198000000000', name: 'trader', balance: 10_000 }));
    journal.recordIntent({
      intentId: 'crashed', createdAtMs: Date.now() - 60_000, listingId: 102, amount: 1, maxPrice: 1000, appId: 730,
      marketHashName: 'AWP | Asiimov (Field-Tested)', triggerSeq: null, watchlistId: null, source: 'app',
      account: accountKey(market.server.baseUrl, 42),
    });
    market.ordersMode = 'fail';
    const purchaser = makePurchaser();
    // what settleEarlierPurchases does right after connecting: the history cannot be read, it stays open
    await purchaser.reconcileUnresolved();
    expect(journal.get('crashed')?.state).toBe('unknown');
    const readsAtConnect = market.server.calls('orders').length;
    // a snipe a moment later is sent at once, not after the same reads again
    const outcome = await purchaser.buy({ listingId: 101, maxPrice: 1300, marketHashName: NAME });
    expect(outcome.status).toBe('bought');
    expect(market.server.calls('orders')).toHaveLength(readsAtConnect);
  });
});

describe("journal files written before the server's time was journaled", () => {
  it('gain its column; their entries are settled by our clock and the offset at reconciliation, as before', async () => {
    const old = new Database(':memory:');
    old.exec(PURCHASE_JOURNAL_SCHEMA.replace(/\n\s*server_created_at_ms\s+INTEGER,/, ''));
    const at = Date.now() - 60_000;
    old.prepare(
      "INSERT INTO purchase_journal (intent_id, created_at_ms, listing_id, amount, max_price, app_id, market_hash_name, source, state) VALUES ('old', ?, 102, 1, 1000, 730, 'AWP | Asiimov (Field-Tested)', 'app', 'intent')",
    ).run(at);
    const reopened = new PurchaseJournal(old);
    expect(reopened.get('old')?.serverCreatedAtMs).toBeNull();
    const order = market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(at + 200));
    const [outcome] = await makePurchaser(2000, { journal: reopened }).reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'bought', orderId: order });
    old.close();
  });
});

describe('journal files written before accounts were named', () => {
  it('gain the account column, and their entries read as naming none', () => {
    const old = new Database(':memory:');
    old.exec(PURCHASE_JOURNAL_SCHEMA.replace(/\n\s*account\s+TEXT,/, ''));
    old.prepare(
      "INSERT INTO purchase_journal (intent_id, created_at_ms, listing_id, amount, max_price, source, state) VALUES ('old', 1, 5, 1, 100, 'app', 'intent')",
    ).run();
    const reopened = new PurchaseJournal(old);
    expect(reopened.get('old')?.account).toBeNull();
    old.close();
  });
});

describe('an order history that changes while it is read page by page', () => {
  /** A sale of something else, landing on top of the order history now. */
  const addSale = (n: number) =>
    market.orders.push({ order_item_id: 90_000 + n, order_id: 9_000 + n, side: 'sold', app_id: 730, market_hash_name: 'P250 | Sand Dune (Field-Tested)', price: 3, amount: 1, created_at: new Date().toISOString() });

  it('a purchase whose row is seen again on the next page (shifted by a new sale) is still bought, not "not bought"', async () => {
    const at = Date.now() - 60_000;
    market.addOrder('M4A1-S | Nitro (Field-Tested)', 500, 1, new Date(at - 10 * 60_000)); // older than the intent: the read reaches back past it
    journal.recordIntent({ intentId: 'lost', createdAtMs: at, listingId: 102, amount: 1, maxPrice: 1000, appId: 730, marketHashName: 'AWP | Asiimov (Field-Tested)', triggerSeq: null, watchlistId: null, source: 'app' });
    journal.recordOutcome('lost', { state: 'unknown', orderId: null, resolution: 'response', errorKind: 'timeout', errorCode: null, errorMessage: 'no answer' }, at + 10_000);
    const order = market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(at + 200));
    // 99 sales since: the purchase is the last row of page 1 (100 rows a page)
    for (let n = 0; n < 99; n++) addSale(n);
    let sales = 99;
    market.server.on('orders', (req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      const limit = Number(req.url.searchParams.get('limit'));
      // another sale lands between two pages of one read: every row moves one place down
      if (page > 1) addSale(sales++);
      const newestFirst = [...market.orders].reverse();
      sendJson(res, 200, { orders: newestFirst.slice((page - 1) * limit, page * limit), metadata: metadataFor(page, Math.ceil(newestFirst.length / limit), newestFirst.length, limit) });
    });
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'bought', orderId: order, reconciled: true });
    expect(journal.get('lost')).toMatchObject({ state: 'bought', orderId: order });
  });

  it('a purchase pulled up onto the page already read (a newer row left between two pages) is still found, not "not bought"', async () => {
    const at = Date.now() - 60_000;
    market.addOrder('M4A1-S | Nitro (Field-Tested)', 500, 1, new Date(at - 10 * 60_000)); // older than the intent: the read reaches back past it
    journal.recordIntent({ intentId: 'lost', createdAtMs: at, listingId: 102, amount: 1, maxPrice: 1000, appId: 730, marketHashName: 'AWP | Asiimov (Field-Tested)', triggerSeq: null, watchlistId: null, source: 'app' });
    journal.recordOutcome('lost', { state: 'unknown', orderId: null, resolution: 'response', errorKind: 'timeout', errorCode: null, errorMessage: 'no answer' }, at + 10_000);
    const order = market.addOrder('AWP | Asiimov (Field-Tested)', 900, 1, new Date(at + 200));
    // 100 sales since: the purchase is the first row of page 2 (100 rows a page)
    for (let n = 0; n < 100; n++) addSale(n);
    let removed = false;
    market.server.on('orders', (req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      const limit = Number(req.url.searchParams.get('limit'));
      // a newer row leaves the history between two pages: every row below it moves one place up, and
      // the purchase moves onto page 1, which was read already
      if (page > 1 && !removed) {
        removed = true;
        market.orders.splice(market.orders.length - 1, 1);
      }
      const newestFirst = [...market.orders].reverse();
      sendJson(res, 200, { orders: newestFirst.slice((page - 1) * limit, page * limit), metadata: metadataFor(page, Math.ceil(newestFirst.length / limit), newestFirst.length, limit) });
    });
    const [outcome] = await makePurchaser().reconcileUnresolved();
    expect(outcome).toMatchObject({ status: 'bought', orderId: order, reconciled: true });
    expect(journal.get('lost')).toMatchObject({ state: 'bought', orderId: order });
  });
});

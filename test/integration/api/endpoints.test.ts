/**
 * Every endpoint of the contract through ApiClient against the demo market: the happy path and the
 * spec's error codes (plus the codes docs/api-assumptions.md chose where the spec is silent). The demo
 * runs with its rate-limit windows divided by 10, and the client's governor is given the same scaled
 * windows, so the file stays fast while the governor still paces every call — and must never draw a 429.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { RateGovernor } from '../../../src/core/api/governor.ts';
import { PurchaseJournal } from '../../../src/core/api/purchase-journal.ts';
import { Purchaser } from '../../../src/core/api/purchaser.ts';
import { startDemoMarket, type DemoMarket } from '../../../src/demo/index.ts';
import { ENDPOINTS, ENDPOINT_NAMES, ORDER_EXPORT_COLUMNS, rateLimitKey, type EndpointName } from '../../../src/shared/api/index.ts';

const SCALE = 10;
let demo: DemoMarket;
let client: ApiClient;
const covered = new Set<EndpointName>();

function scaledClient(apiKey: string | null): ApiClient {
  const governor = new RateGovernor({ marginMs: 20 });
  for (const name of ENDPOINT_NAMES) {
    const limit = ENDPOINTS[name].rateLimit;
    governor.define(rateLimitKey(name), limit ? { limit: limit.limit, windowMs: limit.windowMs / SCALE } : null);
  }
  return new ApiClient({ baseUrl: demo.baseUrl, apiKey, governor });
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the marketplace to refuse');
}

beforeAll(async () => {
  demo = await startDemoMarket({ listings: 3000, rate: 0, rateLimitScale: SCALE, seed: 4 });
  client = scaledClient(demo.apiKey);
});
afterAll(async () => {
  await demo?.close();
});

const demoUser = () => demo.state.account(1)!;
/** A commodity row of the demo user's backpack with at least `min` copies (the seeded Refined Metal). */
function commodityRow(min: number) {
  const row = [...demoUser().backpack.values()].find((r) => r.amount >= min && r.tradeLockedUntil === null);
  if (!row) throw new Error(`no backpack row with ${min} copies`);
  return row;
}

describe('market data', () => {
  it('info: version, events, rest, and the WebSocket URL discovered from it', async () => {
    const info = await client.info();
    expect(info.version).toMatch(/\S/);
    expect(info.events).toContain('listing.created');
    expect(await client.discoverWsUrl()).toBe(demo.wsUrl);
    covered.add('info');
  });

  it('listings: offset pages and cursor paging agree with the book', async () => {
    const first = await client.listings({ limit: '500', app_id: '730' });
    expect(first.listings.length).toBeGreaterThan(0);
    expect(first.listings.every((l) => l.app_id === 730)).toBe(true);
    const byCursor: number[] = [];
    for await (const page of client.listingsByCursor({ limit: '500' }, { maxPages: 2 })) byCursor.push(...page.listings.map((l) => l.id));
    const truth = demo.state.book().listings.map((l) => l.id);
    expect(byCursor).toEqual(truth.slice(0, byCursor.length));
    expect(new Set(byCursor).size).toBe(byCursor.length);
    covered.add('listings');
  });

  it('listing/:id: full detail; LISTING_NOT_FOUND once sold or delisted', async () => {
    const created = demo.createListing({ appId: 730, price: 777 });
    const listing = await client.listing(created.listing.id);
    expect(listing).toMatchObject({ id: created.listing.id, price: 777, market_hash_name: created.listing.market_hash_name });
    demo.buyListing(created.listing.id);
    const sold = await refusal(client.listing(created.listing.id));
    expect(sold).toMatchObject({ kind: 'api', code: 'LISTING_NOT_FOUND', status: 404 });
    const other = demo.createListing({ appId: 570 });
    demo.delistListing(other.listing.id);
    expect((await refusal(client.listing(other.listing.id))).code).toBe('LISTING_NOT_FOUND');
    covered.add('listing');
  });

  it('prices: offset pages, alphabetical', async () => {
    const names: string[] = [];
    for await (const row of client.rows('prices', { limit: '100', app_id: '730' }, { maxPages: 2 })) names.push(row.market_hash_name);
    expect(names.length).toBeGreaterThan(100);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    covered.add('prices');
  });

  it('prices/all: stock and listing counts; a repeat is a 304 served from the cache', async () => {
    const first = await client.callDetailed('pricesAll', { query: { app_id: '440' } });
    expect(first.data.prices.length).toBeGreaterThan(0);
    expect(first.etag).not.toBeNull();
    const second = await client.callDetailed('pricesAll', { query: { app_id: '440' } });
    expect(second.fromCache).toBe(true);
    expect(second.data).toBe(first.data);
    covered.add('pricesAll');
  });

  it('book: seq beyond 2^53 exact, listings equal the server truth; 304 replay flagged', async () => {
    const { snapshot, fromCache } = await client.book({}, { fresh: true });
    const truth = demo.state.book();
    expect(fromCache).toBe(false);
    expect(typeof snapshot.seq).toBe('bigint');
    expect(snapshot.seq).toBe(truth.seq);
    expect(snapshot.seq > 2n ** 53n).toBe(true);
    expect(snapshot.listings.toArray()).toEqual(truth.listings.map(({ id, app_id, market_hash_name, price, amount, commodity, created_at }) => ({ id, app_id, market_hash_name, price, amount, commodity, created_at })));
    const again = await client.book();
    expect(again.fromCache).toBe(true);
    expect(again.snapshot.seq).toBe(snapshot.seq);
    covered.add('book');
  });

  it('sales: newest first, filtered by exact market_hash_name', async () => {
    const all = await client.sales({ limit: '25' });
    expect(all.sales.length).toBeGreaterThan(0);
    const name = all.sales[0]!.market_hash_name;
    const filtered = await client.sales({ market_hash_name: name, limit: '25' });
    expect(filtered.sales.every((s) => s.market_hash_name === name)).toBe(true);
    const times = all.sales.map((s) => Date.parse(s.sold_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    covered.add('sales');
  });

  it('sales/averages: 30-day window; a repeat is a 304 served from the cache', async () => {
    const first = await client.callDetailed('salesAverages', {});
    expect(first.data.window_days).toBe(30);
    expect(first.data.averages.length).toBeGreaterThan(0);
    expect((await client.callDetailed('salesAverages', {})).fromCache).toBe(true);
    covered.add('salesAverages');
  });
});

describe('buying', () => {
  it('purchase: buys at the listing price under max_price; the listing leaves the book', async () => {
    const created = demo.createListing({ appId: 730, price: 1500 });
    const balance = demoUser().balance;
    const result = await client.purchase({ items: [{ listing_id: created.listing.id, amount: 1, max_price: 1600 }] });
    expect(result.items).toEqual([expect.objectContaining({ market_hash_name: created.listing.market_hash_name, price: 1500, amount: 1 })]);
    expect(demoUser().balance).toBe(balance - 1500);
    expect(demo.state.book().listings.some((l) => l.id === created.listing.id)).toBe(false);
    covered.add('purchase');
  });

  it('purchase: LISTING_PRICE_CHANGED above max_price, and nothing is bought', async () => {
    const created = demo.createListing({ appId: 730, price: 2000 });
    const error = await refusal(client.purchase({ items: [{ listing_id: created.listing.id, amount: 1, max_price: 1999 }] }));
    expect(error).toMatchObject({ kind: 'api', code: 'LISTING_PRICE_CHANGED' });
    expect(demo.state.listing(created.listing.id)?.status).toBe('ACTIVE');
  });

  it('purchase: atomic — one failing line (LISTING_NOT_FOUND) buys nothing', async () => {
    const good = demo.createListing({ appId: 730, price: 300 });
    const error = await refusal(
      client.purchase({ items: [{ listing_id: good.listing.id, amount: 1, max_price: 300 }, { listing_id: 1, amount: 1, max_price: 300 }] }),
    );
    expect(error.code).toBe('LISTING_NOT_FOUND');
    expect(error.details).toMatchObject({ line: 1 });
    expect(demo.state.listing(good.listing.id)?.status).toBe('ACTIVE');
  });

  it('purchase: a private listing is LISTING_NOT_FOUND without its token and bought with it', async () => {
    const hidden = demo.createListing({ appId: 730, price: 400, private: true });
    const line = { listing_id: hidden.listing.id, amount: 1, max_price: 400 };
    expect((await refusal(client.purchase({ items: [line] }))).code).toBe('LISTING_NOT_FOUND');
    const result = await client.purchase({ items: [{ ...line, private_token: hidden.privateToken! }] });
    expect(result.items[0]?.price).toBe(400);
  });

  it('purchase: INSUFFICIENT_ITEMS for more copies than listed, INSUFFICIENT_BALANCE beyond the balance', async () => {
    const stack = demo.createListing({ name: 'Mann Co. Supply Crate Key', appId: 440, price: 200, amount: 5 });
    const tooMany = await refusal(client.purchase({ items: [{ listing_id: stack.listing.id, amount: 6, max_price: 200 }] }));
    expect(tooMany.code).toBe('INSUFFICIENT_ITEMS');
    const pricey = demo.createListing({ appId: 730, price: 90_000_000 });
    const broke = await refusal(client.purchase({ items: [{ listing_id: pricey.listing.id, amount: 1, max_price: 90_000_000 }] }));
    expect(broke).toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 402 });
  });

  it('the journaled Purchaser buys once and finds its order in the order history', async () => {
    const created = demo.createListing({ appId: 730, price: 650 });
    const db = new Database(':memory:');
    const purchaser = new Purchaser({ client, journal: new PurchaseJournal(db) });
    const bought = await purchaser.buy({ listingId: created.listing.id, maxPrice: 700, triggerSeq: demo.state.seq(), watchlistId: 3 });
    expect(bought).toMatchObject({ status: 'bought', reconciled: false });
    const orders = await client.orders({ page: '1', limit: '5' });
    expect(orders.orders[0]).toMatchObject({ order_id: bought.orderId, side: 'bought', price: 650, market_hash_name: created.listing.market_hash_name });
    const again = await purchaser.buy({ listingId: created.listing.id, maxPrice: 700 });
    expect(again).toMatchObject({ status: 'not_bought', orderId: null });
    expect(again.error?.code).toBe('LISTING_NOT_FOUND');
    db.close();
  });
});

describe('selling, items and trades', () => {
  it('steam-inventory: stacks with tokens', async () => {
    const inventory = await client.steamInventory({ app_id: '730' });
    expect(inventory.items.length).toBeGreaterThan(0);
    expect(inventory.items.every((i) => i.app_id === 730 && i.token.length > 0)).toBe(true);
    covered.add('steamInventory');
  });

  it('sell: a tradable stack becomes a SELL trade; INVALID_ITEM_TOKEN, ITEM_NOT_TRADABLE, DEPOSIT_ITEM_LIMIT', async () => {
    const inventory = await client.steamInventory({ app_id: '730' });
    const tradable = inventory.items.find((i) => i.tradable && i.amount === 1)!;
    const { deposit_ids } = await client.sell({ listings: [{ items: [{ token: tradable.token, amount: 1 }], price: tradable.recommended_price }] });
    expect(deposit_ids).toHaveLength(1);
    const trades = await client.trades({ page: '1', limit: '500' });
    expect(trades.trades.find((t) => t.deposit_id === deposit_ids[0])?.type).toBe('SELL');

    const forged = await refusal(client.sell({ listings: [{ items: [{ token: 'not-a-token', amount: 1 }], price: 100 }] }));
    expect(forged.code).toBe('INVALID_ITEM_TOKEN');
    const held = inventory.items.find((i) => !i.tradable);
    if (!held) throw new Error('the demo inventory has no held item');
    expect((await refusal(client.sell({ listings: [{ items: [{ token: held.token, amount: 1 }], price: 100 }] }))).code).toBe('ITEM_NOT_TRADABLE');

    // A stack big enough to pass the 500-copies-per-offer cap.
    const stackRow = [...demoUser().inventory.values()].find((r) => r.amount > 1 && r.tradable && r.heldBy === null)!;
    stackRow.amount = 600;
    const bigToken = await tokenFor(stackRow.assetId);
    const capped = await refusal(client.sell({ listings: [{ items: [{ token: bigToken, amount: 501 }], price: 100 }] }));
    expect(capped).toMatchObject({ code: 'DEPOSIT_ITEM_LIMIT', kind: 'api' });
    covered.add('sell');
  });

  it('deposit: a stack moves toward the backpack through a DEPOSIT trade; INVALID_ITEM_TOKEN', async () => {
    const inventory = await client.steamInventory({ app_id: '252490' });
    const stack = inventory.items.find((i) => i.tradable)!;
    const { deposit_ids } = await client.deposit({ items: [{ token: stack.token, amount: 1 }] });
    expect(deposit_ids).toHaveLength(1);
    expect((await refusal(client.deposit({ items: [{ token: `${stack.token}x`, amount: 1 }] }))).code).toBe('INVALID_ITEM_TOKEN');
    covered.add('deposit');
  });

  it('backpack: pages and search', async () => {
    const page = await client.backpack({ page: '1', limit: '50' });
    expect(page.items.length).toBeGreaterThan(0);
    const found = await client.backpack({ page: '1', limit: '10', search: 'Refined' });
    expect(found.items.every((i) => i.market_hash_name.includes('Refined'))).toBe(true);
    expect(found.items.length).toBeGreaterThan(0);
    covered.add('backpack');
  });

  it('list: backpack copies go on the market; INSUFFICIENT_ITEMS, BACKPACK_ITEM_NOT_FOUND, LISTING_LIMIT_REACHED', async () => {
    const row = commodityRow(10);
    const { listings } = await client.list({ listings: [{ items: [{ id: row.id, amount: 2 }], price: 99 }] });
    expect(listings).toEqual([expect.objectContaining({ amount: 2, price: 99 })]);
    expect(demo.state.book().listings.some((l) => l.id === listings[0]!.id)).toBe(true);

    const over = await refusal(client.list({ listings: [{ items: [{ id: row.id, amount: row.amount + 1 }], price: 99 }] }));
    expect(over.code).toBe('INSUFFICIENT_ITEMS');
    expect((await refusal(client.list({ listings: [{ items: [{ id: 1, amount: 1 }], price: 99 }] }))).code).toBe('BACKPACK_ITEM_NOT_FOUND');

    row.amount = 5_000;
    const ceiling = await refusal(client.list({ listings: [{ items: [{ id: row.id, amount: 1_500 }], price: 99 }] }));
    expect(ceiling.code).toBe('LISTING_LIMIT_REACHED');
    row.amount = 40;
    covered.add('list');
  });

  it('my-listings and my-listings/value: own listings by status, asking value', async () => {
    const active = await client.myListings({ page: '1', limit: '50', status: 'ACTIVE' });
    expect(active.listings.length).toBeGreaterThan(0);
    const value = await client.myListingsValue();
    expect(value.listing_count).toBeGreaterThan(0);
    expect(value.total_value).toBeGreaterThan(0);
    covered.add('myListings');
    covered.add('myListingsValue');
  });

  it('PATCH list: single reprice returns the edited listing; bulk reports per-row LISTING_NOT_FOUND', async () => {
    const row = commodityRow(4);
    const { listings } = await client.list({ listings: [{ items: [{ id: row.id, amount: 2 }], price: 150 }] });
    const id = listings[0]!.id;
    const edited = await client.editListing({ listing_id: id, price: 140 });
    expect(edited).toMatchObject({ id, price: 140 });
    const bulk = await client.editListings([{ listing_id: id, price: 130 }, { listing_id: 1, price: 10 }]);
    expect(bulk.map((r) => [r.ok, r.error ?? null])).toEqual([
      [true, null],
      [false, 'LISTING_NOT_FOUND'],
    ]);
    expect((await refusal(client.editListing({ listing_id: 1, price: 10 }))).code).toBe('LISTING_NOT_FOUND');
    covered.add('editListing');
  });

  it('delist: single and bulk; a delisted listing is gone', async () => {
    const row = commodityRow(4);
    const { listings } = await client.list({
      listings: [
        { items: [{ id: row.id, amount: 1 }], price: 170 },
        { items: [{ id: row.id, amount: 1 }], price: 171 },
      ],
    });
    const [a, b] = listings.map((l) => l.id) as [number, number];
    expect(await client.delist({ listing_id: a })).toMatchObject({ listing_id: a });
    expect((await refusal(client.listing(a))).code).toBe('LISTING_NOT_FOUND');
    const bulk = await client.delistMany([b, 1]);
    expect(bulk.map((r) => [r.ok, r.error ?? null])).toEqual([
      [true, null],
      [false, 'LISTING_NOT_FOUND'],
    ]);
    expect((await refusal(client.delist({ listing_id: a }))).code).toBe('LISTING_NOT_FOUND');
    covered.add('delist');
  });

  it('withdraw: backpack items leave as WITHDRAW trades; BACKPACK_ITEM_NOT_FOUND; ACTIVE_TRADE_LIMIT past 15 in flight', async () => {
    const row = commodityRow(20);
    const { withdraw_ids } = await client.withdraw({ items: [{ id: row.id, amount: 1 }] });
    expect(withdraw_ids).toHaveLength(1);
    const trades = await client.trades({ page: '1', limit: '500' });
    expect(trades.trades.find((t) => t.withdraw_id === withdraw_ids[0])?.type).toBe('WITHDRAW');
    expect((await refusal(client.withdraw({ items: [{ id: 1, amount: 1 }] }))).code).toBe('BACKPACK_ITEM_NOT_FOUND');
    let limited: ApiError | null = null;
    for (let i = 0; i < 20 && !limited; i++) {
      try {
        await client.withdraw({ items: [{ id: row.id, amount: 1 }] });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        limited = err;
      }
    }
    expect(limited).toMatchObject({ code: 'ACTIVE_TRADE_LIMIT', kind: 'api' });
    covered.add('withdraw');
  });

  it('trades: newest first, filtered by status', async () => {
    const all = await client.trades({ page: '1', limit: '500' });
    expect(all.trades.length).toBeGreaterThan(0);
    const status = all.trades[0]!.status;
    const filtered = await client.trades({ page: '1', limit: '500', status });
    expect(filtered.trades.every((t) => t.status === status)).toBe(true);
    covered.add('trades');
  });
});

/** A fresh token for an inventory stack, read from any game's inventory. */
async function tokenFor(assetId: number): Promise<string> {
  for (const app of ['730', '252490', '570', '440'] as const) {
    const found = (await client.steamInventory({ app_id: app })).items.find((i) => i.steam_asset_id === String(assetId));
    if (found) return found.token;
  }
  throw new Error(`asset ${assetId} is not in the inventory`);
}

describe('account', () => {
  it('user: id, steam_id, name, balance; UNAUTHORIZED with a wrong key', async () => {
    const me = await client.user();
    expect(me).toMatchObject({ id: 1, name: expect.any(String), balance: demoUser().balance });
    const stranger = scaledClient('demo_not_a_real_key');
    const error = await refusal(stranger.user());
    expect(error).toMatchObject({ kind: 'api', code: 'UNAUTHORIZED', status: 401 });
    expect(error.message).not.toContain('demo_not_a_real_key');
    covered.add('user');
  });

  it('orders: newest first, offset pages to the end', async () => {
    const { metadata } = await client.orders({ page: '1', limit: '10' });
    const read = await client.newestFirst('orders', { limit: '10' });
    expect(read.complete).toBe(true);
    // the history only grows: every row there was before the read, each once
    expect(read.rows.length).toBeGreaterThanOrEqual(metadata.total_items);
    expect(new Set(read.rows.map((r) => r.order_item_id)).size).toBe(read.rows.length);
    expect(read.rows.length).toBeGreaterThan(10);
    covered.add('orders');
  });

  it('orders/export: CSV and JSON streamed to files, every row checked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skindesk-demo-export-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const orders = await client.orders({ page: '1', limit: '5' });
    const csv = await client.exportOrders(join(dir, 'orders.csv'), {});
    expect(csv.rows).toBe(orders.metadata.total_items);
    expect(readFileSync(join(dir, 'orders.csv'), 'utf8').split(/\r?\n/)[0]?.split(',')).toEqual(expect.arrayContaining([...ORDER_EXPORT_COLUMNS]));
    const progress: number[] = [];
    const json = await client.exportOrders(join(dir, 'sold.json'), { format: 'json', side: 'sold' }, (p) => progress.push(p.rows));
    const parsed = JSON.parse(readFileSync(join(dir, 'sold.json'), 'utf8')) as { orders: { side: string }[] };
    expect(json.rows).toBe(parsed.orders.length);
    expect(parsed.orders.every((o) => o.side === 'sold')).toBe(true);
    expect(progress.at(-1)).toBe(json.rows);
    covered.add('ordersExport');
  });

  it('transactions: running balance ends at the current balance', async () => {
    const { transactions } = await client.transactions({ page: '1', limit: '5' });
    expect(transactions[0]?.balance).toBe(demoUser().balance);
    covered.add('transactions');
  });

  it('crypto-withdraw and its status; WITHDRAWAL_BELOW_MINIMUM, INSUFFICIENT_BALANCE, TWO_FACTOR_REQUIRED, WITHDRAWAL_NOT_FOUND', async () => {
    const created = await client.cryptoWithdraw({ amount: 2_500, ticker: 'USDC', address: '0xabc123', fee_level: 'LOW' });
    expect(created).toMatchObject({ balance_amount: 2_500, ticker: 'USDC', tx_hash: null });
    expect(['CREATED', 'PENDING']).toContain(created.status);
    const status = await client.cryptoWithdrawal(created.withdrawal_id);
    expect(status.withdrawal_id).toBe(created.withdrawal_id);
    covered.add('cryptoWithdraw');
    covered.add('cryptoWithdrawal');

    const small = await refusal(client.cryptoWithdraw({ amount: 100, ticker: 'BTC', address: 'bc1qxyz', fee_level: 'LOW' }));
    expect(small).toMatchObject({ status: 400, code: 'WITHDRAWAL_BELOW_MINIMUM' });
    const huge = await refusal(client.cryptoWithdraw({ amount: 999_999_999, ticker: 'ETH', address: '0xabc', fee_level: 'HIGH' }));
    expect(huge.code).toBe('INSUFFICIENT_BALANCE');
    const guarded = demo.accounts.find((a) => a.twoFactorCode !== null)!;
    const guardedClient = scaledClient(guarded.apiKey);
    const noCode = await refusal(guardedClient.cryptoWithdraw({ amount: 5_000, ticker: 'LTC', address: 'ltc1q', fee_level: 'LOW' }));
    expect(noCode.code).toBe('TWO_FACTOR_REQUIRED');
    const withCode = await guardedClient.cryptoWithdraw({
      amount: 5_000, ticker: 'LTC', address: 'ltc1q', fee_level: 'LOW', two_factor_auth_token: guarded.twoFactorCode!,
    });
    expect(withCode.balance_amount).toBe(5_000);
    expect((await refusal(client.cryptoWithdrawal(1))).code).toBe('WITHDRAWAL_NOT_FOUND');
  });
});

describe('rate limits', () => {
  it('RATE_LIMITED: a client that does not know the earlier calls (a restart) waits Retry-After and retries a GET', async () => {
    await client.sales({ limit: '5' });
    const restarted = scaledClient(demo.apiKey);
    const sales = await restarted.sales({ limit: '5' });
    expect(sales.sales.length).toBeGreaterThan(0);
    const stats = restarted.governorStats().endpoints.find((e) => e.key === rateLimitKey('sales'));
    expect(stats?.rateLimited).toBe(1);
    expect(stats?.sent).toBe(2);
  });

  it('RATE_LIMITED on a write is thrown, not retried', async () => {
    const first = scaledClient(demo.apiKey);
    const second = scaledClient(demo.apiKey);
    const body = { amount: 100, ticker: 'BTC' as const, address: 'bc1q', fee_level: 'LOW' as const };
    const key = rateLimitKey('cryptoWithdraw');
    // Refused (below the minimum) but counted: use up the server's window.
    for (let i = 0; i < 5; i++) {
      await refusal(first.cryptoWithdraw(body));
      if (first.governorStats().endpoints.find((e) => e.key === key)?.serverRemaining === 0) break;
    }
    const error = await refusal(second.cryptoWithdraw(body));
    expect(error).toMatchObject({ kind: 'rate_limited', code: 'RATE_LIMITED', status: 429 });
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(second.governorStats().endpoints.find((e) => e.key === key)?.sent).toBe(1);
  });

  it('the governed client itself never drew a 429 in this whole file, and every endpoint was exercised', () => {
    expect(client.governorStats().totals.rateLimited).toBe(0);
    expect([...covered].sort()).toEqual([...ENDPOINT_NAMES].sort());
  });
});

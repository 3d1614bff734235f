// The market screens' calls over the real core and the real demo market: book windows by position
// equal a full keyset walk at every offset, purchases (one listing, a cart, a price that went up, a
// listing that is gone) come back in plain words with the balance, the price context and sales history
// are read and cached, inspect links are vetted, and the filter state survives a restart.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore, RecordingPlatform } from '../../../src/core/app/index.ts';
import { BookWindows } from '../../../src/core/app/market-book/book-windows.ts';
import { MarketPriceBoard } from '../../../src/core/app/market-book/market-prices.ts';
import { purchasing } from '../../../src/core/app/market-buying/session-purchaser.ts';
import { ScreenStateStore } from '../../../src/core/app/market-screens/screen-state.ts';
import { BOOK_ROW_COLUMNS } from '../../../src/core/export/view-export.ts';
import { type QueryRow, queryBook } from '../../../src/core/query/index.ts';
import { readSalesTape } from '../../../src/core/query/sales-tape.ts';
import { Caches, SALE_COLUMNS } from '../../../src/core/store/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import type { ExportProgress } from '../../../src/shared/ipc/index.ts';
import { itemKey } from '../../../src/shared/item-key.ts';
import type { BookQuery } from '../../../src/shared/query.ts';
import { servedMarketPrices } from '../../shared/served-market-prices.ts';
import { until as waitUntil } from './until.ts';

let dataDir: string;
let core: AppCore;
let demo: DemoMarket | null = null;
let platform: RecordingPlatform;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'skindesk-market-'));
  platform = new RecordingPlatform({ saveDir: join(dataDir, 'exports') });
  core = await AppCore.start({
    dataDir,
    secrets: new MemorySecretStore(),
    platform,
    startDemoMarket: async ({ seqStart }) => {
      demo = await startDemoMarket({ port: 0, listings: 900, rate: 0, seed: 21, seqStart, rateLimits: false });
      return demo;
    },
    version: '0.0.0-test',
  });
  await core.whenLive(20_000);
  // snapshot rows carry no detail; listings created now arrive on the feed with float, seed, stickers
  const created = Array.from({ length: 60 }, () => market().createListing({ appId: 730 }).listing.id);
  await until('the created listings in the mirror with their details', () =>
    created.every((id) => core.session.db.prepare('SELECT 1 FROM listing_attrs WHERE id = ? AND alive = 1').get(id)),
  );
  // The market is still (rate 0), but the detail backfill is not: a listing that gets its float joins the
  // float-sorted views between a test's reference walk and its windows. Every listing detailed, the book
  // holds still.
  await until(
    'every listing detailed by the backfill',
    () => core.session.db.prepare('SELECT count(*) FROM listings WHERE alive = 1 AND detailed_at IS NULL').pluck().get() === 0,
    30_000,
  );
});

afterAll(async () => {
  await core?.close();
  await demo?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function market(): DemoMarket {
  if (!demo) throw new Error('the demo market did not start');
  return demo;
}

const until = <T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 10_000) =>
  waitUntil(what, probe, timeoutMs, 25);

/** Every row id of a view, by keyset pages: the reference the windows must equal. */
function walkAll(query: Pick<BookQuery, 'filter' | 'sort'>): number[] {
  const ids: number[] = [];
  let after: string | undefined;
  for (let page = 0; page < 100; page++) {
    const answer = queryBook(core.session.db, { ...query, limit: 1000, ...(after ? { after } : {}) });
    ids.push(...answer.rows.map((r) => r.id));
    if (!answer.next) break;
    after = answer.next;
  }
  return ids;
}

describe('book windows by position', () => {
  it('equal a full keyset walk at any offset, for several sorts and filters (small strides and chunks)', async () => {
    const windows = new BookWindows({ stride: 7, chunk: 50 });
    const views: Pick<BookQuery, 'filter' | 'sort'>[] = [
      { filter: {}, sort: { field: 'price', dir: 'asc' } },
      { filter: {}, sort: { field: 'created_at', dir: 'desc' } },
      { filter: { app_id: 730 }, sort: { field: 'float', dir: 'asc' } },
      { filter: { price: { min: 100 } }, sort: { field: 'id', dir: 'desc' } },
    ];
    for (const view of views) {
      const all = walkAll(view);
      expect(all.length).toBeGreaterThan(20);
      for (const offset of [0, 1, 6, 7, 8, 13, 14, 50, all.length - 9, all.length - 1]) {
        const answer = await windows.window(core.session.db, 1, { ...view, offset, limit: 9 });
        expect(answer.total).toBe(all.length);
        expect(answer.rows.map((r) => r.id)).toEqual(all.slice(offset, offset + 9));
      }
      const beyond = await windows.window(core.session.db, 1, { ...view, offset: all.length + 5, limit: 9 });
      expect(beyond.rows).toEqual([]);
    }
  });

  it('answers over IPC with the total, the book version and the last seq', async () => {
    const view = { filter: {}, sort: { field: 'price' as const, dir: 'desc' as const } };
    const all = walkAll(view);
    const answer = await core.call('queryBookWindow', { ...view, offset: 250, limit: 40 });
    expect(answer.total).toBe(all.length);
    expect(answer.rows.map((r) => r.id)).toEqual(all.slice(250, 290));
    expect(answer.lastSeq).toMatch(/^\d+$/);
  });

  it("gives every row its item's market price from the marketplace's prices/all, read with no watchlist asking", async () => {
    const marketPrice = await servedMarketPrices(market());
    expect((await core.call('listWatchlists', {})).watchlists).toEqual([]);
    const view = { filter: {}, sort: { field: 'price' as const, dir: 'asc' as const } };
    const answer = await until('the market prices read by the app', async () => {
      const window = await core.call('queryBookWindow', { ...view, offset: 0, limit: 200 });
      return window.rows.every((r) => r.market_price !== null) && window;
    });
    expect(answer.rows.length).toBe(200);
    for (const row of answer.rows) expect(row.market_price, row.market_hash_name).toBe(marketPrice.get(itemKey(row.app_id, row.market_hash_name)));
    const page = await core.call('queryBook', { ...view, limit: 20 });
    expect(page.rows.map((r) => r.market_price)).toEqual(answer.rows.slice(0, 20).map((r) => r.market_price));
    // read into memory: the board writes nothing (26,000 rows rewritten every 5 minutes would be wasted work)
    expect(core.session.db.prepare('SELECT count(*) FROM prices').pluck().get()).toBe(0);
    // a restart (offline too) starts from the prices the book caches: none there, no figure rather than a guess
    const [first, second] = queryBook(core.session.db, { ...view, limit: 2 }).rows as [QueryRow, QueryRow];
    expect(new MarketPriceBoard(core.session.db).price([first])[0]?.market_price).toBeNull();
    const cache = new Caches(core.session.db);
    await cache.replacePrices([{ app_id: first.app_id, market_hash_name: first.market_hash_name, market_price: 1234, recommended_price: 1200, lowest_listing_price: null, updated_at: new Date().toISOString() }], first.app_id);
    expect(new MarketPriceBoard(core.session.db).price([first, second]).map((r) => r.market_price)).toEqual(first.market_hash_name === second.market_hash_name ? [1234, 1234] : [1234, null]);
    await cache.replacePrices([], first.app_id);
  });
});

describe('buying', () => {
  it('buys one listing: bought in plain words, the balance drops by the price, the row leaves the book', async () => {
    const before = await core.call('getBalance', { refresh: true });
    expect(before.balance).toBeGreaterThan(0);
    const listing = market().createListing({ appId: 730, price: 321 });
    await until('the listing in the book', () => queryBook(core.session.db, { filter: {}, sort: { field: 'id', dir: 'desc' }, limit: 5 }).rows.some((r) => r.id === listing.listing.id));

    const report = await core.call('buyListings', { lines: [{ listingId: listing.listing.id, maxPrice: 321 }] });
    expect(report).toMatchObject({ status: 'bought', title: 'Bought', apiCode: null, spent: 321, boughtListingIds: [listing.listing.id] });
    expect(report.orderId).toBeGreaterThan(0);
    expect(report.message).toContain(listing.listing.market_hash_name);
    expect(report.balance.balance).toBe((before.balance as number) - 321);
    await until('the bought row to leave the mirror', async () => !(await core.call('getListing', { id: listing.listing.id })).alive);

    const again = await core.call('buyListings', { lines: [{ listingId: listing.listing.id, maxPrice: 321 }] });
    expect(again).toMatchObject({ status: 'not_bought', apiCode: 'LISTING_NOT_FOUND', title: 'Listing is gone — not bought', spent: 0 });
    expect(again.message).toMatch(/sold or delisted/);
    expect(again.balance.balance).toBe(report.balance.balance);
  });

  it('explains LISTING_PRICE_CHANGED when the seller raised the price above the maximum', async () => {
    const listing = market().createListing({ appId: 570, price: 500 });
    market().repriceListing(listing.listing.id, 650);
    const report = await core.call('buyListings', { lines: [{ listingId: listing.listing.id, maxPrice: 500, shownPrice: 500 }] });
    expect(report).toMatchObject({ status: 'not_bought', apiCode: 'LISTING_PRICE_CHANGED', failedListingId: listing.listing.id });
    expect(report.title).toBe('Price went up — not bought');
    expect(report.message).toContain('$5.00');
    expect(report.message).toMatch(/nothing was charged/i);
  });

  it('says a cart line was refused for a maximum set below the price it showed, not for a raise', async () => {
    const a = market().createListing({ appId: 440, price: 120 });
    const b = market().createListing({ appId: 730, price: 500 });
    const report = await core.call('buyListings', {
      lines: [
        { listingId: a.listing.id, maxPrice: 120, shownPrice: 120 },
        { listingId: b.listing.id, maxPrice: 400, shownPrice: 500 },
      ],
    });
    expect(report).toMatchObject({ status: 'not_bought', apiCode: 'LISTING_PRICE_CHANGED', failedListingId: b.listing.id, spent: 0 });
    expect(report.title).toBe('Your maximum is below the price — not bought');
    expect(report.message).toContain('is listed at $5.00, above your maximum of $4.00');
    expect(report.message).toContain('Nothing in the cart was bought (a cart is all or nothing)');
    expect(report.message).not.toMatch(/raised/);
    expect(market().state.listing(a.listing.id)?.status).toBe('ACTIVE');
  });

  it('buys a cart of several listings in one order, or nothing when one line fails', async () => {
    const a = market().createListing({ appId: 440, price: 111 });
    const b = market().createListing({ appId: 252490, price: 222 });
    const c = market().createListing({ appId: 730, price: 333 });
    market().repriceListing(c.listing.id, 999);
    const before = (await core.call('getBalance', { refresh: true })).balance as number;

    const failing = await core.call('buyListings', {
      lines: [
        { listingId: a.listing.id, maxPrice: 111 },
        { listingId: c.listing.id, maxPrice: 333 },
      ],
    });
    expect(failing).toMatchObject({ status: 'not_bought', apiCode: 'LISTING_PRICE_CHANGED', failedListingId: c.listing.id });
    expect(failing.message).toMatch(/all or nothing/);
    expect(market().state.listing(a.listing.id)?.status).toBe('ACTIVE');

    const report = await core.call('buyListings', {
      lines: [
        { listingId: a.listing.id, maxPrice: 111 },
        { listingId: b.listing.id, maxPrice: 250 },
      ],
    });
    expect(report).toMatchObject({ status: 'bought', spent: 333, boughtListingIds: [a.listing.id, b.listing.id] });
    expect(report.balance.balance).toBe(before - 333);
    const journal = core.session.db
      .prepare("SELECT listing_id, state, order_id FROM purchase_journal WHERE source = 'app-cart' AND state = 'bought' ORDER BY listing_id")
      .all() as { listing_id: number; state: string; order_id: number | null }[];
    expect(journal.map((j) => j.listing_id)).toEqual([a.listing.id, b.listing.id].sort((x, y) => x - y));
    expect(journal.filter((j) => j.order_id === report.orderId)).toHaveLength(1);
  });

  it('names a cart line whose listing left the book by the name the cart showed, not by its id alone', async () => {
    const a = market().createListing({ appId: 440, price: 140 });
    const b = market().createListing({ appId: 252490, price: 260 });
    const alive = (id: number) => core.session.db.prepare('SELECT 1 FROM listings WHERE id = ? AND alive = 1').get(id) !== undefined;
    await until('both listings in the mirror', () => alive(a.listing.id) && alive(b.listing.id));
    // sold to someone else while it sat in the cart: the feed took it out of the book
    market().delistListing(b.listing.id);
    await until('the delisted listing out of the mirror', () => !alive(b.listing.id));
    const report = await core.call('buyListings', {
      lines: [
        { listingId: a.listing.id, maxPrice: 140, shownPrice: 140, name: a.listing.market_hash_name },
        { listingId: b.listing.id, maxPrice: 260, shownPrice: 260, name: b.listing.market_hash_name },
      ],
    });
    expect(report).toMatchObject({ status: 'not_bought', apiCode: 'LISTING_NOT_FOUND', failedListingId: b.listing.id });
    expect(report.message).toContain(`“${b.listing.market_hash_name}” was sold or delisted`);
    expect(market().state.listing(a.listing.id)?.status).toBe('ACTIVE');
  });

  it('holds a cart back when one of its listings has an earlier purchase still unknown, and says which', async () => {
    const a = market().createListing({ appId: 730, price: 155 });
    const b = market().createListing({ appId: 440, price: 166 });
    // a purchase of `a` two minutes ago whose answer was lost, its order history unreadable then (its
    // failure past the late-apply horizon: nothing found settles it)
    const { journal } = purchasing(core);
    const at = Date.now() - 120_000;
    journal.recordIntent({
      intentId: 'earlier-a', createdAtMs: at, listingId: a.listing.id, amount: 1, maxPrice: 155,
      appId: 730, marketHashName: a.listing.market_hash_name, triggerSeq: null, watchlistId: null, source: 'app',
    });
    const lost = { resolution: 'response', errorKind: 'network', errorCode: null, errorMessage: 'interrupted' } as const;
    journal.recordOutcome('earlier-a', { state: 'unknown', orderId: null, note: 'unknown — check orders', ...lost }, at + 10_000);
    const statusOfA = () => market().state.listing(a.listing.id)?.status;

    // the order history is still unreadable (every request fails): the cart is not sent
    market().chaos.set({ rest: { errorRate: 1 } });
    const cart = { lines: [{ listingId: b.listing.id, maxPrice: 166 }, { listingId: a.listing.id, maxPrice: 155 }] };
    const held = await core.call('buyListings', cart).finally(() => market().chaos.calm());
    expect(held).toMatchObject({ status: 'not_bought', apiCode: null, failedListingId: a.listing.id, spent: 0, boughtListingIds: [] });
    expect(held.title).toBe('Not bought');
    expect(held.message).toBe(
      `Skindesk did not send the request: the earlier purchase of “${a.listing.market_hash_name}” (listing ${a.listing.id}) may have been bought (unknown — check orders); ` +
        'buy again to send it anyway. Nothing in the cart was bought (a cart is all or nothing) and nothing was charged.',
    );
    expect(statusOfA()).toBe('ACTIVE');

    // the order history readable again, the earlier purchase is settled (not bought) and the cart sent
    const report = await core.call('buyListings', cart);
    expect(report).toMatchObject({ status: 'bought', spent: 321, boughtListingIds: [b.listing.id, a.listing.id] });
    expect(journal.get('earlier-a')?.state).toBe('not_bought');
  });

  it('buys a private listing with its share token, and not without it', async () => {
    const listing = market().createListing({ appId: 730, price: 444, private: true });
    const token = listing.privateToken as string;
    const without = await core.call('buyListings', { lines: [{ listingId: listing.listing.id, maxPrice: 444 }] });
    expect(without).toMatchObject({ status: 'not_bought', apiCode: 'LISTING_NOT_FOUND' });
    const withToken = await core.call('buyListings', {
      lines: [{ listingId: listing.listing.id, maxPrice: 444, privateToken: token }],
    });
    expect(withToken).toMatchObject({ status: 'bought', spent: 444 });
  });
});

describe('price context, sales history and inspect links', () => {
  it('reads prices and 30-day averages into SQLite and the cheapest listing from the mirror', async () => {
    const row = queryBook(core.session.db, { filter: { app_id: 730 }, sort: { field: 'price', dir: 'asc' }, limit: 1 }).rows[0];
    if (!row) throw new Error('no CS2 listing in the book');
    const context = await core.call('getPriceContext', { app_id: 730, market_hash_name: row.market_hash_name });
    expect(context.problem).toBeNull();
    expect(context.market_price).toBeGreaterThan(0);
    expect(context.recommended_price).toBeGreaterThan(0);
    expect(context.lowest_in_book).toBe(row.price);
    expect(context.listings_in_book).toBeGreaterThan(0);
    expect(context.pricesAsOf).not.toBeNull();
    expect(context.averagesAsOf).not.toBeNull();
    const cachedRows = core.session.db.prepare('SELECT count(*) FROM prices WHERE app_id = 730').pluck().get() as number;
    expect(cachedRows).toBeGreaterThan(10);
    const etag = core.session.db.prepare("SELECT etag FROM cache_entries WHERE key = 'prices-all:730'").pluck().get();
    expect(etag).toEqual(expect.any(String));
    // from the cache, without asking the marketplace
    const offline = await core.call('getPriceContext', { app_id: 730, market_hash_name: row.market_hash_name, refresh: false });
    expect(offline.market_price).toBe(context.market_price);
  });

  it("gives a Doppler its own phase's cheapest listing and sales, apart from the name's", async () => {
    const name = '★ Flip Knife | Doppler (Factory New)';
    const made = Array.from({ length: 40 }, (_, k) => market().createListing({ name, price: 40_000 + k * 100 }));
    const ids = made.map((t) => t.listing.id);
    await until('the Dopplers in the mirror with their details', () =>
      ids.every((id) => core.session.db.prepare('SELECT 1 FROM listing_attrs WHERE id = ? AND alive = 1').get(id) !== undefined),
    );
    // the phase with the most copies, the demo's own paint index of each copy as the truth
    const byIndex = new Map<number, typeof made>();
    for (const t of made) byIndex.set(t.full.cs_paint_index!, [...(byIndex.get(t.full.cs_paint_index!) ?? []), t]);
    const [index, copies] = [...byIndex.entries()].sort((x, y) => y[1].length - x[1].length)[0]!;
    expect(copies.length).toBeGreaterThan(2);
    // sell the two cheapest of that phase and one copy of another phase
    const sold = copies.slice(0, 2);
    const other = made.find((t) => t.full.cs_paint_index !== index)!;
    for (const t of [...sold, other]) market().buyListing(t.listing.id);
    await until('the sales in the sold history', () =>
      (core.session.db.prepare(`SELECT count(*) FROM sold_history WHERE listing_id IN (${[...sold, other].map((t) => t.listing.id).join(',')})`).pluck().get() as number) === 3,
    );
    const left = copies.slice(2);
    // sales of that phase the mirror saw before this test (the demo's own activity), by the same rule
    const before = core.session.db
      .prepare(`SELECT count(*) AS n, coalesce(sum(price * amount), 0) AS paid, coalesce(sum(amount), 0) AS copies FROM sold_history
                WHERE market_hash_name = ? AND paint_index = ? AND listing_id NOT IN (${ids.join(',')})`)
      .get(name, index) as { n: number; paid: number; copies: number };
    const soldPaid = sold.reduce((sum, t) => sum + t.listing.price, 0);
    const context = await core.call('getPriceContext', { app_id: 730, market_hash_name: name, paint_index: index, refresh: false });
    expect(context.phase).toEqual({
      name: expect.any(String),
      lowest_in_book: Math.min(...left.map((t) => t.listing.price)),
      lowest_in_book_id: left.sort((x, y) => x.listing.price - y.listing.price || x.listing.id - y.listing.id)[0]!.listing.id,
      listings_in_book: left.length + queryBook(core.session.db, { filter: { name, paint_index: index }, limit: 1000 }).rows.filter((r) => r.market_hash_name === name && !ids.includes(r.id)).length,
      sales_30d: 2 + before.n,
      average_30d: Math.round((soldPaid + before.paid) / (2 + before.copies)),
    });
    // the name's own figures still count every phase
    expect(context.listings_in_book).toBeGreaterThan(context.phase!.listings_in_book);
    // a finish without phases has none
    const plain = await core.call('getPriceContext', { app_id: 730, market_hash_name: 'AK-47 | Redline (Field-Tested)', paint_index: 282, refresh: false });
    expect(plain.phase).toBeNull();
  });

  it('ranks a listing\'s float among the live listings of its item, as the query engine finds them', async () => {
    // the item of the book with the most detailed listings (so the rank means something)
    const rows = queryBook(core.session.db, { filter: { app_id: 730, float: { min: 0 } }, sort: { field: 'price', dir: 'asc' }, limit: 1000 }).rows;
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.market_hash_name, (counts.get(r.market_hash_name) ?? 0) + 1);
    const [name] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const same = queryBook(core.session.db, { filter: { app_id: 730, name, float: { min: 0 } }, sort: { field: 'float', dir: 'asc' }, limit: 1000 })
      .rows.filter((r) => r.market_hash_name === name);
    const pick = same[Math.floor(same.length / 2)]!;
    const read = await core.call('getListing', { id: pick.id });
    expect(read.floatRank).toEqual({ rank: 1 + same.filter((r) => r.paint_wear! < pick.paint_wear!).length, of: same.length });
  });

  it('prices the stickers of a listing from the same prices/all set, in the order asked', async () => {
    const stickered = queryBook(core.session.db, { filter: { app_id: 730, stickers: { min_count: 1 } }, sort: { field: 'price', dir: 'asc' }, limit: 1 }).rows[0];
    if (!stickered?.stickers?.length) throw new Error('no stickered CS2 listing in the book');
    const names = [...stickered.stickers.map((s) => s.name), 'Sticker | Nobody | Nowhere 2099'];
    const context = await core.call('getPriceContext', { app_id: 730, market_hash_name: stickered.market_hash_name, stickers: names });
    expect(context.stickers.map((s) => s.name)).toEqual(names);
    // every sticker of the demo catalog is an item of its own with a market price; an unknown one is null
    for (const s of context.stickers.slice(0, -1)) expect(s.market_price).toBeGreaterThan(0);
    expect(context.stickers.at(-1)).toEqual({ name: 'Sticker | Nobody | Nowhere 2099', market_price: null });
  });

  it("merges the mirror's sold history with GET /sales, oldest first", async () => {
    const listing = market().createListing({ appId: 730, price: 777 });
    const name = listing.listing.market_hash_name;
    await until('the listing in the mirror', () => queryBook(core.session.db, { filter: { name }, sort: { field: 'id', dir: 'desc' }, limit: 50 }).rows.some((r) => r.id === listing.listing.id));
    market().buyListing(listing.listing.id);
    await until('the sale in the sold history', () =>
      (core.session.db.prepare('SELECT count(*) FROM sold_history WHERE listing_id = ?').pluck().get(listing.listing.id) as number) > 0,
    );
    const history = await core.call('getSalesHistory', { app_id: 730, market_hash_name: name });
    expect(history.sales.some((s) => s.price === 777 && s.source === 'feed')).toBe(true);
    const times = history.sales.map((s) => Date.parse(s.at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(history.marketAsOf).not.toBeNull();
  });

  it("says how long the item's recent sales had been listed before they sold (the median)", async () => {
    const name = market().createListing({ appId: 730 }).listing.market_hash_name;
    const copies = Array.from({ length: 3 }, () => market().createListing({ name }).listing.id);
    await until('the copies in the mirror', () => copies.every((id) => core.session.db.prepare('SELECT 1 FROM listings WHERE id = ?').get(id)));
    for (const id of copies) market().buyListing(id);
    await until('their sales in the sold history', () => copies.every((id) => core.session.db.prepare('SELECT 1 FROM sold_history WHERE listing_id = ?').get(id)));
    const waits = (core.session.db.prepare('SELECT sold_ms, listed_at FROM sold_history WHERE market_hash_name = ? AND app_id = 730').all(name) as { sold_ms: number; listed_at: string }[])
      .map((s) => s.sold_ms - Date.parse(s.listed_at))
      .sort((a, b) => a - b);
    expect(waits.length).toBeGreaterThanOrEqual(3);
    const context = await core.call('getPriceContext', { app_id: 730, market_hash_name: name, refresh: false });
    expect(context.time_to_sell).toEqual({ sales: waits.length, median_ms: waits.length % 2 ? waits[waits.length >> 1] : Math.round((waits[(waits.length >> 1) - 1]! + waits[waits.length >> 1]!) / 2) });
    const unsold = await core.call('getPriceContext', { app_id: 730, market_hash_name: 'No Such Item (Factory New)', refresh: false });
    expect(unsold.time_to_sell).toBeNull();
  });

  it('opens a listing’s inspect link through the platform, and refuses a listing that is not in the book', async () => {
    const row = queryBook(core.session.db, { filter: { app_id: 730, float: { min: 0 } }, sort: { field: 'price', dir: 'asc' }, limit: 1 }).rows[0];
    if (!row) throw new Error('no detailed CS2 listing');
    const opened = await core.call('openInspectLink', { listingId: row.id });
    expect(opened.opened).toBe(true);
    expect(platform.opened.at(-1)).toMatch(/^steam:\/\/rungame\/730\/\d{17}\/\+csgo_econ_action_preview%20[SM]\d+A\d+D\d+$/);
    await expect(core.call('openInspectLink', { listingId: 999_999_999 })).rejects.toMatchObject({ code: 'REFUSED' });
  });
});

describe('export of a view', () => {
  /** Every exportProgress push from now on (subscribed before the call: the id is known only after it). */
  const recordProgress = () => {
    const seen: ExportProgress[] = [];
    const off = core.subscribe((name, payload) => {
      if (name === 'exportProgress') seen.push(payload as ExportProgress);
    });
    return { of: (exportId: string) => seen.filter((p) => p.exportId === exportId), off };
  };
  const jsonLines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown);

  it("writes every row of the book view, in its order and skindesk search's fields, as JSON lines and CSV", async () => {
    const view = { filter: { app_id: 730 as const }, sort: { field: 'price' as const, dir: 'desc' as const } };
    const expected: QueryRow[] = [];
    let after: string | undefined;
    do {
      const page = queryBook(core.session.db, { ...view, limit: 1000, ...(after ? { after } : {}) });
      expected.push(...page.rows);
      after = page.next ?? undefined;
    } while (after);
    expect(expected.length).toBeGreaterThan(100);

    const jsonl = await core.call('exportView', { view: 'book', ...view, format: 'jsonl' });
    if (!jsonl.saved) throw new Error('not saved');
    expect(jsonLines(jsonl.file)).toEqual(expected);
    expect(jsonl).toMatchObject({ rows: expected.length, file: expect.stringMatching(/skindesk-book-.*\.jsonl$/) });

    const progress = recordProgress();
    const csv = await core.call('exportView', { view: 'book', ...view, format: 'csv' });
    if (!csv.saved) throw new Error('not saved');
    const lines = readFileSync(csv.file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(BOOK_ROW_COLUMNS.join(','));
    expect(lines).toHaveLength(expected.length + 1);
    const first = expected[0]!;
    expect(lines[1]).toMatch(new RegExp(`^${first.id},730,`));
    const stickered = expected.findIndex((r) => (r.stickers ?? []).length > 0);
    expect(lines[stickered + 1]).toContain(`"${JSON.stringify(expected[stickered]!.stickers).replaceAll('"', '""')}"`);
    await until('the last progress push', () => progress.of(csv.exportId).find((p) => p.state === 'done'));
    progress.off();
    expect(progress.of(csv.exportId).at(-1)).toMatchObject({ state: 'done', rows: expected.length, bytes: csv.bytes });
    expect(readdirSync(join(dataDir, 'exports')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it("writes the sales tape newest first in skindesk sales's columns, for a game and a name", async () => {
    const sold = Array.from({ length: 4 }, () => market().createListing({ appId: 730 }).listing);
    await until('the listings in the mirror', () => sold.every((l) => core.session.db.prepare('SELECT 1 FROM listings WHERE id = ?').get(l.id)));
    for (const l of sold) market().buyListing(l.id);
    await until('the sales in the sold history', () => sold.every((l) => core.session.db.prepare('SELECT 1 FROM sold_history WHERE listing_id = ?').get(l.id)));
    const name = sold[0]!.market_hash_name;
    const tape = readSalesTape(core.session.db, { app_id: 730, name, limit: 500 }).sales;
    expect(tape.map((s) => s.listing_id)).toContain(sold[0]!.id);
    const exported = await core.call('exportView', { view: 'sales', app_id: 730, name, format: 'jsonl' });
    if (!exported.saved) throw new Error('not saved');
    expect(jsonLines(exported.file)).toEqual(tape.map((s) => Object.fromEntries(SALE_COLUMNS.map((c) => [c, s[c]]))));
    const all = await core.call('exportView', { view: 'sales', format: 'csv' });
    if (!all.saved) throw new Error('not saved');
    const lines = readFileSync(all.file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(SALE_COLUMNS.join(','));
    expect(lines.length - 1).toBe(core.session.db.prepare('SELECT count(*) FROM sold_history').pluck().get());
  });

  it('refuses a view it does not know and a sort field that does not exist', async () => {
    await expect(core.call('exportView', { view: 'orders' } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(core.call('exportView', { view: 'book', sort: { field: 'seed', dir: 'asc' } } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('filter state', () => {
  it('keeps the last view and the presets across a restart of the store', async () => {
    const view = { filter: { app_id: 730 as const, float: { max: 0.07 } }, sort: { field: 'float' as const, dir: 'asc' as const } };
    await core.call('setLastBookView', view);
    await core.call('saveFilterPreset', { name: 'FN floats', view });
    await core.call('saveFilterPreset', { name: 'Cheap', view: { filter: { price: { max: 100 } }, sort: { field: 'price', dir: 'asc' } } });
    const state = await core.call('deleteFilterPreset', { name: 'Cheap' });
    expect(state.presets.map((p) => p.name)).toEqual(['FN floats']);
    const reopened = new ScreenStateStore(dataDir).get();
    expect(reopened.lastView).toEqual(view);
    expect(reopened.presets).toEqual([{ name: 'FN floats', view }]);
  });
});

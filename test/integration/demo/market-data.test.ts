/**
 * Market data routes (spec §4.2): listings with full per-game detail and stable cursor paging, one
 * listing, prices, prices/all, the book, sales and averages — with their caches, ETags and 304s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, fullListing, LISTING_DETAIL_FIELDS, parseJsonWithInt64, type FullListing, type ResponseOf } from '../../../src/shared/api/index.ts';
import { wearBandOf } from '../../../src/shared/wear.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import cs2Data from '../../../src/demo/catalog/cs2-catalog.json' with { type: 'json' };
import { api, connectSocket, expectError, expectOk, parseAs, startTestMarket, type Api } from './helpers.ts';

let market: DemoMarket;
let a: Api;
beforeAll(async () => {
  market = await startTestMarket({ listings: 3_000, seed: 11 });
  a = api(market);
});
afterAll(() => market.close());

type ListingsPage = ResponseOf<'listings'>;
const skins = new Map((cs2Data as unknown as { skins: { weapon: string; paint: string; wear_min: number; wear_max: number }[] }).skins.map((s) => [`${s.weapon} | ${s.paint}`, s]));

async function allListings(query: Record<string, string | number> = {}): Promise<FullListing[]> {
  const rows: FullListing[] = [];
  let cursor: number | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const res = await a.get('/public/v1/listings', { limit: 1000, ...query, ...(cursor ? { cursor } : {}) });
    const body: ListingsPage = parseAs(ENDPOINTS.listings.response, expectOk(res));
    rows.push(...body.listings);
    cursor = body.next_cursor;
    if (cursor === null) return rows;
  }
  throw new Error('paging did not end');
}

describe('GET /listings', () => {
  it('validates limit (500 or 1000, required), page, cursor and app_id', async () => {
    const bad: Record<string, string | number>[] = [{}, { limit: 100 }, { limit: 5 }, { limit: 1000, page: 0 }, { limit: 1000, cursor: '01' }, { limit: 1000, app_id: 1 }, { limit: 1000, app_id: 'x' }];
    for (const query of bad) {
      expectError(await a.get('/public/v1/listings', query), 'VALIDATION_ERROR', 400);
    }
    expectError(await a.get('/public/v1/listings', { limit: 500, page: 1, cursor: 100000001 }), 'VALIDATION_ERROR', 400);
  });

  it('returns the active public book newest first, with metadata, matching the server state', async () => {
    const first = parseAs(ENDPOINTS.listings.response, expectOk(await a.get('/public/v1/listings', { limit: 500 })));
    expect(first.listings).toHaveLength(500);
    const ids = first.listings.map((l) => l.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    expect(first.metadata).toEqual({ total_pages: Math.ceil(market.state.bookSize() / 500), total_items: market.state.bookSize(), current_page: 1, current_limit: 500 });
    const second = parseAs(ENDPOINTS.listings.response, expectOk(await a.get('/public/v1/listings', { limit: 500, page: 2 })));
    expect(second.listings[0]!.id).toBeLessThan(ids.at(-1)!);
    expect(second.metadata.current_page).toBe(2);
    const rows = await allListings();
    expect(rows.map((r) => r.id)).toEqual(market.state.book().listings.map((l) => l.id));
    // newest first by creation: listing ids follow created_at (the demo user's opening listings too)
    const created = rows.map((r) => Date.parse(r.created_at));
    expect(created).toEqual([...created].sort((x, y) => y - x));
  });

  it('filters by app_id, leaving other games\' fields null', async () => {
    for (const appId of [730, 252490, 570, 440] as const) {
      const rows = await allListings({ app_id: appId });
      expect(rows.length).toBe(market.state.book(appId).listings.length);
      expect(rows.every((r) => r.app_id === appId)).toBe(true);
      const prefix = { 730: 'cs_', 252490: 'rust_', 570: 'dota_', 440: 'tf2_' }[appId];
      for (const row of rows.slice(0, 50)) {
        for (const field of LISTING_DETAIL_FIELDS) {
          if (/^(cs|rust|dota|tf2)_/.test(field) && !field.startsWith(prefix)) expect(row[field], field).toBeNull();
        }
      }
    }
  });

  it('pages stably by cursor while the book changes underneath', async () => {
    const before = new Set(market.state.book().listings.map((l) => l.id));
    const seen: number[] = [];
    let cursor: number | null = null;
    for (let guard = 0; guard < 20; guard++) {
      const res = await a.get('/public/v1/listings', { limit: 500, ...(cursor ? { cursor } : {}) });
      const body: ListingsPage = parseAs(ENDPOINTS.listings.response, expectOk(res));
      seen.push(...body.listings.map((l) => l.id));
      // the market moves between pages: new listings, reprices, sales, delists
      market.runActivity(300);
      cursor = body.next_cursor;
      if (cursor === null) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((x, y) => y - x)).toEqual(seen);
    // every listing that was there at the start and is still there was seen
    const still = market.state.book().listings.filter((l) => before.has(l.id)).map((l) => l.id);
    const seenSet = new Set(seen);
    expect(still.filter((id) => !seenSet.has(id))).toEqual([]);
  });

  it('describes CS2 copies faithfully: float inside the skin range and the named wear, fade/blue only where they apply, 0–5 stickers', async () => {
    const rows = (await allListings({ app_id: 730 })).filter((r) => r.cs_paint_wear !== null);
    expect(rows.length).toBeGreaterThan(200);
    let stickered = 0;
    for (const row of rows) {
      const base = row.market_hash_name.replace(/^★ /, '').replace(/^(StatTrak™|Souvenir) /, '').replace(/ \([^)]+\)$/, '');
      const skin = skins.get(base);
      expect(skin, base).toBeDefined();
      expect(row.cs_paint_wear!).toBeGreaterThanOrEqual(skin!.wear_min);
      expect(row.cs_paint_wear!).toBeLessThan(skin!.wear_max);
      expect(wearBandOf(row.cs_paint_wear!).name).toBe(row.cs_wear);
      expect(row.market_hash_name.endsWith(`(${row.cs_wear})`)).toBe(true);
      expect(row.cs_is_stattrak).toBe(row.market_hash_name.includes('StatTrak™'));
      expect(row.cs_is_souvenir).toBe(row.market_hash_name.startsWith('Souvenir '));
      const paint = base.split(' | ')[1]!;
      expect(row.cs_fade_percentage !== null, row.market_hash_name).toBe(/(^| )Fade$/.test(paint) && paint !== 'Marble Fade');
      expect(row.cs_blue_percentage !== null).toBe(paint === 'Case Hardened');
      expect(row.cs_paint_seed!).toBeGreaterThanOrEqual(0);
      expect(row.cs_paint_seed!).toBeLessThanOrEqual(1000);
      expect(row.cs_paint_index).toBeGreaterThan(0);
      expect(row.cs_inspect_link).toContain(`A${row.steam_asset_id}D`);
      expect(row.cs_stickers!.length).toBeLessThanOrEqual(5);
      expect(new Set(row.cs_stickers!.map((s) => s.slot)).size).toBe(row.cs_stickers!.length);
      for (const s of row.cs_stickers!) expect(s.wear! >= 0 && s.wear! <= 1).toBe(true);
      expect(row.cs_keychains!.length).toBeLessThanOrEqual(1);
      if (row.cs_stickers!.length > 0) stickered++;
    }
    expect(stickered).toBeGreaterThan(0);
  });

  it('fills every member of sticker and keychain objects with a number, as §2.3 types them (none nullable)', async () => {
    const rows = await allListings({ app_id: 730 });
    const stickers = rows.flatMap((r) => r.cs_stickers ?? []);
    const keychains = rows.flatMap((r) => r.cs_keychains ?? []);
    expect(stickers.length).toBeGreaterThan(50);
    expect(keychains.length).toBeGreaterThan(10);
    const integers = ['slot', 'sticker_id', 'tint_id', 'pattern'] as const;
    const numbers = ['wear', 'scale', 'rotation', 'offset_x', 'offset_y', 'offset_z'] as const;
    for (const s of [...stickers, ...keychains]) {
      for (const key of integers) expect(Number.isInteger(s[key]), `${key} of ${s.name}`).toBe(true);
      for (const key of numbers) expect(Number.isFinite(s[key]), `${key} of ${s.name}`).toBe(true);
      expect(s.scale!).toBeGreaterThan(0);
      expect(Math.abs(s.rotation!)).toBeLessThanOrEqual(180);
    }
    // stickers have no pattern and keychains no wear: 0 there; most stickers sit where the slot puts them
    expect(stickers.every((s) => s.pattern === 0 && s.wear! >= 0 && s.wear! <= 1)).toBe(true);
    expect(keychains.every((k) => k.wear === 0 && k.pattern! >= 0 && k.pattern! <= 100_000)).toBe(true);
    const untouched = stickers.filter((s) => s.scale === 1 && s.rotation === 0 && s.offset_x === 0 && s.offset_y === 0);
    expect(untouched.length).toBeGreaterThan(stickers.length / 2);
    expect(untouched.length).toBeLessThan(stickers.length);
    // seeded: a listing reads the same every time
    const one = rows.find((r) => (r.cs_stickers ?? []).length > 0)!;
    expect(parseAs(ENDPOINTS.listing.response, expectOk(await a.get(`/public/v1/listings/${one.id}`))).cs_stickers).toEqual(one.cs_stickers);
  });

  it('fills the other games\' own fields', async () => {
    const rust = (await allListings({ app_id: 252490 }))[0]!;
    expect(rust.rust_category && rust.rust_type).toBeTruthy();
    const dota = (await allListings({ app_id: 570 }))[0]!;
    expect(dota.dota_rarity && dota.dota_quality && dota.dota_type).toBeTruthy();
    const tf2 = await allListings({ app_id: 440 });
    expect(tf2.every((r) => Array.isArray(r.tf2_classes) && r.tf2_quality && r.tf2_attributes)).toBe(true);
  });
});

describe('GET /listings/{id}', () => {
  it('returns one full listing, and 404 LISTING_NOT_FOUND once it is sold or delisted', async () => {
    const sold = market.createListing({ appId: 730 });
    const delisted = market.createListing({ appId: 570 });
    for (const l of [sold, delisted]) {
      const row = parseAs(fullListing, expectOk(await a.get(`/public/v1/listings/${l.listing.id}`)));
      expect(row).toMatchObject(l.listing);
    }
    market.buyListing(sold.listing.id);
    market.delistListing(delisted.listing.id);
    expectError(await a.get(`/public/v1/listings/${sold.listing.id}`), 'LISTING_NOT_FOUND', 404);
    expectError(await a.get(`/public/v1/listings/${delisted.listing.id}`), 'LISTING_NOT_FOUND', 404);
    expectError(await a.get('/public/v1/listings/99999999'), 'LISTING_NOT_FOUND', 404);
  });

  it('hides a private listing from everyone but its seller', async () => {
    const mine = market.createListing({ private: true, seller: 1 });
    const theirs = market.createListing({ private: true });
    expectOk(await a.get(`/public/v1/listings/${mine.listing.id}`));
    expectError(await a.get(`/public/v1/listings/${theirs.listing.id}`), 'LISTING_NOT_FOUND', 404);
    expectError(await api(market, market.accounts[1]!.apiKey).get(`/public/v1/listings/${mine.listing.id}`), 'LISTING_NOT_FOUND', 404);
  });

  it('shows its seller a disabled listing (neither sold nor delisted, spec §3.1), and nobody else', async () => {
    const rows = parseAs(ENDPOINTS.myListings.response, expectOk(await a.get('/public/v1/my-listings', { page: 1, limit: 100, status: 'DISABLED' }))).listings;
    const disabled = rows[0]!;
    expect(disabled).toBeDefined();
    expect(parseAs(ENDPOINTS.listing.response, expectOk(await a.get(`/public/v1/listings/${disabled.id}`)))).toMatchObject({ id: disabled.id, price: disabled.price, amount: disabled.amount });
    expectError(await api(market, market.accounts[1]!.apiKey).get(`/public/v1/listings/${disabled.id}`), 'LISTING_NOT_FOUND', 404);
  });
});

describe('GET /prices', () => {
  it('pages price rows alphabetically, with lowest_listing_price from the book', async () => {
    expectError(await a.get('/public/v1/prices', { page: 1 }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/prices', { page: 1, limit: 20 }), 'VALIDATION_ERROR', 400);
    const body = parseAs(ENDPOINTS.prices.response, expectOk(await a.get('/public/v1/prices', { page: 3, limit: 100, app_id: 570 })));
    const names = body.prices.map((p) => p.market_hash_name);
    expect([...names].sort()).toEqual(names);
    expect(body.metadata.current_page).toBe(3);
    expect(body.prices.every((p) => p.app_id === 570 && !('stock' in p))).toBe(true);
    const book = market.state.book(570).listings;
    for (const p of body.prices) {
      const prices = book.filter((l) => l.market_hash_name === p.market_hash_name).map((l) => l.price);
      expect(p.lowest_listing_price).toBe(prices.length ? Math.min(...prices) : null);
    }
    const beyond = parseAs(ENDPOINTS.prices.response, expectOk(await a.get('/public/v1/prices', { page: 999, limit: 100, app_id: 570 })));
    expect(beyond.prices).toEqual([]);
  });

  it('reads the book as it is at the request (the spec caches prices/all, book and averages, not prices)', async () => {
    const query = { page: 1, limit: 5, app_id: 440 };
    const before = parseAs(ENDPOINTS.prices.response, expectOk(await a.get('/public/v1/prices', query))).prices[0]!;
    expect(before.lowest_listing_price).not.toBe(1);
    // a moment later someone lists that item for 1 cent: the next read names it the cheapest
    const cheapest = market.createListing({ name: before.market_hash_name, price: 1 });
    const after = parseAs(ENDPOINTS.prices.response, expectOk(await a.get('/public/v1/prices', query))).prices[0]!;
    expect(after.market_hash_name).toBe(before.market_hash_name);
    expect(after.lowest_listing_price).toBe(1);
    // and once it sold, it is no longer the cheapest
    market.buyListing(cheapest.listing.id);
    const sold = parseAs(ENDPOINTS.prices.response, expectOk(await a.get('/public/v1/prices', query))).prices[0]!;
    expect(sold.lowest_listing_price).toBe(before.lowest_listing_price);
  });
});

describe('GET /prices/all', () => {
  it('gives every price with stock and listing_count, cached 60 s with an ETag and 304', async () => {
    const res = await a.get('/public/v1/prices/all', { app_id: 252490 });
    const body = parseAs(ENDPOINTS.pricesAll.response, expectOk(res));
    const book = market.state.book(252490).listings;
    for (const p of body.prices) {
      const rows = book.filter((l) => l.market_hash_name === p.market_hash_name);
      expect(p.stock).toBe(rows.reduce((s, l) => s + l.amount, 0));
      expect(p.listing_count).toBe(rows.length);
    }
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await a.get('/public/v1/prices/all', { app_id: 252490 }, { 'if-none-match': etag })).status).toBe(304);
    // inside 60 s the cached copy is served even though the market moved
    market.runActivity(400);
    const again = parseAs(ENDPOINTS.pricesAll.response, expectOk(await a.get('/public/v1/prices/all', { app_id: 252490 })));
    expect(again.generated_at).toBe(body.generated_at);
    market.advanceClock(61_000);
    const fresh = await a.get('/public/v1/prices/all', { app_id: 252490 }, { 'if-none-match': etag });
    const freshBody = parseAs(ENDPOINTS.pricesAll.response, expectOk(fresh));
    expect(freshBody.generated_at).not.toBe(body.generated_at);
    expect(fresh.headers.get('etag')).not.toBe(etag);
  });
});

describe('GET /book', () => {
  it('is the whole active book at the seq of the last event, cached 10 s with ETag and 304', async () => {
    market.runActivity(50);
    const res = await a.get('/public/v1/book');
    // taken after: building the snapshot first publishes the moves of decaying prices (their price now)
    const truth = market.state.book();
    const body = parseAs(ENDPOINTS.book.response, expectOk(res));
    expect(body.seq).toBe(truth.seq);
    expect(body.listings).toEqual(truth.listings);
    expect(Object.keys(body.listings[0]!).sort()).toEqual(['amount', 'app_id', 'commodity', 'created_at', 'id', 'market_hash_name', 'price']);
    const etag = res.headers.get('etag')!;
    expect((await a.get('/public/v1/book', {}, { 'if-none-match': etag })).status).toBe(304);
    // cached: the same snapshot (valid at its seq) although events were published since
    market.runActivity(50);
    const cached = parseAs(ENDPOINTS.book.response, expectOk(await a.get('/public/v1/book')));
    expect(cached.seq).toBe(body.seq);
    expect(market.state.seq()).toBeGreaterThan(body.seq);
    market.advanceClock(10_001);
    const fresh = await a.get('/public/v1/book', {}, { 'if-none-match': etag });
    const freshBody = parseAs(ENDPOINTS.book.response, expectOk(fresh));
    expect(freshBody.seq).toBe(market.state.seq());
    expect(freshBody.listings).toEqual(market.state.book().listings);
  });

  it('filters by app_id', async () => {
    market.advanceClock(10_001);
    const body = parseAs(ENDPOINTS.book.response, expectOk(await a.get('/public/v1/book', { app_id: 440 })));
    expect(body.listings).toEqual(market.state.book(440).listings);
  });

  it("gives a filtered book an ETag of its own game: other games' events keep its 304, its own events change it", async () => {
    market.advanceClock(10_001);
    const first = await a.get('/public/v1/book', { app_id: 730 });
    const etag = first.headers.get('etag')!;
    const firstBody = parseAs(ENDPOINTS.book.response, expectOk(first));

    // another game's listing changes: the global seq moves on, the 730 rows do not
    market.createListing({ appId: 440 });
    market.advanceClock(10_001);
    expect(market.state.seq()).toBeGreaterThan(firstBody.seq);
    const unchanged = await a.get('/public/v1/book', { app_id: 730 }, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);

    // one of its own rows changes: a full answer with a new ETag
    const own = market.createListing({ appId: 730 });
    market.advanceClock(10_001);
    const changed = await a.get('/public/v1/book', { app_id: 730 }, { 'if-none-match': etag });
    const changedBody = parseAs(ENDPOINTS.book.response, expectOk(changed));
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changedBody.listings[0]!.id).toBe(own.listing.id);

    // its own events that cancel out (a listing created and delisted) still change it: a client that
    // applied them needs a snapshot at least as new as they are, not the older copy it holds
    const before = changed.headers.get('etag')!;
    const passing = market.createListing({ appId: 730 });
    market.delistListing(passing.listing.id);
    const lastOwnEvent = market.state.seq();
    market.createListing({ appId: 440 });
    market.advanceClock(10_001);
    const roundTrip = await a.get('/public/v1/book', { app_id: 730 }, { 'if-none-match': before });
    const roundTripBody = parseAs(ENDPOINTS.book.response, expectOk(roundTrip));
    expect(roundTripBody.listings).toEqual(changedBody.listings);
    expect(roundTripBody.seq).toBeGreaterThanOrEqual(lastOwnEvent);
    expect(roundTrip.headers.get('etag')).not.toBe(before);
  });

  it("carries X-Book-Seq with a full answer only: a 304 does not relabel the copy the client holds with a newer seq", async () => {
    market.advanceClock(10_001);
    const first = await a.get('/public/v1/book', { app_id: 570 });
    const firstBody = parseAs(ENDPOINTS.book.response, expectOk(first));
    expect(first.headers.get('x-book-seq')).toBe(firstBody.seq.toString());

    // only another game moves: the new 570 snapshot is built at a later seq but keeps the ETag, so the
    // answer is a 304 standing for the client's copy at firstBody.seq, which the server cannot name
    market.createListing({ appId: 440 });
    market.advanceClock(10_001);
    expect(market.state.seq()).toBeGreaterThan(firstBody.seq);
    const notModified = await a.get('/public/v1/book', { app_id: 570 }, { 'if-none-match': first.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('x-book-seq')).toBeNull();
  });

  it('never answers 304 to an ETag of another filter, even when both books hold the same rows', async () => {
    market.advanceClock(10_001);
    const tags = new Map<string, string>();
    for (const appId of [undefined, 730, 252490, 570, 440]) {
      const res = await a.get('/public/v1/book', appId === undefined ? {} : { app_id: appId });
      expectOk(res);
      tags.set(String(appId ?? 'all'), res.headers.get('etag')!);
    }
    expect(new Set(tags.values()).size).toBe(tags.size);
    for (const [filter, etag] of tags) {
      for (const appId of [undefined, 730, 252490, 570, 440]) {
        if (String(appId ?? 'all') === filter) continue;
        expect((await a.get('/public/v1/book', appId === undefined ? {} : { app_id: appId }, { 'if-none-match': etag })).status, `${filter} → ${appId}`).toBe(200);
      }
    }
    // two empty books (no listing of either game) are alike byte for byte but still not one ETag
    const empty = await startTestMarket({ listings: 0 });
    try {
      const e = api(empty);
      const tag = (await e.get('/public/v1/book', { app_id: 570 })).headers.get('etag')!;
      const other = await e.get('/public/v1/book', { app_id: 440 }, { 'if-none-match': tag });
      expect(parseAs(ENDPOINTS.book.response, expectOk(other)).listings).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});

describe('decaying listings (spec §2.2: the price right now)', () => {
  it('read at the curve\'s point now, each move announced on the feed at or below the seq of the /book that shows it', async () => {
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f.event === 'connected');
    const l = market.createListing({ appId: 730, decay: { start_price: 10_000, end_price: 5_000, total_hours: 100 } });
    const id = l.listing.id;
    // no periodic refresh runs in between: every read has to price the listing itself
    market.advanceClock(10 * 3_600_000);
    expect(parseAs(ENDPOINTS.listing.response, expectOk(await a.get(`/public/v1/listings/${id}`))).price).toBe(9_500);
    market.advanceClock(10 * 3_600_000);
    const page = parseAs(ENDPOINTS.listings.response, expectOk(await a.get('/public/v1/listings', { limit: 500, app_id: 730 })));
    expect(page.listings.find((r) => r.id === id)?.price).toBe(9_000);
    market.advanceClock(10 * 3_600_000); // also past the book's cache
    const book = parseAs(ENDPOINTS.book.response, expectOk(await a.get('/public/v1/book')));
    expect(book.listings.find((r) => r.id === id)?.price).toBe(8_500);
    // what a client merging /book and the feed by seq holds is the server's book
    expect(market.state.book().listings.find((r) => r.id === id)?.price).toBe(8_500);
    const isMove = (f: Record<string, unknown>) => f.event === 'listing.price_changed' && (f.data as { listing_id: number }).listing_id === id;
    await socket.waitFor((f) => isMove(f) && (f.data as { price_after: number }).price_after === 8_500);
    const moves = socket.texts.map((t) => parseJsonWithInt64(t, ['seq']) as { event: string; seq: bigint; data: { listing_id: number; price_before: number; price_after: number } }).filter(isMove);
    expect(moves.map((m) => [m.data.price_before, m.data.price_after])).toEqual([[10_000, 9_500], [9_500, 9_000], [9_000, 8_500]]);
    expect(moves.every((m) => m.seq <= book.seq)).toBe(true);
    await socket.close();
  });
});

describe('GET /sales and /sales/averages', () => {
  it('lists recent sales newest first, filtered by app_id and exact market_hash_name', async () => {
    const l = market.createListing({ appId: 730 });
    market.buyListing(l.listing.id);
    const body = parseAs(ENDPOINTS.sales.response, expectOk(await a.get('/public/v1/sales', { page: 1, limit: 100 })));
    expect(body.sales[0]).toMatchObject({ market_hash_name: l.listing.market_hash_name, price: l.listing.price });
    const times = body.sales.map((s) => s.sold_at);
    expect([...times].sort().reverse()).toEqual(times);
    const byName = parseAs(ENDPOINTS.sales.response, expectOk(await a.get('/public/v1/sales', { market_hash_name: l.listing.market_hash_name, limit: 100 })));
    expect(byName.sales.every((s) => s.market_hash_name === l.listing.market_hash_name)).toBe(true);
    const byApp = parseAs(ENDPOINTS.sales.response, expectOk(await a.get('/public/v1/sales', { app_id: 570, limit: 50 })));
    expect(byApp.sales.length).toBeGreaterThan(0);
    expect(byApp.sales.every((s) => s.app_id === 570)).toBe(true);
  });

  it('averages volume-weighted over 30 days without refunded sales, cached 10 min with ETag and 304', async () => {
    const res = await a.get('/public/v1/sales/averages', { app_id: 570 });
    const body = parseAs(ENDPOINTS.salesAverages.response, expectOk(res));
    expect(body.window_days).toBe(30);
    // recompute one item that has a refunded sale from the sales route
    const sales: { price: number; amount: number; sold_at: string; refunded?: boolean; market_hash_name: string }[] = [];
    for (let p = 1; p < 500; p++) {
      const page = expectOk(await a.get('/public/v1/sales', { app_id: 570, page: p, limit: 100 })) as { sales: typeof sales };
      sales.push(...page.sales);
      if (page.sales.length < 100) break;
    }
    const refundedName = sales.find((s) => s.refunded)?.market_hash_name ?? sales[0]!.market_hash_name;
    // the window is exactly the last 30 × 24 h (the seeded history reaches 33 days back)
    const windowStart = Date.parse(body.generated_at) - 30 * 86_400_000;
    expect(sales.some((s) => Date.parse(s.sold_at) < windowStart)).toBe(true);
    const counted = sales.filter((s) => s.market_hash_name === refundedName && !s.refunded && Date.parse(s.sold_at) >= windowStart);
    const row = body.averages.find((r) => r.market_hash_name === refundedName)!;
    expect(row).toBeDefined();
    const volume = counted.reduce((s, x) => s + x.amount, 0);
    expect(row.volume).toBe(volume);
    expect(row.sales).toBe(counted.length);
    expect(row.average_price).toBe(Math.round(counted.reduce((s, x) => s + x.price * x.amount, 0) / volume));
    expect(sales.some((s) => s.market_hash_name === refundedName && s.refunded)).toBe(true);
    const etag = res.headers.get('etag')!;
    expect((await a.get('/public/v1/sales/averages', { app_id: 570 }, { 'if-none-match': etag })).status).toBe(304);
    const l = market.createListing({ appId: 570 });
    market.buyListing(l.listing.id);
    const cached = parseAs(ENDPOINTS.salesAverages.response, expectOk(await a.get('/public/v1/sales/averages', { app_id: 570 })));
    expect(cached.generated_at).toBe(body.generated_at);
    market.advanceClock(10 * 60_000 + 1);
    const fresh = await a.get('/public/v1/sales/averages', { app_id: 570 }, { 'if-none-match': etag });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).not.toBe(etag);
  });
});

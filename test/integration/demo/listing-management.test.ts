/**
 * The seller's own listings (spec §4.4): POST /list with groups and commodity pools, price decay,
 * LISTING_LIMIT_REACHED; PATCH /list rules 1–6 and its bulk form; delist single and bulk; my-listings
 * and its value; the backpack route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, LIMITS, type MyListing } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, connectSocket, expectError, expectOk, parseAs, startTestMarket, type Api } from './helpers.ts';

let market: DemoMarket;
let a: Api;
beforeAll(async () => {
  market = await startTestMarket({ seed: 41 });
  a = api(market);
});
afterAll(() => market.close());

const list = (listings: unknown[]) => a.post('/public/v1/list', { listings });
const backpackAmount = async (id: number) => {
  const items = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100 }))).items;
  return items.find((i) => i.id === id)?.amount ?? 0;
};
const backpackCopies = async (name: string) => {
  const items = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100, search: name }))).items;
  return items.filter((i) => i.market_hash_name === name).reduce((s, i) => s + i.amount, 0);
};
async function myListings(query: Record<string, string | number> = {}): Promise<(MyListing & { status?: string; private_token?: string })[]> {
  const rows: MyListing[] = [];
  for (let p = 1; p < 50; p++) {
    const body = parseAs(ENDPOINTS.myListings.response, expectOk(await a.get('/public/v1/my-listings', { page: p, limit: 100, ...query })));
    rows.push(...body.listings);
    if (p >= body.metadata.total_pages) break;
  }
  return rows;
}

describe('POST /list', () => {
  it('turns each group into one listing and publishes listing.created', async () => {
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f.event === 'connected');
    const skin = market.giveBackpack(1, 'AK-47 | Redline (Field-Tested)');
    const keys = market.giveBackpack(1, 'Mann Co. Supply Crate Key', 10);
    const body = parseAs(ENDPOINTS.list.response, expectOk(await list([
      { items: [{ id: skin, amount: 1 }], price: 1_500 },
      { items: [{ id: keys, amount: 4 }], price: 230 },
    ])));
    expect(body.listings.map((l) => [l.market_hash_name, l.amount, l.price, l.commodity])).toEqual([
      ['AK-47 | Redline (Field-Tested)', 1, 1_500, false],
      ['Mann Co. Supply Crate Key', 4, 230, true],
    ]);
    expect(await backpackAmount(skin)).toBe(0);
    const created = await socket.waitFor((f) => f.event === 'listing.created' && (f.data as { listing_id: number }).listing_id === body.listings[1]!.id);
    expect(created.frame.data).toMatchObject({ amount: 4, price: 230, tf2_quality: 'Unique' });
    await socket.close();
  });

  it('draws one commodity row as one pool across groups; asking for more is INSUFFICIENT_ITEMS and lists nothing', async () => {
    const row = market.giveBackpack(1, 'Refined Metal', 12);
    const start = await backpackAmount(row);
    const before = market.state.eventsPublished();
    expectError(await list([{ items: [{ id: row, amount: start - 2 }], price: 5 }, { items: [{ id: row, amount: 3 }], price: 6 }]), 'INSUFFICIENT_ITEMS', 409);
    expect(market.state.eventsPublished()).toBe(before);
    expect(await backpackAmount(row)).toBe(start);
    const ok = parseAs(ENDPOINTS.list.response, expectOk(await list([{ items: [{ id: row, amount: start - 3 }], price: 5 }, { items: [{ id: row, amount: 3 }], price: 6 }])));
    expect(ok.listings.map((l) => l.amount)).toEqual([start - 3, 3]);
    expect(await backpackAmount(row)).toBe(0);
    expectError(await list([{ items: [{ id: 123, amount: 1 }], price: 5 }]), 'BACKPACK_ITEM_NOT_FOUND', 404);
  });

  it('enforces 50 groups of 50 entries, one item per group, and exactly one of price and price_decay', async () => {
    const row = market.giveBackpack(1, 'Scrap Metal', 100);
    const entry = { id: row, amount: 1 };
    expectError(await list(Array.from({ length: 51 }, () => ({ items: [entry], price: 1 }))), 'VALIDATION_ERROR', 400);
    expectError(await list([{ items: Array.from({ length: 51 }, () => entry), price: 1 }]), 'VALIDATION_ERROR', 400);
    expectOk(await list([{ items: Array.from({ length: 50 }, () => entry), price: 1 }]));
    const other = market.giveBackpack(1, 'Reclaimed Metal', 2);
    expectError(await list([{ items: [entry, { id: other, amount: 1 }], price: 1 }]), 'VALIDATION_ERROR', 400);
    expectError(await list([{ items: [entry] }]), 'VALIDATION_ERROR', 400);
    expectError(await list([{ items: [entry], price: 5, price_decay: { start_price: 9, end_price: 5, total_hours: 24 } }]), 'VALIDATION_ERROR', 400);
  });

  it('lists with a price decay of 24 to 168 hours; the price follows the curve', async () => {
    const row = market.giveBackpack(1, 'AWP | Asiimov (Field-Tested)');
    for (const hours of [23, 169]) {
      expectError(await list([{ items: [{ id: row, amount: 1 }], price_decay: { start_price: 10_000, end_price: 6_000, total_hours: hours } }]), 'VALIDATION_ERROR', 400);
    }
    expectError(await list([{ items: [{ id: row, amount: 1 }], price_decay: { start_price: 10_000, end_price: 10_000, total_hours: 48 } }]), 'VALIDATION_ERROR', 400);
    const [listing] = parseAs(ENDPOINTS.list.response, expectOk(await list([{ items: [{ id: row, amount: 1 }], price_decay: { start_price: 10_000, end_price: 6_000, total_hours: 48 } }]))).listings;
    expect(listing!.price).toBe(10_000);
    market.advanceClock(12 * 3_600_000);
    expect(market.refreshDecay()).toBeGreaterThan(0);
    const row2 = (await myListings({ status: 'ACTIVE' })).find((l) => l.id === listing!.id)!;
    expect(row2.price).toBe(9_000);
    expect(row2.price_decay).toMatchObject({ start_price: 10_000, end_price: 6_000, total_hours: 48 });
    expect(row2.price_decay!.elapsed_hours).toBeCloseTo(12, 1);
    expect(parseAs(ENDPOINTS.listing.response, expectOk(await a.get(`/public/v1/listings/${listing!.id}`))).price).toBe(9_000);
    // reads do not wait for the periodic refresh: the price is the curve's point at the request
    market.advanceClock(6 * 3_600_000);
    const rows = await myListings();
    expect(rows.find((l) => l.id === listing!.id)!.price).toBe(8_500);
    // my-listings/value counts at the same prices
    const value = parseAs(ENDPOINTS.myListingsValue.response, expectOk(await a.get('/public/v1/my-listings/value'))).total_value;
    const live = rows.filter((l) => l.status !== 'FILLED');
    expect(value).toBe(live.reduce((sum, l) => sum + l.price * l.amount, 0));
  });

  it('stops at the listing ceiling with LISTING_LIMIT_REACHED', async () => {
    const value = parseAs(ENDPOINTS.myListingsValue.response, expectOk(await a.get('/public/v1/my-listings/value')));
    const room = LIMITS.listedItemsCeiling - value.item_count;
    expect(room).toBeGreaterThan(1);
    const row = market.giveBackpack(1, 'Scrap Metal', room + 5);
    expectError(await list([{ items: [{ id: row, amount: room + 1 }], price: 1 }]), 'LISTING_LIMIT_REACHED', 409);
    const [full] = parseAs(ENDPOINTS.list.response, expectOk(await list([{ items: [{ id: row, amount: room }], price: 1 }]))).listings;
    expectError(await list([{ items: [{ id: row, amount: 1 }], price: 1 }]), 'LISTING_LIMIT_REACHED', 409);
    expectOk(await a.post('/public/v1/delist', { listing_id: full!.id }));
  });
});

describe('PATCH /list', () => {
  const edit = (body: unknown) => a.patch('/public/v1/list', body);
  async function commodityListing(amount: number, price: number, name = 'Mann Co. Supply Crate Key') {
    const row = market.giveBackpack(1, name, amount);
    const [l] = parseAs(ENDPOINTS.list.response, expectOk(await list([{ items: [{ id: row, amount }], price }]))).listings;
    return l!;
  }

  it('rule 5: price alone reprices the whole stack in place and publishes price_changed', async () => {
    const l = await commodityListing(6, 250);
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f.event === 'connected');
    const edited = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listing_id: l.id, price: 240 })));
    expect(edited).toMatchObject({ id: l.id, price: 240, amount: 6 });
    const ev = await socket.waitFor((f) => f.event === 'listing.price_changed' && (f.data as { listing_id: number }).listing_id === l.id);
    expect(ev.frame.data).toMatchObject({ price_before: 250, price_after: 240 });
    await socket.close();
  });

  it('rule 2: raising amount takes more of the same item from the backpack; beyond it, INSUFFICIENT_ITEMS', async () => {
    const name = 'Tour of Duty Ticket';
    const l = await commodityListing(3, 100, name);
    market.giveBackpack(1, name, 4);
    const available = (await myListings({ status: 'ACTIVE' })).find((r) => r.id === l.id)!.available_amount;
    expect(available).toBe(await backpackCopies(name));
    expectError(await edit({ listing_id: l.id, amount: 3 + available + 1 }), 'INSUFFICIENT_ITEMS', 409);
    const edited = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listing_id: l.id, amount: 3 + available })));
    expect(edited).toMatchObject({ amount: 3 + available, price: 100 });
    expect(await backpackCopies(name)).toBe(0);
  });

  it('rule 3: lowering amount without price returns the surplus to the backpack', async () => {
    const name = 'Name Tag';
    const l = await commodityListing(8, 40, name);
    const before = await backpackCopies(name);
    const edited = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listing_id: l.id, amount: 5 })));
    expect(edited).toMatchObject({ amount: 5, price: 40 });
    expect(await backpackCopies(name)).toBe(before + 3);
  });

  it('rule 4: lowering amount with price is a partial reprice — the surplus stays listed at the old price', async () => {
    const l = await commodityListing(10, 300);
    const edited = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listing_id: l.id, amount: 4, price: 280 })));
    expect(edited).toMatchObject({ id: l.id, amount: 4, price: 280 });
    const split = (await myListings({ status: 'ACTIVE' })).find((r) => r.id > l.id && r.market_hash_name === l.market_hash_name && r.price === 300);
    expect(split).toMatchObject({ amount: 6 });
    // the presence of price decides, not whether its value changed
    const same = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listing_id: l.id, amount: 1, price: 280 })));
    expect(same).toMatchObject({ amount: 1, price: 280 });
    const second = (await myListings({ status: 'ACTIVE' })).find((r) => r.market_hash_name === l.market_hash_name && r.price === 280 && r.amount === 3);
    expect(second).toBeDefined();
  });

  it('rule 1: price_decay is sent instead of price, and counts as a price in the other rules', async () => {
    const l = await commodityListing(6, 500);
    const decay = { start_price: 600, end_price: 300, total_hours: 24 };
    const edited = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listing_id: l.id, amount: 2, price_decay: decay })));
    expect(edited).toMatchObject({ amount: 2, price: 600 });
    const rows = await myListings({ status: 'ACTIVE' });
    expect(rows.find((r) => r.id === l.id)!.price_decay).toMatchObject(decay);
    expect(rows.find((r) => r.id > l.id && r.price === 500 && r.amount === 4)).toBeDefined();
    expectError(await edit({ listing_id: l.id, price: 5, price_decay: decay }), 'VALIDATION_ERROR', 400);
    // a plain price ends the decay
    expectOk(await edit({ listing_id: l.id, price: 450 }));
    expect((await myListings({ status: 'ACTIVE' })).find((r) => r.id === l.id)!.price_decay).toBeNull();
  });

  it('rule 6 and the bulk form: each row in its own transaction, results in order', async () => {
    const x = await commodityListing(2, 100);
    const y = await commodityListing(2, 110);
    const other = market.createListing({ appId: 730 });
    const body = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({
      listings: [
        { listing_id: x.id, price: 90 },
        { listing_id: 99_999_999, price: 90 },
        { listing_id: other.listing.id, price: 1 },
        { listing_id: y.id, amount: 1 },
      ],
    }))) as { results: { ok: boolean; error?: string | null; listing_id?: number }[] };
    expect(body.results.map((r) => [r.ok, r.error ?? null])).toEqual([[true, null], [false, 'LISTING_NOT_FOUND'], [false, 'LISTING_NOT_FOUND'], [true, null]]);
    const rows = await myListings({ status: 'ACTIVE' });
    expect(rows.find((r) => r.id === x.id)!.price).toBe(90);
    expect(rows.find((r) => r.id === y.id)!.amount).toBe(1);
    expect(market.state.listing(other.listing.id)!.listing.price).toBe(other.listing.price);
    expectError(await edit({ listings: Array.from({ length: 51 }, () => ({ listing_id: x.id, price: 1 })) }), 'VALIDATION_ERROR', 400);
    expectError(await edit({ listing_id: x.id }), 'VALIDATION_ERROR', 400);
  });

  it('does not edit a disabled listing of the caller (not on the market): LISTING_NOT_FOUND, and it stays as it was', async () => {
    const rows = await myListings({ status: 'DISABLED' });
    const l = rows.find((r) => r.commodity && r.amount >= 2)!;
    expect(l, 'a disabled commodity listing of the demo user').toBeDefined();
    const before = market.state.eventsPublished();
    for (const change of [{ price: l.price + 1 }, { amount: l.amount - 1 }, { amount: l.amount - 1, price: l.price + 1 }]) {
      expectError(await edit({ listing_id: l.id, ...change }), 'LISTING_NOT_FOUND', 404);
    }
    const body = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({ listings: [{ listing_id: l.id, price: l.price + 1 }] }))) as { results: { ok: boolean; error?: string | null }[] };
    expect(body.results.map((r) => [r.ok, r.error ?? null])).toEqual([[false, 'LISTING_NOT_FOUND']]);
    expect(market.state.eventsPublished()).toBe(before);
    const after = (await myListings({ status: 'DISABLED' })).filter((r) => r.market_hash_name === l.market_hash_name);
    expect(after.find((r) => r.id === l.id)).toMatchObject({ price: l.price, amount: l.amount });
    expect(after).toHaveLength(rows.filter((r) => r.market_hash_name === l.market_hash_name).length);
  });

  it('edits a private listing (on the market through its share link); a partial reprice leaves the surplus private, with a link of its own', async () => {
    const rows = await myListings({ status: 'PRIVATE' });
    const l = rows.find((r) => r.commodity && r.amount >= 2)!;
    expect(l, 'a private commodity listing of the demo user').toBeDefined();
    expectOk(await edit({ listing_id: l.id, amount: l.amount - 1, price: l.price + 1 }));
    const after = await myListings({ status: 'PRIVATE' });
    expect(after.find((r) => r.id === l.id)).toMatchObject({ price: l.price + 1, amount: l.amount - 1 });
    const surplus = after.find((r) => r.id > l.id && r.market_hash_name === l.market_hash_name && r.price === l.price);
    expect(surplus).toMatchObject({ amount: 1 });
    expect(typeof surplus!.private_token).toBe('string');
    expect(surplus!.private_token).not.toBe(l.private_token);
  });

  it('bulk: a row the single form would refuse as invalid is its own VALIDATION_ERROR; the other rows apply', async () => {
    const x = await commodityListing(2, 100);
    const y = await commodityListing(3, 120);
    const decay = { start_price: 600, end_price: 300, total_hours: 24 };
    const bad = [
      { listing_id: x.id, price: 0 },
      { listing_id: 0, price: 50 },
      { listing_id: x.id },
      { listing_id: x.id, price: 5, price_decay: decay },
      { listing_id: x.id, amount: 1.5 },
      { listing_id: x.id, price: 50, colour: 'red' },
      'not a row',
    ];
    // each of these is refused by the single form with VALIDATION_ERROR...
    for (const row of bad.slice(0, -1)) expectError(await edit(row), 'VALIDATION_ERROR', 400);
    const before = market.state.eventsPublished();
    // ...and in the bulk form they fail only their own row
    const body = parseAs(ENDPOINTS.editListing.response, expectOk(await edit({
      listings: [{ listing_id: x.id, price: 95 }, ...bad, { listing_id: y.id, amount: 1 }],
    }))) as { results: { ok: boolean; error?: string | null; listing_id?: number }[] };
    expect(body.results.map((r) => [r.ok, r.error ?? null, r.listing_id ?? null])).toEqual([
      [true, null, x.id],
      [false, 'VALIDATION_ERROR', x.id],
      [false, 'VALIDATION_ERROR', null],
      [false, 'VALIDATION_ERROR', x.id],
      [false, 'VALIDATION_ERROR', x.id],
      [false, 'VALIDATION_ERROR', x.id],
      [false, 'VALIDATION_ERROR', x.id],
      [false, 'VALIDATION_ERROR', null],
      [true, null, y.id],
    ]);
    const rows = await myListings({ status: 'ACTIVE' });
    expect(rows.find((r) => r.id === x.id)).toMatchObject({ price: 95, amount: 2 });
    expect(rows.find((r) => r.id === y.id)).toMatchObject({ price: 120, amount: 1 });
    expect(market.state.eventsPublished()).toBeGreaterThan(before);
    // the envelope itself is still checked as a whole
    for (const envelope of [{ listings: [] }, { listings: 'x' }, { listings: { listing_id: x.id, price: 1 } }, { listings: [{ listing_id: x.id, price: 1 }], listing_id: x.id }]) {
      expectError(await edit(envelope), 'VALIDATION_ERROR', 400);
    }
  });
});

describe('POST /delist', () => {
  it('removes a listing, returns its items to the backpack and publishes listing.removed', async () => {
    const row = market.giveBackpack(1, 'Desert Eagle | Blaze (Factory New)');
    const [l] = parseAs(ENDPOINTS.list.response, expectOk(await list([{ items: [{ id: row, amount: 1 }], price: 50_000 }]))).listings;
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f.event === 'connected');
    expect(expectOk(await a.post('/public/v1/delist', { listing_id: l!.id }))).toEqual({ listing_id: l!.id });
    await socket.waitFor((f) => f.event === 'listing.removed' && (f.data as { listing_id: number }).listing_id === l!.id);
    expect(await backpackAmount(row)).toBe(1);
    expectError(await a.get(`/public/v1/listings/${l!.id}`), 'LISTING_NOT_FOUND', 404);
    expectError(await a.post('/public/v1/delist', { listing_id: l!.id }), 'LISTING_NOT_FOUND', 404);
    await socket.close();
  });

  it('bulk: each removal in its own transaction; another seller\'s listing is not found', async () => {
    const rows = [market.giveBackpack(1, 'Refined Metal', 2), market.giveBackpack(1, 'Big Grin', 1)];
    const made = parseAs(ENDPOINTS.list.response, expectOk(await list(rows.map((id) => ({ items: [{ id, amount: 1 }], price: 77 }))))).listings;
    const foreign = market.createListing({ appId: 570 });
    const body = expectOk(await a.post('/public/v1/delist', { listing_ids: [made[0]!.id, foreign.listing.id, made[1]!.id] })) as { results: { ok: boolean; error?: string | null }[] };
    expect(body.results.map((r) => [r.ok, r.error ?? null])).toEqual([[true, null], [false, 'LISTING_NOT_FOUND'], [true, null]]);
    expect(market.state.listing(foreign.listing.id)!.status).toBe('ACTIVE');
    expectError(await a.post('/public/v1/delist', { listing_ids: Array.from({ length: 51 }, (_, i) => i + 1) }), 'VALIDATION_ERROR', 400);
  });

  it('bulk: an id the single form would refuse as invalid is its own VALIDATION_ERROR; the other ids are removed', async () => {
    const rows = [market.giveBackpack(1, 'Refined Metal', 2), market.giveBackpack(1, 'Big Grin', 1)];
    const made = parseAs(ENDPOINTS.list.response, expectOk(await list(rows.map((id) => ({ items: [{ id, amount: 1 }], price: 78 }))))).listings;
    for (const bad of [0, -3, 1.5, '5']) expectError(await a.post('/public/v1/delist', { listing_id: bad }), 'VALIDATION_ERROR', 400);
    const body = parseAs(ENDPOINTS.delist.response, expectOk(await a.post('/public/v1/delist', { listing_ids: [made[0]!.id, 0, -3, 1.5, '5', null, made[1]!.id] }))) as {
      results: { ok: boolean; error?: string | null; listing_id?: number }[];
    };
    expect(body.results.map((r) => [r.ok, r.error ?? null, r.listing_id ?? null])).toEqual([
      [true, null, made[0]!.id],
      ...[0, -3, 1.5, '5', null].map(() => [false, 'VALIDATION_ERROR', null]),
      [true, null, made[1]!.id],
    ]);
    for (const l of made) expect(market.state.listing(l.id)!.status).toBe('REMOVED');
    for (const envelope of [{ listing_ids: [] }, { listing_ids: 7 }, { listing_ids: [made[0]!.id], listing_id: made[0]!.id }]) {
      expectError(await a.post('/public/v1/delist', envelope), 'VALIDATION_ERROR', 400);
    }
  });
});

describe('GET /my-listings, /my-listings/value and /backpack', () => {
  it('shows own listings of every status newest first, filterable by status and app', async () => {
    expectError(await a.get('/public/v1/my-listings', { page: 1 }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/my-listings', { page: 1, limit: 10, status: 'SOLD' }), 'VALIDATION_ERROR', 400);
    for (const status of ['ACTIVE', 'PRIVATE', 'DISABLED', 'FILLED'] as const) {
      const rows = await myListings({ status });
      expect(rows.length, status).toBeGreaterThan(0);
      expect(rows.every((r) => r.status === status)).toBe(true);
      if (status === 'PRIVATE') expect(rows.every((r) => typeof r.private_token === 'string')).toBe(true);
    }
    const all = await myListings();
    expect([...all.map((r) => r.id)].sort((x, y) => y - x)).toEqual(all.map((r) => r.id));
    // newest first is by creation: ids follow created_at, including the listings the account opened with
    const created = all.map((r) => Date.parse(r.created_at));
    expect(created).toEqual([...created].sort((x, y) => y - x));
    const dota = await myListings({ app_id: 570 });
    expect(dota.every((r) => r.app_id === 570)).toBe(true);
    // private and disabled listings never reach the public book
    const book = new Set(market.state.book().listings.map((l) => l.id));
    expect(all.filter((r) => r.status !== 'ACTIVE').some((r) => book.has(r.id))).toBe(false);
  });

  it('offers copies to add (available_amount) only on active and private listings, the ones PATCH /list can raise', async () => {
    for (const status of ['ACTIVE', 'PRIVATE', 'DISABLED', 'FILLED'] as const) {
      const l = (await myListings({ status })).find((r) => r.commodity)!;
      expect(l, `a ${status} commodity listing of the demo user`).toBeDefined();
      market.giveBackpack(1, l.market_hash_name, 2);
      const row = (await myListings({ status })).find((r) => r.id === l.id)!;
      expect(row.available_amount, status).toBe(status === 'ACTIVE' || status === 'PRIVATE' ? await backpackCopies(l.market_hash_name) : 0);
    }
  });

  it('values the listings on the market at asking prices', async () => {
    const live = (await myListings()).filter((r) => r.status !== 'FILLED');
    const value = parseAs(ENDPOINTS.myListingsValue.response, expectOk(await a.get('/public/v1/my-listings/value')));
    expect(value).toEqual({
      listing_count: live.length,
      item_count: live.reduce((s, r) => s + r.amount, 0),
      total_value: live.reduce((s, r) => s + r.amount * r.price, 0),
    });
    const cs = parseAs(ENDPOINTS.myListingsValue.response, expectOk(await a.get('/public/v1/my-listings/value', { app_id: 730 })));
    expect(cs.listing_count).toBe(live.filter((r) => r.app_id === 730).length);
  });

  it('pages the backpack with search (1 to 200 characters) and app filters; trade holds show', async () => {
    expectError(await a.get('/public/v1/backpack', { page: 1, limit: 10, search: '' }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/backpack', { page: 1, limit: 10, search: 'x'.repeat(201) }), 'VALIDATION_ERROR', 400);
    const body = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100 })));
    expect(body.items.some((i) => i.commodity) && body.items.some((i) => !i.commodity)).toBe(true);
    expect(body.items.some((i) => i.trade_locked_until !== null)).toBe(true);
    const tf2 = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100, app_id: 440, search: 'KEY' })));
    expect(tf2.items.length).toBeGreaterThan(0);
    expect(tf2.items.every((i) => i.app_id === 440 && i.market_hash_name.toLowerCase().includes('key'))).toBe(true);
  });
});

/**
 * Prices at and past 2^32 cents (spec §1.2: money is integer cents, with no maximum given). The demo
 * market must keep them exactly through every way a price gets in — POST /list, PATCH /list (price,
 * price_decay, the surplus of a partial reprice), POST /sell once accepted — and every way it comes
 * out: the answer, GET /listings/{id}, GET /book, GET /prices/all and the feed. A price stored modulo
 * 2^32 would come back as another price, and 2^32 itself as 0, which no client can parse from /book.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type InventoryItem } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, connectSocket, expectOk, parseAs, startTestMarket, type Api, type SocketClient } from './helpers.ts';

const TWO_32 = 2 ** 32;
const PRICES = [TWO_32 - 1, TWO_32, TWO_32 + 100];

let market: DemoMarket;
let a: Api;
let socket: SocketClient;
beforeAll(async () => {
  market = await startTestMarket({ seed: 43, timeScale: 0.01 });
  market.holdTrades(true);
  a = api(market);
  socket = connectSocket(market.wsUrl, { key: market.apiKey });
  await socket.waitFor((f) => f.event === 'connected');
});
afterAll(async () => {
  await socket.close();
  await market.close();
});

const list = async (row: number, amount: number, price: number) =>
  parseAs(ENDPOINTS.list.response, expectOk(await a.post('/public/v1/list', { listings: [{ items: [{ id: row, amount }], price }] }))).listings[0]!;
const edit = async (body: unknown) => parseAs(ENDPOINTS.editListing.response, expectOk(await a.patch('/public/v1/list', body)));
const listingPrice = async (id: number) => parseAs(ENDPOINTS.listing.response, expectOk(await a.get(`/public/v1/listings/${id}`))).price;
const myActiveListings = async () =>
  parseAs(ENDPOINTS.myListings.response, expectOk(await a.get('/public/v1/my-listings', { page: 1, limit: 100, status: 'ACTIVE' }))).listings;

/** The whole book as a fresh snapshot (past its 10 s cache), parsed with the contract as a client parses it. */
async function bookPrices(): Promise<Map<number, number>> {
  market.advanceClock(10_001);
  const book = parseAs(ENDPOINTS.book.response, expectOk(await a.get('/public/v1/book')));
  return new Map(book.listings.map((l) => [l.id, l.price]));
}

const feedData = async (event: string, listingId: number) =>
  (await socket.waitFor((f) => f.event === event && (f.data as { listing_id: number }).listing_id === listingId)).frame.data as Record<string, unknown>;

describe('prices of 2^32 cents and more', () => {
  it('POST /list keeps the exact price in the answer, the listing, the book and listing.created', async () => {
    const listed = [];
    for (const price of PRICES) {
      const listing = await list(market.giveBackpack(1, 'AK-47 | Redline (Field-Tested)'), 1, price);
      expect(listing.price).toBe(price);
      expect(await listingPrice(listing.id)).toBe(price);
      expect(await feedData('listing.created', listing.id)).toMatchObject({ price });
      listed.push(listing);
    }
    const book = await bookPrices();
    expect(listed.map((l) => book.get(l.id))).toEqual(PRICES);
  });

  it('PATCH /list reprices to the exact price (answer, listing, book, price_changed)', async () => {
    const repriced = [];
    for (const price of PRICES) {
      const listing = await list(market.giveBackpack(1, 'AWP | Asiimov (Field-Tested)'), 1, 5_000);
      expect(await edit({ listing_id: listing.id, price })).toMatchObject({ id: listing.id, price });
      expect(await listingPrice(listing.id)).toBe(price);
      expect(await feedData('listing.price_changed', listing.id)).toMatchObject({ price_before: 5_000, price_after: price });
      repriced.push(listing.id);
    }
    const book = await bookPrices();
    expect(repriced.map((id) => book.get(id))).toEqual(PRICES);
  });

  it('PATCH /list with price_decay starts at the exact start_price', async () => {
    const listing = await list(market.giveBackpack(1, 'M4A4 | Howl (Field-Tested)'), 1, 5_000);
    const decay = { start_price: TWO_32 + 100, end_price: TWO_32 - 1, total_hours: 24 };
    expect(await edit({ listing_id: listing.id, price_decay: decay })).toMatchObject({ price: decay.start_price });
    expect(await listingPrice(listing.id)).toBe(decay.start_price);
    expect((await myActiveListings()).find((l) => l.id === listing.id)!.price_decay).toMatchObject(decay);
    expect((await bookPrices()).get(listing.id)).toBe(decay.start_price);
  });

  it('a partial reprice leaves the surplus listed at the exact old price', async () => {
    const row = market.giveBackpack(1, 'Mann Co. Supply Crate Key', 10);
    const listing = await list(row, 10, TWO_32 + 100);
    expect(await edit({ listing_id: listing.id, amount: 4, price: TWO_32 })).toMatchObject({ amount: 4, price: TWO_32 });
    const surplus = (await myActiveListings()).find((l) => l.id > listing.id && l.market_hash_name === listing.market_hash_name)!;
    expect(surplus).toMatchObject({ amount: 6, price: TWO_32 + 100 });
    const book = await bookPrices();
    expect([book.get(listing.id), book.get(surplus.id)]).toEqual([TWO_32, TWO_32 + 100]);
  });

  it('POST /sell, once accepted, lists the items at the exact group price', async () => {
    const inventory = parseAs(ENDPOINTS.steamInventory.response, expectOk(await a.get('/public/v1/steam-inventory', { app_id: 730 }))).items;
    const skins: InventoryItem[] = inventory.filter((i) => !i.commodity && i.tradable).slice(0, PRICES.length);
    expect(skins).toHaveLength(PRICES.length);
    const body = parseAs(ENDPOINTS.sell.response, expectOk(await a.post('/public/v1/sell', {
      listings: skins.map((skin, k) => ({ items: [{ token: skin.token, amount: 1 }], price: PRICES[k]! })),
    })));
    const trades = parseAs(ENDPOINTS.trades.response, expectOk(await a.get('/public/v1/trades', { page: 1, limit: 500 }))).trades;
    for (const trade of trades.filter((t) => body.deposit_ids.includes(t.deposit_id!))) {
      market.moveTrade(trade.id, 'Active');
      market.moveTrade(trade.id, 'Accepted');
    }
    const mine = await myActiveListings();
    const listed = skins.map((skin, k) => mine.find((l) => l.market_hash_name === skin.market_hash_name && l.price === PRICES[k]));
    expect(listed.every((l) => l !== undefined)).toBe(true);
    const book = await bookPrices();
    expect(listed.map((l) => book.get(l!.id))).toEqual(PRICES);
  });

  it("GET /prices/all gives an item's only listing at 2^32 + 100 as its exact lowest_listing_price", async () => {
    const all = async () => parseAs(ENDPOINTS.pricesAll.response, expectOk(await a.get('/public/v1/prices/all', { app_id: 730 }))).prices;
    market.advanceClock(61_000);
    const unlisted = (await all()).find((p) => p.listing_count === 0)!;
    expect(unlisted).toBeDefined();
    await list(market.giveBackpack(1, unlisted.market_hash_name), 1, TWO_32 + 100);
    market.advanceClock(61_000);
    expect((await all()).find((p) => p.market_hash_name === unlisted.market_hash_name)).toMatchObject({ listing_count: 1, lowest_listing_price: TWO_32 + 100 });
  });
});

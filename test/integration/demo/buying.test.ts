/**
 * POST /purchase (spec §4.3, §7): atomic across lines, max_price as a ceiling, private listings only
 * with their token, balance checked, sold-out listings gone — and the events a purchase publishes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, parseServerFrame } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, connectSocket, expectError, expectOk, parseAs, startTestMarket, type Api } from './helpers.ts';

let market: DemoMarket;
let a: Api;
beforeAll(async () => {
  market = await startTestMarket({ seed: 21 });
  a = api(market);
});
afterAll(() => market.close());

const balance = async () => parseAs(ENDPOINTS.user.response, expectOk(await a.get('/public/v1/user'))).balance;
const buy = (items: unknown[]) => a.post('/public/v1/purchase', { items });

describe('POST /purchase', () => {
  it('buys a whole listing: money moves, the order and backpack show it, the listing is gone, events go out', async () => {
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f.event === 'connected');
    const l = market.createListing({ name: 'AK-47 | Redline (Field-Tested)', price: 1_234 });
    const before = await balance();
    const result = parseAs(ENDPOINTS.purchase.response, expectOk(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 1_234 }])));
    expect(result.items).toEqual([expect.objectContaining({ app_id: 730, market_hash_name: l.listing.market_hash_name, price: 1_234, amount: 1, steam_asset_id: l.full.steam_asset_id })]);
    expect(await balance()).toBe(before - 1_234);
    const orders = parseAs(ENDPOINTS.orders.response, expectOk(await a.get('/public/v1/orders', { page: 1, limit: 5 })));
    expect(orders.orders[0]).toMatchObject({ order_id: result.order_id, order_item_id: result.items[0]!.order_item_id, side: 'bought', price: 1_234, amount: 1 });
    const backpack = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100, search: 'Redline' })));
    expect(backpack.items.some((i) => i.market_hash_name === l.listing.market_hash_name)).toBe(true);
    expectError(await a.get(`/public/v1/listings/${l.listing.id}`), 'LISTING_NOT_FOUND', 404);
    const stock = await socket.waitFor((f) => f.event === 'listing.amount_changed' && (f.data as { listing_id: number }).listing_id === l.listing.id);
    expect((stock.frame.data as { new_amount: number }).new_amount).toBe(0);
    const sold = await socket.waitFor((f) => f.event === 'listing.sold' && (f.data as { listing_id: number }).listing_id === l.listing.id);
    const parsed = parseServerFrame(sold.text);
    expect(parsed.kind === 'listing' && parsed.event.event === 'listing.sold' && parsed.event.data).toMatchObject({ price: 1_234, amount: 1, listed_at: l.listing.created_at });
    await socket.close();
  });

  it('buys part of a commodity stack', async () => {
    const l = market.createListing({ name: 'Mann Co. Supply Crate Key', amount: 10, price: 200 });
    expectOk(await buy([{ listing_id: l.listing.id, amount: 4, max_price: 200 }]));
    const row = parseAs(ENDPOINTS.listing.response, expectOk(await a.get(`/public/v1/listings/${l.listing.id}`)));
    expect(row.amount).toBe(6);
  });

  it('treats max_price as a ceiling: a cheaper listing fills at its own price, a dearer one fails LISTING_PRICE_CHANGED', async () => {
    const cheaper = market.createListing({ appId: 252490, price: 500 });
    market.repriceListing(cheaper.listing.id, 450);
    const ok = parseAs(ENDPOINTS.purchase.response, expectOk(await buy([{ listing_id: cheaper.listing.id, amount: 1, max_price: 500 }])));
    expect(ok.items[0]!.price).toBe(450);

    const dearer = market.createListing({ appId: 252490, price: 500 });
    market.repriceListing(dearer.listing.id, 501);
    const before = await balance();
    const error = expectError(await buy([{ listing_id: dearer.listing.id, amount: 1, max_price: 500 }]), 'LISTING_PRICE_CHANGED', 409);
    expect(error.details).toMatchObject({ line: 0, price: 501 });
    expect(await balance()).toBe(before);
  });

  it('prices a decaying listing at its curve\'s point at the purchase, not at the last periodic refresh', async () => {
    const l = market.createListing({ appId: 730, decay: { start_price: 10_000, end_price: 6_000, total_hours: 40 } });
    market.advanceClock(10 * 3_600_000); // a quarter of the curve: 9_000 now; no refresh has run
    const before = await balance();
    const error = expectError(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 8_999 }]), 'LISTING_PRICE_CHANGED', 409);
    expect(error.details).toMatchObject({ line: 0, price: 9_000 });
    const ok = parseAs(ENDPOINTS.purchase.response, expectOk(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 9_000 }])));
    expect(ok.items[0]!.price).toBe(9_000);
    expect(await balance()).toBe(before - 9_000);
  });

  it('is atomic across lines: one failing line buys nothing', async () => {
    const good = market.createListing({ name: 'Refined Metal', amount: 20, price: 4 });
    const dear = market.createListing({ appId: 570, price: 900 });
    const before = await balance();
    for (const [line, code] of [
      [{ listing_id: 99_999_999, amount: 1, max_price: 10 }, 'LISTING_NOT_FOUND'],
      [{ listing_id: dear.listing.id, amount: 1, max_price: 899 }, 'LISTING_PRICE_CHANGED'],
      [{ listing_id: good.listing.id, amount: 30, max_price: 4 }, 'INSUFFICIENT_ITEMS'],
    ] as const) {
      const error = expectError(await buy([{ listing_id: good.listing.id, amount: 5, max_price: 4 }, line]), code);
      expect(error.details?.line).toBe(1);
    }
    expect(await balance()).toBe(before);
    expect(market.state.listing(good.listing.id)!.listing.amount).toBe(20);
    expect(market.state.listing(dear.listing.id)!.status).toBe('ACTIVE');
    // the same listing on two lines draws from one stock
    expectError(await buy([{ listing_id: good.listing.id, amount: 15, max_price: 4 }, { listing_id: good.listing.id, amount: 6, max_price: 4 }]), 'INSUFFICIENT_ITEMS', 409);
    const both = parseAs(ENDPOINTS.purchase.response, expectOk(await buy([{ listing_id: good.listing.id, amount: 15, max_price: 4 }, { listing_id: dear.listing.id, amount: 1, max_price: 900 }])));
    expect(both.items.map((i) => i.amount)).toEqual([15, 1]);
    expect(await balance()).toBe(before - 15 * 4 - 900);
  });

  it('buys a private listing only with its private_token; without it the listing does not exist', async () => {
    const l = market.createListing({ appId: 440, private: true, price: 300 });
    const token = l.privateToken!;
    expect(token).toBeTruthy();
    expectError(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 300 }]), 'LISTING_NOT_FOUND', 404);
    expectError(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 300, private_token: 'pt_wrong' }]), 'LISTING_NOT_FOUND', 404);
    const ok = parseAs(ENDPOINTS.purchase.response, expectOk(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 300, private_token: token }])));
    expect(ok.items[0]!.price).toBe(300);
  });

  it('checks the balance (402 INSUFFICIENT_BALANCE) and refuses the caller\'s own listing', async () => {
    const rich = market.createListing({ appId: 730, price: (await balance()) + 1 });
    expectError(await buy([{ listing_id: rich.listing.id, amount: 1, max_price: rich.listing.price }]), 'INSUFFICIENT_BALANCE', 402);
    const own = market.createListing({ appId: 730, seller: 1, price: 100 });
    expectError(await buy([{ listing_id: own.listing.id, amount: 1, max_price: 100 }]), 'VALIDATION_ERROR', 400);
  });

  it('pays the seller when the seller is an account: sold order, sale and fee transactions', async () => {
    const trader = market.accounts[1]!;
    const t = api(market, trader.apiKey);
    const before = parseAs(ENDPOINTS.user.response, expectOk(await t.get('/public/v1/user'))).balance;
    const l = market.createListing({ appId: 730, seller: trader.id, price: 10_000 });
    expectOk(await buy([{ listing_id: l.listing.id, amount: 1, max_price: 10_000 }]));
    const after = parseAs(ENDPOINTS.user.response, expectOk(await t.get('/public/v1/user'))).balance;
    expect(after).toBe(before + 10_000 - 200);
    const orders = parseAs(ENDPOINTS.orders.response, expectOk(await t.get('/public/v1/orders', { page: 1, limit: 5 })));
    expect(orders.orders[0]).toMatchObject({ side: 'sold', price: 10_000 });
  });

  it('validates the body: required line fields, at most 50 lines, positive amounts', async () => {
    expectError(await buy([{ listing_id: 1, amount: 1 }]), 'VALIDATION_ERROR', 400);
    expectError(await buy([{ listing_id: 1, amount: 0, max_price: 1 }]), 'VALIDATION_ERROR', 400);
    expectError(await buy([]), 'VALIDATION_ERROR', 400);
    expectError(await buy(Array.from({ length: 51 }, () => ({ listing_id: 1, amount: 1, max_price: 1 }))), 'VALIDATION_ERROR', 400);
  });
});

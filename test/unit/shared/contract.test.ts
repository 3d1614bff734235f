import { describe, expect, it } from 'vitest';
import {
  backpackItem,
  bookSnapshot,
  cryptoWithdrawal,
  ENDPOINTS,
  errorBody,
  matchEndpoint,
  fullListing,
  inventoryItem,
  leanListing,
  myListing,
  orderExportRow,
  priceDecayRequest,
  priceRow,
  priceRowWithStock,
  purchaseResult,
  averageRow,
  orderItem,
  trade,
  user,
  saleRow,
  balanceTransaction,
  metadata,
  sticker,
} from '../../../src/shared/api/index.ts';
import { fullListingExample, leanListingExample, stickerExample, tradeExample, TS } from './fixtures.ts';

describe('resource schemas accept valid examples and reject invalid ones', () => {
  const cases: [string, { safeParse(v: unknown): { success: boolean } }, unknown, unknown[]][] = [
    ['lean listing', leanListing, leanListingExample, [
      { ...leanListingExample, price: 12.5 },
      { ...leanListingExample, app_id: 999 },
      { ...leanListingExample, created_at: 'yesterday' },
      { ...leanListingExample, id: '101' },
    ]],
    ['my-listings row', myListing, { ...leanListingExample, available_amount: 0, price_decay: { start_price: 2000, end_price: 1000, total_hours: 48, elapsed_hours: 3.5 } }, [
      { ...leanListingExample, available_amount: 0 },
      { ...leanListingExample, available_amount: 0, price_decay: { start_price: 2000, end_price: 1000, total_hours: 200 } },
    ]],
    ['full listing', fullListing, fullListingExample, [
      { ...fullListingExample, cs_paint_wear: 1.5 },
      { ...fullListingExample, cs_stickers: [{ ...stickerExample, slot: -1 }] },
      { ...fullListingExample, tf2_classes: 'Scout' },
    ]],
    ['sticker', sticker, stickerExample, [{ ...stickerExample, name: 3 }]],
    ['price row', priceRow, { app_id: 730, market_hash_name: 'x', market_price: 10, recommended_price: 11, lowest_listing_price: null, updated_at: TS }, [
      { app_id: 730, market_hash_name: 'x', market_price: -1, recommended_price: 11, lowest_listing_price: null, updated_at: TS },
    ]],
    ['price row with stock', priceRowWithStock, { app_id: 570, market_hash_name: 'x', market_price: 10, recommended_price: 11, lowest_listing_price: 9, updated_at: TS, stock: 3, listing_count: 2 }, [
      { app_id: 570, market_hash_name: 'x', market_price: 10, recommended_price: 11, lowest_listing_price: 9, updated_at: TS },
    ]],
    ['average row', averageRow, { app_id: 440, market_hash_name: 'x', average_price: 100, sales: 2, volume: 5 }, [
      { app_id: 440, market_hash_name: 'x', average_price: 100.5, sales: 2, volume: 5 },
    ]],
    ['backpack item', backpackItem, { id: 1, app_id: 252490, market_hash_name: 'x', amount: 3, commodity: true, market_price: 5, trade_locked_until: null }, [
      { id: 0, app_id: 252490, market_hash_name: 'x', amount: 3, commodity: true, market_price: 5, trade_locked_until: null },
    ]],
    ['inventory item', inventoryItem, { token: 't', app_id: 730, steam_asset_id: '1', market_hash_name: 'x', amount: 1, commodity: false, tradable: true, market_price: 1, recommended_price: 1, icon_url: '' }, [
      { token: '', app_id: 730, steam_asset_id: '1', market_hash_name: 'x', amount: 1, commodity: false, tradable: true, market_price: 1, recommended_price: 1, icon_url: '' },
    ]],
    ['trade', trade, tradeExample, [{ ...tradeExample, status: 'Done' }, { ...tradeExample, items: null }]],
    ['purchase result', purchaseResult, { order_id: 1, created_at: TS, items: [{ order_item_id: 1, app_id: 730, market_hash_name: 'x', steam_asset_id: '1', price: 5, amount: 1 }] }, [
      { order_id: 1, created_at: TS, items: [{ order_item_id: 1, app_id: 730, market_hash_name: 'x', price: 5, amount: 1 }] },
    ]],
    ['order item', orderItem, { order_item_id: 1, order_id: 1, side: 'sold', app_id: 730, market_hash_name: 'x', price: 5, amount: 1, created_at: TS }, [
      { order_item_id: 1, order_id: 1, side: 'given', app_id: 730, market_hash_name: 'x', price: 5, amount: 1, created_at: TS },
    ]],
    ['order export row', orderExportRow, { order_item_id: 1, order_id: 1, side: 'bought', app_id: 730, market_hash_name: 'x', amount: 2, unit_price: 5, total_value: 10, fee: null, net: -10, created_at: TS, settled_at: null }, [
      { order_item_id: 1, order_id: 1, side: 'bought', app_id: 730, market_hash_name: 'x', amount: 2, unit_price: 5, total_value: 10, net: -10, created_at: TS, settled_at: null },
    ]],
    ['crypto withdrawal', cryptoWithdrawal, { withdrawal_id: 1, status: 'PENDING', balance_amount: 5000, token_amount: 0.001, ticker: 'BTC', created_at: TS, tx_hash: null, network_fee: null }, [
      { withdrawal_id: 1, status: 'DONE', balance_amount: 5000, token_amount: 0.001, ticker: 'BTC', created_at: TS, tx_hash: null, network_fee: null },
      { withdrawal_id: 1, status: 'PENDING', balance_amount: 5000, token_amount: 0.001, ticker: 'DOGE', created_at: TS, tx_hash: null, network_fee: null },
    ]],
    ['user', user, { id: 1, steam_id: '7656', name: 'demo', balance: 100 }, [{ id: 1, steam_id: 7656, name: 'demo', balance: 100 }]],
    ['sales row', saleRow, { id: 1, app_id: 730, market_hash_name: 'x', price: 5, amount: 1, sold_at: TS }, [{ id: 1, app_id: 730, market_hash_name: 'x', price: 5, amount: 0, sold_at: TS }]],
    ['balance transaction', balanceTransaction, { id: 1, type: 'PURCHASE', amount: -500, balance: 1500, description: 'x', reference_id: 3, created_at: TS }, [
      { id: 1, type: 'PURCHASE', amount: -5.5, balance: 1500, description: 'x', reference_id: 3, created_at: TS },
    ]],
    ['book snapshot', bookSnapshot, { seq: 9007199254740993n, listings: [leanListingExample] }, [{ seq: 5, listings: [] }]],
    ['metadata', metadata, { total_pages: 1, total_items: 3, current_page: 1, current_limit: 25 }, [{ total_pages: 1 }]],
    ['error body', errorBody, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, [{ code: 'RATE_LIMITED' }]],
  ];
  for (const [name, schema, valid, invalids] of cases) {
    it(name, () => {
      expect(schema.safeParse(valid).success).toBe(true);
      for (const bad of invalids) expect(schema.safeParse(bad).success, JSON.stringify(bad, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(false);
    });
  }

  it('lets unknown response fields pass through', () => {
    const parsed = leanListing.parse({ ...leanListingExample, brand_new_field: 'x' });
    expect(parsed).toHaveProperty('brand_new_field', 'x');
  });

  it('price decay requests stay within 24–168 h and fall', () => {
    expect(priceDecayRequest.safeParse({ start_price: 2000, end_price: 1000, total_hours: 24 }).success).toBe(true);
    expect(priceDecayRequest.safeParse({ start_price: 2000, end_price: 1000, total_hours: 23 }).success).toBe(false);
    expect(priceDecayRequest.safeParse({ start_price: 2000, end_price: 1000, total_hours: 169 }).success).toBe(false);
    expect(priceDecayRequest.safeParse({ start_price: 1000, end_price: 2000, total_hours: 48 }).success).toBe(false);
    expect(priceDecayRequest.safeParse({ start_price: 2000, end_price: 1000, total_hours: 48, elapsed_hours: 1 }).success).toBe(false);
  });
});

describe('endpoint queries and bodies', () => {
  it('integer filters are strings matching ^[1-9]\\d*$', () => {
    const q = ENDPOINTS.listings.query;
    expect(q.safeParse({ limit: '500' }).success).toBe(true);
    expect(q.safeParse({ limit: '1000', cursor: '12', app_id: '730' }).success).toBe(true);
    expect(q.safeParse({ limit: '1000', page: '2', app_id: '730' }).success).toBe(true);
    for (const bad of [{ limit: '1000', page: '2', cursor: '12' }, { limit: '100' }, { limit: '500', page: '0' }, { limit: '500', cursor: '012' }, { limit: '500', app_id: '731' }, { limit: '500', page: '-1' }, {}]) {
      expect(q.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
  it('ordinary paged routes allow only 5, 10, 25, 30, 50, 100 and need page and limit where the spec says so', () => {
    for (const name of ['prices', 'backpack', 'myListings', 'orders'] as const) {
      const q = ENDPOINTS[name].query;
      expect(q.safeParse({ page: '1', limit: '25' }).success, name).toBe(true);
      expect(q.safeParse({ page: '1', limit: '20' }).success, name).toBe(false);
      expect(q.safeParse({ limit: '25' }).success, name).toBe(false);
    }
    expect(ENDPOINTS.trades.query.safeParse({ page: '1', limit: '500' }).success).toBe(true);
    expect(ENDPOINTS.trades.query.safeParse({ page: '1', limit: '100' }).success).toBe(false);
  });
  it('backpack search is 1 to 200 characters', () => {
    const q = ENDPOINTS.backpack.query;
    expect(q.safeParse({ page: '1', limit: '5', search: 'a' }).success).toBe(true);
    expect(q.safeParse({ page: '1', limit: '5', search: '' }).success).toBe(false);
    expect(q.safeParse({ page: '1', limit: '5', search: 'x'.repeat(201) }).success).toBe(false);
  });
  it('list groups take a price or a decay, never both, ≤ 50 groups of ≤ 50 items', () => {
    const b = ENDPOINTS.list.body;
    const item = { id: 1, amount: 1 };
    expect(b.safeParse({ listings: [{ items: [item], price: 100 }] }).success).toBe(true);
    expect(b.safeParse({ listings: [{ items: [item], price_decay: { start_price: 200, end_price: 100, total_hours: 24 } }] }).success).toBe(true);
    expect(b.safeParse({ listings: [{ items: [item] }] }).success).toBe(false);
    expect(b.safeParse({ listings: [{ items: [item], price: 100, price_decay: { start_price: 200, end_price: 100, total_hours: 24 } }] }).success).toBe(false);
    expect(b.safeParse({ listings: Array.from({ length: 51 }, () => ({ items: [item], price: 1 })) }).success).toBe(false);
    expect(b.safeParse({ listings: [{ items: Array.from({ length: 51 }, () => item), price: 1 }] }).success).toBe(false);
  });
  it('PATCH list takes a single edit or ≤ 50 edits; delist one id or ≤ 50', () => {
    const e = ENDPOINTS.editListing.body;
    expect(e.safeParse({ listing_id: 1, price: 5 }).success).toBe(true);
    expect(e.safeParse({ listing_id: 1, amount: 2, price: 5 }).success).toBe(true);
    expect(e.safeParse({ listing_id: 1 }).success).toBe(false);
    expect(e.safeParse({ listings: [{ listing_id: 1, price: 5 }] }).success).toBe(true);
    expect(e.safeParse({ listings: Array.from({ length: 51 }, (_, i) => ({ listing_id: i + 1, price: 5 })) }).success).toBe(false);
    const d = ENDPOINTS.delist.body;
    expect(d.safeParse({ listing_id: 3 }).success).toBe(true);
    expect(d.safeParse({ listing_ids: [1, 2] }).success).toBe(true);
    expect(d.safeParse({ listing_ids: [] }).success).toBe(false);
  });
  it('purchase lines need listing_id, amount and max_price; unknown fields are rejected', () => {
    const b = ENDPOINTS.purchase.body;
    expect(b.safeParse({ items: [{ listing_id: 1, amount: 1, max_price: 10 }] }).success).toBe(true);
    expect(b.safeParse({ items: [{ listing_id: 1, amount: 1, max_price: 10, private_token: 'abc' }] }).success).toBe(true);
    expect(b.safeParse({ items: [{ listing_id: 1, amount: 1 }] }).success).toBe(false);
    expect(b.safeParse({ items: [{ listing_id: 1, amount: 1, max_price: 10, maxPrice: 10 }] }).success).toBe(false);
    expect(b.safeParse({ items: [] }).success).toBe(false);
  });
  it('matches a path to its endpoint and id, never to a neighbouring id past 2^53', () => {
    expect(matchEndpoint('GET', '/public/v1/listings/42')).toEqual({ name: 'listing', id: 42 });
    expect(matchEndpoint('GET', '/public/v1/crypto-withdraw/9007199254740991')).toEqual({ name: 'cryptoWithdrawal', id: 9007199254740991 });
    expect(matchEndpoint('GET', '/public/v1/listings/9007199254740993')).toBeNull();
    expect(matchEndpoint('GET', '/public/v1/listings/042')).toBeNull();
    expect(matchEndpoint('PATCH', '/public/v1/list')).toEqual({ name: 'editListing' });
  });
  it('every endpoint carries its part-8 rate limit', () => {
    expect(ENDPOINTS.book.rateLimit).toEqual({ limit: 6, windowMs: 60_000 });
    expect(ENDPOINTS.listings.rateLimit).toEqual({ limit: 1, windowMs: 1_000 });
    expect(ENDPOINTS.sales.rateLimit).toEqual({ limit: 1, windowMs: 5_000 });
    expect(ENDPOINTS.withdraw.rateLimit).toBeNull();
    expect(ENDPOINTS.ordersExport.rateLimit).toEqual({ limit: 5, windowMs: 60_000 });
    for (const e of Object.values(ENDPOINTS)) expect(e.write).toBe(e.method !== 'GET');
  });
});

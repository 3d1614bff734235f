import { describe, expect, it } from 'vitest';
import {
  type InventoryRowSeen,
  checkBulkSize,
  checkDeposit,
  checkList,
  checkSell,
} from '../../../src/core/account/presend-checks.ts';
import type { BackpackItem, InventoryItem } from '../../../src/shared/api/index.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

function inv(token: string, over: Partial<InventoryItem> = {}, fetchedAt = NOW - MIN): InventoryRowSeen {
  return {
    fetchedAt,
    item: {
      token,
      app_id: 730,
      steam_asset_id: `a-${token}`,
      market_hash_name: 'Revolution Case',
      amount: 1,
      commodity: true,
      tradable: true,
      market_price: 50,
      recommended_price: 48,
      icon_url: 'https://img/x.png',
      ...over,
    },
  };
}

function bp(id: number, over: Partial<BackpackItem> = {}): BackpackItem {
  return { id, app_id: 730, market_hash_name: 'Revolution Case', amount: 10, commodity: true, market_price: 50, trade_locked_until: null, ...over };
}

const codes = (r: { problems: { code: string }[] }) => r.problems.map((p) => p.code);

describe('checkSell', () => {
  it('passes a request within every limit', () => {
    const ctx = { inventory: [inv('t1', { amount: 300 }), inv('t2', { amount: 200 })], tradesInFlight: 14, now: NOW };
    const r = checkSell({ listings: [{ items: [{ token: 't1', amount: 300 }, { token: 't2', amount: 200 }], price: 55 }] }, ctx);
    expect(r).toEqual({ ok: true, problems: [] });
  });

  it('refuses more than 50 groups and more than 50 entries in a group', () => {
    const inventory = Array.from({ length: 60 }, (_, i) => inv(`t${i}`));
    const ctx = { inventory, tradesInFlight: 0, now: NOW };
    const groups = inventory.slice(0, 51).map((r) => ({ items: [{ token: r.item.token, amount: 1 }], price: 10 }));
    expect(checkSell({ listings: groups }, ctx).problems).toEqual([
      { code: 'VALIDATION_ERROR', message: '51 groups in one request; at most 50 (send the rest in another request)' },
    ]);
    const wide = { items: inventory.slice(0, 51).map((r) => ({ token: r.item.token, amount: 1 })), price: 10 };
    expect(checkSell({ listings: [wide] }, ctx).problems).toEqual([
      { code: 'VALIDATION_ERROR', message: 'group 1 has 51 entries; at most 50', group: 0 },
    ]);
  });

  it('counts copies per game: more than 500 in one game’s offer is DEPOSIT_ITEM_LIMIT, two games are two offers', () => {
    const ctx = {
      inventory: [inv('cs', { amount: 400 }), inv('cs2', { amount: 101 }), inv('rust', { amount: 500, app_id: 252490, market_hash_name: 'Wood' })],
      tradesInFlight: 0,
      now: NOW,
    };
    const r = checkSell(
      {
        listings: [
          { items: [{ token: 'cs', amount: 400 }, { token: 'cs2', amount: 101 }], price: 55 },
          { items: [{ token: 'rust', amount: 500 }], price: 3 },
        ],
      },
      ctx,
    );
    expect(r.problems).toEqual([
      {
        code: 'DEPOSIT_ITEM_LIMIT',
        message: 'the offer for game 730 would carry 501 copies; one trade offer carries at most 500 per game',
        appId: 730,
      },
    ]);
  });

  it('counts the new offers against the 15 trades in flight', () => {
    const ctx = { inventory: [inv('cs'), inv('rust', { app_id: 252490, market_hash_name: 'Wood' })], tradesInFlight: 14, now: NOW };
    const body = { listings: [{ items: [{ token: 'cs', amount: 1 }], price: 5 }, { items: [{ token: 'rust', amount: 1 }], price: 5 }] };
    expect(checkSell(body, ctx).problems).toEqual([
      { code: 'ACTIVE_TRADE_LIMIT', message: '14 trades are in flight and this would start 2 more; at most 15 at once' },
    ]);
    expect(checkSell({ listings: [body.listings[0]!] }, ctx).ok).toBe(true);
  });

  it('catches expired, unknown and untradable tokens, and stacks asked for too many copies', () => {
    const ctx = {
      inventory: [inv('old', {}, NOW - 30 * MIN), inv('held', { tradable: false }), inv('stack', { amount: 3 })],
      tradesInFlight: 0,
      now: NOW,
    };
    const r = checkSell(
      {
        listings: [
          { items: [{ token: 'old', amount: 1 }], price: 5 },
          { items: [{ token: 'gone', amount: 1 }], price: 5 },
          { items: [{ token: 'held', amount: 1 }], price: 5 },
          { items: [{ token: 'stack', amount: 2 }], price: 5 },
          { items: [{ token: 'stack', amount: 2 }], price: 6 },
        ],
      },
      ctx,
    );
    expect(codes(r)).toEqual(['INVALID_ITEM_TOKEN', 'INVALID_ITEM_TOKEN', 'ITEM_NOT_TRADABLE', 'INSUFFICIENT_ITEMS']);
    expect(r.problems[3]).toMatchObject({ group: 4, entry: 0, message: 'group 5, item 1 (Revolution Case): 4 copies asked for in total, the stack holds 3' });
  });

  it('treats a token within a minute of expiry as expired (it would expire in transit)', () => {
    const ctx = { inventory: [inv('t', {}, NOW - 29.5 * MIN)], tradesInFlight: 0, now: NOW };
    expect(codes(checkSell({ listings: [{ items: [{ token: 't', amount: 1 }], price: 5 }] }, ctx))).toEqual(['INVALID_ITEM_TOKEN']);
  });

  it('needs one item kind per group and one copy per group for non-commodities', () => {
    const ctx = {
      inventory: [inv('a'), inv('b', { market_hash_name: 'Other Case' }), inv('k1', { commodity: false, market_hash_name: 'Knife' }), inv('k2', { commodity: false, market_hash_name: 'Knife' })],
      tradesInFlight: 0,
      now: NOW,
    };
    const r = checkSell(
      {
        listings: [
          { items: [{ token: 'a', amount: 1 }, { token: 'b', amount: 1 }], price: 5 },
          { items: [{ token: 'k1', amount: 1 }, { token: 'k2', amount: 1 }], price: 5 },
          { items: [{ token: 'k1', amount: 0 }], price: 0 },
        ],
      },
      ctx,
    );
    expect(r.problems.map((p) => [p.code, p.group])).toEqual([
      ['VALIDATION_ERROR', 2],
      ['VALIDATION_ERROR', 0],
      ['VALIDATION_ERROR', 1],
      ['VALIDATION_ERROR', 2],
    ]);
  });
});

describe('checkDeposit', () => {
  it('applies the same trade caps as sell, without prices', () => {
    const ctx = { inventory: [inv('a', { amount: 501 })], tradesInFlight: 15, now: NOW };
    expect(codes(checkDeposit({ items: [{ token: 'a', amount: 501 }] }, ctx))).toEqual(['DEPOSIT_ITEM_LIMIT', 'ACTIVE_TRADE_LIMIT']);
    expect(checkDeposit({ items: [{ token: 'a', amount: 500 }] }, { ...ctx, tradesInFlight: 14 }).ok).toBe(true);
    expect(codes(checkDeposit({ items: [] }, ctx))).toEqual(['VALIDATION_ERROR']);
  });
});

describe('checkList', () => {
  it('adds up a commodity pool across groups: more than the row holds is INSUFFICIENT_ITEMS', () => {
    const backpack = [bp(1, { amount: 10 }), bp(2, { amount: 5, market_hash_name: 'Other Case' })];
    const ok = checkList(
      { listings: [{ items: [{ id: 1, amount: 6 }], price: 60 }, { items: [{ id: 1, amount: 4 }], price: 55 }] },
      { backpack },
    );
    expect(ok).toEqual({ ok: true, problems: [] });
    const over = checkList(
      {
        listings: [
          { items: [{ id: 1, amount: 6 }], price: 60 },
          { items: [{ id: 1, amount: 4 }], price: 55 },
          { items: [{ id: 1, amount: 1 }], price: 50 },
          { items: [{ id: 2, amount: 5 }], price: 50 },
        ],
      },
      { backpack },
    );
    expect(over.problems).toEqual([
      {
        code: 'INSUFFICIENT_ITEMS',
        message: 'Revolution Case (backpack item 1) holds 10; the groups ask for 11 in total',
        group: 2,
        entry: 0,
        appId: 730,
      },
    ]);
  });

  it('checks price or decay, unknown rows, the groups limit and the account ceiling', () => {
    const backpack = [bp(1, { amount: 1000 })];
    const r = checkList(
      {
        listings: [
          { items: [{ id: 1, amount: 1 }], price: 10, price_decay: { start_price: 10, end_price: 5, total_hours: 24 } },
          { items: [{ id: 1, amount: 1 }] },
          { items: [{ id: 1, amount: 1 }], price_decay: { start_price: 10, end_price: 5, total_hours: 12 } },
          { items: [{ id: 99, amount: 1 }], price: 10 },
        ],
      },
      { backpack, listedItems: 998, listedItemsCeiling: { value: 1_000, market: 'the demo market' } },
    );
    expect(r.problems.map((p) => [p.code, p.group ?? null, p.message])).toEqual([
      ['VALIDATION_ERROR', 0, 'group 1: give either a fixed price or a price decay'],
      ['VALIDATION_ERROR', 1, 'group 2: give either a fixed price or a price decay'],
      ['VALIDATION_ERROR', 2, 'group 3: the curve must last 24 to 168 hours, in whole hours'],
      ['BACKPACK_ITEM_NOT_FOUND', 3, 'group 4, item 1: backpack item 99 is not in the backpack read; refresh it'],
      ['LISTING_LIMIT_REACHED', null, '998 items are listed and this adds 3; the demo market lists at most 1000 per account at once'],
    ]);
  });

  it('checks no ceiling when its value is not known (a real market: the spec does not publish it)', () => {
    const backpack = [bp(1, { amount: 1000 })];
    const r = checkList({ listings: [{ items: [{ id: 1, amount: 500 }], price: 10 }] }, { backpack, listedItems: 5_000 });
    expect(r).toEqual({ ok: true, problems: [] });
  });
});

describe('checkBulkSize', () => {
  it('allows 1 to 50 rows', () => {
    expect(checkBulkSize(50).ok).toBe(true);
    expect(checkBulkSize(51).problems[0]?.message).toBe('51 listings selected; at most 50 per request');
    expect(checkBulkSize(0).ok).toBe(false);
  });
});

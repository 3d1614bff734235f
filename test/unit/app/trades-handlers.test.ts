/**
 * The Trades screen's read: every trade the tracker follows is reachable a page at a time, with the
 * count of those the filter matches (it used to stop at the first 500 with no word of the rest).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountRuntime } from '../../../src/core/app/account-services/account-runtime.ts';
import { tradesHandlers } from '../../../src/core/app/account-services/trades-handlers.ts';
import { ACCOUNT_CALLS } from '../../../src/shared/ipc/calls-account.ts';
import { T0, makeTrade } from '../trades/fixtures.ts';
import { type AccountRig, startAccountRig } from './account-rig.ts';

let rig: AccountRig;
let runtime: AccountRuntime;

beforeEach(() => {
  rig = startAccountRig({ client: null });
  runtime = rig.runtime;
});

afterEach(() => rig.close());

describe('getTrades', () => {
  const input = (raw: object) => ACCOUNT_CALLS.getTrades.input.parse(raw);

  it('pages through every trade followed, newest first, and says how many there are', async () => {
    const { tracker } = runtime.account().feeds;
    // 1,203 trades: ids 1..1203 created in that order; every 100th still in flight
    for (let id = 1; id <= 1_203; id += 1) {
      tracker.apply(makeTrade(id, id % 100 === 0 ? 'Active' : 'Accepted', T0 + id), 'poll');
    }
    const trades = tradesHandlers(runtime);

    const first = await trades.getTrades(input({ page: 1, limit: 500 }));
    expect(first.trades.map((r) => r.trade.id).slice(0, 2)).toEqual([1_203, 1_202]);
    expect(first.metadata).toEqual({
      total_pages: 3,
      total_items: 1_203,
      current_page: 1,
      current_limit: 500,
    });
    expect(first.total).toBe(1_203);

    // the oldest trades, beyond the first 500, are reachable
    const last = await trades.getTrades(input({ page: 3, limit: 500 }));
    expect(last.trades.map((r) => r.trade.id)).toEqual([
      203,
      202,
      201,
      ...Array.from({ length: 200 }, (_, i) => 200 - i),
    ]);

    // the in-flight / finished filter is applied before paging, so its count and pages are its own
    const active = await trades.getTrades(input({ page: 1, limit: 5, inFlight: true }));
    expect(active.trades.map((r) => r.trade.id)).toEqual([1_200, 1_100, 1_000, 900, 800]);
    expect(active.metadata).toMatchObject({ total_pages: 3, total_items: 12 });
    expect(active.inFlight).toBe(12);
    const done = await trades.getTrades(input({ page: 1, limit: 100, inFlight: false }));
    expect(done.metadata.total_items).toBe(1_203 - 12);
    expect(done.trades.every((r) => !r.inFlight)).toBe(true);
  });

  it('keeps the callers that ask for one page by deposit id working', async () => {
    const { tracker } = runtime.account().feeds;
    for (let id = 1; id <= 3; id += 1) tracker.apply(makeTrade(id, 'Active', T0 + id), 'poll');
    const { trades, metadata } = await tradesHandlers(runtime).getTrades(input({ depositIds: [1_002] }));
    expect(trades.map((r) => r.trade.id)).toEqual([2]);
    expect(metadata).toEqual({ total_pages: 1, total_items: 1, current_page: 1, current_limit: 200 });
  });

  it('finds a withdrawal’s trades by withdraw id among thousands of newer ones', async () => {
    const { tracker } = runtime.account().feeds;
    tracker.apply(makeTrade(1, 'Active', T0, { type: 'WITHDRAW', deposit_id: null, withdraw_id: 77 }), 'poll');
    for (let id = 2; id <= 1_500; id += 1) tracker.apply(makeTrade(id, 'Accepted', T0 + id), 'poll');
    const { trades } = await tradesHandlers(runtime).getTrades(input({ withdrawIds: [77] }));
    expect(trades.map((r) => r.trade.id)).toEqual([1]);
  });
});

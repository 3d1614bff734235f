import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { TradingPnlStore, tradingPnl } from '../../../src/core/account/trading-pnl.ts';
import type { OrderExportRow } from '../../../src/shared/api/index.ts';

let next = 1;
/** An export row, settled when it was made (a sale still pending: `pending` below). */
const row = (
  side: 'bought' | 'sold',
  name: string,
  amount: number,
  unit: number,
  fee = 0,
  at = '2026-11-01T10:00:00.000Z',
): OrderExportRow => {
  const total = amount * unit;
  return {
    order_item_id: next,
    order_id: next++,
    side,
    app_id: 730,
    market_hash_name: name,
    amount,
    unit_price: unit,
    total_value: total,
    fee: side === 'sold' ? fee : null,
    net: side === 'sold' ? total - fee : -total,
    created_at: at,
    settled_at: at,
  };
};
/** A sale whose money is not final yet (`settled_at` empty). */
const pending = (sale: OrderExportRow): OrderExportRow => ({ ...sale, settled_at: null });

describe('tradingPnl', () => {
  it('takes the latest trade by the instant, not the text, when rows carry different UTC offsets', () => {
    const pnl = tradingPnl([
      row('bought', 'Revolution Case', 1, 50, 0, '2026-11-01T09:00:00Z'),
      row('sold', 'Revolution Case', 1, 60, 3, '2026-11-01T10:00:00+02:00'), // 08:00Z: earlier, though its text sorts later
    ]);
    expect(pnl.items[0]?.lastTradeAt).toBe('2026-11-01T09:00:00Z');
  });

  it('tells the profit on the copies both bought and sold, at the average paid and the average received after fees', () => {
    const pnl = tradingPnl([
      row('bought', 'Revolution Case', 10, 50),
      row('bought', 'Revolution Case', 10, 70), // average paid 60
      row('sold', 'Revolution Case', 5, 80, 20, '2026-11-03T10:00:00.000Z'), // 400 - 20 = 380 → 76 a copy
      row('sold', 'AWP | Asiimov (Field-Tested)', 1, 9_000, 450), // deposited from Steam: no purchase here
      row('bought', 'Kilowatt Case', 3, 101), // 303 / 3 = 101
      row('sold', 'Kilowatt Case', 3, 100, 15), // 285 / 3 = 95: a loss of 6 a copy
    ]);
    expect(pnl.items.map((p) => p.market_hash_name)).toEqual([
      'AWP | Asiimov (Field-Tested)',
      'Revolution Case',
      'Kilowatt Case',
    ]);
    expect(pnl.items[1]).toEqual({
      app_id: 730,
      market_hash_name: 'Revolution Case',
      bought: 20,
      paid: 1_200,
      sold: 5,
      received: 380,
      fees: 20,
      avgPaid: 60,
      avgReceived: 76,
      matched: 5,
      realized: 80,
      unsettledMatched: 0,
      unsettledRealized: null,
      unsold: 15,
      unsoldCost: 900,
      lastTradeAt: '2026-11-03T10:00:00.000Z',
    });
    expect(pnl.items[0]).toMatchObject({
      bought: 0,
      sold: 1,
      received: 8_550,
      avgPaid: null,
      matched: 0,
      realized: null,
    });
    expect(pnl.items[2]).toMatchObject({ avgPaid: 101, avgReceived: 95, matched: 3, realized: -18 });
    expect(pnl.totals).toEqual({
      paid: 1_503,
      received: 9_215,
      unsettled: 0,
      fees: 485,
      realized: 62,
      matched: 8,
      unsettledRealized: 0,
      unsettledMatched: 0,
      rows: 6,
    });
  });

  it('rounds only the result: averages of a third of a cent do not drift', () => {
    const pnl = tradingPnl([
      row('bought', 'Sticker | a', 3, 33),
      row('bought', 'Sticker | a', 1, 34),
      row('sold', 'Sticker | a', 4, 40, 0),
    ]);
    // paid 133 for 4, received 160 for 4: exactly 27
    expect(pnl.items[0]).toMatchObject({ avgPaid: 33, avgReceived: 40, realized: 27 });
    expect(tradingPnl([]).totals).toEqual({
      paid: 0,
      received: 0,
      unsettled: 0,
      fees: 0,
      realized: 0,
      matched: 0,
      unsettledRealized: 0,
      unsettledMatched: 0,
      rows: 0,
    });
  });

  it('never counts a sale against a purchase made after it: those copies came from elsewhere', () => {
    const pnl = tradingPnl([
      row('sold', 'Revolution Case', 1, 100, 5, '2026-11-01T10:00:00.000Z'), // deposited from Steam, sold for 95 net
      row('bought', 'Revolution Case', 1, 200, 0, '2026-11-02T10:00:00.000Z'), // bought later, still held
    ]);
    // the whole averages would say a loss of 105 on one copy "bought and sold here"
    expect(pnl.items[0]).toMatchObject({ matched: 0, realized: null, unsold: 1, unsoldCost: 200 });
    expect(pnl.totals.realized).toBe(0);
  });

  it("takes a sale's cost from the copies bought before it, at their average then, not from later purchases", () => {
    const pnl = tradingPnl([
      row('bought', 'Kilowatt Case', 1, 100, 0, '2026-11-01T10:00:00.000Z'),
      row('sold', 'Kilowatt Case', 1, 150, 0, '2026-11-02T10:00:00.000Z'),
      row('bought', 'Kilowatt Case', 1, 200, 0, '2026-11-03T10:00:00.000Z'),
    ]);
    // bought at 100, sold at 150: +50; the copy held cost 200 (the average of every purchase says 150)
    expect(pnl.items[0]).toMatchObject({ avgPaid: 150, matched: 1, realized: 50, unsold: 1, unsoldCost: 200 });
  });

  it('reads the rows in time order whatever order they come in, and sells part of a sale from elsewhere', () => {
    const pnl = tradingPnl([
      row('sold', 'Sticker | b', 3, 100, 0, '2026-11-02T10:00:00.000Z'), // 2 bought here before it, 1 deposited
      row('bought', 'Sticker | b', 2, 40, 0, '2026-11-01T10:00:00.000Z'),
    ]);
    // 2 of the 3 copies sold (200 of the 300 received) against the 80 they cost
    expect(pnl.items[0]).toMatchObject({ matched: 2, realized: 120, unsold: 0, unsoldCost: 0 });
    expect(pnl.items[0]?.lastTradeAt).toBe('2026-11-02T10:00:00.000Z');
  });

  it('splits a cost of a third of a cent without losing the cent: the unsold copies keep the rest', () => {
    const pnl = tradingPnl([
      row('bought', 'Sticker | c', 3, 33, 0, '2026-11-01T10:00:00.000Z'),
      row('bought', 'Sticker | c', 1, 34, 0, '2026-11-01T11:00:00.000Z'), // 4 copies for 133
      row('sold', 'Sticker | c', 1, 40, 0, '2026-11-02T10:00:00.000Z'), // costs 33 (33.25)
      row('sold', 'Sticker | c', 1, 40, 0, '2026-11-03T10:00:00.000Z'), // costs 33 (100 / 3)
    ]);
    expect(pnl.items[0]).toMatchObject({ matched: 2, realized: 14, unsold: 2, unsoldCost: 67 });
  });

  it('does not show stored results counted the older way (without the cost of the unsold copies)', () => {
    const db = new Database(':memory:');
    const store = new TradingPnlStore(db);
    const current = tradingPnl([row('bought', 'Sticker | d', 1, 10)]);
    store.save(current, 1_000);
    expect(store.latest()).toEqual({ pnl: current, computedAt: 1_000 });
    const { unsold: _unsold, unsoldCost: _cost, ...older } = current.items[0]!;
    store.save({ ...current, items: [older as never] }, 2_000);
    expect(store.latest()).toBeNull();
  });

  it('tells how much of what sales brought is not settled yet', () => {
    const settled = row('sold', 'Sticker | e', 1, 100, 5);
    const held = pending(row('sold', 'Sticker | e', 2, 100, 10)); // not in the balance yet
    const pnl = tradingPnl([settled, held, row('bought', 'Sticker | e', 1, 50)]);
    expect(pnl.totals).toMatchObject({ received: 285, unsettled: 190 });
  });

  it('realizes the profit of settled sales only: that of sales not settled yet is told apart', () => {
    const pnl = tradingPnl([
      row('bought', 'Kilowatt Case', 4, 100, 0, '2026-11-01T10:00:00.000Z'),
      row('sold', 'Kilowatt Case', 1, 150, 0, '2026-11-02T10:00:00.000Z'), // settled: +50
      pending(row('sold', 'Kilowatt Case', 2, 130, 0, '2026-11-03T10:00:00.000Z')), // pending: +60, not yet
      row('sold', 'Kilowatt Case', 1, 90, 0, '2026-11-04T10:00:00.000Z'), // settled: -10
    ]);
    // the pending sale's copies have left: the last sale's copy costs 100, not the cost of copies still held
    expect(pnl.items[0]).toMatchObject({
      matched: 2,
      realized: 40,
      unsettledMatched: 2,
      unsettledRealized: 60,
      unsold: 0,
      unsoldCost: 0,
    });
    expect(pnl.totals).toMatchObject({ realized: 40, matched: 2, unsettledRealized: 60, unsettledMatched: 2, unsettled: 260 });
  });

  it('does not show stored results that counted unsettled sales as realized', () => {
    const db = new Database(':memory:');
    const store = new TradingPnlStore(db);
    const current = tradingPnl([row('bought', 'Sticker | f', 1, 10), pending(row('sold', 'Sticker | f', 1, 20))]);
    const { unsettledMatched: _m, unsettledRealized: _r, ...olderItem } = current.items[0]!;
    const { unsettledMatched: _tm, unsettledRealized: _tr, ...olderTotals } = current.totals;
    store.save({ items: [olderItem as never], totals: olderTotals as never }, 2_000);
    expect(store.latest()).toBeNull();
  });
});

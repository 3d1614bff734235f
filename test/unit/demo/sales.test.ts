import { describe, expect, it } from 'vitest';
import { SalesLog, type SaleRecord } from '../../../src/demo/market/sales.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 05:00 UTC: the window's start (30 × 24 h earlier) is 05:00 too, inside a UTC day
const NOW = Date.UTC(2025, 5, 15, 5, 0, 0);
let nextId = 1;
const sale = (soldAt: number, price: number, fields: Partial<SaleRecord> = {}): SaleRecord => ({
  id: nextId++,
  appId: 730,
  item: 1,
  name: 'AK-47 | Redline (Field-Tested)',
  price,
  amount: 1,
  soldAt,
  refunded: false,
  ...fields,
});

describe('SalesLog averages', () => {
  it('counts exactly the last 30 × 24 h, not every sale of the UTC day the window starts in', () => {
    const log = new SalesLog();
    log.record(sale(NOW - 30 * DAY - 5 * HOUR, 10_000)); // same UTC day as the window start, 5 h before it
    log.record(sale(NOW - 30 * DAY - 1, 20_000)); // a millisecond too old
    log.record(sale(NOW - 30 * DAY, 1_000)); // exactly 30 days old: counted
    log.record(sale(NOW - 30 * DAY + 5 * HOUR, 2_000, { amount: 3 }));
    log.record(sale(NOW - 2 * DAY, 3_000));
    log.record(sale(NOW - HOUR, 9_999, { refunded: true }));
    expect(log.averages(NOW)).toEqual([
      { app_id: 730, market_hash_name: 'AK-47 | Redline (Field-Tested)', average_price: Math.round((1_000 + 3 * 2_000 + 3_000) / 5), sales: 3, volume: 5 },
    ]);
    // an hour later the sale that was exactly 30 days old has left the window
    expect(log.averages(NOW + HOUR)[0]).toMatchObject({ average_price: Math.round((3 * 2_000 + 3_000) / 4), sales: 2, volume: 4 });
  });

  it('handles sales recorded out of order (backdated history) and filters by app', () => {
    const log = new SalesLog();
    const edge = NOW - 30 * DAY;
    for (const [offset, price] of [[3 * HOUR, 500], [-2 * HOUR, 7_000], [HOUR, 300], [-HOUR, 8_000], [2 * HOUR, 400]] as const) {
      log.record(sale(edge + offset, price));
    }
    log.record(sale(NOW - DAY, 50, { appId: 570, item: 2, name: 'Dragonclaw Hook' }));
    expect(log.averages(NOW)).toEqual([
      { app_id: 730, market_hash_name: 'AK-47 | Redline (Field-Tested)', average_price: 400, sales: 3, volume: 3 },
      { app_id: 570, market_hash_name: 'Dragonclaw Hook', average_price: 50, sales: 1, volume: 1 },
    ]);
    expect(log.averages(NOW, 570).map((r) => r.market_hash_name)).toEqual(['Dragonclaw Hook']);
    // nothing left in the window
    expect(log.averages(NOW + 31 * DAY)).toEqual([]);
  });
});

/**
 * An item's sales for the price-history chart: what the mirror saw sell on the live feed
 * (sold_history, with the float when known) plus the marketplace's own recent sales (GET /sales,
 * newest 100), the latter cached in SQLite so the chart draws offline. GET /sales allows one request
 * per 5 seconds per key, so one item is asked again only after a minute.
 */
import type { SaleRow } from '../../../shared/api/index.ts';
import type { SalePoint, SalesHistory } from '../../../shared/ipc/calls-market.ts';
import { ApiError } from '../../api/errors.ts';
import { Caches } from '../../store/index.ts';
import type { MarketSession } from '../session.ts';
import type { ItemKey } from './price-context.ts';

const SALES_REFRESH_MS = 60_000;
const FEED_SALES_MAX = 2_000;

const salesKey = (item: ItemKey) => `sales:${item.app_id}:${item.market_hash_name}`;

/** Same sale seen on both sources: same second, price and amount. */
const sameSale = (p: { at: string; price: number; amount: number }) =>
  `${Math.floor(Date.parse(p.at) / 1000)}|${p.price}|${p.amount}`;

export async function readSalesHistory(session: MarketSession, item: ItemKey, refresh: boolean): Promise<SalesHistory> {
  const caches = new Caches(session.db);
  let cached = caches.get<SaleRow[]>(salesKey(item));
  let problem: string | null = null;
  const client = session.client;
  if (refresh && client && (!cached || Date.now() - cached.fetchedAt >= SALES_REFRESH_MS)) {
    try {
      const answer = await client.sales(
        { app_id: String(item.app_id), market_hash_name: item.market_hash_name, limit: '100' },
        { priority: 'interactive' },
      );
      if (session.db.open) {
        caches.put(salesKey(item), answer.sales);
        cached = caches.get<SaleRow[]>(salesKey(item));
      }
    } catch (err) {
      problem = `Recent sales could not be read: ${err instanceof ApiError ? err.explanation : 'unexpected error'}`;
    }
  }
  const feed = session.db
    .prepare(
      `SELECT sold_at, price, amount, paint_wear FROM sold_history
       WHERE market_hash_name = ? AND app_id = ? ORDER BY sold_ms DESC LIMIT ${FEED_SALES_MAX}`,
    )
    .all(item.market_hash_name, item.app_id) as { sold_at: string; price: number; amount: number; paint_wear: number | null }[];
  const points: SalePoint[] = feed.map((s) => ({
    at: new Date(Date.parse(s.sold_at)).toISOString(),
    price: s.price,
    amount: s.amount,
    source: 'feed',
    paint_wear: s.paint_wear,
  }));
  const seen = new Set(points.map(sameSale));
  for (const s of cached?.value ?? []) {
    // a refunded sale never settled at that price (docs/api-assumptions.md: sales rows carry `refunded`)
    if ((s as { refunded?: unknown }).refunded === true) continue;
    const point: SalePoint = {
      at: new Date(Date.parse(s.sold_at)).toISOString(),
      price: s.price,
      amount: s.amount,
      source: 'market',
      paint_wear: null,
    };
    if (!seen.has(sameSale(point))) points.push(point);
  }
  points.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return {
    sales: points,
    marketAsOf: cached ? new Date(cached.fetchedAt).toISOString() : null,
    problem,
  };
}

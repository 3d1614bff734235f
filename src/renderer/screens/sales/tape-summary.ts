/**
 * What the sales on the tape say at a glance: how many, since when, the money that changed hands, how
 * long items sat on the market before they sold — and, when they are all one item, its price spread
 * (a median across different items would mean nothing).
 */
import type { TapeSale } from '../../../shared/ipc/calls-market.ts';
import { medianOfSorted } from '../../../shared/median.ts';

export interface TapeSummary {
  sales: number;
  copies: number;
  /** Cents: price × copies over every sale. */
  volume: number;
  /** The oldest sale counted. */
  since: string;
  /** Median time from listing to sale, ms. */
  medianTimeOnMarketMs: number;
  /** Per copy, in cents, when every sale is of the same item; null otherwise. */
  onePrice: { median: number; low: number; high: number } | null;
}

export function summarizeTape(sales: readonly TapeSale[]): TapeSummary | null {
  if (sales.length === 0) return null;
  let copies = 0;
  let volume = 0;
  let oldest = sales[0]!;
  for (const s of sales) {
    copies += s.amount;
    volume += s.price * s.amount;
    if (Date.parse(s.sold_at) < Date.parse(oldest.sold_at)) oldest = s;
  }
  const onMarket = sales
    .map((s) => Math.max(0, Date.parse(s.sold_at) - Date.parse(s.listed_at)))
    .sort((a, b) => a - b);
  const first = sales[0]!;
  const oneItem = sales.every(
    (s) => s.app_id === first.app_id && s.market_hash_name === first.market_hash_name,
  );
  const prices = oneItem ? sales.map((s) => s.price).sort((a, b) => a - b) : [];
  return {
    sales: sales.length,
    copies,
    volume,
    since: oldest.sold_at,
    medianTimeOnMarketMs: medianOfSorted(onMarket),
    onePrice: oneItem ? { median: medianOfSorted(prices), low: prices[0]!, high: prices.at(-1)! } : null,
  };
}

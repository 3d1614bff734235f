/**
 * A price typed far from the item's market price: the slip of a decimal point ($0.52 for a $52.21 skin)
 * or of a digit too many. Not refused (a trader may mean it: a quick sale, a rare float), but said
 * before sending, since a listing far below the market sells within seconds and cannot be taken back.
 */
import { formatCents } from '../ui/format.ts';

/** At or below this share of the market price, a price is said to be far below it. */
const FAR_BELOW = 0.5;
/** At or above this multiple of the market price, a price is said to be far above it. */
const FAR_ABOVE = 3;

/**
 * How far `price` is from `market` when it is far, in words that follow the price ("99 % below the
 * market price of $52.21", "24× the market price of $52.21"); null when near it or unknown.
 */
export function marketGap(price: number | null, market: number | null | undefined): string | null {
  if (price === null || price <= 0 || !market || market <= 0) return null;
  if (price <= market * FAR_BELOW)
    return `${Math.round((1 - price / market) * 100)}% below the market price of ${formatCents(market)}`;
  if (price >= market * FAR_ABOVE) {
    const times = price / market;
    return `${times >= 10 ? Math.round(times) : times.toFixed(1)}× the market price of ${formatCents(market)}`;
  }
  return null;
}

/**
 * The price of a decaying listing at a point of its curve (spec §2.6, §4.4 rule 4: "starts at
 * start_price and falls to end_price over total_hours"). The curve's shape and rounding are not shown;
 * the choice (docs/api-assumptions.md): linear in time, rounded to the nearest cent, clamped to the curve.
 * The demo market and the client both price with this one function.
 */
export interface DecayCurve {
  start_price: number;
  end_price: number;
  total_hours: number;
}

export function decayPriceAt(curve: DecayCurve, elapsedHours: number): number {
  const progress = Math.min(1, Math.max(0, elapsedHours / curve.total_hours));
  return Math.max(1, Math.round(curve.start_price - (curve.start_price - curve.end_price) * progress));
}

/**
 * Price-decay math for the list and edit screens: the price at any hour of a curve, the points of its
 * preview chart, when it reaches a price, and how far a live listing has got. The pricing rule itself
 * is the contract's `decayPriceAt` (the demo market prices with the same function).
 */
import { type DecayCurve, LIMITS, type PriceDecay, decayPriceAt, priceDecayRequest } from '../../shared/api/index.ts';

export interface DecayPoint {
  hour: number;
  price: number;
}

export interface DecayProgress {
  elapsedHours: number;
  remainingHours: number;
  /** 0 at the start of the curve, 1 at its end. */
  fraction: number;
  priceNow: number;
}

/** Price in cents after `hour` hours (fractions allowed); before the start it is start_price, after the end end_price. */
export function priceAtHour(curve: DecayCurve, hour: number): number {
  return decayPriceAt(curve, hour);
}

/**
 * Points for the preview chart: one per `stepHours` (default every hour), always including both ends,
 * so a 168-hour curve is 169 points.
 */
export function decayCurvePoints(curve: DecayCurve, stepHours = 1): DecayPoint[] {
  if (!(stepHours > 0)) throw new RangeError('stepHours must be positive');
  const points: DecayPoint[] = [];
  for (let hour = 0; hour < curve.total_hours; hour += stepHours) points.push({ hour, price: decayPriceAt(curve, hour) });
  points.push({ hour: curve.total_hours, price: curve.end_price });
  return points;
}

/**
 * The first hour (to the minute) at which the price is at or below `price`; 0 when the curve starts
 * there already, null when the curve never gets that low.
 */
export function hourWhenPriceReaches(curve: DecayCurve, price: number): number | null {
  if (price >= curve.start_price) return 0;
  if (price < curve.end_price) return null;
  const minutes = curve.total_hours * 60;
  // Prices fall monotonically: binary search over whole minutes.
  let lo = 0;
  let hi = minutes;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (decayPriceAt(curve, mid / 60) <= price) hi = mid;
    else lo = mid + 1;
  }
  return lo / 60;
}

/** Where a my-listings row's curve stands (its `elapsed_hours`), for the decay progress bar. */
export function decayProgress(decay: PriceDecay): DecayProgress {
  const elapsedHours = Math.min(decay.total_hours, Math.max(0, decay.elapsed_hours ?? 0));
  return {
    elapsedHours,
    remainingHours: decay.total_hours - elapsedHours,
    fraction: elapsedHours / decay.total_hours,
    priceNow: decayPriceAt(decay, elapsedHours),
  };
}

/** Problems with a curve a person typed, in plain words; empty when the contract accepts it. */
export function decayCurveProblems(curve: DecayCurve): string[] {
  const parsed = priceDecayRequest.safeParse(curve);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const field = issue.path.join('.');
    if (field === 'total_hours') return `the curve must last ${LIMITS.decayMinHours} to ${LIMITS.decayMaxHours} hours, in whole hours`;
    if (field === 'end_price') return issue.message.includes('below') ? 'the end price must be below the start price' : 'the end price must be a positive number of cents';
    if (field === 'start_price') return 'the start price must be a positive number of cents';
    return issue.message;
  });
}

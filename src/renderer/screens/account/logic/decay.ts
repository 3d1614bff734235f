/**
 * Price-decay preview math for the list and edit dialogs. The pricing rule is the contract's
 * `decayPriceAt` (the marketplace side prices with the same function), so the preview shows what will
 * be charged.
 */
import { type DecayCurve, LIMITS, decayPriceAt, priceDecayRequest } from '../../../../shared/api/index.ts';

export interface CurvePoint {
  x: number;
  y: number;
}

/** One point per `step` hours, both ends included (a 168 h curve at step 1 is 169 points). */
export function curvePoints(curve: DecayCurve, step = 1): CurvePoint[] {
  const points: CurvePoint[] = [];
  for (let hour = 0; hour < curve.total_hours; hour += step) points.push({ x: hour, y: decayPriceAt(curve, hour) });
  points.push({ x: curve.total_hours, y: curve.end_price });
  return points;
}

export function priceAt(curve: DecayCurve, hour: number): number {
  return decayPriceAt(curve, hour);
}

/** What is wrong with a curve someone typed, in words; empty when the marketplace would take it. */
export function curveProblems(curve: Partial<DecayCurve>): string[] {
  const problems: string[] = [];
  if (!curve.start_price || curve.start_price <= 0) problems.push('enter a start price');
  if (!curve.end_price || curve.end_price <= 0) problems.push('enter an end price');
  if (curve.start_price && curve.end_price && curve.end_price >= curve.start_price) problems.push('the end price must be below the start price');
  const h = curve.total_hours;
  if (h === undefined || !Number.isInteger(h) || h < LIMITS.decayMinHours || h > LIMITS.decayMaxHours) {
    problems.push(`the curve lasts ${LIMITS.decayMinHours} to ${LIMITS.decayMaxHours} whole hours`);
  }
  if (problems.length === 0 && !priceDecayRequest.safeParse(curve).success) problems.push('the curve is not valid');
  return problems;
}

/** The first whole hour at which the price is at or below `price`; null when it never gets there. */
export function hourReaching(curve: DecayCurve, price: number): number | null {
  if (price >= curve.start_price) return 0;
  if (price < curve.end_price) return null;
  for (let hour = 0; hour <= curve.total_hours; hour++) if (decayPriceAt(curve, hour) <= price) return hour;
  return curve.total_hours;
}

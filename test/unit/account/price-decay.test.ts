import { describe, expect, it } from 'vitest';
import {
  decayCurvePoints,
  decayCurveProblems,
  decayProgress,
  hourWhenPriceReaches,
  priceAtHour,
} from '../../../src/core/account/price-decay.ts';

const curve = { start_price: 10_000, end_price: 4_000, total_hours: 24 };

describe('price decay', () => {
  it('falls linearly from start to end, rounded to the cent, flat outside the curve', () => {
    expect(priceAtHour(curve, 0)).toBe(10_000);
    expect(priceAtHour(curve, 12)).toBe(7_000);
    expect(priceAtHour(curve, 6)).toBe(8_500);
    expect(priceAtHour(curve, 1)).toBe(9_750);
    expect(priceAtHour(curve, 24)).toBe(4_000);
    expect(priceAtHour(curve, 500)).toBe(4_000);
    expect(priceAtHour(curve, -3)).toBe(10_000);
    // 999 → 1 over 168 h: after 1 h the exact price is 993.0595…, rounded to 993.
    expect(priceAtHour({ start_price: 999, end_price: 1, total_hours: 168 }, 1)).toBe(993);
    expect(priceAtHour({ start_price: 3, end_price: 2, total_hours: 24 }, 12)).toBe(3); // 2.5 rounds half up
  });

  it('gives one preview point per hour including both ends', () => {
    const points = decayCurvePoints({ start_price: 16_800, end_price: 1, total_hours: 168 });
    expect(points).toHaveLength(169);
    expect(points[0]).toEqual({ hour: 0, price: 16_800 });
    expect(points.at(-1)).toEqual({ hour: 168, price: 1 });
    for (let i = 1; i < points.length; i++) expect(points[i]!.price).toBeLessThanOrEqual(points[i - 1]!.price);
    expect(decayCurvePoints(curve, 5).map((p) => p.hour)).toEqual([0, 5, 10, 15, 20, 24]);
    expect(() => decayCurvePoints(curve, 0)).toThrow(RangeError);
  });

  it('finds when the curve reaches a price', () => {
    expect(hourWhenPriceReaches(curve, 7_000)).toBe(12);
    expect(hourWhenPriceReaches(curve, 20_000)).toBe(0);
    expect(hourWhenPriceReaches(curve, 3_999)).toBeNull();
    const h = hourWhenPriceReaches(curve, 9_000) as number;
    expect(priceAtHour(curve, h)).toBeLessThanOrEqual(9_000);
    expect(priceAtHour(curve, h - 1 / 60)).toBeGreaterThan(9_000);
  });

  it('reports a listing’s progress along its curve', () => {
    expect(decayProgress({ ...curve, elapsed_hours: 6 })).toEqual({ elapsedHours: 6, remainingHours: 18, fraction: 0.25, priceNow: 8_500 });
    expect(decayProgress({ ...curve, elapsed_hours: 30 })).toMatchObject({ elapsedHours: 24, remainingHours: 0, priceNow: 4_000 });
    expect(decayProgress(curve)).toMatchObject({ elapsedHours: 0, priceNow: 10_000 });
  });

  it('explains an invalid curve in plain words', () => {
    expect(decayCurveProblems(curve)).toEqual([]);
    expect(decayCurveProblems({ ...curve, total_hours: 23 })).toEqual(['the curve must last 24 to 168 hours, in whole hours']);
    expect(decayCurveProblems({ ...curve, total_hours: 169 })).toHaveLength(1);
    expect(decayCurveProblems({ ...curve, end_price: 10_000 })).toEqual(['the end price must be below the start price']);
    expect(decayCurveProblems({ ...curve, start_price: 0 })).toContain('the start price must be a positive number of cents');
  });
});

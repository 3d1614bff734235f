/** Contract validation of big responses a slice at a time: the same answer as whole, with turns between. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateInSlices, type ValidationResult } from '../../../src/core/api/sliced-validation.ts';
import { ENDPOINTS } from '../../../src/shared/api/index.ts';

const pricesAll = ENDPOINTS.pricesAll.response as z.ZodType;

const row = (i: number) => ({
  app_id: 730,
  market_hash_name: `Item ${i}`,
  market_price: 100 + i,
  recommended_price: 99 + i,
  lowest_listing_price: null,
  stock: 3,
  listing_count: 2,
  updated_at: '2026-11-22T03:00:00.000Z',
  extra_field_the_contract_tolerates: true,
});

const body = (n: number) => ({
  prices: Array.from({ length: n }, (_, i) => row(i)),
  generated_at: '2026-11-22T03:00:00.000Z',
});

const whole = (schema: z.ZodType, raw: unknown): ValidationResult => {
  const r = schema.safeParse(raw);
  return r.success
    ? { success: true, data: r.data }
    : { success: false, issues: r.error.issues.map((i) => ({ path: [...i.path], message: i.message })) };
};
const byPath = (r: ValidationResult) =>
  r.success ? [] : r.issues.map((i) => `${i.path.join('.')}: ${i.message}`).sort();

describe('validateInSlices', () => {
  it('gives what checking the whole answer gives, for a prices/all of 5,000 rows (three slices)', async () => {
    const raw = body(5_000);
    const sliced = await validateInSlices(pricesAll, raw, 2_000);
    expect(sliced.success).toBe(true);
    expect(sliced).toEqual(whole(pricesAll, raw));
  });

  it('reports the same issues, with the row index of the whole array in their paths', async () => {
    const raw = body(5_000) as { prices: Record<string, unknown>[]; generated_at: unknown };
    raw.prices[4_321]!.market_price = 'free';
    raw.prices[7]!.market_hash_name = 42;
    raw.generated_at = 'yesterday';
    const sliced = await validateInSlices(pricesAll, raw, 2_000);
    expect(sliced.success).toBe(false);
    expect(byPath(sliced)).toEqual(byPath(whole(pricesAll, raw)));
    expect(byPath(sliced).some((p) => p.startsWith('prices.4321.market_price:'))).toBe(true);
  });

  it('lets timers run between slices', async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    await validateInSlices(pricesAll, body(10_000), 1_000);
    clearInterval(ticking);
    expect(turns).toBeGreaterThan(0);
  });

  it('checks an array with a length rule whole, and leaves small answers and non-objects to the schema', async () => {
    const capped = z.object({ rows: z.array(z.number()).max(3) });
    expect(byPath(await validateInSlices(capped, { rows: [1, 2, 3, 4, 5] }, 2))).toEqual(
      byPath(whole(capped, { rows: [1, 2, 3, 4, 5] })),
    );
    expect((await validateInSlices(capped, { rows: [1, 2, 3, 4, 5] }, 2)).success).toBe(false);
    expect(await validateInSlices(pricesAll, body(3), 2_000)).toEqual(whole(pricesAll, body(3)));
    expect(await validateInSlices(pricesAll, [body(3)], 2)).toEqual(whole(pricesAll, [body(3)]));
  });
});

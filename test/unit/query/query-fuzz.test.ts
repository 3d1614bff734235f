/**
 * The query engine against a brute-force filter over the same rows, on a book full of ties (few prices,
 * floats, fades, blues and creation times), after price/amount changes and removals, for random filter
 * combinations, every sort in both directions, random page sizes and every plan kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryBook, refreshQueryStatistics } from '../../../src/core/query/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import type { BookQueryInput } from '../../../src/shared/query.ts';
import {
  BASE_TIME_MS,
  amountChangedEvent,
  createRng,
  makeFullListing,
  priceChangedEvent,
  removedEvent,
  type Rng,
} from '../../bench/generate.ts';
import { randomFilter } from '../../bench/random-filter.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';
import { type HeldListing, type Sort, loadBook, referenceIds } from './reference-book.ts';

let t: TestStore;
const live = new Map<number, HeldListing>();

const q = (v: number | null, step: number) => (v === null ? null : Math.round(v / step) * step);

function tied(rng: Rng, id: number): FullListing {
  const l = makeFullListing(rng, id, BASE_TIME_MS + Math.floor(rng() * 40) * 60_000);
  return {
    ...l,
    price: [100, 250, 250, 999, 1000, 5000][Math.floor(rng() * 6)] as number,
    cs_paint_wear: q(l.cs_paint_wear, 0.05),
    cs_fade_percentage: q(l.cs_fade_percentage, 5),
    cs_blue_percentage: q(l.cs_blue_percentage, 10),
  };
}

beforeAll(async () => {
  t = openTestStore();
  const rng = createRng(4242);
  const all = Array.from({ length: 1500 }, (_, i) => tied(rng, i + 1));
  const later = Array.from({ length: 200 }, (_, i) => tied(rng, 1501 + i));
  await loadBook(t, live, all, later, 7);
  // price and amount changes, removals
  let seq = 1000n;
  const events = [];
  for (const [id, entry] of live) {
    const r = rng();
    if (r < 0.1) {
      const after = [100, 250, 1000][Math.floor(rng() * 3)] as number;
      events.push(priceChangedEvent(id, entry.listing.app_id, entry.listing.price, after, seq++));
      entry.listing = { ...entry.listing, price: after };
    } else if (r < 0.15) {
      events.push(removedEvent(id, entry.listing.app_id, seq++));
      live.delete(id);
    } else if (r < 0.18) {
      events.push(amountChangedEvent(id, entry.listing.app_id, 0, seq++));
      live.delete(id);
    }
  }
  t.store.applyEvents(events);
  refreshQueryStatistics(t.db);
});
afterAll(() => t.close());

const SORTS: Sort[] = (['price', 'float', 'created_at', 'fade', 'blue', 'id'] as const).flatMap((field) => [
  { field, dir: 'asc' as const },
  { field, dir: 'desc' as const },
]);

function allPages(query: BookQueryInput, setLimit: number): { ids: number[]; total: number | null } {
  const ids: number[] = [];
  let page = queryBook(t.db, { ...query, count: true }, { setLimit });
  const total = page.total;
  for (let guard = 0; guard < 5000; guard++) {
    ids.push(...page.rows.map((r) => r.id));
    if (!page.next) break;
    page = queryBook(t.db, { ...query, after: page.next, count: true }, { setLimit });
    expect(page.total).toBe(total);
  }
  return { ids, total };
}

describe('queryBook on a book full of ties, against a brute-force filter', () => {
  it('the fixture has ties and removals', () => {
    const prices = new Set([...live.values()].map((e) => e.listing.price));
    expect(prices.size).toBeLessThanOrEqual(6);
    expect(live.size).toBeLessThan(1700);
  });
  const rng = createRng(Number(process.env.FUZZ_SEED ?? 7));
  const cases = Array.from({ length: Number(process.env.FUZZ_N ?? 300) }, () => ({
    filter: randomFilter(rng),
    sort: SORTS[Math.floor(rng() * SORTS.length)] as Sort,
    limit: 1 + Math.floor(rng() * 60),
    setLimit: [0, 7, 1_000_000_000][Math.floor(rng() * 3)] as number,
  }));
  it('matches the reference for 300 random queries', () => {
    const failures: string[] = [];
    let nonEmpty = 0;
    for (const c of cases) {
      const expected = referenceIds(live, c.filter, c.sort);
      if (expected.length > 0) nonEmpty++;
      const got = allPages({ filter: c.filter, sort: c.sort, limit: c.limit }, c.setLimit);
      const same = JSON.stringify(got.ids) === JSON.stringify(expected) && got.total === expected.length;
      if (!same)
        failures.push(
          `${JSON.stringify(c)}: got ${got.ids.length} (total ${got.total}), want ${expected.length}`,
        );
    }
    expect(failures).toEqual([]);
    expect(nonEmpty).toBeGreaterThan(60);
  });
});

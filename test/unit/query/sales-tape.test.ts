/**
 * The sales tape against a reference: every sale the mirror recorded, filtered and ordered in plain
 * JavaScript, for games and names, through both plans, paged to the end with small and large pages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidCursorError } from '../../../src/core/query/cursor.ts';
import { type SalesTapeQuery, type TapeSale, readSalesTape } from '../../../src/core/query/sales-tape.ts';
import { iterateSales } from '../../../src/core/store/index.ts';
import type { ListingEvent } from '../../../src/shared/api/index.ts';
import { paintIndexesOfPhases } from '../../../src/shared/phases.ts';
import { BASE_TIME_MS, createRng, createdEvent, dopplerListing, makeFullListing, soldEvent } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const NEVER_LISTED = 'Sticker | Zywoo (Gold) | Never Listed Here';
const SEQ_BASE = 2n ** 60n;

/** 300 listings of all games; most sell once or twice, a third with details in the mirror, some at the same millisecond. */
function recordSales(): void {
  const rng = createRng(11);
  const events: ListingEvent[] = [];
  let seq = SEQ_BASE;
  for (let id = 1; id <= 300; id++) {
    const listing = makeFullListing(rng, id);
    if (id % 3 === 0) events.push(createdEvent(listing, (seq += 1n)));
    const sales = id % 4 === 0 ? 2 : 1;
    for (let s = 0; s < sales; s++) {
      // coarse times: several sales share a millisecond, so the tie-breaks (listing id, seq) are exercised
      const soldMs = BASE_TIME_MS + Math.floor(rng() * 40) * 60_000;
      events.push(soldEvent(listing, 1, (seq += 1n), soldMs));
    }
  }
  // Dopplers of each phase (P1–P4: 418–421, Ruby 415, Sapphire 416), detailed, so the phase filter has work
  const paintIndexes = [418, 419, 420, 421, 415, 416];
  for (let i = 0; i < 24; i++) {
    const doppler = dopplerListing(rng, 5_000 + i, 50_000 + i, paintIndexes[i % paintIndexes.length]!);
    events.push(createdEvent(doppler, (seq += 1n)));
    events.push(soldEvent(doppler, 1, (seq += 1n), BASE_TIME_MS + (i % 7) * 60_000));
  }
  const ghost = { ...makeFullListing(rng, 10_000), app_id: 730 as const, market_hash_name: NEVER_LISTED };
  events.push(soldEvent(ghost, 1, (seq += 1n), BASE_TIME_MS + 5 * 60_000));
  t.store.applyEvents(events);
  t.store.indexNames(50); // part of the names through the trigram index, the rest through the scan of new names
}

function reference(query: Omit<SalesTapeQuery, 'limit' | 'before'>): TapeSale[] {
  const needle = query.name?.toLowerCase();
  const indexes = query.phases ? paintIndexesOfPhases(query.phases) : null;
  const float = query.float;
  return [...iterateSales(t.db)]
    .filter((s) => query.app_id === undefined || s.app_id === query.app_id)
    .filter((s) => needle === undefined || s.market_hash_name.toLowerCase().includes(needle))
    .filter((s) => !float || (s.paint_wear !== null && s.paint_wear >= (float.min ?? 0) && s.paint_wear <= (float.max ?? 1)))
    .filter((s) => !indexes || (s.paint_index !== null && indexes.includes(s.paint_index)))
    .map((s) => ({ ...s, ms: Date.parse(s.sold_at) }))
    .sort((a, b) => b.ms - a.ms || b.listing_id - a.listing_id)
    .map(
      (s) =>
        ({
          listing_id: s.listing_id,
          price: s.price,
          sold_at: s.sold_at,
          market_hash_name: s.market_hash_name,
        }) as TapeSale,
    );
}

function wholeTape(
  query: Omit<SalesTapeQuery, 'limit' | 'before'>,
  limit: number,
  perNameMaxNames?: number,
): TapeSale[] {
  const out: TapeSale[] = [];
  let before: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = readSalesTape(
      t.db,
      { ...query, before, limit },
      perNameMaxNames === undefined ? {} : { perNameMaxNames },
    );
    expect(page.sales.length).toBeLessThanOrEqual(limit);
    out.push(...page.sales);
    if (page.next === null) return out;
    expect(page.sales).toHaveLength(limit); // only a last page is short
    before = page.next;
  }
  throw new Error('the tape never ended');
}

const essentials = (sales: TapeSale[]) =>
  sales.map((s) => ({
    listing_id: s.listing_id,
    price: s.price,
    sold_at: s.sold_at,
    market_hash_name: s.market_hash_name,
  }));

describe('sales tape', () => {
  const queries: Omit<SalesTapeQuery, 'limit' | 'before'>[] = [
    {},
    { app_id: 730 },
    { app_id: 570 },
    { name: 'ak-47' },
    { name: 'DOPPLER', app_id: 730 },
    { name: 'ne' }, // below three characters: the scan of every name
    { name: '(field-tested)' },
    { name: 'no such item at all' },
    { float: { max: 0.15 } },
    { float: { min: 0.38, max: 0.45 }, name: 'a' },
    { phases: ['Phase 2', 'Ruby'] },
    { phases: ['Sapphire'], name: 'karambit', float: { min: 0 } },
  ];

  it.each(queries)('pages through exactly the reference, newest first, on both plans: %o', (query) => {
    recordSales();
    const expected = reference(query);
    if (query.name !== 'no such item at all') expect(expected.length).toBeGreaterThan(0);
    for (const limit of [7, 200])
      for (const perNameMaxNames of [undefined, 0, 1000]) {
        const tape = wholeTape(query, limit, perNameMaxNames);
        expect(essentials(tape)).toEqual(essentials(expected));
        // the tie between sales of one listing is the seq's, compared exactly above 2^53
        for (let i = 1; i < tape.length; i++) {
          const [a, b] = [tape[i - 1]!, tape[i]!];
          if (a.sold_at === b.sold_at && a.listing_id === b.listing_id)
            expect(BigInt(a.seq) > BigInt(b.seq)).toBe(true);
        }
      }
  });

  it('carries the float, seed and stickers of items the mirror had the details of', () => {
    recordSales();
    const sales = readSalesTape(t.db, { app_id: 730, limit: 500 }).sales.filter((s) => s.listing_id < 5_000); // not the Dopplers
    const detailed = sales.filter((s) => s.listing_id % 3 === 0);
    expect(detailed.length).toBeGreaterThan(0);
    for (const sale of detailed) expect(sale.paint_wear).not.toBeNull();
    expect(detailed.some((s) => (s.stickers ?? []).length > 0)).toBe(true);
    // as stored, so an export writes what `skindesk sales` prints
    const stored = new Map([...iterateSales(t.db)].map((s) => [s.listing_id, s.stickers]));
    for (const sale of detailed) expect(sale.stickers).toEqual(stored.get(sale.listing_id));
    expect(
      sales.filter((s) => s.listing_id % 3 !== 0).every((s) => s.stickers === null && s.paint_wear === null),
    ).toBe(true);
    expect(sales.every((s) => BigInt(s.seq) > SEQ_BASE)).toBe(true);
  });

  it('finds by name a sale whose listing the mirror never held', () => {
    recordSales();
    for (const perNameMaxNames of [undefined, 0]) {
      const page = readSalesTape(
        t.db,
        { name: 'never listed', limit: 10 },
        perNameMaxNames === undefined ? {} : { perNameMaxNames },
      );
      expect(page.sales.map((s) => s.market_hash_name)).toEqual([NEVER_LISTED]);
    }
  });

  it('answers the sales since a time, so a live refresh reads the last minute rather than the history', () => {
    recordSales();
    const all = reference({});
    const page = readSalesTape(t.db, { limit: 10 });
    const latest = Math.max(...all.map((s) => Date.parse(s.sold_at)));
    expect(page.latestMs).toBe(latest);
    const since = latest - 3 * 60_000;
    const recent = readSalesTape(t.db, { limit: 500, sinceMs: since });
    expect(essentials(recent.sales)).toEqual(essentials(all.filter((s) => Date.parse(s.sold_at) >= since)));
    expect(recent.sales.length).toBeGreaterThan(0);
    expect(recent.sales.length).toBeLessThan(all.length);
    // with a name (each item's own range) as well
    const named = readSalesTape(t.db, { limit: 500, sinceMs: since, name: 'a' });
    expect(essentials(named.sales)).toEqual(essentials(reference({ name: 'a' }).filter((s) => Date.parse(s.sold_at) >= since)));
  });

  it('refuses a cursor it did not write', () => {
    recordSales();
    for (const before of ['x', '1.2', '1.2.3.4', '99999999999999999.1.1'])
      expect(() => readSalesTape(t.db, { before, limit: 10 })).toThrow(InvalidCursorError);
  });
});

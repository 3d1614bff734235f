/**
 * The book's filters and sorts written plainly, over listings held in memory: what the query engine's
 * answers are checked against (query-book.test.ts, query-fuzz.test.ts).
 */
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { foldName } from '../../../src/core/store/names.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import { type DopplerPhase, phaseOfPaintIndex } from '../../../src/shared/phases.ts';
import type { BookFilter, BookQueryInput } from '../../../src/shared/query.ts';
import { createdEvent, leanOf } from '../../bench/generate.ts';
import type { TestStore } from '../store/helpers.ts';

/** A live listing, and whether its details are in the mirror. */
export interface HeldListing {
  listing: FullListing;
  detailed: boolean;
}

const has = (hay: string, needle: string) => foldName(hay).includes(foldName(needle));
/** A game field's value in any case of its ASCII letters, the rest as it is (SQLite's NOCASE). */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 32));
const sameField = (listed: unknown, asked: string) => typeof listed === 'string' && asciiLower(listed) === asciiLower(asked);
const inRange = (v: number | null | undefined, r?: { min?: number; max?: number }) =>
  v !== null &&
  v !== undefined &&
  (r?.min === undefined || v >= r.min) &&
  (r?.max === undefined || v <= r.max);

/** The reference semantics. */
export function matches(l: FullListing, detailed: boolean, f: BookFilter): boolean {
  if (f.app_id !== undefined && l.app_id !== f.app_id) return false;
  if (f.name !== undefined && !has(l.market_hash_name, f.name)) return false;
  if (f.commodity !== undefined && l.commodity !== f.commodity) return false;
  if (f.price && !inRange(l.price, f.price)) return false;
  const needsDetail =
    f.float ||
    f.fade ||
    f.blue ||
    f.paint_seeds ||
    f.paint_index !== undefined ||
    f.phases ||
    f.stattrak !== undefined ||
    f.souvenir !== undefined ||
    f.stickers ||
    f.keychains ||
    f.fields;
  if (!needsDetail) return true;
  if (!detailed) return false;
  if (f.float && !inRange(l.cs_paint_wear, f.float)) return false;
  if (f.fade && !inRange(l.cs_fade_percentage, f.fade)) return false;
  if (f.blue && !inRange(l.cs_blue_percentage, f.blue)) return false;
  if (f.paint_seeds && !f.paint_seeds.includes(l.cs_paint_seed as number)) return false;
  if (f.paint_index !== undefined && l.cs_paint_index !== f.paint_index) return false;
  if (f.phases && !f.phases.includes(phaseOfPaintIndex(l.cs_paint_index) as DopplerPhase)) return false;
  if (f.stattrak !== undefined && l.cs_is_stattrak !== f.stattrak) return false;
  if (f.souvenir !== undefined && l.cs_is_souvenir !== f.souvenir) return false;
  for (const [field, value] of Object.entries(f.fields ?? {}))
    if (value === undefined || !sameField((l as Record<string, unknown>)[field], value)) return false;
  if (f.stickers) {
    if (l.app_id !== 730) return false;
    const stickers = l.cs_stickers ?? [];
    for (const s of f.stickers.all ?? []) {
      const ok =
        stickers.filter(
          (x) =>
            (s.name === undefined || has(x.name, s.name)) &&
            (s.slot === undefined || x.slot === s.slot) &&
            (s.max_wear === undefined || (x.wear ?? 0) <= s.max_wear),
        ).length >= (s.min_matches ?? 1);
      if (!ok) return false;
    }
    if (f.stickers.min_count !== undefined && stickers.length < f.stickers.min_count) return false;
    if (f.stickers.max_count !== undefined && stickers.length > f.stickers.max_count) return false;
  }
  for (const k of f.keychains ?? []) {
    const ok = (l.cs_keychains ?? []).some(
      (x) =>
        (k.name === undefined || has(x.name, k.name)) && (k.pattern === undefined || x.pattern === k.pattern),
    );
    if (!ok) return false;
  }
  return true;
}

export type Sort = NonNullable<BookQueryInput['sort']>;
const SORT_VALUE: Record<Sort['field'], (l: FullListing) => number | null> = {
  price: (l) => l.price,
  created_at: (l) => Date.parse(l.created_at),
  id: (l) => l.id,
  float: (l) => l.cs_paint_wear,
  fade: (l) => l.cs_fade_percentage,
  blue: (l) => l.cs_blue_percentage,
};

/** The ids a query with `filter` and `sort` answers, in order. */
export function referenceIds(
  live: ReadonlyMap<number, HeldListing>,
  filter: BookFilter,
  sort: Sort,
): number[] {
  const value = SORT_VALUE[sort.field];
  const detailSort = sort.field === 'float' || sort.field === 'fade' || sort.field === 'blue';
  const rows = [...live.values()]
    .filter(({ listing, detailed }) => matches(listing, detailed, filter))
    .filter(({ listing, detailed }) => !detailSort || (detailed && value(listing) !== null))
    .map(({ listing }) => listing);
  const sign = sort.dir === 'asc' ? 1 : -1;
  rows.sort((a, b) => sign * ((value(a) as number) - (value(b) as number) || a.id - b.id));
  return rows.map((l) => l.id);
}

/**
 * Loads a book as the app gets one, `live` following what it holds: `all` by snapshot (lean), their
 * details filled as the backfill does except every `undetailedEvery`-th listing's; the names known so far
 * indexed; then `later` as creation events, whose names stay outside the trigram index, so name filters
 * are checked across both halves (index and tail scan).
 */
export async function loadBook(
  t: TestStore,
  live: Map<number, HeldListing>,
  all: readonly FullListing[],
  later: readonly FullListing[],
  undetailedEvery: number,
): Promise<void> {
  await mergeSnapshot(t.store, { seq: 100n, listings: all.map(leanOf) }, { scope: null, resync: false });
  const detailed = (l: FullListing) => l.id % undetailedEvery !== 0;
  t.store.write(() => {
    for (const l of all) if (detailed(l)) t.store.fillDetails(l.id, l);
  });
  for (const l of all) live.set(l.id, { listing: l, detailed: detailed(l) });
  while (t.store.indexNames(1_000) > 0);
  t.store.applyEvents(later.map((l, i) => createdEvent(l, 200n + BigInt(i))));
  for (const l of later) live.set(l.id, { listing: l, detailed: true });
}

/**
 * The query engine against a brute-force reference: every filter combination, every sort, every plan
 * kind (forced by the set limit), keyset paging through whole result sets, and the count.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidCursorError, compileQuery, countAhead, encodeCursor, queryBook, refreshQueryStatistics } from '../../../src/core/query/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import { DOPPLER_PHASES } from '../../../src/shared/phases.ts';
import type { BookFilter, BookQueryInput } from '../../../src/shared/query.ts';
import { createRng, leanOf, makeFullListing, removedEvent } from '../../bench/generate.ts';
import { openDatabase } from '../../../src/core/store/index.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';
import { type HeldListing, type Sort, loadBook, referenceIds } from './reference-book.ts';

let t: TestStore;
/** The live listings and whether their details are in the mirror. */
const live = new Map<number, HeldListing>();

beforeAll(async () => {
  t = openTestStore();
  const rng = createRng(99);
  const all = Array.from({ length: 3000 }, (_, i) => makeFullListing(rng, i + 1));
  const later = Array.from({ length: 200 }, (_, i) => makeFullListing(rng, 3001 + i));
  await loadBook(t, live, all, later, 10);
  // Some listings are removed (tombstones must never match).
  const removed = [5, 77, 1234, 3050];
  t.store.applyEvents(removed.map((id, i) => removedEvent(id, live.get(id)?.listing.app_id ?? 730, 1000n + BigInt(i))));
  for (const id of removed) live.delete(id);
  refreshQueryStatistics(t.db);
});
afterAll(() => t.close());

/** Every id of a query, following `next` page by page. */
function allPages(query: BookQueryInput, setLimit: number): { ids: number[]; total: number | null } {
  const ids: number[] = [];
  let page = queryBook(t.db, { ...query, count: true }, { setLimit });
  const total = page.total;
  for (let guard = 0; guard < 1000; guard++) {
    ids.push(...page.rows.map((r) => r.id));
    if (!page.next) break;
    page = queryBook(t.db, { ...query, after: page.next }, { setLimit });
  }
  return { ids, total };
}

/** The SQL the engine prepares while planning `query`, on a connection of its own (no statement kept from before). */
function preparedWhilePlanning(query: BookQueryInput, setLimit: number): string[] {
  const db = openDatabase(t.file, { readonly: true });
  const asked: string[] = [];
  const prepare = db.prepare.bind(db);
  vi.spyOn(db, 'prepare').mockImplementation((sql: string) => {
    asked.push(sql);
    return prepare(sql);
  });
  try {
    compileQuery(db, query, { setLimit });
  } finally {
    db.close();
  }
  return asked;
}

const FILTERS: [string, BookFilter][] = [
  ['everything', {}],
  ['one game', { app_id: 570 }],
  ['name', { name: 'redline' }],
  ['short name', { name: 'ak' }],
  ['price band', { price: { min: 500, max: 5000 } }],
  ['game + price', { app_id: 730, price: { max: 2000 } }],
  ['float range', { float: { min: 0.1, max: 0.2 } }],
  ['float + price', { float: { max: 0.07 }, price: { min: 100 } }],
  ['seeds', { paint_seeds: [1, 2, 3, 500, 661, 999] }],
  ['paint index', { paint_index: 8 }],
  ['doppler gems', { phases: ['Ruby', 'Sapphire', 'Black Pearl', 'Emerald'] }],
  ['phase 2 by name', { name: 'karambit', phases: ['Phase 2'] }],
  ['phase and its paint index', { phases: ['Phase 1'], paint_index: 418 }],
  ['phase and another paint index', { phases: ['Ruby'], paint_index: 418 }],
  ['fade', { fade: { min: 90 } }],
  ['blue', { blue: { max: 50 } }],
  ['stattrak', { stattrak: true }],
  ['not souvenir cs', { app_id: 730, souvenir: false }],
  ['sticker name', { stickers: { all: [{ name: 'katowice' }] } }],
  ['two stickers', { stickers: { all: [{ name: 'holo' }, { name: 'cologne' }] } }],
  ['sticker slot and wear', { stickers: { all: [{ slot: 1, max_wear: 0.3 }] } }],
  ['sticker count', { stickers: { min_count: 3, max_count: 4 } }],
  ['two holo stickers', { stickers: { all: [{ name: 'holo', min_matches: 2 }] } }],
  ['two clean holos', { stickers: { all: [{ name: 'holo', max_wear: 0.5, min_matches: 2 }] } }],
  ['three of any sticker by name', { stickers: { all: [{ name: 'sticker |', min_matches: 3 }] } }],
  ['a craft and a price', { stickers: { all: [{ name: 'katowice', min_matches: 2 }] }, price: { max: 20_000 } }],
  ['two of a slot (impossible)', { stickers: { all: [{ slot: 1, min_matches: 2 }] } }],
  ['keychain', { keychains: [{ name: 'charm' }] }],
  ['dota hero', { fields: { dota_hero: 'Pudge' } }],
  ['dota hero typed in another case', { fields: { dota_hero: 'pUDGE' } }],
  ['tf2 quality typed in lower case', { fields: { tf2_quality: 'unusual' } }],
  ['rust type in capitals + price', { fields: { rust_type: 'HOODIE' }, price: { max: 20_000 } }],
  ['unindexed field', { fields: { cs_wear: 'Factory New', cs_weapon: 'AWP' } }],
  ['tf2 quality + price', { fields: { tf2_quality: 'Unusual' }, price: { min: 10 } }],
  ['commodity', { commodity: true }],
  ['game contradicts field', { app_id: 570, float: { max: 0.5 } }],
  ['name + float + stattrak', { name: 'ak-47', float: { max: 0.38 }, stattrak: false }],
];
const SORTS: Sort[] = [
  { field: 'price', dir: 'asc' },
  { field: 'created_at', dir: 'desc' },
  { field: 'float', dir: 'asc' },
  { field: 'id', dir: 'desc' },
  { field: 'fade', dir: 'desc' },
];

describe('queryBook', () => {
  it('sees the whole book it was given', () => {
    expect(referenceIds(live, {}, { field: 'id', dir: 'asc' })).toHaveLength(3196);
  });

  it('holds listings with several matching stickers, so the craft filters below are not matched by an empty set', () => {
    for (const name of ['two holo stickers', 'two clean holos', 'three of any sticker by name', 'a craft and a price']) {
      const filter = FILTERS.find(([n]) => n === name)?.[1] as BookFilter;
      expect(referenceIds(live, filter, { field: 'id', dir: 'asc' }).length, name).toBeGreaterThan(0);
      // and fewer than with one matching sticker: the count is what narrows
      const one = { ...filter, stickers: { all: filter.stickers!.all!.map((s) => ({ ...s, min_matches: 1 })) } };
      expect(referenceIds(live, filter, { field: 'id', dir: 'asc' }).length, name).toBeLessThan(referenceIds(live, one, { field: 'id', dir: 'asc' }).length);
    }
  });

  it('holds Dopplers of every phase, so the phase filters below are not matched by an empty set', () => {
    for (const phase of DOPPLER_PHASES) {
      expect(referenceIds(live, { phases: [phase] }, { field: 'id', dir: 'asc' }).length, phase).toBeGreaterThan(0);
    }
    expect(referenceIds(live, { name: 'karambit', phases: ['Phase 2'] }, { field: 'id', dir: 'asc' }).length).toBeGreaterThan(0);
  });

  for (const [name, filter] of FILTERS) {
    it(`matches the reference: ${name}`, () => {
      for (const sort of SORTS) {
        const expected = referenceIds(live, filter, sort);
        // 0 forces order-driven plans, 1e9 set-driven ones, 50 mixes them per driver.
        for (const setLimit of [0, 50, 1_000_000_000]) {
          const got = allPages({ filter, sort, limit: 97 }, setLimit);
          expect(got.ids, `${name} / ${sort.field} ${sort.dir} / setLimit ${setLimit}`).toEqual(expected);
          expect(got.total, `${name} / total`).toBe(expected.length);
        }
      }
    });
  }

  it("counts the rows ahead of each page's cursor, for every filter, sort and plan kind", () => {
    for (const [name, filter] of FILTERS) {
      for (const sort of SORTS) {
        for (const setLimit of [0, 50, 1_000_000_000]) {
          let passed = 0;
          let page = queryBook(t.db, { filter, sort, limit: 97 }, { setLimit });
          while (page.next) {
            passed += page.rows.length;
            expect(countAhead(t.db, { filter, sort, after: page.next }, { setLimit }), `${name} / ${sort.field} ${sort.dir} / setLimit ${setLimit}`).toBe(passed);
            page = queryBook(t.db, { filter, sort, limit: 97, after: page.next }, { setLimit });
          }
        }
      }
    }
  });

  it('counts the rows ahead of a cursor whose listing has left the book', () => {
    const sort: Sort = { field: 'id', dir: 'desc' };
    const ids = referenceIds(live, {}, sort);
    for (const removed of [5, 77, 1234, 3050]) {
      const after = encodeCursor('id', { value: removed, id: removed });
      expect(countAhead(t.db, { filter: {}, sort, after })).toBe(ids.filter((id) => id > removed).length);
      expect(queryBook(t.db, { filter: {}, sort, after, limit: 1 }).rows[0]?.id).toBe(ids.find((id) => id < removed));
    }
  });

  it('returns lean and detail columns, stickers and keychains of a page', () => {
    const [row] = queryBook(t.db, { filter: { stickers: { min_count: 1 } }, sort: { field: 'id', dir: 'asc' }, limit: 1 }).rows;
    if (!row) throw new Error('no row');
    const l = live.get(row.id)?.listing as FullListing;
    expect(row).toMatchObject({ ...leanOf(l), paint_wear: l.cs_paint_wear, paint_seed: l.cs_paint_seed, stattrak: l.cs_is_stattrak });
    expect(row.stickers).toEqual(l.cs_stickers?.map((s) => ({ slot: s.slot, name: s.name, wear: s.wear })));
    const undetailed = queryBook(t.db, { filter: { app_id: 730 }, sort: { field: 'id', dir: 'asc' }, limit: 20 }).rows.find(
      (r) => r.id % 10 === 0,
    );
    expect(undetailed).toMatchObject({ paint_wear: null, stickers: null, keychains: null });
  });

  it('counts a listing with several matching stickers once', () => {
    const filter: BookFilter = { stickers: { all: [{ name: 'katowice' }] } };
    const compiled = compileQuery(t.db, { filter, count: true }, { setLimit: 0 });
    expect(compiled.countDistinctIds).toBe(true);
    const expected = referenceIds(live, filter, { field: 'id', dir: 'asc' }).length;
    // The fixture must hold such listings, or the count below would prove nothing about duplicates.
    const matchingRows = (t.db.prepare(compiled.countSql as string).all(...compiled.countParams) as unknown[]).length;
    expect(matchingRows).toBeGreaterThan(expected);
    expect(queryBook(t.db, { filter, count: true, limit: 5 }, { setLimit: 0 }).total).toBe(expected);
  });

  it('refuses a cursor made for another sort', () => {
    const first = queryBook(t.db, { sort: { field: 'price', dir: 'asc' }, limit: 10 });
    expect(() => queryBook(t.db, { sort: { field: 'float', dir: 'asc' }, after: first.next as string })).toThrow(InvalidCursorError);
  });

  it('checks a name row by row when a value list (phase, seeds) selects fewer listings than the name', () => {
    const byPhase = compileQuery(t.db, { filter: { name: 'karambit', phases: ['Phase 2'] }, count: true });
    expect(byPhase.sql).toContain('+a.name_id IN');
    // an exact name is smaller than every Doppler of every phase: its index stays in use
    const exactName = referenceIds(live, { phases: [...DOPPLER_PHASES] }, { field: 'id', dir: 'asc' })
      .map((id) => live.get(id)?.listing.market_hash_name as string)
      .find((n) => n.startsWith('Karambit'));
    if (!exactName) throw new Error('no Karambit Doppler in the fixture');
    expect(compileQuery(t.db, { filter: { name: exactName, phases: [...DOPPLER_PHASES] } }).sql).not.toContain('+a.name_id');
    expect(compileQuery(t.db, { filter: { name: 'karambit', float: { max: 0.1 } } }).sql).not.toContain('+a.name_id');
  });

  it('checks a name row by row when a rare figure (fade, blue: a range or the sort) selects fewer listings than the name', () => {
    // "stattrak™" sorted by blue read every StatTrak listing at 1M (0.25 s) for the ~1% with a blue figure
    const blueListings = referenceIds(live, { blue: {} }, { field: 'id', dir: 'asc' }).length;
    const broadName = referenceIds(live, { name: 'a' }, { field: 'id', dir: 'asc' }).length;
    expect(blueListings).toBeGreaterThan(0);
    expect(broadName).toBeGreaterThan(blueListings);
    expect(compileQuery(t.db, { filter: { name: 'a' }, sort: { field: 'blue', dir: 'asc' } }).sql).toContain('+a.name_id IN');
    expect(compileQuery(t.db, { filter: { name: 'a', fade: { min: 80 } } }).sql).toContain('+a.name_id IN');
    // a whole name has fewer listings than the figure: it keeps its index
    const exactName = referenceIds(live, { blue: {} }, { field: 'id', dir: 'asc' })
      .map((id) => live.get(id)?.listing.market_hash_name as string)[0] as string;
    expect(compileQuery(t.db, { filter: { name: exactName }, sort: { field: 'blue', dir: 'asc' } }).sql).not.toContain('+a.name_id');
    for (const filter of [{ name: 'a' }, { name: exactName }]) {
      const sort = { field: 'blue', dir: 'desc' } as const;
      expect(queryBook(t.db, { filter, sort, limit: 1000 }).rows.map((r) => r.id)).toEqual(referenceIds(live, filter, sort));
    }
  });

  it('checks a name row by row when an item field with an index selects fewer listings, or both are past the cap', () => {
    // "knife" among Rust doors read every knife's row to find none (60 ms at 1M); the field's index holds the name
    const covert = { cs_rarity: 'Covert' };
    expect(referenceIds(live, { fields: covert }, { field: 'id', dir: 'asc' }).length).toBeLessThan(
      referenceIds(live, { name: 'a' }, { field: 'id', dir: 'asc' }).length,
    );
    expect(compileQuery(t.db, { filter: { name: 'a', fields: covert }, count: true }).sql).toContain('+a.name_id IN');
    // a name with fewer listings than the field keeps its index, unless both are past the weighing cap
    // (WEIGH_FACTOR × the set limit), where the field's index, which holds the name, is the one to walk
    const wear = { cs_wear: 'Minimal Wear' };
    const names = referenceIds(live, { fields: wear }, { field: 'id', dir: 'asc' }).map((id) => live.get(id)?.listing.market_hash_name as string);
    const named = names.find((n) => names.filter((m) => m === n).length >= 6) as string;
    expect(named, 'a Minimal Wear name with six listings or more').toBeDefined();
    const filter: BookFilter = { name: named, fields: wear };
    expect(referenceIds(live, { name: named }, { field: 'id', dir: 'asc' }).length).toBeLessThan(names.length);
    const statements = (setLimit?: number) => {
      const c = compileQuery(t.db, { filter, count: true }, setLimit === undefined ? {} : { setLimit });
      return [c.sql, c.countSql ?? '', c.keys?.sql ?? ''].join('\n');
    };
    expect(statements()).not.toContain('+a.name_id');
    expect(statements(1)).toContain('+a.name_id IN');
    for (const [f, setLimit] of [[filter, 1], [filter, 10_000], [{ name: 'a', fields: covert }, 10_000]] as const) {
      const sort = { field: 'price', dir: 'asc' } as const;
      const expected = referenceIds(live, f, sort);
      expect(allPages({ filter: f, sort, limit: 9 }, setLimit)).toEqual({ ids: expected, total: expected.length });
    }
  });

  it('checks a name row by row once it holds more than a tenth of what a rare figure selects', () => {
    // driven by the name, the figure is read from each of its rows, ~10 times an index entry's cost:
    // "redline" with any fade read 9k rows to find none (54 ms at 1M), the fade index's 30k entries 3 ms
    const fade = referenceIds(live, { fade: {} }, { field: 'id', dir: 'asc' }).length;
    const count = (name: string) => referenceIds(live, { name }, { field: 'id', dir: 'asc' }).length;
    const withFade = (n: string) => referenceIds(live, { name: n, fade: {} }, { field: 'id', dir: 'asc' }).length > 0;
    const name = ['karambit', 'doppler', 'fade', 'knife', 'bayonet', 'butterfly', 'ak-47', 'glock'].find(
      (n) => count(n) > fade / 10 + 1 && count(n) < fade && withFade(n),
    );
    expect(name, `a name with ${Math.ceil(fade / 10)}-${fade} listings`).toBeDefined();
    const filter: BookFilter = { name: name as string, fade: {} };
    expect(compileQuery(t.db, { filter, count: true }).sql).toContain('+a.name_id IN');
    const sort = { field: 'fade', dir: 'asc' } as const;
    const expected = referenceIds(live, filter, sort);
    expect(allPages({ filter, sort, limit: 3 }, 10_000)).toEqual({ ids: expected, total: expected.length });
  });

  it('walks the exterior\'s own index for a float order, which holds its listings in float order', () => {
    // the float index, checking the exterior on each row: "Factory New" highest float first, ~490k rows (1 s at 1M)
    for (const filter of [{ fields: { cs_wear: 'Factory New' } }, { stattrak: false, fields: { cs_wear: 'field-tested' } }] as BookFilter[]) {
      for (const dir of ['asc', 'desc'] as const) {
        const sort = { field: 'float', dir } as const;
        const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit: 0 });
        expect(compiled.plan).toBe('order');
        expect(compiled.sql).toContain('INDEXED BY attrs_cs_wear');
        const plan = t.db.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.params) as { detail: string }[];
        expect(plan.map((r) => r.detail).join('\n')).not.toContain('USE TEMP B-TREE FOR ORDER BY\nSCAN k');
        const expected = referenceIds(live, filter, sort);
        expect(expected.length).toBeGreaterThan(0);
        expect(allPages({ filter, sort, limit: 40 }, 0)).toEqual({ ids: expected, total: expected.length });
      }
    }
  });

  it('leaves SQLite the id order of a filter with details on their copies of name and commodity', () => {
    // on the listings' name index, a row read for each knife before its flags (65 ms at 1M); the details'
    // name index holds the flags
    const filter: BookFilter = { name: 'knife', stattrak: false, commodity: false };
    const sort = { field: 'id', dir: 'desc' } as const;
    const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit: 0 });
    expect(compiled.plan).toBe('order');
    expect(compiled.sql).toContain('a.name_id IN');
    expect(compiled.sql).not.toContain('l.name_id IN');
    const expected = referenceIds(live, filter, sort);
    expect(expected.length).toBeGreaterThan(0);
    expect(allPages({ filter, sort, limit: 17 }, 0)).toEqual({ ids: expected, total: expected.length });
  });

  it('groups a craft\'s sticker rows once while planning: the intersection and the count take its ids as read', () => {
    // a craft of a name matching most stickers ("sticker |" ×2) grouped ~500k sticker rows three times
    // at 1M (the estimate, the intersection, the count: 0.17-0.24 s each)
    const filter: BookFilter = { price: { max: 400_000 }, stickers: { all: [{ name: 'holo' }, { name: 'sticker |', min_matches: 2 }] } };
    const sort = { field: 'float', dir: 'desc' } as const;
    const setLimit = 5;
    const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit });
    expect(compiled.plan).toBe('order');
    const grouped = (sql: string) => sql.includes('GROUP BY listing_id');
    expect(grouped(compiled.countSql as string)).toBe(false);
    expect(preparedWhilePlanning({ filter, sort, count: true }, setLimit).filter(grouped)).toHaveLength(1);
    const expected = referenceIds(live, filter, sort);
    expect(expected.length).toBeGreaterThan(setLimit);
    expect(allPages({ filter, sort, limit: 11 }, setLimit)).toEqual({ ids: expected, total: expected.length });
  });

  it('looks a broad sticker set up on the rows of a small index in a count, rather than driving by its ids', () => {
    // driving, each of its (over SET_LIMIT) ids reads a details row: "charm" keychains sorted by fade, 53 ms at 1M
    const charm: BookFilter = { keychains: [{ name: 'charm' }] };
    for (const [filter, sort] of [
      [charm, { field: 'fade', dir: 'desc' }],
      [{ ...charm, stattrak: true }, { field: 'id', dir: 'asc' }],
      [{ ...charm, paint_seeds: Array.from({ length: 400 }, (_, i) => i) }, { field: 'id', dir: 'asc' }],
    ] as [BookFilter, Sort][]) {
      const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit: 0 });
      expect(compiled.countSql, JSON.stringify(filter)).toContain('+a.id IN (SELECT listing_id');
      const expected = referenceIds(live, filter, sort);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(allPages({ filter, sort, limit: 13 }, 0)).toEqual({ ids: expected, total: expected.length });
    }
    // with only broad conditions beside it, the set still drives
    const broad = compileQuery(t.db, { filter: { ...charm, souvenir: false }, sort: { field: 'id', dir: 'asc' }, count: true }, { setLimit: 0 });
    expect(broad.countSql).toContain(' a.id IN (SELECT listing_id');
  });

  it('asks "any N stickers" of the sticker count in the details, not of the sticker rows', () => {
    for (const [condition, min] of [[{}, 1], [{ min_matches: 3 }, 3]] as const) {
      const filter: BookFilter = { stickers: { all: [condition] } };
      const compiled = compileQuery(t.db, { filter, count: true }, { setLimit: 0 });
      expect(compiled.sql).toContain(`a.sticker_count >= ${min}`);
      expect(`${compiled.sql} ${compiled.countSql ?? ''}`).not.toContain('listing_stickers');
      const expected = referenceIds(live, filter, { field: 'id', dir: 'asc' });
      expect(expected.length).toBeGreaterThan(0);
      expect(allPages({ filter, sort: { field: 'id', dir: 'asc' }, limit: 50 }, 0)).toEqual({ ids: expected, total: expected.length });
    }
  });

  it('drives by the intersection of several broad sticker conditions when they meet rarely', () => {
    const [first, second] = [{ name: 'katowice' }, { name: 'holo' }];
    const sort = { field: 'id', dir: 'asc' } as const;
    const both = referenceIds(live, { stickers: { all: [first, second] } }, sort);
    const sizes = [first, second].map((c) => referenceIds(live, { stickers: { all: [c] } }, sort).length);
    // each condition alone passes the limit, their intersection does not
    const setLimit = Math.max(both.length, 1);
    expect(both.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThan(setLimit);
    const filter: BookFilter = { stickers: { all: [first, second] } };
    const compiled = compileQuery(t.db, { filter, count: true }, { setLimit });
    expect(compiled.plan).toBe('set:attrs');
    expect(compiled.sql).toContain('json_each(?)');
    // the ids are the book as it was: a grid must plan again for a later page, not keep the statement
    expect(compiled.holdsIds).toBe(true);
    expect(compileQuery(t.db, { filter: { stickers: { all: [first] } } }, { setLimit }).holdsIds).toBeUndefined();
    expect(allPages({ filter, sort, limit: 7 }, setLimit)).toEqual({ ids: both, total: both.length });
  });

  it('counts a broad filter on the details alone: the price from their copy, each sticker set as an id list', () => {
    // setLimit 0: every driver is "more than the limit", the case where SQLite chooses how to count
    const priced: BookFilter = { price: { max: 400_000 }, float: { max: 0.5 } };
    const withStickers: BookFilter = { souvenir: false, price: { min: 1 }, stickers: { all: [{ name: 'katowice' }] } };
    for (const filter of [priced, withStickers]) {
      const compiled = compileQuery(t.db, { filter, count: true }, { setLimit: 0 });
      expect(compiled.countSql, JSON.stringify(filter)).toMatch(/^SELECT count\(\*\) FROM listing_attrs a WHERE/);
      expect(compiled.countSql).toContain('a.price');
      expect(compiled.countSql).not.toContain('listings l');
      const expected = referenceIds(live, filter, { field: 'id', dir: 'asc' }).length;
      expect(expected, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(queryBook(t.db, { filter, count: true, limit: 5 }, { setLimit: 0 }).total).toBe(expected);
    }
    expect(compileQuery(t.db, { filter: withStickers, count: true }, { setLimit: 0 }).countSql).toContain('a.id IN (SELECT listing_id');
  });

  it('finds a game field in any case through its index (a seek, not a scan of the details)', () => {
    for (const [field, value] of [['dota_hero', 'pUDGE'], ['tf2_quality', 'unusual'], ['rust_type', 'hoodie']] as const) {
      const filter = { fields: { [field]: value } };
      expect(referenceIds(live, filter, { field: 'id', dir: 'asc' }).length, field).toBeGreaterThan(0);
      const compiled = compileQuery(t.db, { filter, sort: { field: 'price', dir: 'asc' } }, { setLimit: 1_000_000_000 });
      expect(compiled.plan).toBe('set:attrs');
      const plan = t.db.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.params) as { detail: string }[];
      expect(plan.map((r) => r.detail).join('\n'), field).toContain(`INDEX attrs_${field} (${field}=?)`);
    }
  });

  it('walks the id order of a filter on listings alone in the table itself: no sort of every match first', () => {
    // a name's own index, then every listing of it sorted by id, took 125 ms a page at 1M listings
    // (the watchlists' sweeps page in id order); each filter here plans an ordered walk (setLimit 0)
    for (const filter of [{ name: 'a' }, { app_id: 730 as const, name: 'doppler' }, { name: 'karambit', price: { max: 50_000 } }]) {
      const compiled = compileQuery(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 1000 }, { setLimit: 0 });
      expect(compiled.plan, JSON.stringify(filter)).toBe('order');
      const plan = t.db.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.params) as { detail: string }[];
      const details = plan.map((r) => r.detail).join('\n');
      expect(details, JSON.stringify(filter)).toMatch(/SCAN l\b/);
      expect(details, JSON.stringify(filter)).not.toMatch(/TEMP B-TREE FOR (RIGHT PART OF )?ORDER BY/);
    }
  });

  it('chooses a page of a detail-driven plan on the details alone, reading listings for the page rows only', () => {
    // each candidate's listing row is a second random read: 10,000 candidates cost 20-30 ms more at 1M
    const cases: [BookFilter, Sort, number][] = [
      [{ float: { max: 0.2 }, price: { max: 50_000 } }, { field: 'price', dir: 'asc' }, 1_000_000_000],
      [{ stattrak: false, price: { min: 100 } }, { field: 'created_at', dir: 'desc' }, 1_000_000_000],
      [{ stickers: { all: [{ name: 'holo' }] }, price: { max: 80_000 } }, { field: 'id', dir: 'desc' }, 1_000_000_000],
      [{ price: { min: 200 }, souvenir: false }, { field: 'float', dir: 'asc' }, 0],
    ];
    for (const [filter, sort, setLimit] of cases) {
      const label = `${JSON.stringify(filter)} by ${sort.field}`;
      const compiled = compileQuery(t.db, { filter, sort, count: true, limit: 31 }, { setLimit });
      expect(compiled.plan, label).toBe(setLimit === 0 ? 'order' : 'set:attrs');
      const chosen = /\(SELECT a\.id FROM ([\s\S]*?) LIMIT \?\) k/.exec(compiled.sql)?.[1];
      expect(chosen, label).toBeDefined();
      expect(chosen, label).not.toContain('listings');
      if (compiled.countSql !== null) expect(compiled.countSql, label).not.toContain('listings');
      const expected = referenceIds(live, filter, sort);
      expect(expected.length, label).toBeGreaterThan(31);
      expect(allPages({ filter, sort, limit: 31 }, setLimit), label).toEqual({ ids: expected, total: expected.length });
    }
  });

  it('reads the candidates of a small set once for its first page and its count', () => {
    // a count and a page each visited every candidate (7,500 listings with a keychain: 9 ms each at 1M)
    const filter: BookFilter = { float: { max: 0.2 }, price: { max: 50_000 } };
    const sort = { field: 'float', dir: 'desc' } as const;
    const first = compileQuery(t.db, { filter, sort, count: true, limit: 25 }, { setLimit: 1_000_000_000 });
    expect(first.plan).toBe('set:attrs');
    expect(first.keys?.sql).not.toContain('LIMIT');
    expect(first.countSql).toBeNull();
    const expected = referenceIds(live, filter, sort);
    expect(expected.length).toBeGreaterThan(25);
    const page = queryBook(t.db, { filter, sort, count: true, limit: 25 }, { setLimit: 1_000_000_000 });
    expect({ ids: page.rows.map((r) => r.id), total: page.total }).toEqual({ ids: expected.slice(0, 25), total: expected.length });
    // a later page is chosen by its keyset, its count as before
    const later = compileQuery(t.db, { filter, sort, count: true, limit: 25, after: page.next as string }, { setLimit: 1_000_000_000 });
    expect(later.keys).toBeUndefined();
    expect(later.countSql).toContain('count(*)');
    // candidates, none of which passes the other conditions
    const byId = { field: 'id', dir: 'asc' } as const;
    const stickers = { all: [{ name: 'katowice' }] };
    const seed = Array.from({ length: 1000 }, (_, i) => i).find(
      (s) => referenceIds(live, { paint_seeds: [s] }, byId).length > 0 && referenceIds(live, { paint_seeds: [s], stickers }, byId).length === 0,
    );
    if (seed === undefined) throw new Error('no seed without a Katowice sticker in the fixture');
    const none = { filter: { paint_seeds: [seed], stickers }, count: true };
    expect(compileQuery(t.db, none, { setLimit: 1_000_000_000 }).keys).toBeDefined();
    expect(queryBook(t.db, none, { setLimit: 1_000_000_000 })).toMatchObject({ rows: [], total: 0, next: null });
  });

  it('estimates each driver only up to the smallest estimated before it', () => {
    // a price band counted to SET_LIMIT after a small fade range had already been found (30 ms at 1M)
    const filter: BookFilter = { fade: { min: 90 }, price: { min: 1 } };
    const fading = referenceIds(live, { fade: { min: 90 } }, { field: 'id', dir: 'asc' }).length;
    expect(fading).toBeGreaterThan(0);
    const asked = preparedWhilePlanning({ filter, count: true }, 1000);
    const priceEstimate = asked.find((sql) => sql.includes('FROM listings l WHERE') && sql.includes('l.price >='));
    expect(priceEstimate).toContain(`LIMIT ${fading + 1})`);
    expect(allPages({ filter, sort: { field: 'price', dir: 'desc' }, limit: 10 }, 1000).ids).toEqual(referenceIds(live, filter, { field: 'price', dir: 'desc' }));
  });

  it('does not count a craft whole once another driver holds few listings: it is checked on each of them', () => {
    // no LIMIT stops a craft's GROUP BY: "2 foils" cost 17 ms at 1M to drive 3 listings a Doppler phase had found
    const filter: BookFilter = { price: { min: 1 }, paint_seeds: [1, 2, 3, 500, 661, 999], stickers: { all: [{ name: 'holo', min_matches: 2 }] } };
    const sort = { field: 'price', dir: 'asc' } as const;
    const bySeeds = referenceIds(live, { paint_seeds: filter.paint_seeds }, sort).length;
    expect(bySeeds).toBeGreaterThan(0);
    expect(referenceIds(live, { stickers: filter.stickers }, sort).length).toBeGreaterThan(0);
    /** Whether planning at `setLimit` counted the craft's listings (its GROUP BY on its own). */
    const countsCraft = (setLimit: number) =>
      preparedWhilePlanning({ filter, sort, count: true }, setLimit).some(
        (sql) => sql.includes('json_group_array(listing_id) FROM (SELECT listing_id') && sql.includes('HAVING count(*) >= 2'),
      );
    const expected = referenceIds(live, filter, sort);
    // the seeds hold a twentieth of the limit or less: the craft is checked on their listings
    expect(countsCraft(bySeeds * 20)).toBe(false);
    expect(allPages({ filter, sort, limit: 5 }, bySeeds * 20)).toEqual({ ids: expected, total: expected.length });
    // more than that: the craft is weighed, and may drive
    expect(countsCraft(bySeeds)).toBe(true);
    expect(allPages({ filter, sort, limit: 5 }, bySeeds)).toEqual({ ids: expected, total: expected.length });
  });

  it('checks a sticker or keychain condition on a candidate through its few sticker rows, not the name index', () => {
    // probing the name index once per matching name: "charm" keychains on 137 listings of 16 seeds took
    // 45 ms at 1M, the listing's own rows 3
    const seeds = Array.from({ length: 20 }, (_, i) => i * 50);
    const filter: BookFilter = { paint_seeds: seeds, keychains: [{ name: 'charm' }] };
    const bySeeds = referenceIds(live, { paint_seeds: seeds }, { field: 'id', dir: 'asc' }).length;
    const byCharms = referenceIds(live, { keychains: [{ name: 'charm' }] }, { field: 'id', dir: 'asc' }).length;
    // the seeds drive, the keychain is checked on each of their listings
    expect(bySeeds).toBeLessThan(byCharms);
    expect(referenceIds(live, filter, { field: 'id', dir: 'asc' }).length).toBeGreaterThan(0);
    const compiled = compileQuery(t.db, { filter, sort: { field: 'float', dir: 'asc' }, count: true }, { setLimit: 1_000_000_000 });
    const plan = t.db.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.params) as { detail: string }[];
    const exists = plan.map((r) => r.detail).filter((d) => d.includes('EXISTS'));
    expect(exists.length).toBeGreaterThan(0);
    for (const line of exists) expect(line).toContain('USING PRIMARY KEY (listing_id=? AND kind=?)');
    expect(allPages({ filter, sort: { field: 'float', dir: 'asc' }, limit: 10 }, 1_000_000_000).ids).toEqual(referenceIds(live, filter, { field: 'float', dir: 'asc' }));
  });

  it('counts a flag sorted by float in the flag\'s own index, not along the whole float index', () => {
    // "has a float" as a range of the float index drew SQLite there: 600k entries for 16k souvenirs at 1M
    const filter: BookFilter = { souvenir: true, commodity: false };
    const sort = { field: 'float', dir: 'asc' } as const;
    const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit: 0 });
    expect(compiled.plan).toBe('order');
    expect(compiled.countSql).toContain('+a.cs_paint_wear IS NOT NULL');
    const plan = t.db.prepare(`EXPLAIN QUERY PLAN ${compiled.countSql as string}`).all(...compiled.countParams) as { detail: string }[];
    expect(plan.map((r) => r.detail).join('\n')).toContain('COVERING INDEX attrs_cs_is_souvenir');
    // the page still walks the float index
    expect(compiled.sql).toContain('INDEXED BY attrs_cs_paint_wear');
    // without such a flag the float index is the smallest holding the float: counted there
    for (const broad of [{}, { stattrak: false }] as BookFilter[]) {
      expect(compileQuery(t.db, { filter: broad, sort, count: true }, { setLimit: 0 }).countSql).not.toContain('+a.cs_paint_wear');
    }
    const expected = referenceIds(live, filter, sort);
    expect(expected.length).toBeGreaterThan(0);
    expect(allPages({ filter, sort, limit: 20 }, 0)).toEqual({ ids: expected, total: expected.length });
    // a float range with the flag, in any order, is counted there too ("souvenir" with a float 0-1: 34 ms)
    const ranged: BookFilter = { stattrak: true, float: { min: 0, max: 1 } };
    const byId = { field: 'id', dir: 'desc' } as const;
    const rangedCount = compileQuery(t.db, { filter: ranged, sort: byId, count: true }, { setLimit: 0 });
    const rangedPlan = t.db.prepare(`EXPLAIN QUERY PLAN ${rangedCount.countSql as string}`).all(...rangedCount.countParams) as { detail: string }[];
    expect(rangedPlan.map((r) => r.detail).join('\n')).toContain('COVERING INDEX attrs_cs_is_stattrak');
    const rangedExpected = referenceIds(live, ranged, byId);
    expect(rangedExpected.length).toBeGreaterThan(0);
    expect(allPages({ filter: ranged, sort: byId, limit: 20 }, 0)).toEqual({ ids: rangedExpected, total: rangedExpected.length });
  });

  it('checks the name and commodity of a plan driven from listings on its own columns, inside the price index', () => {
    // on the copies in the details, each listing of the band had its details read first: "knife" in a
    // price band with a float range read 133k details rows at 1M (0.3 s)
    const filter: BookFilter = { name: 'karambit', commodity: false, price: { min: 100, max: 400_000 }, float: { max: 0.9 } };
    const sort = { field: 'price', dir: 'asc' } as const;
    for (const setLimit of [0, 1_000_000_000]) {
      const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit });
      expect(compiled.plan, String(setLimit)).toBe(setLimit === 0 ? 'order' : 'set:listings');
      expect(compiled.sql).toContain('l.name_id IN');
      expect(compiled.sql).toContain('l.commodity = 0');
      expect(compiled.sql).not.toContain('a.name_id IN');
      expect(compiled.sql).not.toContain('a.commodity');
    }
    const expected = referenceIds(live, filter, sort);
    expect(expected.length).toBeGreaterThan(0);
    expect(allPages({ filter, sort, limit: 7 }, 0)).toEqual({ ids: expected, total: expected.length });
    expect(allPages({ filter, sort, limit: 7 }, 1_000_000_000)).toEqual({ ids: expected, total: expected.length });
  });

  it('counts listings with stickers in the sticker count index, which holds the float, flags and price', () => {
    // it held the count alone: "any sticker" under a price read each candidate's details row (100k at 1M, 0.2 s)
    for (const filter of [{ price: { max: 400_000 }, stickers: { all: [{}] } }, { stattrak: false, stickers: { min_count: 2 } }] as BookFilter[]) {
      const sort = { field: 'created_at', dir: 'desc' } as const;
      const compiled = compileQuery(t.db, { filter, sort, count: true }, { setLimit: 0 });
      const plan = t.db.prepare(`EXPLAIN QUERY PLAN ${compiled.countSql as string}`).all(...compiled.countParams) as { detail: string }[];
      expect(plan.map((r) => r.detail).join('\n'), JSON.stringify(filter)).toContain('COVERING INDEX attrs_sticker_count');
      const expected = referenceIds(live, filter, sort);
      expect(expected.length).toBeGreaterThan(0);
      expect(allPages({ filter, sort, limit: 25 }, 0)).toEqual({ ids: expected, total: expected.length });
    }
  });

  it('plans a selective filter as a small set and a broad one as an ordered walk', () => {
    expect(compileQuery(t.db, { filter: { paint_index: 8 } }, { setLimit: 100 }).plan).toBe('set:attrs');
    expect(compileQuery(t.db, { filter: { price: { max: 4 } } }, { setLimit: 1000 }).plan).toBe('set:listings');
    expect(compileQuery(t.db, { filter: { app_id: 730 } }, { setLimit: 100 }).plan).toBe('order');
  });
});

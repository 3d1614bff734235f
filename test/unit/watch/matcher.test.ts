/**
 * The watchlists' per-listing matcher agrees exactly with the query engine: over many random filters
 * (every kind of condition, alone and combined, including contradictory ones), the listings the matcher
 * accepts are exactly the ones `queryBook` returns — for rows read back from the mirror, and for the
 * listings as their `listing.created` events carry them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryBook, refreshQueryStatistics } from '../../../src/core/query/index.ts';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { ListingReader, NameMatcher, compileFilter, listingFromCreated, type WatchedListing } from '../../../src/core/watch/matcher.ts';
import type { FullListing, ListingCreatedData, ListingEvent } from '../../../src/shared/api/index.ts';
import { DOPPLER_PHASES } from '../../../src/shared/phases.ts';
import { GAME_STRING_FIELDS, bookFilter, type BookFilter } from '../../../src/shared/query.ts';
import { createRng, createdEvent, leanOf, makeFullListing, priceChangedEvent, removedEvent, type Rng } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore;
const all: FullListing[] = [];
const createdEvents = new Map<number, ListingEvent>();
let liveIds: number[] = [];

beforeAll(async () => {
  t = openTestStore();
  const rng = createRng(7);
  const snapshot = Array.from({ length: 1500 }, (_, i) => makeFullListing(rng, i + 1));
  await mergeSnapshot(t.store, { seq: 100n, listings: snapshot.map(leanOf) }, { scope: null, resync: false });
  // most get their details by backfill, every 8th stays lean (detail filters must not match it)
  t.store.write(() => {
    for (const l of snapshot) if (l.id % 8 !== 0) t.store.fillDetails(l.id, l);
  });
  const later = Array.from({ length: 400 }, (_, i) => makeFullListing(rng, 1501 + i));
  const events = later.map((l, i) => createdEvent(l, 200n + BigInt(i)));
  t.store.applyEvents(events);
  for (const e of events) createdEvents.set(e.data.listing_id, e);
  // price changes and removals, so prices moved since creation and tombstones exist
  const moves: ListingEvent[] = [];
  for (let i = 0; i < 150; i++) {
    const l = later[Math.floor(rng() * later.length)] as FullListing;
    moves.push(priceChangedEvent(l.id, l.app_id, l.price, Math.max(1, Math.round(l.price * (0.5 + rng()))), 1000n + BigInt(i)));
  }
  for (const id of [3, 50, 1600, 1700]) moves.push(removedEvent(id, 730, 2000n + BigInt(id)));
  t.store.applyEvents(moves);
  all.push(...snapshot, ...later);
  liveIds = (t.db.prepare('SELECT id FROM listings WHERE alive = 1 ORDER BY id').pluck().all() as number[]);
  refreshQueryStatistics(t.db);
});
afterAll(() => t.close());

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const chance = (rng: Rng, p: number) => rng() < p;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

function substring(rng: Rng, text: string): string {
  const len = int(rng, 1, Math.min(9, text.length));
  const start = int(rng, 0, text.length - len);
  const part = text.slice(start, start + len);
  return chance(rng, 0.3) ? part.toUpperCase() : chance(rng, 0.3) ? part.toLowerCase() : part;
}

function range(rng: Rng, lo: number, hi: number, round = (x: number) => x): { min?: number; max?: number } {
  const a = round(lo + rng() * (hi - lo));
  const b = round(lo + rng() * (hi - lo));
  const r: { min?: number; max?: number } = {};
  if (chance(rng, 0.7)) r.min = Math.min(a, b);
  if (chance(rng, 0.7)) r.max = Math.max(a, b);
  return r;
}

/** A random filter built from values that occur in the book (so most filters match something). */
function randomFilter(rng: Rng): BookFilter {
  const f: BookFilter = {};
  const sample = pick(rng, all);
  const cs = all.filter((l) => l.app_id === 730);
  const withStickers = cs.filter((l) => (l.cs_stickers ?? []).length > 0);
  const withKeychains = cs.filter((l) => (l.cs_keychains ?? []).length > 0);
  if (chance(rng, 0.3)) f.app_id = pick(rng, [730, 570, 440, 252490] as const);
  if (chance(rng, 0.35)) f.name = substring(rng, sample.market_hash_name);
  if (chance(rng, 0.3)) f.price = range(rng, 1, 60_000, Math.round);
  if (chance(rng, 0.2)) f.float = range(rng, 0, 1);
  if (chance(rng, 0.1)) f.paint_seeds = chance(rng, 0.1) ? [] : Array.from({ length: int(rng, 1, 40) }, () => int(rng, 0, 1000));
  if (chance(rng, 0.08)) f.paint_index = pick(rng, cs).cs_paint_index as number;
  if (chance(rng, 0.08)) f.phases = DOPPLER_PHASES.filter(() => chance(rng, 0.3)).slice(0, 3).concat(pick(rng, DOPPLER_PHASES));
  if (chance(rng, 0.1)) f.fade = range(rng, 75, 100);
  if (chance(rng, 0.1)) f.blue = range(rng, 0, 100);
  if (chance(rng, 0.15)) f.stattrak = chance(rng, 0.5);
  if (chance(rng, 0.1)) f.souvenir = chance(rng, 0.5);
  if (chance(rng, 0.25)) {
    const stickers: NonNullable<BookFilter['stickers']> = {};
    if (chance(rng, 0.8)) {
      stickers.all = Array.from({ length: int(rng, 1, 2) }, () => {
        const s = pick(rng, pick(rng, withStickers).cs_stickers ?? []);
        const entry: { name?: string; slot?: number; max_wear?: number; min_matches?: number } = {};
        if (chance(rng, 0.7)) entry.name = substring(rng, s.name);
        if (chance(rng, 0.3)) entry.slot = int(rng, 0, 4);
        if (chance(rng, 0.3)) entry.max_wear = Math.round(rng() * 100) / 100;
        if (chance(rng, 0.25)) entry.min_matches = int(rng, 2, 3);
        return entry;
      });
    }
    if (chance(rng, 0.3)) stickers.min_count = int(rng, 0, 4);
    if (chance(rng, 0.3)) stickers.max_count = Math.max(stickers.min_count ?? 0, int(rng, 0, 5));
    f.stickers = stickers;
  }
  if (chance(rng, 0.08)) {
    const k = pick(rng, pick(rng, withKeychains).cs_keychains ?? []);
    f.keychains = [{ ...(chance(rng, 0.7) ? { name: substring(rng, k.name) } : {}), ...(chance(rng, 0.4) ? { pattern: k.pattern as number } : {}) }];
  }
  if (chance(rng, 0.2)) {
    const field = pick(rng, GAME_STRING_FIELDS);
    const holder = all.find((l) => (l as Record<string, unknown>)[field] != null && chance(rng, 0.05));
    const value = ((holder as Record<string, unknown> | undefined)?.[field] as string | undefined) ?? 'Nonexistent';
    // typed in any case: both judge the whole value with its ASCII letters folded
    f.fields = { [field]: chance(rng, 0.3) ? value.toUpperCase() : chance(rng, 0.3) ? value.toLowerCase() : value };
  }
  if (chance(rng, 0.1)) f.commodity = chance(rng, 0.5);
  return bookFilter.parse(f);
}

function engineIds(filter: BookFilter): number[] {
  const ids: number[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = queryBook(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 1000, ...(after ? { after } : {}) });
    ids.push(...page.rows.map((r) => r.id));
    if (!page.next) break;
    after = page.next;
  }
  return ids;
}

describe('per-listing matcher vs the query engine', () => {
  it('accepts exactly what queryBook returns, over 400 random filters', () => {
    const reader = new ListingReader(t.db);
    const names = new NameMatcher();
    const listings = liveIds.map((id) => reader.read(id) as WatchedListing);
    expect(listings.every((l) => l !== null)).toBe(true);
    const rng = createRng(2026);
    let nonEmpty = 0;
    for (let i = 0; i < 400; i++) {
      const filter = randomFilter(rng);
      const expected = engineIds(filter);
      const test = compileFilter(filter, names);
      const actual = listings.filter((l) => test(l)).map((l) => l.id);
      expect(actual, JSON.stringify(filter)).toEqual(expected);
      if (expected.length > 0) nonEmpty++;
    }
    // the generator is only useful if many filters select something (and some select nothing)
    expect(nonEmpty).toBeGreaterThan(150);
    expect(nonEmpty).toBeLessThan(400);
  });

  it('judges a listing from its creation event exactly as from the mirror', () => {
    const reader = new ListingReader(t.db);
    const names = new NameMatcher();
    const rng = createRng(31);
    const unchanged = [...createdEvents.values()].filter((e) => {
      const row = reader.read(e.data.listing_id);
      return row !== null && row.price === (e.data as ListingCreatedData).price;
    });
    expect(unchanged.length).toBeGreaterThan(200);
    const pairs = unchanged.map((e) => {
      const fromEvent = listingFromCreated(e.data as ListingCreatedData);
      return { fromEvent, stored: reader.read(fromEvent.id) as WatchedListing };
    });
    let matched = 0;
    for (let i = 0; i < 300; i++) {
      const filter = randomFilter(rng);
      const test = compileFilter(filter, names);
      for (const { fromEvent, stored } of pairs) {
        const verdict = test(fromEvent);
        if (verdict !== test(stored)) expect.fail(`listing ${fromEvent.id} judged differently under ${JSON.stringify(filter)}`);
        if (verdict) matched++;
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });

  it('judges a game field in any ASCII case as the engine does, and other letters as they are', () => {
    const own = openTestStore();
    try {
      const rng = createRng(41);
      const dota = (id: number, hero: string) => {
        let l = makeFullListing(rng, id);
        while (l.app_id !== 570) l = makeFullListing(rng, id);
        return { ...l, dota_hero: hero } as FullListing;
      };
      const listings = [dota(1, 'Pudge'), dota(2, 'Anti-Mage'), dota(3, 'Épée Master'), dota(4, 'épée master')];
      own.store.applyEvents(listings.map((l, i) => createdEvent(l, BigInt(10 + i))));
      const reader = new ListingReader(own.db);
      const names = new NameMatcher();
      for (const asked of ['pudge', 'PUDGE', 'pUdGe', 'anti-mage', 'Pudg', 'Épée master', 'ÉPÉE MASTER', 'épée MASTER']) {
        const filter = { fields: { dota_hero: asked } };
        const engine = queryBook(own.db, { filter, sort: { field: 'id', dir: 'asc' } }).rows.map((r) => r.id);
        const test = compileFilter(filter, names);
        expect(listings.filter((l) => test(reader.read(l.id) as WatchedListing)).map((l) => l.id), asked).toEqual(engine);
        expect(listings.filter((l) => test(listingFromCreated(createdEvent(l, 1n).data as ListingCreatedData))).map((l) => l.id), asked).toEqual(engine);
      }
      expect(compileFilter({ fields: { dota_hero: 'pUdGe' } }, names)(reader.read(1) as WatchedListing)).toBe(true);
      // É is not an ASCII letter: SQLite's NOCASE, and so the matcher, leave it as it is
      expect(compileFilter({ fields: { dota_hero: 'ÉPÉE MASTER' } }, names)(reader.read(4) as WatchedListing)).toBe(false);
      expect(compileFilter({ fields: { dota_hero: 'ÉPÉE MASTER' } }, names)(reader.read(3) as WatchedListing)).toBe(false);
      expect(compileFilter({ fields: { dota_hero: 'Épée MASTER' } }, names)(reader.read(3) as WatchedListing)).toBe(true);
    } finally {
      own.close();
    }
  });

  it('leaves tombstones and unknown ids out', () => {
    const reader = new ListingReader(t.db);
    expect(reader.read(3)).toBeNull();
    expect(reader.read(1600)).toBeNull();
    expect(reader.read(999_999)).toBeNull();
  });

  it('never matches detail filters on a listing without details, nor contradictory filters', () => {
    const reader = new ListingReader(t.db);
    const names = new NameMatcher();
    const lean = reader.read(8) as WatchedListing;
    expect(lean.detail).toBeNull();
    expect(compileFilter({}, names)(lean)).toBe(true);
    expect(compileFilter({ float: {} }, names)(lean)).toBe(false);
    const anyCs = liveIds.map((id) => reader.read(id) as WatchedListing).find((l) => l.app_id === 730 && l.detail !== null) as WatchedListing;
    expect(compileFilter({ app_id: 570, float: { max: 1 } }, names)(anyCs)).toBe(false);
    expect(compileFilter({ paint_seeds: [] }, names)(anyCs)).toBe(false);
    expect(compileFilter({ float: { max: 1 }, fields: { dota_hero: 'Pudge' } }, names)(anyCs)).toBe(false);
  });
});

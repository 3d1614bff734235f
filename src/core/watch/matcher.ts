/**
 * The per-listing form of the query engine's filter: does this one listing match a BookFilter? The
 * evaluator asks it for every new listing and price change, where re-running the query over the book
 * would be far too slow. It must agree exactly with `queryBook` (src/core/query/query-book.ts), so it
 * follows that SQL condition by condition:
 *
 *  - any detail condition (float, seeds, paint index, fade, blue, flags, game fields, stickers,
 *    keychains, sticker count) matches only listings whose details are in the mirror;
 *  - a detail condition of one game implies that game: conditions of two games, or of a game other than
 *    `app_id`, match nothing; an empty seed list matches nothing;
 *  - a range on a detail column requires the column to be set (NULL never compares);
 *  - names (item and sticker) are judged by the engine's own SQL (`nameMatch`: FTS5 trigrams from three
 *    characters), memoised per name, so case folding can never differ between the two.
 *
 * test/unit/watch/matcher.test.ts checks it against queryBook over many random filters.
 */
import type { Statement } from 'better-sqlite3';
import type { ListingCreatedData } from '../../shared/api/index.ts';
import { GAME_STRING_FIELDS, type BookFilter, type GameStringField } from '../../shared/query.ts';
import { nameMatch } from '../query/query-book.ts';
import type { Db } from '../store/database.ts';
import { STICKER_KIND } from '../store/details.ts';

export interface WatchedSticker {
  slot: number;
  name: string;
  wear: number | null;
}

export interface WatchedKeychain {
  name: string;
  pattern: number | null;
}

/** The detail fields a filter can look at, as the store keeps them (booleans, NULL as null). */
export interface WatchedDetail {
  paint_wear: number | null;
  paint_seed: number | null;
  paint_index: number | null;
  fade: number | null;
  blue: number | null;
  stattrak: boolean | null;
  souvenir: boolean | null;
  strings: Partial<Record<GameStringField, string | null>>;
  stickers: WatchedSticker[];
  keychains: WatchedKeychain[];
}

/** One listing as the matcher sees it. */
export interface WatchedListing {
  id: number;
  app_id: number;
  market_hash_name: string;
  price: number;
  amount: number;
  commodity: boolean;
  /** Null while the mirror holds only the listing's price state (a snapshot row not yet backfilled). */
  detail: WatchedDetail | null;
}

const GAME_OF_PREFIX: Record<string, number> = { cs: 730, dota: 570, tf2: 440, rust: 252490 };
const CS = 730;

/** A `listing.created` payload as the store writes it (it always stores the event's details). */
export function listingFromCreated(d: ListingCreatedData): WatchedListing {
  const strings: WatchedDetail['strings'] = {};
  for (const field of GAME_STRING_FIELDS) strings[field] = (d[field] as string | null | undefined) ?? null;
  return {
    id: d.listing_id,
    app_id: d.app_id,
    market_hash_name: d.market_hash_name,
    price: d.price,
    amount: d.amount,
    commodity: d.commodity,
    detail: {
      paint_wear: d.cs_paint_wear ?? null,
      paint_seed: d.cs_paint_seed ?? null,
      paint_index: d.cs_paint_index ?? null,
      fade: d.cs_fade_percentage ?? null,
      blue: d.cs_blue_percentage ?? null,
      stattrak: d.cs_is_stattrak ?? null,
      souvenir: d.cs_is_souvenir ?? null,
      strings,
      stickers: (d.cs_stickers ?? []).map((s) => ({ slot: s.slot, name: s.name, wear: s.wear ?? null })),
      keychains: (d.cs_keychains ?? []).map((k) => ({ name: k.name, pattern: k.pattern ?? null })),
    },
  };
}

interface ListingRow {
  id: number;
  app_id: number;
  name: string;
  price: number;
  amount: number;
  commodity: number;
  detailed: number | null;
  cs_paint_wear: number | null;
  cs_paint_seed: number | null;
  cs_paint_index: number | null;
  cs_fade_percentage: number | null;
  cs_blue_percentage: number | null;
  cs_is_stattrak: number | null;
  cs_is_souvenir: number | null;
  [field: string]: unknown;
}

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** Reads live listings from the mirror in the matcher's shape (prepared once per database). */
export class ListingReader {
  readonly #row: Statement;
  readonly #stickers: Statement;

  constructor(db: Db) {
    this.#row = db.prepare(
      `SELECT l.id, l.app_id, n.name, l.price, l.amount, l.commodity, a.id AS detailed, a.cs_paint_wear,
         a.cs_paint_seed, a.cs_paint_index, a.cs_fade_percentage, a.cs_blue_percentage, a.cs_is_stattrak,
         a.cs_is_souvenir, ${GAME_STRING_FIELDS.map((f) => `a.${f}`).join(', ')}
       FROM listings l JOIN item_names n ON n.name_id = l.name_id LEFT JOIN listing_attrs a ON a.id = l.id
       WHERE l.id = ? AND l.alive = 1`,
    );
    this.#stickers = db.prepare(
      `SELECT s.kind, s.slot, n.name, s.wear, s.pattern FROM listing_stickers s
       JOIN sticker_names n ON n.name_id = s.name_id
       WHERE s.listing_id = ? AND s.alive = 1 ORDER BY s.kind, s.position`,
    );
  }

  /** The live listing, or null when the book does not hold it (sold, removed, never seen). */
  read(id: number): WatchedListing | null {
    const r = this.#row.get(id) as ListingRow | undefined;
    if (!r) return null;
    let detail: WatchedDetail | null = null;
    if (r.detailed !== null) {
      const strings: WatchedDetail['strings'] = {};
      for (const field of GAME_STRING_FIELDS) strings[field] = (r[field] as string | null) ?? null;
      const rows = this.#stickers.all(id) as { kind: number; slot: number; name: string; wear: number | null; pattern: number | null }[];
      detail = {
        paint_wear: r.cs_paint_wear,
        paint_seed: r.cs_paint_seed,
        paint_index: r.cs_paint_index,
        fade: r.cs_fade_percentage,
        blue: r.cs_blue_percentage,
        stattrak: flag(r.cs_is_stattrak),
        souvenir: flag(r.cs_is_souvenir),
        strings,
        stickers: rows.filter((s) => s.kind === STICKER_KIND.sticker).map((s) => ({ slot: s.slot, name: s.name, wear: s.wear })),
        keychains: rows.filter((s) => s.kind === STICKER_KIND.keychain).map((s) => ({ name: s.name, pattern: s.pattern })),
      };
    }
    return {
      id: r.id,
      app_id: r.app_id,
      market_hash_name: r.name,
      price: r.price,
      amount: r.amount,
      commodity: r.commodity === 1,
      detail,
    };
  }
}

/**
 * Name tests with the query engine's SQL. The first use of a needle judges every name already known in
 * one query; a name that appears later costs one indexed query the first time it is seen.
 */
export class NameMatcher {
  readonly #db: Db;
  readonly #memo = new Map<string, { one: Statement; params: unknown[]; seen: Map<string, boolean> }>();

  constructor(db: Db) {
    this.#db = db;
  }

  matches(table: 'item_names' | 'sticker_names', needle: string, name: string): boolean {
    const key = `${table}\u0000${needle}`;
    let entry = this.#memo.get(key);
    if (!entry) {
      const m = nameMatch(table, needle);
      const judged = this.#db.prepare(`SELECT name, name_id IN (${m.sql}) FROM ${table}`).raw().all(...m.params) as [string, number][];
      entry = {
        one: this.#db.prepare(`SELECT 1 FROM ${table} WHERE name = ? AND name_id IN (${m.sql})`).pluck(),
        params: m.params,
        seen: new Map(judged.map(([n, hit]) => [n, hit === 1])),
      };
      this.#memo.set(key, entry);
    }
    const known = entry.seen.get(name);
    if (known !== undefined) return known;
    const result = entry.one.get(name, ...entry.params) !== undefined;
    entry.seen.set(name, result);
    return result;
  }
}

type Test = (l: WatchedListing) => boolean;
const NOTHING: Test = () => false;

const inRange = (v: number | null, r: { min?: number | undefined; max?: number | undefined }) =>
  v !== null && (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

/** Compiles a filter into a test of one listing, with the query engine's exact semantics. */
export function compileFilter(f: BookFilter, names: NameMatcher): Test {
  const lean: Test[] = [];
  const detail: ((d: WatchedDetail, l: WatchedListing) => boolean)[] = [];
  const games = new Set<number>();
  let impossible = false;
  const onDetail = (game: number | null, test: (d: WatchedDetail, l: WatchedListing) => boolean) => {
    if (game !== null) games.add(game);
    detail.push(test);
  };

  if (f.app_id !== undefined) {
    const app = f.app_id;
    lean.push((l) => l.app_id === app);
  }
  if (f.commodity !== undefined) {
    const commodity = f.commodity;
    lean.push((l) => l.commodity === commodity);
  }
  if (f.price !== undefined) {
    const price = f.price;
    lean.push((l) => inRange(l.price, price));
  }
  // last of the lean tests: the first sight of a name costs a query
  if (f.name !== undefined) {
    const needle = f.name;
    lean.push((l) => names.matches('item_names', needle, l.market_hash_name));
  }
  const range = (r: { min?: number; max?: number } | undefined, value: (d: WatchedDetail) => number | null) => {
    if (r !== undefined) onDetail(CS, (d) => inRange(value(d), r));
  };
  range(f.float, (d) => d.paint_wear);
  range(f.fade, (d) => d.fade);
  range(f.blue, (d) => d.blue);
  if (f.paint_seeds !== undefined) {
    if (f.paint_seeds.length === 0) impossible = true;
    const seeds = new Set(f.paint_seeds);
    onDetail(CS, (d) => d.paint_seed !== null && seeds.has(d.paint_seed));
  }
  if (f.paint_index !== undefined) {
    const index = f.paint_index;
    onDetail(CS, (d) => d.paint_index === index);
  }
  if (f.stattrak !== undefined) {
    const want = f.stattrak;
    onDetail(CS, (d) => d.stattrak === want);
  }
  if (f.souvenir !== undefined) {
    const want = f.souvenir;
    onDetail(CS, (d) => d.souvenir === want);
  }
  for (const [field, value] of Object.entries(f.fields ?? {}) as [GameStringField, string | undefined][]) {
    if (value === undefined) continue;
    onDetail(GAME_OF_PREFIX[field.split('_')[0] as string] ?? null, (d) => d.strings[field] === value);
  }
  for (const st of f.stickers?.all ?? []) {
    onDetail(CS, (d) =>
      d.stickers.some(
        (s) =>
          (st.slot === undefined || s.slot === st.slot) &&
          (st.max_wear === undefined || (s.wear !== null && s.wear <= st.max_wear)) &&
          (st.name === undefined || names.matches('sticker_names', st.name, s.name)),
      ),
    );
  }
  const minCount = f.stickers?.min_count;
  const maxCount = f.stickers?.max_count;
  // sticker_count is stored for CS listings only (NULL elsewhere, which never compares)
  if (minCount !== undefined) onDetail(CS, (d, l) => l.app_id === CS && d.stickers.length >= minCount);
  if (maxCount !== undefined) onDetail(CS, (d, l) => l.app_id === CS && d.stickers.length <= maxCount);
  for (const k of f.keychains ?? []) {
    onDetail(CS, (d) =>
      d.keychains.some(
        (x) =>
          (k.pattern === undefined || x.pattern === k.pattern) &&
          (k.name === undefined || names.matches('sticker_names', k.name, x.name)),
      ),
    );
  }
  if (games.size > 1 || (f.app_id !== undefined && games.size === 1 && !games.has(f.app_id))) impossible = true;
  if (impossible) return NOTHING;

  return (l) => {
    for (const test of lean) if (!test(l)) return false;
    if (detail.length === 0) return true;
    const d = l.detail;
    if (d === null) return false;
    for (const test of detail) if (!test(d, l)) return false;
    return true;
  };
}

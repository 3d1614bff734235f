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
 *  - a game field is the whole value in any ASCII case (sameFieldValue), as the engine's COLLATE NOCASE;
 *  - names (item and sticker) are judged as the engine's `nameMatch` judges them: both folded by foldName
 *    (the trigram index's own case folding, which `name_lc` holds), then a substring test — what its
 *    FTS5 trigram match and its `name_lc` scan both amount to. In JavaScript only, so a listing judged
 *    from its frame before the book holds its name is judged the same as after.
 *
 * test/unit/watch/matcher.test.ts checks it against queryBook over many random filters, and
 * test/unit/watch/names-across-unicode.test.ts its names against the engine's SQL across Unicode.
 */
import type { Statement } from 'better-sqlite3';
import type { ListingCreatedData } from '../../shared/api/index.ts';
import { paintIndexesOfPhases } from '../../shared/phases.ts';
import { GAME_STRING_FIELDS, sameFieldValue, type BookFilter, type GameStringField } from '../../shared/query.ts';
import type { DetailFigures } from '../query/query-book.ts';
import type { Db } from '../store/database.ts';
import type { FigureColumnValues } from '../store/columns.ts';
import { STICKER_KIND, stickerWear, type StickerRowRead } from '../store/details.ts';
import { nameTest } from '../store/names.ts';

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
export interface WatchedDetail extends DetailFigures {
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
      stickers: (d.cs_stickers ?? []).map((s) => ({ slot: s.slot, name: s.name, wear: stickerWear(s.wear) })),
      keychains: (d.cs_keychains ?? []).map((k) => ({ name: k.name, pattern: k.pattern ?? null })),
    },
  };
}

interface LeanRow {
  id: number;
  app_id: number;
  name: string;
  price: number;
  amount: number;
  commodity: number;
}

type AttrsRow = FigureColumnValues & Record<string, unknown>;

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** Reads live listings from the mirror in the matcher's shape (prepared once per database). */
export class ListingReader {
  readonly #lean: Statement;
  readonly #attrs: Statement;
  readonly #stickers: Statement;
  readonly #held: Statement;

  constructor(db: Db) {
    this.#held = db.prepare('SELECT 1 FROM listings WHERE id = ?').pluck();
    this.#lean = db.prepare(
      `SELECT l.id, l.app_id, n.name, l.price, l.amount, l.commodity
       FROM listings l JOIN item_names n ON n.name_id = l.name_id WHERE l.id = ? AND l.alive = 1`,
    );
    this.#attrs = db.prepare(
      `SELECT cs_paint_wear, cs_paint_seed, cs_paint_index, cs_fade_percentage, cs_blue_percentage, cs_is_stattrak,
         cs_is_souvenir, ${GAME_STRING_FIELDS.join(', ')} FROM listing_attrs WHERE id = ?`,
    );
    this.#stickers = db.prepare(
      `SELECT s.kind, s.slot, n.name, s.wear, s.pattern FROM listing_stickers s
       JOIN sticker_names n ON n.name_id = s.name_id
       WHERE s.listing_id = ? AND s.alive = 1 ORDER BY s.kind, s.position`,
    );
  }

  /** Whether the book has a row for the listing at all, a tombstone included. */
  held(id: number): boolean {
    return this.#held.get(id) !== undefined;
  }

  /**
   * The live listing, or null when the book does not hold it (sold, removed, never seen). Its details
   * are read only if a filter asks for them (most filters reject a listing on its name or price first).
   */
  read(id: number): WatchedListing | null {
    const r = this.#lean.get(id) as LeanRow | undefined;
    if (!r) return null;
    let detail: WatchedDetail | null | undefined;
    const load = (): WatchedDetail | null => {
      const a = this.#attrs.get(id) as AttrsRow | undefined;
      if (!a) return null;
      const strings: WatchedDetail['strings'] = {};
      for (const field of GAME_STRING_FIELDS) strings[field] = (a[field] as string | null) ?? null;
      const rows = this.#stickers.all(id) as StickerRowRead[];
      return {
        paint_wear: a.cs_paint_wear,
        paint_seed: a.cs_paint_seed,
        paint_index: a.cs_paint_index,
        fade: a.cs_fade_percentage,
        blue: a.cs_blue_percentage,
        stattrak: flag(a.cs_is_stattrak),
        souvenir: flag(a.cs_is_souvenir),
        strings,
        stickers: rows.filter((s) => s.kind === STICKER_KIND.sticker).map((s) => ({ slot: s.slot, name: s.name, wear: s.wear })),
        keychains: rows.filter((s) => s.kind === STICKER_KIND.keychain).map((s) => ({ name: s.name, pattern: s.pattern })),
      };
    };
    return {
      id: r.id,
      app_id: r.app_id,
      market_hash_name: r.name,
      price: r.price,
      amount: r.amount,
      commodity: r.commodity === 1,
      get detail() {
        if (detail === undefined) detail = load();
        return detail;
      },
    };
  }
}

/**
 * Name tests exactly as the query engine's `nameMatch` judges them: the needle is found in the name once
 * both are folded as the trigram index folds them (foldName). Remembered per (needle, name).
 */
export class NameMatcher {
  readonly #tests = new Map<string, (name: string) => boolean>();

  /** The test of one needle, item or sticker name alike (resolve it once, call it per listing). */
  test(needle: string): (name: string) => boolean {
    let test = this.#tests.get(needle);
    if (!test) this.#tests.set(needle, (test = nameTest(needle)));
    return test;
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
  // last of the lean tests: the first sight of a name costs a fold (foldName)
  if (f.name !== undefined) {
    const nameTest = names.test(f.name);
    lean.push((l) => nameTest(l.market_hash_name));
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
  if (f.phases !== undefined) {
    const indexes = new Set(paintIndexesOfPhases(f.phases));
    onDetail(CS, (d) => d.paint_index !== null && indexes.has(d.paint_index));
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
    // in any ASCII case, as the engine's COLLATE NOCASE
    onDetail(GAME_OF_PREFIX[field.split('_')[0] as string] ?? null, (d) => {
      const listed = d.strings[field];
      return listed !== null && listed !== undefined && sameFieldValue(listed, value);
    });
  }
  for (const st of f.stickers?.all ?? []) {
    const nameTest = st.name === undefined ? null : names.test(st.name);
    const minMatches = st.min_matches ?? 1;
    onDetail(CS, (d) =>
      d.stickers.filter(
        (s) =>
          (st.slot === undefined || s.slot === st.slot) &&
          (st.max_wear === undefined || (s.wear !== null && s.wear <= st.max_wear)) &&
          (nameTest === null || nameTest(s.name)),
      ).length >= minMatches,
    );
  }
  const minCount = f.stickers?.min_count;
  const maxCount = f.stickers?.max_count;
  // sticker_count is stored for CS listings only (NULL elsewhere, which never compares)
  if (minCount !== undefined) onDetail(CS, (d, l) => l.app_id === CS && d.stickers.length >= minCount);
  if (maxCount !== undefined) onDetail(CS, (d, l) => l.app_id === CS && d.stickers.length <= maxCount);
  for (const k of f.keychains ?? []) {
    const nameTest = k.name === undefined ? null : names.test(k.name);
    onDetail(CS, (d) =>
      d.keychains.some(
        (x) =>
          (k.pattern === undefined || x.pattern === k.pattern) &&
          (nameTest === null || nameTest(x.name)),
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

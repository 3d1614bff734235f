/**
 * The query engine: one function answering the book grid, the CLI `search` and watchlists. It turns
 * the shared filter (src/shared/query.ts) into one SQL statement over the indexed mirror:
 *
 *  - lean filters and sorts (app, price, created_at, name) run on partial indexes of `listings`;
 *  - detail filters (float, seed, paint index, fade, blue, flags, game fields in any case) on `listing_attrs`;
 *  - a name filter first searches the few tens of thousands of distinct names, then the listings of the
 *    matching names; stickers and keychains are rows with an index by name.
 *
 * Paging is keyset (sort value, id): every page costs the same however deep. Sorting by a detail field
 * (float, fade, blue) lists only listings that have it.
 */
import type { Statement } from 'better-sqlite3';
import type { AppId } from '../../shared/api/index.ts';
import { bookQuery, exactNameOf, type BookFilter, type BookQuery, type BookQueryInput } from '../../shared/query.ts';
import { paintIndexesOfPhases } from '../../shared/phases.ts';
import type { Db } from '../store/database.ts';
import { attrsCarryPrice, itemFieldIndexed } from '../store/migrations.ts';
import type { FigureColumnValues } from '../store/columns.ts';
import { foldName, type NameTableName } from '../store/names.ts';
import { STICKER_KIND, type StickerRowRead } from '../store/details.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

/** The detail figures filters and sorts work on (null: unknown, or not of this game). */
export interface DetailFigures {
  paint_wear: number | null;
  paint_seed: number | null;
  paint_index: number | null;
  fade: number | null;
  blue: number | null;
  stattrak: boolean | null;
  souvenir: boolean | null;
}

export interface QueryRow extends DetailFigures {
  id: number;
  app_id: AppId;
  market_hash_name: string;
  price: number;
  amount: number;
  commodity: boolean;
  created_at: string;
  stickers: { slot: number; name: string; wear: number | null }[] | null;
  keychains: { slot: number; name: string; pattern: number | null }[] | null;
}

export interface QueryResult {
  rows: QueryRow[];
  /** Cursor of the next page (pass as `after`), null at the end. */
  next: string | null;
  /** Matching rows in total when `count` was asked for, else null. */
  total: number | null;
}

type SortField = BookQuery['sort']['field'];

/**
 * Each sort: its column, the table it lives on, and the partial index that lists live rows in that
 * order (what an order-driven plan walks). `id` walks the table itself.
 */
const SORTS: Record<SortField, { column: string; table: 'l' | 'a'; index: string | null }> = {
  price: { column: 'price', table: 'l', index: 'listings_price' },
  created_at: { column: 'created_ms', table: 'l', index: 'listings_created' },
  id: { column: 'id', table: 'l', index: null },
  float: { column: 'cs_paint_wear', table: 'a', index: 'attrs_cs_paint_wear' },
  fade: { column: 'cs_fade_percentage', table: 'a', index: 'attrs_cs_fade_percentage' },
  blue: { column: 'cs_blue_percentage', table: 'a', index: 'attrs_cs_blue_percentage' },
};

/**
 * A candidate set at or below this size is materialised and sorted (cheap); above it, the plan walks the
 * sort order and stops after one page instead. At 1M listings and 100-row pages the two cost about the
 * same here (~10k row visits), so neither path can go far wrong.
 */
export const SET_LIMIT = 10_000;

/**
 * The id order of a filter on `listings` alone, walked in the table itself (its rowid), stopping after one
 * page. Left to choose, SQLite took a filter's own index (a name's listings) and sorted every match by id
 * before the first row: 125 ms a page for "doppler" at 1M listings whatever the LIMIT, where the walk
 * takes ~20 (the order plan is taken only when more than SET_LIMIT listings match).
 */
const ID_ORDER = 'listings l NOT INDEXED';

const PAGE_COLUMNS = `l.id, l.app_id, l.name_id, l.price, l.amount, l.commodity, l.created_at, l.created_ms,
  a.id AS detailed, a.cs_paint_wear, a.cs_paint_seed, a.cs_paint_index, a.cs_fade_percentage,
  a.cs_blue_percentage, a.cs_is_stattrak, a.cs_is_souvenir`;

/**
 * One page: the rows in order up to the LIMIT (`rows`, a SELECT of PAGE_COLUMNS), then their names.
 * Names are looked up for the page only: a set plan sorts up to SET_LIMIT candidates, and joining each
 * one's name and carrying it through that sort cost several milliseconds for rows the page never shows.
 */
function pageSql(rows: string, field: SortField, dir: 'ASC' | 'DESC'): string {
  const pageOrder = field === 'id' ? `p.id ${dir}` : `p.${SORTS[field].column} ${dir}, p.id ${dir}`;
  return `SELECT p.*, n.name AS market_hash_name FROM (${rows}) p
    CROSS JOIN item_names n ON n.name_id = p.name_id ORDER BY ${pageOrder}`;
}

/** The rows of the listings a subquery chose (its `id` column), read for the page only. */
function rowsOfKeys(keysSql: string): string {
  return `SELECT ${PAGE_COLUMNS} FROM (${keysSql}) k
    CROSS JOIN listing_attrs a ON a.id = k.id CROSS JOIN listings l ON l.id = k.id`;
}

/** The rows of a page whose ids were chosen already (a JSON array parameter, in any order). */
const rowsOfIds = (): string => rowsOfKeys('SELECT value AS id FROM json_each(?)');

/** A page chosen among candidates joined across both tables. */
function rowsOnListings(from: string, conds: string, orderBy: string): string {
  return `SELECT ${PAGE_COLUMNS} FROM ${from} WHERE ${conds} ORDER BY ${orderBy} LIMIT ?`;
}

/**
 * A page chosen on the details alone, then its listing rows read: each candidate's listing row is a
 * second random read (~1-2 µs at 1M listings), so 10,000 candidates joined to `listings` cost 20-30 ms
 * more than the page's 100 rows do.
 */
function rowsOnDetails(from: string, conds: string, orderBy: string): string {
  return rowsOfKeys(`SELECT a.id FROM ${from} WHERE ${conds} ORDER BY ${orderBy} LIMIT ?`);
}

interface RawRow extends FigureColumnValues {
  id: number;
  app_id: AppId;
  name_id: number;
  market_hash_name: string;
  price: number;
  amount: number;
  commodity: number;
  created_at: string;
  created_ms: number;
  detailed: number | null;
}

interface Cond {
  sql: string;
  params: unknown[];
}

/**
 * One sticker or keychain condition, in the three shapes the planner needs: the listing ids it selects
 * (each once: it can drive a plan), the same ids as a plain scan that may repeat one (cheaper to count
 * in a Set when nothing else filters), and the per-listing check for a plan driven by something else.
 */
interface StickerSet {
  ids: Cond;
  idsMayRepeat: Cond;
  exists: Cond;
  /**
   * Several matching stickers asked (GROUP BY): the whole set is aggregated before a LIMIT could stop
   * it, so its size is counted exactly (and then also serves as the total).
   */
  grouped: boolean;
}

/**
 * Several matching stickers of one listing (a craft): the ids are grouped per listing, so they never
 * repeat and one query serves both shapes. `minMatches` is a literal: a validated integer 2-5.
 */
function craftSet(rows: string, perListing: string, params: unknown[], minMatches: number): StickerSet {
  const ids = { sql: `SELECT listing_id ${rows} GROUP BY listing_id HAVING count(*) >= ${minMatches}`, params };
  return {
    ids,
    idsMayRepeat: ids,
    grouped: true,
    exists: { sql: `(SELECT count(*) FROM listing_stickers s WHERE s.listing_id = a.id AND ${perListing}) >= ${minMatches}`, params },
  };
}

/** The filter split by table: `listings` (l) and `listing_attrs` (a). */
interface Parts {
  /** Conditions on listings, price included. */
  lean: Cond[];
  /** Price conditions on listings. */
  price: Cond[];
  /** The same on the copy of the price in listing_attrs (schema 11 on: attrsCarryPrice). */
  attrsPrice: Cond[];
  /** Conditions on details; when present only detailed listings can match. */
  attrs: Cond[];
  /** The same game/name/commodity conditions on the copies in listing_attrs. */
  attrsCopies: Cond[];
  /** The name condition among attrsCopies, when the filter has a name. */
  attrsName: Cond | null;
  /** Value lists among attrs (paint seeds, paint index, phases): small sets with an index of their own. */
  attrsValueSets: Cond[];
  /** Item fields with an index of their own, and whether it holds the name (the exterior's, schema 13). */
  attrsFields: { cond: Cond; holdsName: boolean }[];
  /** Each fade or blue range's conditions: few listings have these figures, each has its own index. */
  attrsSparseRanges: Cond[][];
  /** The float range's conditions among attrs. */
  attrsFloat: Cond[];
  /** The game condition on listings (the one condition of `lean` the details' copies leave to them). */
  leanApp: Cond[];
  /** Sticker and keychain conditions; `attrs` holds the per-listing check of each. */
  stickerSets: StickerSet[];
  /** The filter can match nothing (a CS field asked of a Dota listing, say). */
  impossible: boolean;
}

const GAME_OF_PREFIX: Record<string, number> = { cs: 730, dota: 570, tf2: 440, rust: 252490 };

/**
 * Case-insensitive substring match of names (or, quoted, of the whole name: exactNameOf): from 3
 * characters through the trigram index, plus a scan of the names not indexed yet (see
 * name_index_state); below 3 characters, and a whole name, by a scan of the names (scannedNames). Both
 * fold case as the index does (foldName, which `name_lc` holds), so they agree on every name.
 * Exported for the sales tape's name filter. The watchlists' per-listing matcher judges names the same
 * way in JavaScript (foldName on both sides, a substring test; test/unit/watch/names-across-unicode.test.ts).
 */
export function nameMatch(db: Db, table: NameTableName, needle: string): Cond {
  const exact = exactNameOf(needle);
  if (exact !== null) return scannedNames(db, table, 'name_lc = ?', foldName(exact));
  const lowered = foldName(needle);
  if ([...lowered].length >= 3) {
    return {
      sql: `SELECT rowid FROM ${table}_fts WHERE ${table}_fts MATCH ?
        UNION ALL SELECT name_id FROM ${table} WHERE name_id > (SELECT indexed_upto FROM name_index_state
        WHERE name_table = '${table}') AND instr(name_lc, ?) > 0`,
      params: [`"${lowered.replaceAll('"', '""')}"`, lowered],
    };
  }
  return scannedNames(db, table, 'instr(name_lc, ?) > 0', lowered);
}

/** What a scan of the names found, per book file and condition, up to the name it had read to. */
const scannedNameMatches = new WeakMap<Db, Map<string, { upto: number; ids: string }>>();
const SCANNED_MATCHES_KEPT = 64;
/** How many names may be added after a kept match before it is made again rather than extended by a scan. */
const SCANNED_MATCH_TAIL = 2_000;

/**
 * Names matched by a scan of every name (a needle too short for the trigram index, or a whole name):
 * ~100k names at 1M listings, 11 ms for "ak", and every statement of a query (estimates, count, page)
 * scanned them again. The match is kept and the statements hold it as a list, with a scan of the names
 * added since: names are only ever appended (name_id grows, a name is never changed or removed), so a
 * kept match stays true and the statement stays right for any later page.
 */
function scannedNames(db: Db, table: NameTableName, predicate: string, value: string): Cond {
  let kept = scannedNameMatches.get(db);
  if (!kept) scannedNameMatches.set(db, (kept = new Map()));
  const key = `${table}\u0000${predicate}\u0000${value}`;
  let match = kept.get(key);
  const newest = (statements(db).get(`SELECT max(name_id) FROM ${table}`).pluck().get() as number | null) ?? 0;
  if (!match || newest - match.upto > SCANNED_MATCH_TAIL) {
    const ids = statements(db)
      .get(`SELECT json_group_array(name_id) FROM ${table} WHERE name_id <= ? AND ${predicate}`)
      .pluck()
      .get(newest, value) as string;
    match = { upto: newest, ids };
  }
  kept.delete(key);
  kept.set(key, match);
  if (kept.size > SCANNED_MATCHES_KEPT) kept.delete(kept.keys().next().value as string);
  return {
    sql: `SELECT value FROM json_each(?) UNION ALL SELECT name_id FROM ${table} WHERE name_id > ? AND ${predicate}`,
    params: [match.ids, match.upto, value],
  };
}

function splitFilter(db: Db, f: BookFilter, sortGame: number | null): Parts {
  const parts: Parts = { lean: [], price: [], attrsPrice: [], attrs: [], attrsCopies: [], attrsName: null, attrsValueSets: [], attrsFields: [], attrsSparseRanges: [], attrsFloat: [], leanApp: [], stickerSets: [], impossible: false };
  const games = new Set<number>(sortGame === null ? [] : [sortGame]);
  const lean = (sql: string, ...params: unknown[]) => parts.lean.push({ sql, params });
  const attr = (game: number | null, sql: string, ...params: unknown[]) => {
    if (game !== null) games.add(game);
    parts.attrs.push({ sql, params });
  };
  const copy = (sql: string, ...params: unknown[]) => parts.attrsCopies.push({ sql, params });
  const stickerSet = (cond: string[], params: unknown[], minMatches = 1) => {
    // A listing has at most five sticker rows: checked or counted through the primary key (listing_id,
    // kind), not by probing the name index once per matching name (80 names: 170 ms instead of 5 for a
    // page at 1M; "charm" keychains on 137 listings of 16 seeds: 45 ms against 3). `+` hides every
    // other column from the planner.
    const perListing = cond.map((c) => (c.startsWith('kind ') ? `s.${c}` : `+s.${c}`)).join(' AND ');
    const rows = `FROM listing_stickers WHERE ${cond.join(' AND ')}`;
    const set: StickerSet =
      minMatches > 1
        ? craftSet(rows, perListing, params, minMatches)
        : {
            ids: { sql: `SELECT DISTINCT listing_id ${rows}`, params },
            idsMayRepeat: { sql: `SELECT listing_id ${rows}`, params },
            grouped: false,
            exists: { sql: `EXISTS (SELECT 1 FROM listing_stickers s WHERE s.listing_id = a.id AND ${perListing})`, params },
          };
    parts.stickerSets.push(set);
    games.add(730);
    parts.attrs.push(set.exists);
  };

  if (f.app_id !== undefined) {
    lean('l.app_id = ?', f.app_id);
    parts.leanApp.push(parts.lean.at(-1) as Cond);
  }
  if (f.name !== undefined) {
    const m = nameMatch(db, 'item_names', f.name);
    lean(`l.name_id IN (${m.sql})`, ...m.params);
    copy(`a.name_id IN (${m.sql})`, ...m.params);
    parts.attrsName = parts.attrsCopies.at(-1) ?? null;
  }
  if (f.commodity !== undefined) {
    lean(`l.commodity = ${f.commodity ? 1 : 0}`);
    copy(`a.commodity = ${f.commodity ? 1 : 0}`);
  }
  for (const [bound, op] of [[f.price?.min, '>='], [f.price?.max, '<=']] as const) {
    if (bound === undefined) continue;
    parts.price.push({ sql: `l.price ${op} ?`, params: [bound] });
    parts.attrsPrice.push({ sql: `a.price ${op} ?`, params: [bound] });
  }
  parts.lean.push(...parts.price);

  const range = (column: string, r: { min?: number; max?: number } | undefined): Cond[] => {
    if (!r) return [];
    const first = parts.attrs.length;
    attr(730, `a.${column} IS NOT NULL`);
    if (r.min !== undefined) attr(730, `a.${column} >= ?`, r.min);
    if (r.max !== undefined) attr(730, `a.${column} <= ?`, r.max);
    return parts.attrs.slice(first);
  };
  parts.attrsFloat = range('cs_paint_wear', f.float);
  for (const sparse of [range('cs_fade_percentage', f.fade), range('cs_blue_percentage', f.blue)]) {
    if (sparse.length > 0) parts.attrsSparseRanges.push(sparse);
  }
  const valueSet = (sql: string, ...params: unknown[]) => {
    attr(730, sql, ...params);
    parts.attrsValueSets.push(parts.attrs.at(-1) as Cond);
  };
  if (f.paint_seeds !== undefined) {
    if (f.paint_seeds.length === 0) parts.impossible = true;
    else valueSet(`a.cs_paint_seed IN (${f.paint_seeds.map(() => '?').join(', ')})`, ...f.paint_seeds);
  }
  if (f.paint_index !== undefined) valueSet('a.cs_paint_index = ?', f.paint_index);
  if (f.phases !== undefined) {
    const indexes = paintIndexesOfPhases(f.phases);
    valueSet(`a.cs_paint_index IN (${indexes.map(() => '?').join(', ')})`, ...indexes);
  }
  if (f.stattrak !== undefined) attr(730, `a.cs_is_stattrak = ${f.stattrak ? 1 : 0}`);
  if (f.souvenir !== undefined) attr(730, `a.cs_is_souvenir = ${f.souvenir ? 1 : 0}`);
  for (const [field, value] of Object.entries(f.fields ?? {})) {
    // `field` is one of GAME_STRING_FIELDS (checked by the schema), so it is safe as an identifier. In any
    // ASCII case (sameFieldValue): the column's index is built COLLATE NOCASE (migration 8), so it seeks.
    if (value === undefined) continue;
    attr(GAME_OF_PREFIX[field.split('_')[0] as string] ?? null, `a.${field} = ? COLLATE NOCASE`, value);
    // weighed against a name like the value lists (nameIndexCostsMore)
    if (itemFieldIndexed(db, field)) parts.attrsFields.push({ cond: parts.attrs.at(-1) as Cond, holdsName: field === 'cs_wear' });
  }
  const stickers = f.stickers;
  for (const st of stickers?.all ?? []) {
    if (st.name === undefined && st.slot === undefined && st.max_wear === undefined) {
      // "any N stickers" is the sticker count, which the details hold (the rows it counts are the same
      // stickers): a check on the row, where the sticker rows had to be collected whole (~500k at 1M
      // listings, 0.2-0.4 s) to find the listings with one. Literal: a validated integer 1-5.
      attr(730, `a.sticker_count >= ${st.min_matches ?? 1}`);
      continue;
    }
    const cond = [`kind = ${STICKER_KIND.sticker}`, 'alive = 1'];
    const params: unknown[] = [];
    if (st.name !== undefined) {
      const m = nameMatch(db, 'sticker_names', st.name);
      cond.push(`name_id IN (${m.sql})`);
      params.push(...m.params);
    }
    if (st.slot !== undefined) {
      cond.push('slot = ?');
      params.push(st.slot);
    }
    if (st.max_wear !== undefined) {
      cond.push('wear <= ?');
      params.push(st.max_wear);
    }
    stickerSet(cond, params, st.min_matches);
  }
  // Literal (validated integers): the partial index on sticker_count serves only a condition it can see.
  if (stickers?.min_count !== undefined) attr(730, `a.sticker_count >= ${stickers.min_count}`);
  if (stickers?.max_count !== undefined) attr(730, `a.sticker_count <= ${stickers.max_count}`);
  for (const k of f.keychains ?? []) {
    const cond = [`kind = ${STICKER_KIND.keychain}`, 'alive = 1'];
    const params: unknown[] = [];
    if (k.pattern !== undefined) {
      cond.push('pattern = ?');
      params.push(k.pattern);
    }
    if (k.name !== undefined) {
      const m = nameMatch(db, 'sticker_names', k.name);
      cond.push(`name_id IN (${m.sql})`);
      params.push(...m.params);
    }
    stickerSet(cond, params);
  }
  if (games.size > 1 || (f.app_id !== undefined && games.size === 1 && !games.has(f.app_id))) parts.impossible = true;
  // A detail field of one game already implies the game; repeating it would only make SQLite pick the
  // (huge) per-game index over the selective one.
  if (f.app_id !== undefined && games.size === 0) copy('a.app_id = ?', f.app_id);
  return parts;
}

/** Prepared statements by SQL text: a UI repeats the same few shapes with new values. */
class StatementCache {
  readonly #db: Db;
  readonly #cache = new Map<string, Statement>();
  constructor(db: Db) {
    this.#db = db;
  }
  get(sql: string): Statement {
    let stmt = this.#cache.get(sql);
    if (stmt) {
      this.#cache.delete(sql);
      this.#cache.set(sql, stmt);
      return stmt;
    }
    stmt = this.#db.prepare(sql);
    this.#cache.set(sql, stmt);
    if (this.#cache.size > 256) this.#cache.delete(this.#cache.keys().next().value as string);
    return stmt;
  }
}

const caches = new WeakMap<Db, StatementCache>();
function statements(db: Db): StatementCache {
  let c = caches.get(db);
  if (!c) {
    c = new StatementCache(db);
    caches.set(db, c);
  }
  return c;
}

const ALIVE_L: Cond = { sql: 'l.alive = 1', params: [] };
const ALIVE_A: Cond = { sql: 'a.alive = 1', params: [] };
const where = (conds: readonly Cond[]) => conds.map((c) => c.sql).join(' AND ');
const paramsOf = (conds: readonly Cond[]) => conds.flatMap((c) => c.params);

/** Rows matching `conds` on one table, counted up to SET_LIMIT + 1 (a covering-index walk). */
function cappedCount(db: Db, table: 'listings l' | 'listing_attrs a', conds: readonly Cond[], cap: number): number {
  const all = [table === 'listings l' ? ALIVE_L : ALIVE_A, ...conds];
  return statements(db)
    .get(`SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${where(all)} LIMIT ${cap + 1})`)
    .pluck()
    .get(...paramsOf(all)) as number;
}

/** Conditions whose own index is weighed against a name, and whether that index holds the name. */
interface WeighedAgainstName {
  conds: readonly Cond[];
  holdsName: boolean;
}

/**
 * Whether a group of the filter's conditions with an index of its own (its value lists: seeds, paint
 * index, phases; its item fields; its fade or blue figure, a range or the sort's) selects fewer listings
 * than its name does. SQLite walks the name's index whenever a name is asked, since it cannot tell how
 * many items a substring matches: for "karambit" with a Doppler phase it visits every Karambit (~15k rows
 * at 1M) to keep ~250, where the paint-index index visits ~5k; "stattrak™" sorted by blue read ~100k rows
 * for 1,500 (0.25 s) where the blue index holds ~15k. Only these are weighed: each counts on its own
 * index alone (no row read), and the float sits on indexes SQLite already weighs well. The counts are
 * capped, the others' a few times SET_LIMIT (a set too big to drive can still be far smaller than the
 * name: "stattrak™" with 19 seeds, ~11k listings against ~100k, 72 ms to find none through the name, ~10
 * through the seeds), the name's at what the others' walk costs, so asking costs two short index walks.
 * An index that holds the name (the value lists', fade's, blue's, the exterior's) checks it on each entry,
 * where driven by the name the others are read from each of its rows: the name then pays
 * ROW_READ_IN_ENTRIES times per listing ("redline" with any fade: 9k rows read, 54 ms to find none, the
 * fade index's 30k entries 3 ms), and past the cap both ways ("AK" and "Factory New", ~150k and 120k
 * listings) that index is the one to walk. An item field's index does not hold the name (a creation would
 * pay, issue 5's events): both ways read rows, and the smaller drives ("knife" among Rust doors).
 */
function nameIndexCostsMore(db: Db, name: Cond, groups: readonly WeighedAgainstName[], setLimit: number): boolean {
  const cap = WEIGH_FACTOR * setLimit;
  return groups.some(({ conds, holdsName }) => {
    if (conds.length === 0) return false;
    const byOthers = cappedCount(db, 'listing_attrs a', conds, cap);
    const afford = holdsName ? Math.ceil(byOthers / ROW_READ_IN_ENTRIES) : byOthers;
    return cappedCount(db, 'listing_attrs a', [name], afford) > afford;
  });
}

/** How much further than SET_LIMIT a value list, fade or blue figure is counted when weighed against a name. */
const WEIGH_FACTOR = 4;

/** What a row read costs in index entries walked (~1 µs against ~0.1 at 1M listings, from the book's pages). */
const ROW_READ_IN_ENTRIES = 10;

/** A craft is estimated only while the smallest driver so far holds more than SET_LIMIT / this. */
const CRAFT_WEIGHED_ABOVE = 5;

export type PlanKind = 'empty' | 'set:listings' | 'set:attrs' | 'order';

export interface PlanOptions {
  /** Overrides SET_LIMIT (tests use it to force each kind of plan on a small book). */
  setLimit?: number;
}

export interface CompiledQuery {
  query: BookQuery;
  plan: PlanKind;
  sql: string;
  params: unknown[];
  /** Exact count SQL, or null when the count is already known from the estimate (or not asked for). */
  countSql: string | null;
  countParams: unknown[];
  /**
   * countSql lists listing ids (one per matching sticker row) and the total is how many distinct ids it
   * returns: deduplicating ~100k ids in a Set costs a third of SQLite's temp b-tree for count(DISTINCT).
   */
  countDistinctIds?: boolean;
  /** The count when the estimate already established it exactly. */
  knownTotal: number | null;
  /**
   * A set plan's first page with its count: every candidate's id in order, read once (`sql`), gives the
   * total and the page's ids, whose rows `pageSql` reads (a JSON array parameter). A count and a page
   * each visited every candidate (7,500 listings with a keychain: 9 ms each at 1M).
   */
  keys?: { sql: string; params: unknown[]; pageSql: string };
  /**
   * The parameters hold listing ids read while planning (a sticker condition's, or an intersection's): the
   * statement answers the book as it was then, so it serves this answer only and is planned again for
   * any later page, never kept.
   */
  holdsIds?: boolean;
  /**
   * With `after`: counts the rows at or before that cursor, so the page after it starts at that row
   * number (what a position-keeping reader needs once the book changed around its cursors). It walks
   * the same candidates as the page, bounded by the cursor: a cursor near the top counts few rows.
   */
  aheadCount?: { sql: string; params: unknown[] };
}

/**
 * Plans and writes the SQL of a query. Cheap capped counts tell how big each table's candidate set is;
 * a small set drives the join and is sorted, otherwise the sort order's index drives and the scan stops
 * after one page. Plans are pinned with CROSS JOIN (SQLite keeps the left table outer) and INDEXED BY,
 * because SQLite's own choice ignores the LIMIT and would sort tens of thousands of rows for 100.
 */
export function compileQuery(db: Db, input: BookQueryInput | BookQuery, options: PlanOptions = {}): CompiledQuery {
  const q = bookQuery.parse(input);
  const setLimit = options.setLimit ?? SET_LIMIT;
  const sort = SORTS[q.sort.field];
  const parts = splitFilter(db, q.filter, sort.table === 'a' ? 730 : null);
  const usesAttrs = parts.attrs.length > 0 || sort.table === 'a';
  const dir = q.sort.dir === 'asc' ? 'ASC' : 'DESC';
  const empty: CompiledQuery = { query: q, plan: 'empty', sql: '', params: [], countSql: null, countParams: [], knownTotal: q.count ? 0 : null };
  if (parts.impossible) return empty;

  const cursor = q.after === undefined ? null : decodeCursor(q.sort.field, q.after);
  // Keyset: a bound on the sort column the index can seek to, then the tie-break on id. A row value
  // `(price, id) > (?, ?)` reads the same but only seeks an index whose columns are exactly (price, id).
  // 'after': the rows past the cursor (a page); 'through': the rest, those at or before it (a count).
  const keyset = (side: 'after' | 'through', sortExpr: string, idExpr: string): Cond[] => {
    if (cursor === null) return [];
    const forward = (dir === 'ASC') === (side === 'after');
    const [strict, loose] = forward ? ['>', '>='] : ['<', '<='];
    const onId = side === 'after' ? strict : loose;
    if (q.sort.field === 'id') return [{ sql: `${idExpr} ${onId} ?`, params: [cursor.id] }];
    return [
      {
        sql: `${sortExpr} ${loose} ? AND (${sortExpr} ${strict} ? OR ${idExpr} ${onId} ?)`,
        params: [cursor.value, cursor.value, cursor.id],
      },
    ];
  };
  const keysetOn = (sortExpr: string, idExpr: string) => keyset('after', sortExpr, idExpr);
  const countThrough = (from: string, fromParams: unknown[], conds: Cond[], sortExpr: string, idExpr: string) => {
    if (cursor === null) return {};
    const bounded = [...conds, ...keyset('through', sortExpr, idExpr)];
    return { aheadCount: { sql: `SELECT count(*) FROM ${from} WHERE ${where(bounded)}`, params: [...fromParams, ...paramsOf(bounded)] } };
  };
  const orderOn = (sortExpr: string, idExpr: string) =>
    q.sort.field === 'id' ? `${idExpr} ${dir}` : `${sortExpr} ${dir}, ${idExpr} ${dir}`;
  /** The sort on the table that holds it (`listings` for price, time and id). */
  const sortExpr = `${sort.table}.${sort.column}`;
  const idExpr = `${sort.table}.id`;
  /** The listings index that yields live rows in the sort order under this filter. */
  const leanOrderIndex = (): string | null =>
    q.sort.field === 'price' && q.filter.app_id !== undefined && q.filter.commodity === true ? 'listings_commodity_price' : sort.index;
  /**
   * The details index that yields live rows in the sort order under this filter. An exterior's own index
   * (schema 13) holds its listings in float order: walking the float index instead checked the exterior
   * on every row until a page was found ("Factory New" by float, highest first: ~490k rows, 1 s at 1M).
   */
  const detailsOrderIndex = (): string =>
    q.sort.field === 'float' && q.filter.fields?.cs_wear !== undefined && itemFieldIndexed(db, 'cs_wear') ? 'attrs_cs_wear' : (sort.index as string);

  if (!usesAttrs) {
    const conds = [ALIVE_L, ...parts.lean];
    const estimate = parts.lean.length > 0 ? cappedCount(db, 'listings l', parts.lean, setLimit) : setLimit + 1;
    if (estimate === 0) return empty;
    const small = estimate <= setLimit;
    const index = leanOrderIndex();
    const from = small ? 'listings l' : index !== null ? `listings l INDEXED BY ${index}` : ID_ORDER;
    const all = [...conds, ...keysetOn(sortExpr, idExpr)];
    return {
      query: q,
      plan: small ? 'set:listings' : 'order',
      sql: pageSql(rowsOnListings(`${from} LEFT JOIN listing_attrs a ON a.id = l.id`, where(all), orderOn(sortExpr, idExpr)), q.sort.field, dir),
      params: [...paramsOf(all), q.limit + 1],
      countSql: q.count && !small ? `SELECT count(*) FROM listings l WHERE ${where(conds)}` : null,
      countParams: paramsOf(conds),
      knownTotal: q.count && small ? estimate : null,
      ...countThrough(from, [], conds, sortExpr, idExpr),
    };
  }

  // Details are involved: only detailed listings can match, and game/name/commodity are checked on the
  // copies in listing_attrs, so that the details' indexes answer them without `listings`.
  const attrConds = [...parts.attrs, ...parts.attrsCopies];
  const sortPresence: Cond | null = sort.table === 'a' ? { sql: `${sortExpr} IS NOT NULL`, params: [] } : null;
  if (sortPresence) attrConds.push(sortPresence);
  // Driven from `listings`, they are checked on its own columns instead: the price index holds the name,
  // game and commodity, so a walk of it passes over other names without reading their details ("knife"
  // in a price band with a float range read the details of every listing in the band: 0.3 s -> ~30 ms).
  const all = [ALIVE_A, ALIVE_L, ...attrConds.filter((c) => !parts.attrsCopies.includes(c)), ...parts.lean];
  /**
   * A condition as the counts ask it. A float range, or the float sort's "has one", drew SQLite to the
   * float index to count StatTrak or souvenir listings (600k entries for 16k souvenir non-commodities,
   * 36 ms; "souvenir" with a float of 0-1, 34 ms), where the flag's own index is a tenth of it at most
   * and holds the float (version 12): with such a flag the counts hide the float from the planner.
   * Without one the float index is the smallest that holds it (hidden, a count of every float took the
   * name index whole, 20 -> 45 ms). A page keeps it whole: it names the float index, which a hidden
   * condition would not let SQLite use.
   */
  const flagIndexed = q.filter.stattrak === true || q.filter.souvenir === true;
  const hiddenFromCounts = new Set<Cond>(flagIndexed ? [...parts.attrsFloat, ...(q.sort.field === 'float' && sortPresence ? [sortPresence] : [])] : []);
  const asCounted = (c: Cond): Cond => (hiddenFromCounts.has(c) ? { sql: `+${c.sql}`, params: c.params } : c);
  const existsConds = new Set(parts.stickerSets.map((s) => s.exists));
  const name = parts.attrsName;
  const sparse = parts.attrsSparseRanges[0] ?? (sortPresence && (q.sort.field === 'fade' || q.sort.field === 'blue') ? [sortPresence] : []);
  /** A condition with a small index of its own: a fade or blue figure (a range or the sort), a value list or an item field. */
  const smallIndexed = sparse.length > 0 || parts.attrsValueSets.length > 0 || parts.attrsFields.length > 0;
  const weighed: WeighedAgainstName[] = [
    { conds: parts.attrsValueSets, holdsName: true },
    { conds: parts.attrsFields.map((f) => f.cond), holdsName: parts.attrsFields.every((f) => f.holdsName) },
    { conds: sparse, holdsName: true },
  ];
  if (name !== null && nameIndexCostsMore(db, name, weighed, setLimit)) {
    // `+` hides the column from the planner: the name is then checked on each row the other index yields
    attrConds[attrConds.indexOf(name)] = { sql: `+${name.sql}`, params: name.params };
  }
  const plainAttrConds = attrConds.filter((c) => !existsConds.has(c));
  const listingsFirst = 'listings l CROSS JOIN listing_attrs a ON a.id = l.id';
  /** Listing ids (a subquery's `listing_id` column) driving the details. */
  const idsFirst = (idsSql: string) => `(${idsSql}) s CROSS JOIN listing_attrs a ON a.id = s.listing_id`;
  /** Listing ids read while planning, handed over as one JSON array parameter. */
  const ID_LIST = 'SELECT value AS listing_id FROM json_each(?)';
  /** How many listing ids a subquery (its `listing_id` column) yields, and they as that parameter. */
  const idList = (sql: string, params: unknown[]) =>
    statements(db).get(`SELECT count(*), json_group_array(listing_id) FROM (${sql})`).raw().get(...params) as [number, string];

  // The details side: a plan driven by the details, or walking a detail's order, reads `listings` only
  // for the rows of the page (rowsOnDetails), the details carrying alive, price and created time (schema
  // 11). The game needs no check there: a detail condition is of one game, which splitFilter has matched
  // against the filter's (or copied as `a.app_id`). A file before 11 joins `listings` for the price.
  const priceOnListings = !attrsCarryPrice(db);
  const detailsSide = (from: string) => (priceOnListings ? `${from} CROSS JOIN listings l ON l.id = a.id` : from);
  const onDetails = [ALIVE_A, ...attrConds, ...(priceOnListings ? [ALIVE_L, ...parts.price] : parts.attrsPrice)];
  const detailsSort = priceOnListings ? sortExpr : `a.${sort.column}`;

  // Candidate drivers: the detail columns, each sticker/keychain condition, the price range. A sticker
  // set yields exactly the listings its EXISTS would let through: driven by it, that check is dropped.
  // Each is estimated in turn (a capped count); one that finds nothing ends the query at once: a capped
  // count reads its whole range to find no row, and the next one's may be as long ("AK" among
  // commodities with a price: 35 ms to find none, then 100 more for the price's). Each is capped at the
  // smallest so far, since only a smaller one could drive instead: "stattrak™" under a fade bound
  // (~1,500 listings) no longer counts the StatTrak listings above a price to 10,000 (30 ms).
  type Driver = {
    kind: 'attrs' | 'stickers' | 'listings';
    estimate: number;
    from: string;
    params: unknown[];
    implies?: readonly Cond[];
    holdsIds?: true;
  };

  const drivers: Driver[] = [];
  /** An estimator answers null when the estimate could not pay for itself (see the craft below). */
  const estimators: ((cap: number) => Driver | null)[] = [];
  if (plainAttrConds.length > 0 || parts.stickerSets.length === 0) {
    estimators.push((cap) => ({ kind: 'attrs', estimate: cappedCount(db, 'listing_attrs a', plainAttrConds.map(asCounted), cap), from: 'listing_attrs a', params: [] }));
  }
  if (parts.price.length > 0) {
    estimators.push((cap) => ({ kind: 'listings', estimate: cappedCount(db, 'listings l', parts.lean, cap), from: listingsFirst, params: [] }));
  }
  // Sticker sets last: a price band or the details may already hold few enough listings that a craft
  // need not be counted (below), and their caps shorten the others' walks.
  /**
   * Each sticker set whose estimate read all of its listing ids (a craft's GROUP BY, or a set under its
   * cap), as that JSON list: the intersection and the count take it instead of running the set's
   * subquery again (a craft of "sticker |" groups ~500k sticker rows, 0.17 s, each time).
   */
  const wholeIds = new Map<StickerSet, string>();
  const idsAsRead = (set: StickerSet): Cond => {
    const list = wholeIds.get(set);
    return list === undefined ? set.idsMayRepeat : { sql: ID_LIST, params: [list] };
  };
  for (const set of parts.stickerSets) {
    const { ids, exists, grouped } = set;
    estimators.push((cap) => {
      // A craft (several matching stickers) is counted whole, no LIMIT stops its GROUP BY (17 ms for
      // "2 foils" at 1M): once another driver holds 2,000 listings or fewer, checking the craft on each
      // (a few µs through the listing's own sticker rows, once: `keys`) costs less than counting it.
      if (grouped && drivers.length > 0 && cap <= setLimit / CRAFT_WEIGHED_ABOVE) return null;
      // The ids are kept as they are counted: driving, they are handed to the page and the count as a
      // list, where the subquery ran again for each (a slot or a wear bound alone has no index of its own:
      // a scan of every sticker row, ~22 ms at 1M listings, three times over).
      const [estimate, list] = idList(`${ids.sql}${grouped ? '' : ` LIMIT ${cap + 1}`}`, ids.params);
      if (grouped || estimate <= cap) wholeIds.set(set, list);
      return { kind: 'stickers', estimate, from: idsFirst(ID_LIST), params: [list], implies: [exists], holdsIds: true };
    });
  }
  let cap = setLimit;
  let unweighed = false;
  for (const estimate of estimators) {
    const driver = estimate(cap);
    if (driver === null) {
      unweighed = true;
      continue;
    }
    if (driver.estimate === 0) return empty;
    drivers.push(driver);
    cap = Math.min(cap, driver.estimate);
  }
  if (parts.stickerSets.length > 1 && drivers.every((d) => d.estimate > setLimit)) {
    // Several sticker conditions, each broad, can meet rarely ("crown" and "foil" in slot 0 at 1M: 28k
    // and 36k sticker rows, 721 listings with both); the walk of the sort order then checks both on every row until a
    // page is found (~0.1 s), and the count each candidate. Their intersection, read once (~15 ms), drives
    // instead when it is small: its ids are handed to the page and the count as they are.
    const sets = parts.stickerSets.map(idsAsRead);
    const [both, list] = idList(
      `SELECT listing_id FROM (${sets.map((set) => set.sql).join(' INTERSECT ')}) LIMIT ${setLimit + 1}`,
      paramsOf(sets),
    );
    if (both === 0) return empty;
    if (both <= setLimit) {
      drivers.push({
        holdsIds: true,
        kind: 'stickers',
        estimate: both,
        from: idsFirst(ID_LIST),
        params: [list],
        implies: parts.stickerSets.map((set) => set.exists),
      });
    }
  }
  const smallest = drivers.reduce((a, b) => (b.estimate < a.estimate ? b : a));

  let plan: PlanKind;
  let from: string;
  let fromParams: unknown[] = [];
  let conds: Cond[];
  if (smallest.estimate <= setLimit) {
    plan = smallest.kind === 'listings' ? 'set:listings' : 'set:attrs';
    from = plan === 'set:attrs' ? detailsSide(smallest.from) : smallest.from;
    fromParams = smallest.params;
    conds = (plan === 'set:attrs' ? onDetails : all).filter((c) => !smallest.implies?.includes(c));
  } else if (sort.table === 'a') {
    plan = 'order';
    from = detailsSide(`listing_attrs a INDEXED BY ${detailsOrderIndex()}`);
    conds = onDetails;
  } else {
    plan = 'order';
    const index = leanOrderIndex();
    // In id order SQLite chooses: with details involved, two broad conditions can meet rarely, and a walk of
    // the whole table for one page cost more than one condition's index and a sort (a souvenir price band:
    // 89 ms against 34). It is given the name, game and commodity on the details' copies there, whose name
    // index holds the flags and float ("knife" not StatTrak: the listings' name index, a row read for each
    // knife, 65 ms; ~10 so).
    conds = index === null ? [ALIVE_A, ALIVE_L, ...attrConds, ...parts.leanApp, ...parts.price] : all;
    from = index === null ? listingsFirst : `listings l INDEXED BY ${index} CROSS JOIN listing_attrs a ON a.id = l.id`;
  }
  const onDetailsSide = plan === 'set:attrs' || (plan === 'order' && sort.table === 'a');

  let countSql: string | null = null;
  let countParams: unknown[] = [];
  let countDistinctIds = false;
  let knownTotal: number | null = null;
  let keys: CompiledQuery['keys'];
  if (q.count) {
    const onlySet = parts.price.length === 0 && plainAttrConds.length === parts.attrsCopies.length && parts.stickerSets.length === 1;
    const exactEstimate = smallest.estimate <= setLimit || (smallest.kind === 'stickers' && parts.stickerSets.length === 1 && parts.stickerSets[0]!.grouped);
    if (drivers.length === 1 && !unweighed && exactEstimate) knownTotal = smallest.estimate;
    else if (onlySet && parts.attrsCopies.length === 0) {
      // One sticker/keychain condition and nothing else: count its listings straight from the index.
      const { idsMayRepeat } = parts.stickerSets[0] as StickerSet;
      countSql = idsMayRepeat.sql;
      countParams = idsMayRepeat.params;
      countDistinctIds = true;
    } else if (smallest.estimate <= setLimit && onDetailsSide && q.after === undefined) {
      // at most SET_LIMIT candidates, read once for the count and the page
      keys = {
        sql: `SELECT a.id FROM ${from} WHERE ${where(conds)} ORDER BY ${orderOn(detailsSort, 'a.id')}`,
        params: [...fromParams, ...paramsOf(conds)],
        pageSql: pageSql(rowsOfIds(), q.sort.field, dir),
      };
    } else if (smallest.estimate <= setLimit) {
      // at most SET_LIMIT candidates to check
      countSql = `SELECT count(*) FROM ${from} WHERE ${where(conds)}`;
      countParams = [...fromParams, ...paramsOf(conds)];
    } else {
      // Every driver has more than SET_LIMIT rows, so which is smallest is unknown: SQLite chooses, on the
      // details alone when they carry the price (schema 11), with each sticker set as an id list it may
      // drive from or look up. Pinned to the first driver, a broad flag with a sticker set counted every
      // detailed listing (1.2 s at 1M; ~0.1 s so), two sticker sets with a float range ~2 s (80 ms); a
      // price with a float range read each candidate's listing row (0.2-0.6 s; 5-30 ms in the index).
      // A sticker set drives a count by reading the details row of each of its (over SET_LIMIT) ids, ~1 µs
      // each: "charm" keychains sorted by fade, 50 ms. A fade or blue figure, a value list or a true flag
      // has an index of its own of a few tens of thousands of rows at most, an item field of about a hundred
      // thousand: the set is then looked up for each of its entries instead (`+`), ~0.2 µs each (5 ms).
      const probed = smallIndexed || flagIndexed;
      const countConds = [
        ALIVE_A,
        ...attrConds.map((c) => stickerSetAsIdList(parts.stickerSets, asCounted(c), probed, idsAsRead)),
        ...(priceOnListings ? parts.price : parts.attrsPrice),
      ];
      const priceJoin = priceOnListings && parts.price.length > 0;
      countSql = `SELECT count(*) FROM listing_attrs a${priceJoin ? ' JOIN listings l ON l.id = a.id' : ''} WHERE ${where(countConds)}`;
      countParams = paramsOf(countConds);
    }
  }
  const [pageSort, pageId] = onDetailsSide ? [detailsSort, 'a.id'] : [sortExpr, idExpr];
  const pageConds = [...conds, ...keysetOn(pageSort, pageId)];
  const rows = (onDetailsSide ? rowsOnDetails : rowsOnListings)(from, where(pageConds), orderOn(pageSort, pageId));
  return {
    query: q,
    plan,
    sql: pageSql(rows, q.sort.field, dir),
    params: [...fromParams, ...paramsOf(pageConds), q.limit + 1],
    countSql,
    countParams,
    ...(countDistinctIds ? { countDistinctIds } : {}),
    knownTotal,
    ...countThrough(from, fromParams, conds, pageSort, pageId),
    ...(keys ? { keys } : {}),
    // (a driver holding ids over SET_LIMIT leaves the plan to the sort order's walk, which holds none)
    ...(plan !== 'order' && smallest.holdsIds ? { holdsIds: true } : {}),
  };
}

/**
 * A sticker set's per-listing check as membership of its id list (`idsOf`: its subquery, or the ids read
 * while planning), which SQLite may drive from or, when `probed`, only look up; any other condition as it is.
 */
function stickerSetAsIdList(sets: readonly StickerSet[], cond: Cond, probed: boolean, idsOf: (set: StickerSet) => Cond): Cond {
  const set = sets.find((s) => s.exists === cond);
  if (!set) return cond;
  // a list that may repeat an id: IN keeps each once itself, where a DISTINCT sorted them a second time (~15%)
  const ids = idsOf(set);
  return { sql: `${probed ? '+' : ''}a.id IN (${ids.sql})`, params: ids.params };
}

/** Answers one page of a book query. `input` is validated against the shared schema first. */
export function queryBook(db: Db, input: BookQueryInput | BookQuery, options: PlanOptions = {}): QueryResult {
  const compiled = compileQuery(db, input, options);
  const q = compiled.query;
  if (compiled.plan === 'empty') return { rows: [], next: null, total: compiled.knownTotal };
  const cache = statements(db);
  let total: number | null;
  let raw: RawRow[];
  if (compiled.keys) {
    const ids = cache.get(compiled.keys.sql).pluck().all(...compiled.keys.params) as number[];
    total = ids.length;
    raw = ids.length === 0 ? [] : (cache.get(compiled.keys.pageSql).all(JSON.stringify(ids.slice(0, q.limit + 1))) as RawRow[]);
  } else {
    total = compiled.countSql === null ? compiled.knownTotal : countOf(cache.get(compiled.countSql), compiled);
    raw = cache.get(compiled.sql).all(...compiled.params) as RawRow[];
  }
  const more = raw.length > q.limit;
  const page = more ? raw.slice(0, q.limit) : raw;
  const rows = withStickers(db, page);
  const last = page[page.length - 1];
  const next = more && last ? encodeCursor(q.sort.field, { value: sortValue(q.sort.field, last), id: last.id }) : null;
  return { rows, next, total };
}

/**
 * How many rows of the query's view lie at or before its `after` cursor: the row number its next page
 * starts at, exact in the book as it is now (the cursor's own listing may have left or moved since).
 */
export function countAhead(db: Db, input: (BookQueryInput | BookQuery) & { after: string }, options: PlanOptions = {}): number {
  const compiled = compileQuery(db, input, options);
  if (compiled.plan === 'empty' || !compiled.aheadCount) return 0;
  return statements(db).get(compiled.aheadCount.sql).pluck().get(...compiled.aheadCount.params) as number;
}

function countOf(statement: Statement, compiled: CompiledQuery): number {
  if (!compiled.countDistinctIds) return statement.pluck().get(...compiled.countParams) as number;
  return new Set(statement.pluck().all(...compiled.countParams) as number[]).size;
}

function sortValue(field: SortField, r: RawRow): number {
  switch (field) {
    case 'price':
      return r.price;
    case 'created_at':
      return r.created_ms;
    case 'id':
      return r.id;
    case 'float':
      return r.cs_paint_wear as number;
    case 'fade':
      return r.cs_fade_percentage as number;
    case 'blue':
      return r.cs_blue_percentage as number;
  }
}

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** Adds stickers and keychains to a page with one query (not one per row). */
function withStickers(db: Db, page: RawRow[]): QueryRow[] {
  const detailed = page.filter((r) => r.detailed !== null).map((r) => r.id);
  const byListing = new Map<number, StickerRowRead[]>();
  if (detailed.length > 0) {
    const rows = statements(db)
      .get(
        `SELECT s.listing_id, s.kind, s.slot, n.name, s.wear, s.pattern FROM listing_stickers s
         JOIN sticker_names n ON n.name_id = s.name_id
         WHERE s.listing_id IN (SELECT value FROM json_each(?)) ORDER BY s.listing_id, s.kind, s.position`,
      )
      .all(JSON.stringify(detailed)) as (StickerRowRead & { listing_id: number })[];
    for (const s of rows) {
      let list = byListing.get(s.listing_id);
      if (!list) byListing.set(s.listing_id, (list = []));
      list.push(s);
    }
  }
  return page.map((r) => {
    const isDetailed = r.detailed !== null;
    const own = byListing.get(r.id) ?? [];
    return {
      id: r.id,
      app_id: r.app_id,
      market_hash_name: r.market_hash_name,
      price: r.price,
      amount: r.amount,
      commodity: r.commodity === 1,
      created_at: r.created_at,
      paint_wear: r.cs_paint_wear,
      paint_seed: r.cs_paint_seed,
      paint_index: r.cs_paint_index,
      fade: r.cs_fade_percentage,
      blue: r.cs_blue_percentage,
      stattrak: flag(r.cs_is_stattrak),
      souvenir: flag(r.cs_is_souvenir),
      stickers: isDetailed
        ? own.filter((s) => s.kind === STICKER_KIND.sticker).map((s) => ({ slot: s.slot, name: s.name, wear: s.wear }))
        : null,
      keychains: isDetailed
        ? own.filter((s) => s.kind === STICKER_KIND.keychain).map((s) => ({ slot: s.slot, name: s.name, pattern: s.pattern }))
        : null,
    };
  });
}

/**
 * Refreshes the planner's statistics, histograms included (sqlite_stat4), so range conditions are
 * costed by their real selectivity. A full ANALYZE (about a second and a half at 1M listings): a sampled
 * one skips the histograms and leaves the planner guessing. Run by the writer after large changes.
 */
export function refreshQueryStatistics(db: Db): void {
  db.pragma('analysis_limit = 0');
  db.exec('ANALYZE');
}

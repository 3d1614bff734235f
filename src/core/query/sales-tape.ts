/**
 * The market's time & sales: every sale the mirror recorded from the feed (`sold_history`), newest
 * first, for a game, an item-name substring, a float range and Doppler phases, paged by keyset (and
 * from a time, for a live refresh). The marketplace's own sales route
 * answers one item at a time and keeps a short window; this is the whole market as the feed showed it.
 *
 * Two plans, both walking an index in the tape's order (sold_ms, listing_id, seq — the index's own key,
 * since the table's primary key ends every index of a WITHOUT ROWID table):
 * - a name matching few items walks each item's `sold_history_name` range and keeps the newest
 *   `limit` (a rare item answers at once, however old its last sale);
 * - no name, or one matching many items (`knife`, `sticker`), walks `sold_history_time` and checks each
 *   sale's name against the matching set: broad names are dense in time, so a page is found quickly
 *   (a narrow float or phase without a name walks further back: a rare float costs what finding 200 of
 *   them in the history costs).
 * Names are matched as the book's name filter matches them (the same trigram index over `item_names`,
 * which holds every sold item's name: see BookStore's sale recording).
 */
import { newestSaleFirst } from '../../shared/sale-order.ts';
import type { Db } from '../store/database.ts';
import {
  type SaleRecord,
  type SalesFilter,
  saleDetailConditions,
  withStickers,
} from '../store/sales-reader.ts';
import { InvalidCursorError } from './cursor.ts';
import { nameMatch } from './query-book.ts';

/** Which sales: the game, the item name, the item's float and phase. */
export type TapeFilter = Pick<SalesTapeQuery, 'app_id' | 'name' | 'float' | 'phases'>;

/** A page of the tape: its filter (float and phases as every sold-history reader takes them), cursors, size. */
export interface SalesTapeQuery extends Pick<SalesFilter, 'float' | 'phases'> {
  app_id?: number;
  /** Case-insensitive substring of the item name, as the book's name filter. */
  name?: string;
  /** The `next` of the previous page: sales older than its last one. */
  before?: string | null;
  /** Only sales sold at or after this time (ms): a live refresh reads the last minute, not the history. */
  sinceMs?: number | null;
  limit: number;
}

/** A sale of the sold history (the fields `skindesk sales` prints), with its seq. */
export interface TapeSale extends SaleRecord {
  /** The sale event's seq, as a decimal string (int64). */
  seq: string;
}

export interface SalesTapePage {
  sales: TapeSale[];
  /** Cursor of the page after this one (older sales), null at the end. */
  next: string | null;
  /**
   * The newest sale time in the whole sold history when this page was read (whatever the filter): a
   * later refresh asks from a little before it, which covers every sale recorded since.
   */
  latestMs: number | null;
}

/** Up to this many matching item names, each name's own index range is walked (see the module comment). */
export const PER_NAME_PLAN_MAX_NAMES = 400;

interface Position {
  soldMs: number;
  listingId: number;
  seq: bigint;
}

/** Above every real sale: the first page. */
const NEWEST: Position = { soldMs: Number.MAX_SAFE_INTEGER, listingId: 0, seq: 0n };

const CURSOR_SHAPE = /^(\d{1,16})\.(\d{1,16})\.(-?\d{1,19})$/;

const encodeTapeCursor = (last: { sold_ms: number; listing_id: number; seq: string }) =>
  `${last.sold_ms}.${last.listing_id}.${last.seq}`;

function decodeTapeCursor(text: string): Position {
  const m = CURSOR_SHAPE.exec(text);
  if (!m) throw new InvalidCursorError();
  const soldMs = Number(m[1]);
  const listingId = Number(m[2]);
  if (!Number.isSafeInteger(soldMs) || !Number.isSafeInteger(listingId)) throw new InvalidCursorError();
  return { soldMs, listingId, seq: BigInt(m[3]!) };
}

type SaleRow = Omit<TapeSale, 'stickers'> & { sold_ms: number; stickers: string | null };

const COLUMNS = `listing_id, CAST(seq AS TEXT) AS seq, app_id, market_hash_name, price, amount, listed_at, sold_at,
  sold_ms, paint_wear, paint_seed, paint_index, stickers`;
const WINDOW = '(sold_ms, listing_id, seq) < (@soldMs, @listingId, @seq) AND sold_ms >= @sinceMs';
const NEWEST_FIRST = 'ORDER BY sold_ms DESC, listing_id DESC, seq DESC';
/** NEWEST_FIRST in JavaScript, for merging the rows of several items. */
const newestFirst = newestSaleFirst<SaleRow>((s) => s.sold_ms);

/**
 * The conditions every plan checks on each sale: older than the page cursor and not older than
 * `sinceMs`, the game, and the item's float and phase (known for sales of items the mirror had the
 * details of).
 */
function saleConditions(query: SalesTapeQuery): { sql: string; params: Record<string, unknown> } {
  const before = query.before ? decodeTapeCursor(query.before) : NEWEST;
  const sql = [WINDOW, '(@app IS NULL OR app_id = @app)'];
  const params: Record<string, unknown> = {
    soldMs: before.soldMs,
    listingId: before.listingId,
    seq: before.seq,
    sinceMs: query.sinceMs ?? 0,
    app: query.app_id ?? null,
  };
  const detail = saleDetailConditions(query);
  return { sql: [...sql, ...detail.sql].join(' AND '), params: { ...params, ...detail.params } };
}

export function readSalesTape(
  db: Db,
  query: SalesTapeQuery,
  options: { perNameMaxNames?: number } = {},
): SalesTapePage {
  const where = saleConditions(query);
  // one row more than asked says whether an older page exists
  const want = query.limit + 1;
  let rows: SaleRow[];
  if (query.name === undefined) {
    rows = db
      .prepare(
        `SELECT ${COLUMNS} FROM sold_history INDEXED BY sold_history_time WHERE ${where.sql} ${NEWEST_FIRST} LIMIT @want`,
      )
      .all({ ...where.params, want }) as SaleRow[];
  } else {
    const match = nameMatch(db, 'item_names', query.name);
    const maxNames = options.perNameMaxNames ?? PER_NAME_PLAN_MAX_NAMES;
    const names = db
      .prepare(`SELECT name FROM item_names WHERE name_id IN (${match.sql}) LIMIT ?`)
      .pluck()
      .all(...match.params, maxNames + 1) as string[];
    rows =
      names.length <= maxNames
        ? newestOfEachName(db, names, where, want)
        : (db
            .prepare(
              `SELECT ${COLUMNS} FROM sold_history INDEXED BY sold_history_time
               WHERE ${where.sql} AND market_hash_name IN (SELECT name FROM item_names WHERE name_id IN (${match.sql}))
               ${NEWEST_FIRST} LIMIT @want`,
            )
            .all({ ...where.params, want }, ...match.params) as SaleRow[]);
  }
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    sales: page.map(toTapeSale),
    next: rows.length > query.limit && last ? encodeTapeCursor(last) : null,
    latestMs: db.prepare('SELECT max(sold_ms) FROM sold_history').pluck().get() as number | null,
  };
}

/**
 * The newest `want` sales over several items: each item's range of the name index, newest first; once
 * `want` sales are held, an item's walk stops at the oldest of them.
 */
function newestOfEachName(
  db: Db,
  names: readonly string[],
  where: { sql: string; params: Record<string, unknown> },
  want: number,
): SaleRow[] {
  const statement = db.prepare(
    `SELECT ${COLUMNS} FROM sold_history INDEXED BY sold_history_name
     WHERE market_hash_name = @name AND sold_ms >= @oldest AND ${where.sql} ${NEWEST_FIRST} LIMIT @want`,
  );
  let held: SaleRow[] = [];
  let oldest = where.params.sinceMs as number;
  for (const name of names) {
    const rows = statement.all({ ...where.params, name, oldest, want }) as SaleRow[];
    if (rows.length === 0) continue;
    held = held.concat(rows).sort(newestFirst).slice(0, want);
    if (held.length === want) oldest = held[want - 1]!.sold_ms;
  }
  return held;
}

function toTapeSale({ sold_ms: _soldMs, ...row }: SaleRow): TapeSale {
  return withStickers(row);
}

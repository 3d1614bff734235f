/**
 * The sold history the mirror recorded from `listing.sold` events, oldest sale first, with the item's
 * float, seed, paint index and stickers when its details were known. The marketplace's own sales
 * endpoint keeps a short window; this is what a trader exports to study prices over months.
 */
import type { AppId, Sticker } from '../../shared/api/index.ts';
import { type DopplerPhase, paintIndexesOfPhases } from '../../shared/phases.ts';
import type { Db } from './database.ts';
import { nameTest } from './names.ts';

export interface SaleRecord {
  listing_id: number;
  app_id: AppId;
  market_hash_name: string;
  /** Price per copy, cents. */
  price: number;
  amount: number;
  listed_at: string;
  sold_at: string;
  paint_wear: number | null;
  paint_seed: number | null;
  paint_index: number | null;
  stickers: Sticker[] | null;
}

/** The fields of a sale as `skindesk sales` prints them and the app exports them (CSV column order). */
export const SALE_COLUMNS = [
  'listing_id',
  'app_id',
  'market_hash_name',
  'price',
  'amount',
  'listed_at',
  'sold_at',
  'paint_wear',
  'paint_seed',
  'paint_index',
  'stickers',
] as const satisfies readonly (keyof SaleRecord)[];

export interface SalesFilter {
  appId?: number;
  /** Case-insensitive substring of the item name. */
  name?: string;
  /** Sales at or after this time (ms). */
  sinceMs?: number;
  /** Sales before this time (ms). */
  untilMs?: number;
  /** Float range, both ends included: only sales of items whose details the mirror had. */
  float?: { min?: number; max?: number };
  /** Doppler phases (any of them), by the sale's paint index. */
  phases?: readonly DopplerPhase[];
}

type SaleRow = Omit<SaleRecord, 'stickers'> & { stickers: string | null };

/**
 * The float and phase conditions on a sold_history row, shared by every reader of the sold history:
 * only sales of items whose details the mirror had — the float within both ends (as the book's), the
 * paint index one of the phases'. Named parameters (@floatMin, @floatMax); the phases' paint indexes
 * are small integers from a constant table, inlined.
 */
export function saleDetailConditions(filter: Pick<SalesFilter, 'float' | 'phases'>): { sql: string[]; params: Record<string, number> } {
  const sql: string[] = [];
  const params: Record<string, number> = {};
  if (filter.float) {
    sql.push('paint_wear IS NOT NULL');
    if (filter.float.min !== undefined) {
      sql.push('paint_wear >= @floatMin');
      params.floatMin = filter.float.min;
    }
    if (filter.float.max !== undefined) {
      sql.push('paint_wear <= @floatMax');
      params.floatMax = filter.float.max;
    }
  }
  if (filter.phases) sql.push(`paint_index IN (${paintIndexesOfPhases(filter.phases).join(', ')})`);
  return { sql, params };
}

export function* iterateSales(db: Db, filter: SalesFilter = {}): Generator<SaleRecord> {
  const conditions: [string, number | string][] = [];
  if (filter.appId !== undefined) conditions.push(['app_id = ?', filter.appId]);
  if (filter.sinceMs !== undefined) conditions.push(['sold_ms >= ?', filter.sinceMs]);
  if (filter.untilMs !== undefined) conditions.push(['sold_ms < ?', filter.untilMs]);
  const detail = saleDetailConditions(filter);
  const sql = [...conditions.map(([condition]) => condition), ...detail.sql];
  const where = sql.length > 0 ? `WHERE ${sql.join(' AND ')}` : '';
  const rows = db
    .prepare(
      `SELECT listing_id, app_id, market_hash_name, price, amount, listed_at, sold_at, paint_wear, paint_seed, paint_index, stickers
       FROM sold_history ${where} ORDER BY sold_ms, listing_id, seq`,
    )
    .iterate(detail.params, ...conditions.map(([, value]) => value)) as IterableIterator<SaleRow>;
  // The name judged as the book's search and the sales tape judge it (nameTest): SQLite's LIKE folds
  // ASCII only, so "ödland" missed "Ödland …".
  const holdsName = filter.name === undefined ? null : nameTest(filter.name);
  for (const row of rows) if (holdsName === null || holdsName(row.market_hash_name)) yield withStickers(row);
}

/** A sold_history row with its stickers column (JSON text) parsed. */
export function withStickers<R extends { stickers: string | null }>(row: R): Omit<R, 'stickers'> & { stickers: Sticker[] | null } {
  return { ...row, stickers: row.stickers === null ? null : (JSON.parse(row.stickers) as Sticker[]) };
}

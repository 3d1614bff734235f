/**
 * Which per-game detail fields of a listing (spec §2.3) get a column of their own in `listing_attrs`, so the
 * query engine can filter and sort on them through an index. Everything else (links, icons, arrays,
 * the tf2 attribute object) lives only in `listing_details.detail`, the full JSON of the detail fields.
 * test/unit/store/columns.test.ts checks this list against the contract so the two never drift.
 */
import type { ListingDetail } from '../../shared/api/index.ts';
import { GAME_STRING_FIELDS } from '../../shared/query.ts';

export type DetailKey = keyof ListingDetail;
export type ColumnKind = 'real' | 'int' | 'bool' | 'text';

export interface DetailColumn {
  field: DetailKey;
  kind: ColumnKind;
}

/** Numeric CS fields: ranges, seed lists and sorts. */
export const NUMERIC_COLUMNS = [
  { field: 'cs_paint_wear', kind: 'real' },
  { field: 'cs_paint_seed', kind: 'int' },
  { field: 'cs_paint_index', kind: 'int' },
  { field: 'cs_fade_percentage', kind: 'real' },
  { field: 'cs_blue_percentage', kind: 'real' },
] as const satisfies readonly DetailColumn[];

export const FLAG_COLUMNS = [
  { field: 'cs_is_stattrak', kind: 'bool' },
  { field: 'cs_is_souvenir', kind: 'bool' },
  { field: 'cs_is_highlight', kind: 'bool' },
] as const satisfies readonly DetailColumn[];

/**
 * String fields answered by equality in any ASCII case (the shared query's `fields`), each but a few with
 * its own partial index, built COLLATE NOCASE (migrations.ts, version 8).
 */
export const EQUALITY_COLUMNS: readonly DetailColumn[] = GAME_STRING_FIELDS.map((field) => ({ field, kind: 'text' }));

export const DETAIL_COLUMNS: readonly DetailColumn[] = [...NUMERIC_COLUMNS, ...FLAG_COLUMNS, ...EQUALITY_COLUMNS];

/** The value stored in a detail column: booleans as 0/1, absent as NULL. */
export function columnValue(kind: ColumnKind, value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (kind === 'bool') return value ? 1 : 0;
  return value as number | string;
}

/** The CS figures readers take back from `listing_attrs` beside a listing (filters, the grid, alerts). */
export type FigureColumnValues = Record<(typeof NUMERIC_COLUMNS)[number]['field'] | 'cs_is_stattrak' | 'cs_is_souvenir', number | null>;

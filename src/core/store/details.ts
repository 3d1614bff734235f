/**
 * The per-game detail fields of a listing (spec §2.3) as the store keeps them: filterable ones in
 * columns of `listing_attrs` (columns.ts), the rest as JSON in `listing_details`, and stickers and
 * keychains as rows of `listing_stickers`. Details never change for a listing id, so they need no seq.
 */
import { LISTING_DETAIL_FIELDS, NULL_LISTING_DETAIL, type ListingDetail, type Sticker } from '../../shared/api/index.ts';
import { DETAIL_COLUMNS, columnValue, type DetailKey } from './columns.ts';

export const STICKER_KIND = { sticker: 0, keychain: 1 } as const;

/**
 * The wear a sticker the market sent without one (or with null) is filtered by: it was never scraped,
 * which is wear 0. Its details keep what the market sent; a keychain has no wear.
 */
export function stickerWear(wear: number | null | undefined): number {
  return wear ?? 0;
}

/** A row of `listing_stickers` as readers take it back, with its name joined. */
export interface StickerRowRead {
  kind: number;
  slot: number;
  name: string;
  wear: number | null;
  pattern: number | null;
}

/** The detail fields of a full listing or a `listing.created` payload, nothing else. */
export function pickDetail(source: Partial<ListingDetail>): Partial<ListingDetail> {
  const out: Record<string, unknown> = {};
  for (const key of LISTING_DETAIL_FIELDS) {
    const v = source[key];
    if (v !== undefined) out[key] = v;
  }
  return out as Partial<ListingDetail>;
}

const COLUMN_FIELDS = new Set<string>(DETAIL_COLUMNS.map((c) => c.field));
/** Detail fields kept only in the JSON of `listing_details` (links, icons, arrays, objects). */
const BLOB_FIELDS = LISTING_DETAIL_FIELDS.filter((f) => !COLUMN_FIELDS.has(f));

/**
 * The JSON stored in `listing_details`: the fields that have no column, without nulls. Columns are not
 * repeated and nulls are restored on read (`restoreDetail`), which keeps a million rows near 250 MB
 * instead of over a gigabyte.
 */
export function detailBlob(detail: Partial<ListingDetail>): string {
  const out: Record<string, unknown> = {};
  for (const key of BLOB_FIELDS) {
    const v = detail[key];
    if (v !== null && v !== undefined) out[key] = v;
  }
  return JSON.stringify(out);
}

/** The full detail object of §2.3 from a `listing_attrs` row and the stored JSON. */
export function restoreDetail(attrs: Record<string, unknown>, blob: string): ListingDetail {
  const out: Record<string, unknown> = { ...NULL_LISTING_DETAIL };
  for (const c of DETAIL_COLUMNS) {
    const v = attrs[c.field];
    out[c.field] = v === null || v === undefined ? null : c.kind === 'bool' ? v === 1 : v;
  }
  Object.assign(out, JSON.parse(blob) as Record<string, unknown>);
  return out as ListingDetail;
}

export type { DetailKey };

/** Values of the detail columns, in DETAIL_COLUMNS order. */
export function detailColumnValues(detail: Partial<ListingDetail>): (number | string | null)[] {
  return DETAIL_COLUMNS.map((c) => columnValue(c.kind, detail[c.field]));
}

export interface StickerRow {
  kind: number;
  position: number;
  slot: number;
  name: string;
  wear: number | null;
  pattern: number | null;
}

export function stickerRows(detail: Partial<ListingDetail>): StickerRow[] {
  const rows: StickerRow[] = [];
  const add = (kind: number, list: readonly Sticker[] | null | undefined) => {
    if (!list) return;
    list.forEach((s, position) => {
      const wear = kind === STICKER_KIND.sticker ? stickerWear(s.wear) : (s.wear ?? null);
      rows.push({ kind, position, slot: s.slot, name: s.name, wear, pattern: s.pattern ?? null });
    });
  };
  add(STICKER_KIND.sticker, detail.cs_stickers);
  add(STICKER_KIND.keychain, detail.cs_keychains);
  return rows;
}

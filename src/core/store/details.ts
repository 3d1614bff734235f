/**
 * The per-game detail fields of a listing (spec §2.3) as the store keeps them: filterable ones in
 * columns of `listings` (columns.ts), all of them as JSON in `listing_details`, and stickers and
 * keychains as rows of `listing_stickers`. Details never change for a listing id, so they need no seq.
 */
import { LISTING_DETAIL_FIELDS, type ListingDetail, type Sticker } from '../../shared/api/index.ts';
import { DETAIL_COLUMNS, columnValue } from './columns.ts';

export const STICKER_KIND = { sticker: 0, keychain: 1 } as const;

/** The detail fields of a full listing or a `listing.created` payload, nothing else. */
export function pickDetail(source: Partial<ListingDetail>): Partial<ListingDetail> {
  const out: Record<string, unknown> = {};
  for (const key of LISTING_DETAIL_FIELDS) {
    const v = source[key];
    if (v !== undefined) out[key] = v;
  }
  return out as Partial<ListingDetail>;
}

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
      rows.push({ kind, position, slot: s.slot, name: s.name, wear: s.wear ?? null, pattern: s.pattern ?? null });
    });
  };
  add(STICKER_KIND.sticker, detail.cs_stickers);
  add(STICKER_KIND.keychain, detail.cs_keychains);
  return rows;
}

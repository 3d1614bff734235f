/**
 * The book query: one filter shape for the query engine, the UI (over IPC), the CLI `search` and
 * watchlists. Pure data, validated at every boundary; the engine in src/core/query turns it into SQL.
 */
import { z } from 'zod';
import { appId } from './api/primitives.ts';
import { DOPPLER_PHASES } from './phases.ts';

const unit = z.number().min(0).max(1);
const percent = z.number().min(0).max(100);
const range = <T extends z.ZodType<number>>(t: T) =>
  z
    .strictObject({ min: t.optional(), max: t.optional() })
    .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { message: 'min must not exceed max' });

/**
 * A name filter is a case-insensitive substring, unless it is in double quotes: then it is the whole name
 * ("AK-47 | Redline (Field-Tested)" without its StatTrak™ and Souvenir versions). The quoted text, or null
 * for a substring.
 */
export function exactNameOf(needle: string): string | null {
  return needle.length > 2 && needle.startsWith('"') && needle.endsWith('"') ? needle.slice(1, -1) : null;
}

/** How a name search reads what is typed, in the words of its hover hint. */
export const NAME_SEARCH_HINT = 'Any part of the name; "in double quotes" for the whole name only';

/** The name filter that finds exactly this item (see exactNameOf). */
export function exactNameFilter(name: string): string {
  return `"${name}"`;
}

export const stickerFilter = z.strictObject({
  /** Case-insensitive substring of the sticker name; in double quotes, the whole name (exactNameOf). */
  name: z.string().min(1).max(200).optional(),
  slot: z.number().int().min(0).max(5).optional(),
  /** Highest sticker wear accepted (0 = pristine). */
  max_wear: unit.optional(),
  /**
   * At least this many of the listing's stickers must match (a "4× craft" of one sticker: 4); one by
   * default.
   */
  min_matches: z.number().int().min(1).max(5).optional(),
});
export const keychainFilter = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  pattern: z.number().int().nonnegative().optional(),
});

export const BOOK_SORT_FIELDS = ['price', 'float', 'created_at', 'fade', 'blue', 'id'] as const;
export const bookSortField = z.enum(BOOK_SORT_FIELDS);

/**
 * Equality filters on per-game string fields (rust_/dota_/tf2_ and cs_ strings): the whole value, in any
 * case of its ASCII letters ("arcana" finds "Arcana"), as SQLite's NOCASE compares (sameFieldValue).
 */
export const GAME_STRING_FIELDS = [
  'cs_weapon', 'cs_type', 'cs_wear', 'cs_rarity', 'cs_collection',
  'rust_category', 'rust_type', 'rust_collection',
  'dota_rarity', 'dota_hero', 'dota_quality', 'dota_type', 'dota_slot', 'dota_collection', 'dota_event',
  'tf2_quality', 'tf2_effect', 'tf2_wear', 'tf2_warpaint', 'tf2_sheen', 'tf2_collection', 'tf2_grade',
  'tf2_paint_color', 'tf2_type',
] as const;
export type GameStringField = (typeof GAME_STRING_FIELDS)[number];

/**
 * A per-game field value as the query engine compares it: ASCII letters folded, every other character
 * as it is (SQLite's NOCASE collation, which the fields' indexes are built with: an index in a Unicode
 * folding would need a function every reader of the book registers). Field values are ASCII words.
 */
export function foldFieldValue(value: string): string {
  return value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Whether a listing's field value is the one a filter asks for (see foldFieldValue). */
export function sameFieldValue(listed: string, asked: string): boolean {
  return foldFieldValue(listed) === foldFieldValue(asked);
}

/** The most paint seeds one filter takes (a set of patterns: CS2 has 1,001 seeds, 0–1000). */
export const PAINT_SEEDS_MAX = 1000;

export const bookFilter = z.strictObject({
  app_id: appId.optional(),
  /** Case-insensitive substring of market_hash_name; in double quotes, the whole name (exactNameOf). */
  name: z.string().min(1).max(200).optional(),
  price: range(z.number().int().nonnegative()).optional(),
  float: range(unit).optional(),
  paint_seeds: z.array(z.number().int().nonnegative()).max(PAINT_SEEDS_MAX).optional(),
  paint_index: z.number().int().nonnegative().optional(),
  /** Doppler / Gamma Doppler phases (any of them): the paint indexes each stands for (shared/phases.ts). */
  phases: z.array(z.enum(DOPPLER_PHASES)).min(1).max(DOPPLER_PHASES.length).optional(),
  fade: range(percent).optional(),
  blue: range(percent).optional(),
  stattrak: z.boolean().optional(),
  souvenir: z.boolean().optional(),
  stickers: z
    .strictObject({
      /** Every entry must be matched by a sticker of the listing. */
      all: z.array(stickerFilter).max(5).optional(),
      min_count: z.number().int().min(0).max(6).optional(),
      max_count: z.number().int().min(0).max(6).optional(),
    })
    .optional(),
  keychains: z.array(keychainFilter).max(2).optional(),
  fields: z.partialRecord(z.enum(GAME_STRING_FIELDS), z.string().min(1).max(200)).optional(),
  commodity: z.boolean().optional(),
});
export type BookFilter = z.infer<typeof bookFilter>;

export const bookQuery = z.strictObject({
  filter: bookFilter.default({}),
  sort: z.strictObject({ field: bookSortField, dir: z.enum(['asc', 'desc']) }).default({ field: 'created_at', dir: 'desc' }),
  /** Keyset cursor returned by the previous page (opaque). */
  after: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(1000).default(200),
  /** Also return the total count of matching rows. */
  count: z.boolean().default(false),
});
export type BookQuery = z.infer<typeof bookQuery>;
export type BookQueryInput = z.input<typeof bookQuery>;

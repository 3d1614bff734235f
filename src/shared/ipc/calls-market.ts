/**
 * IPC calls of the market screens (live book, item detail, buying). Merged into IPC_CALLS.
 *
 * This module is evaluated while contract.ts is still loading (contract.ts imports it to build
 * IPC_CALLS), so values taken from contract.ts are only read inside z.lazy(): never at the top level.
 */
import { z } from 'zod';
import { LIMITS, appId, id, seqString, timestamp } from '../api/index.ts';
import { DOPPLER_PHASES } from '../phases.ts';
import { bookFilter, bookQuery } from '../query.ts';
import { call } from './call.ts';
import { savedExport } from './file-export.ts';
import { bookRow } from './contract.ts';

const rows = z.lazy(() => z.array(bookRow));

/** The filter and sort of a book view: what a saved preset and "the last filter" hold. */
export const bookView = z.strictObject({
  filter: bookFilter.default({}),
  sort: bookQuery.shape.sort,
});
export type BookView = z.infer<typeof bookView>;
export type BookViewInput = z.input<typeof bookView>;

/** Rows per window the grid may ask for at once. */
export const BOOK_WINDOW_MAX_ROWS = 500;

export const bookWindowInput = z.strictObject({
  filter: bookFilter.default({}),
  sort: bookQuery.shape.sort,
  /** Position of the first row wanted, counted from the top of the sorted, filtered book. */
  offset: z.number().int().min(0).max(100_000_000),
  limit: z.number().int().min(1).max(BOOK_WINDOW_MAX_ROWS).default(100),
});
export type BookWindowInput = z.input<typeof bookWindowInput>;

export const bookWindow = z.strictObject({
  rows,
  offset: z.number().int().nonnegative(),
  /** Matching rows in the book now. */
  total: z.number().int().nonnegative(),
  version: z.number().int().nonnegative(),
  /**
   * The version `total` was counted at. While the book changes, counts are spaced out (a count of a
   * million rows is not free); older than `version` means: ask again in a moment for the exact total.
   */
  totalVersion: z.number().int().nonnegative(),
  lastSeq: seqString.nullable(),
});
export type BookWindow = z.infer<typeof bookWindow>;

export const balanceView = z.strictObject({
  /** Cents; null until the account was read once. */
  balance: z.number().int().nullable(),
  userName: z.string().nullable(),
  /** When the marketplace last told us the balance (the value may come from the cache, offline). */
  asOf: timestamp.nullable(),
  /** Why the balance could not be refreshed just now. */
  problem: z.string().nullable(),
});
export type BalanceView = z.infer<typeof balanceView>;

/** A private listing's share token: what its share link carries (see src/renderer's share-link parser). */
export const privateToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{4,200}$/, 'a share token is 4 to 200 letters, digits, _ or -');

export const purchaseLineInput = z.strictObject({
  listingId: id,
  amount: z.number().int().positive().max(1_000_000).default(1),
  /** Ceiling per copy in cents: the listing fails with LISTING_PRICE_CHANGED above it. */
  maxPrice: z.number().int().positive(),
  privateToken: privateToken.optional(),
  /**
   * The price per copy (cents) the trader was shown when deciding; never sent to the marketplace. A
   * refusal (LISTING_PRICE_CHANGED) is worded by it: a maximum already below it is the trader's own, not
   * a seller's raise. Absent when no price was shown (a private listing).
   */
  shownPrice: z.number().int().nonnegative().optional(),
  /**
   * The item's name as the screen showed it; never sent to the marketplace, nor used to match orders. It
   * words the outcome when the book no longer holds the listing (sold meanwhile: a cart line gone), which
   * would otherwise be named by its id alone.
   */
  name: z.string().min(1).max(500).optional(),
});
export type PurchaseLineInput = z.input<typeof purchaseLineInput>;

export const PURCHASE_STATUSES = ['bought', 'not_bought', 'unknown'] as const;

export const purchaseReport = z.strictObject({
  status: z.enum(PURCHASE_STATUSES),
  orderId: z.number().int().nullable(),
  /** A short headline and plain words: what happened, and what to do about it. */
  title: z.string(),
  message: z.string(),
  /** The marketplace's code (LISTING_PRICE_CHANGED, LISTING_NOT_FOUND, ...), when it sent one. */
  apiCode: z.string().nullable(),
  /** The line that failed, when the marketplace named it. */
  failedListingId: z.number().int().nullable(),
  /** Cents paid, when bought. */
  spent: z.number().int().nonnegative(),
  /** Listings bought (their rows leave the book). */
  boughtListingIds: z.array(id),
  balance: balanceView,
});
export type PurchaseReport = z.infer<typeof purchaseReport>;

const itemKey = z.strictObject({
  app_id: appId,
  market_hash_name: z.string().min(1).max(500),
});

export const priceContext = z.strictObject({
  market_price: z.number().int().nullable(),
  recommended_price: z.number().int().nullable(),
  /** The marketplace's cheapest listing of the item (prices/all). */
  lowest_listing_price: z.number().int().nullable(),
  /** The cheapest live listing of the item in our mirror, right now. */
  lowest_in_book: z.number().int().nullable(),
  lowest_in_book_id: z.number().int().nullable(),
  listings_in_book: z.number().int().nonnegative(),
  /** 30-day volume-weighted average sale price (sales/averages). */
  average_30d: z.number().int().nullable(),
  sales_30d: z.number().int().nullable(),
  volume_30d: z.number().int().nullable(),
  pricesAsOf: timestamp.nullable(),
  averagesAsOf: timestamp.nullable(),
  /**
   * How long the item's last sales (up to 100) the feed showed had been listed before they sold: the
   * median, in ms. Null before the mirror saw one sell.
   */
  time_to_sell: z.strictObject({ sales: z.number().int().positive(), median_ms: z.number().int().nonnegative() }).nullable(),
  /** The market price of each sticker asked about (same order; null when prices/all has none). */
  stickers: z.array(z.strictObject({ name: z.string(), market_price: z.number().int().nullable() })),
  /**
   * A Doppler asked about by its paint index: the same name in the same phase, since the marketplace's
   * prices are per name and a Ruby and a Phase 3 share one. Null for finishes without phases.
   */
  phase: z
    .strictObject({
      name: z.enum(DOPPLER_PHASES),
      lowest_in_book: z.number().int().nullable(),
      lowest_in_book_id: z.number().int().nullable(),
      listings_in_book: z.number().int().nonnegative(),
      /** Sales of this phase the mirror saw on the feed in the last 30 days (only those with details). */
      sales_30d: z.number().int().nonnegative(),
      /** Their average price per copy, or null without a sale. */
      average_30d: z.number().int().nullable(),
    })
    .nullable(),
  problem: z.string().nullable(),
});
export type PriceContext = z.infer<typeof priceContext>;

export const salePoint = z.strictObject({
  at: timestamp,
  /** Cents per copy. */
  price: z.number().int(),
  amount: z.number().int().positive(),
  /** Where the sale was seen: the live feed (our mirror's sold history) or GET /sales. */
  source: z.enum(['feed', 'market']),
  paint_wear: z.number().nullable(),
});
export type SalePoint = z.infer<typeof salePoint>;

export const salesHistory = z.strictObject({
  /** Oldest first. */
  sales: z.array(salePoint),
  /** When GET /sales was last read for this item (null: never, e.g. offline). */
  marketAsOf: timestamp.nullable(),
  problem: z.string().nullable(),
});
export type SalesHistory = z.infer<typeof salesHistory>;

/** Sales per page of the sales tape. */
export const SALES_TAPE_MAX_ROWS = 500;

export const tapeSale = z.strictObject({
  listing_id: id,
  /** The sale event's seq (int64, as a decimal string). */
  seq: seqString,
  app_id: appId,
  market_hash_name: z.string(),
  /** Cents per copy. */
  price: z.number().int(),
  amount: z.number().int().positive(),
  listed_at: timestamp,
  sold_at: timestamp,
  paint_wear: z.number().nullable(),
  paint_seed: z.number().int().nullable(),
  paint_index: z.number().int().nullable(),
  /** Null when the item's details were never in the mirror. */
  stickers: z.array(z.strictObject({ slot: z.number().int(), name: z.string(), wear: z.number().nullable() })).nullable(),
});
export type TapeSale = z.infer<typeof tapeSale>;


/** Which sales: the game, the item name (as the book's), and the item's float and Doppler phase. */
export const tapeFilter = {
  app_id: bookFilter.shape.app_id,
  name: bookFilter.shape.name,
  float: bookFilter.shape.float,
  phases: bookFilter.shape.phases,
};

export const salesTapeInput = z.strictObject({
  ...tapeFilter,
  /** The `next` of the previous page: older sales. Null: the newest. */
  before: z
    .string()
    .regex(/^\d{1,16}\.\d{1,16}\.-?\d{1,19}$/, 'not a sales-tape cursor')
    .nullable()
    .default(null),
  /** Only sales sold at or after this time (ms): what a live refresh needs (see `latest_ms`). */
  since_ms: z.number().int().nonnegative().nullable().default(null),
  limit: z.number().int().min(1).max(SALES_TAPE_MAX_ROWS).default(200),
});
export type SalesTapeInput = z.input<typeof salesTapeInput>;

export const salesTape = z.strictObject({
  /** Newest first. */
  sales: z.array(tapeSale),
  next: z.string().nullable(),
  /**
   * The newest sale time in the whole sold history at this read (whatever the filter): a refresh asks
   * `since_ms` a minute before it, which covers every sale recorded since, late ones included.
   */
  latest_ms: z.number().int().nullable(),
});
export type SalesTape = z.infer<typeof salesTape>;

/** What "export this view" writes: the book as filtered and sorted, or the sales tape as filtered. */
export const viewExportInput = z.discriminatedUnion('view', [
  z.strictObject({
    view: z.literal('book'),
    filter: bookFilter.default({}),
    sort: bookQuery.shape.sort,
    format: z.enum(['csv', 'jsonl']).default('csv'),
  }),
  z.strictObject({
    view: z.literal('sales'),
    ...tapeFilter,
    format: z.enum(['csv', 'jsonl']).default('csv'),
  }),
]);
export type ViewExportInput = z.input<typeof viewExportInput>;

export const FILTER_PRESET_MAX = 50;
export const filterPreset = z.strictObject({
  name: z.string().trim().min(1).max(60),
  view: bookView,
});
export type FilterPreset = z.infer<typeof filterPreset>;

export const marketScreenState = z.strictObject({
  /** The filter and sort in use when the app last closed; null on a first start. */
  lastView: bookView.nullable(),
  presets: z.array(filterPreset).max(FILTER_PRESET_MAX),
});
export type MarketScreenState = z.infer<typeof marketScreenState>;

const EXAMPLE_ITEM = { app_id: 730, market_hash_name: 'AK-47 | Redline (Field-Tested)' } as const;

export const MARKET_CALLS = {
  queryBookWindow: call({
    summary:
      'Rows of the book at a position (offset) of a filtered, sorted view: keyset paging from anchors the app keeps, so a jump to row 900,000 costs the same as row 0.',
    input: bookWindowInput,
    output: bookWindow,
    example: { filter: { app_id: 730, float: { max: 0.07 } }, sort: { field: 'price', dir: 'asc' }, offset: 0, limit: 100 },
  }),
  getBalance: call({
    summary: 'The account balance: read from the marketplace when asked to refresh (or not read yet), else the cached value.',
    input: z.strictObject({ refresh: z.boolean().default(false) }),
    output: balanceView,
    example: { refresh: false },
  }),
  buyListings: call({
    summary:
      'Buys one listing or a cart of several in ONE atomic purchase (nothing is bought unless every line succeeds), through the purchase journal.',
    input: z.strictObject({
      lines: z
        .array(purchaseLineInput)
        .min(1)
        .max(LIMITS.groupsPerBody)
        .refine((lines) => new Set(lines.map((l) => l.listingId)).size === lines.length, {
          message: 'each listing may appear once in a cart',
        }),
    }),
    output: purchaseReport,
    example: { lines: [{ listingId: 1, amount: 1, maxPrice: 1250 }] },
  }),
  getPriceContext: call({
    summary: "An item's market and recommended price, lowest listing, 30-day average (prices/all and sales/averages, cached in SQLite by ETag).",
    input: itemKey.extend({
      refresh: z.boolean().default(true),
      /** Sticker names of the listing shown (CS2), priced from the same prices/all set. */
      stickers: z.array(z.string().min(1).max(500)).max(10).default([]),
      /** The listing's paint index (CS2): a Doppler's phase gets its own lowest listing and sales. */
      paint_index: z.number().int().nonnegative().nullable().default(null),
    }),
    output: priceContext,
    example: { ...EXAMPLE_ITEM, refresh: true },
  }),
  getSalesHistory: call({
    summary: "An item's sales: the mirror's sold history from the feed plus GET /sales (cached in SQLite).",
    input: itemKey.extend({ refresh: z.boolean().default(true) }),
    output: salesHistory,
    example: { ...EXAMPLE_ITEM, refresh: true },
  }),
  getSalesTape: call({
    summary:
      "The market's time & sales: every sale the mirror recorded from the feed (listing.sold), newest first, by game and item name, paged by keyset.",
    input: salesTapeInput,
    output: salesTape,
    example: { app_id: 730, name: 'doppler', before: null, limit: 200 },
  }),
  exportView: call({
    summary:
      "Exports every row of a view — the book as filtered and sorted, or the sales tape — as CSV or JSON lines in the command line's columns, through a save dialog, with progress (exportProgress pushes).",
    input: viewExportInput,
    output: savedExport,
    example: { view: 'book', filter: { app_id: 730, name: 'doppler' }, sort: { field: 'price', dir: 'asc' }, format: 'csv' },
  }),
  openInspectLink: call({
    summary: "Opens a listing's in-game inspect link (steam://…), read from the mirror and strictly validated by the app.",
    input: z.strictObject({ listingId: id }),
    output: z.strictObject({ opened: z.boolean() }),
    example: { listingId: 1 },
  }),
  getMarketScreenState: call({
    summary: 'The last book filter and the saved filter presets (kept beside the settings, so they survive restarts).',
    input: z.strictObject({}),
    output: marketScreenState,
    example: {},
  }),
  setLastBookView: call({
    summary: 'Remembers the filter and sort in use, to restore them on the next start.',
    input: bookView,
    output: z.strictObject({ saved: z.boolean() }),
    example: { filter: { app_id: 730 }, sort: { field: 'price', dir: 'asc' } },
  }),
  saveFilterPreset: call({
    summary: 'Saves (or replaces, by name) a filter preset.',
    input: filterPreset,
    output: marketScreenState,
    example: { name: 'Cheap FN AKs', view: { filter: { name: 'AK-47', float: { max: 0.07 } }, sort: { field: 'price', dir: 'asc' } } },
  }),
  deleteFilterPreset: call({
    summary: 'Deletes a filter preset by name.',
    input: z.strictObject({ name: z.string().trim().min(1).max(60) }),
    output: marketScreenState,
    example: { name: 'Cheap FN AKs' },
  }),
} as const;

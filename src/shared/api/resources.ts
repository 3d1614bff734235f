/**
 * Every resource of spec part 2 as a zod schema. Response schemas are loose (unknown fields pass
 * through: the service adds fields over time); request schemas live in endpoints.ts and are strict.
 */
import { z } from 'zod';
import {
  appId,
  cents,
  id,
  int,
  metadata,
  nonNegativeInt,
  positiveCents,
  seq,
  timestamp,
} from './primitives.ts';

// §2.6 Price decay. Requests send only the curve; my-listings rows add the progress.
export const DECAY_MIN_HOURS = 24;
export const DECAY_MAX_HOURS = 168;
export const priceDecayRequest = z
  .strictObject({
    start_price: positiveCents,
    end_price: positiveCents,
    total_hours: z.number().int().min(DECAY_MIN_HOURS).max(DECAY_MAX_HOURS),
  })
  .refine((d) => d.end_price < d.start_price, { message: 'end_price must be below start_price', path: ['end_price'] });
export const priceDecay = z.looseObject({
  start_price: positiveCents,
  end_price: positiveCents,
  total_hours: z.number().int().min(DECAY_MIN_HOURS).max(DECAY_MAX_HOURS),
  elapsed_hours: z.number().nonnegative().optional(),
});
export type PriceDecayRequest = z.infer<typeof priceDecayRequest>;
export type PriceDecay = z.infer<typeof priceDecay>;

// §2.2 Lean listing.
export const leanListingShape = {
  id,
  app_id: appId,
  market_hash_name: z.string().min(1),
  price: positiveCents,
  amount: z.number().int().positive(),
  commodity: z.boolean(),
  created_at: timestamp,
};
export const leanListing = z.looseObject(leanListingShape);
export type LeanListing = z.infer<typeof leanListing>;

export const LISTING_STATUSES = ['ACTIVE', 'DISABLED', 'FILLED', 'PRIVATE'] as const;
export const listingStatus = z.enum(LISTING_STATUSES);
export type ListingStatus = z.infer<typeof listingStatus>;

export const myListing = z.looseObject({
  ...leanListingShape,
  // FILLED rows keep their last amount; a fully sold row may report 0.
  amount: nonNegativeInt,
  available_amount: nonNegativeInt,
  price_decay: priceDecay.nullable(),
  status: listingStatus.optional(),
});
export type MyListing = z.infer<typeof myListing>;

// §2.3 Sticker / keychain object.
export const sticker = z.looseObject({
  slot: nonNegativeInt,
  sticker_id: int,
  name: z.string(),
  image: z.string(),
  // Markets leave it out (or send null) for a sticker nobody scraped: wear 0 to filters (details.ts).
  wear: z.number().min(0).max(1).nullable().optional(),
  scale: z.number().nullable(),
  rotation: z.number().nullable(),
  tint_id: int.nullable(),
  offset_x: z.number().nullable(),
  offset_y: z.number().nullable(),
  offset_z: z.number().nullable(),
  pattern: int.nullable(),
});
export type Sticker = z.infer<typeof sticker>;

const str = z.string().nullable();
const bool = z.boolean().nullable();
const num = z.number().nullable();

/** Per-game detail fields of §2.3; fields of other games are null. Shared with `listing.created`. */
export const listingDetailShape = {
  steam_asset_id: z.string(),
  icon_url: z.string(),
  trade_locked_until: timestamp.nullable(),
  cs_weapon: str,
  cs_type: str,
  cs_wear: str,
  cs_rarity: str,
  cs_collection: str,
  cs_is_stattrak: bool,
  cs_is_souvenir: bool,
  cs_is_highlight: bool,
  cs_inspect_link: str,
  cs_paint_wear: z.number().min(0).max(1).nullable(),
  cs_paint_seed: int.nullable(),
  cs_paint_index: int.nullable(),
  cs_fade_percentage: num,
  cs_blue_percentage: num,
  cs_stickers: z.array(sticker).nullable(),
  cs_keychains: z.array(sticker).nullable(),
  rust_category: str,
  rust_type: str,
  rust_collection: str,
  dota_rarity: str,
  dota_hero: str,
  dota_quality: str,
  dota_type: str,
  dota_slot: str,
  dota_collection: str,
  dota_event: str,
  tf2_classes: z.array(z.string()).nullable(),
  tf2_quality: str,
  tf2_effect: str,
  tf2_wear: str,
  tf2_spells: z.array(z.string()).nullable(),
  tf2_warpaint: str,
  tf2_sheen: str,
  tf2_collection: str,
  tf2_grade: str,
  tf2_paint_color: str,
  tf2_attributes: z
    .looseObject({
      craftable: z.boolean(),
      uncraftable: z.boolean(),
      festivized: z.boolean(),
      strange_parts: z.boolean(),
      holiday_restricted: z.boolean(),
    })
    .nullable(),
  tf2_wiki_link: str,
  tf2_inspect_link: str,
  tf2_type: str,
};
export const LISTING_DETAIL_FIELDS = Object.keys(listingDetailShape) as (keyof typeof listingDetailShape)[];
/** Every detail field null: the base a game's own fields are laid over (§2.3: other games' fields are null). */
export const NULL_LISTING_DETAIL = Object.freeze(
  Object.fromEntries(LISTING_DETAIL_FIELDS.map((field) => [field, null])),
) as Readonly<Record<(typeof LISTING_DETAIL_FIELDS)[number], null>>;
export const fullListing = z.looseObject({ ...leanListingShape, ...listingDetailShape });
export type FullListing = z.infer<typeof fullListing>;
export type ListingDetail = Pick<FullListing, keyof typeof listingDetailShape>;

// §2.4 Price rows.
export const priceRow = z.looseObject({
  app_id: appId,
  market_hash_name: z.string(),
  market_price: cents,
  recommended_price: cents,
  lowest_listing_price: cents.nullable(),
  updated_at: timestamp,
});
export const priceRowWithStock = z.looseObject({
  ...priceRow.shape,
  stock: nonNegativeInt,
  listing_count: nonNegativeInt,
});
export type PriceRow = z.infer<typeof priceRow>;
export type PriceRowWithStock = z.infer<typeof priceRowWithStock>;

// §2.5 Average sale price row.
export const averageRow = z.looseObject({
  app_id: appId,
  market_hash_name: z.string(),
  average_price: cents,
  sales: nonNegativeInt,
  volume: nonNegativeInt,
});
export type AverageRow = z.infer<typeof averageRow>;

// §2.7 Backpack item.
export const backpackItem = z.looseObject({
  id,
  app_id: appId,
  market_hash_name: z.string(),
  amount: nonNegativeInt,
  commodity: z.boolean(),
  market_price: cents,
  trade_locked_until: timestamp.nullable(),
});
export type BackpackItem = z.infer<typeof backpackItem>;

// §2.8 External-inventory item.
export const inventoryItem = z.looseObject({
  token: z.string().min(1),
  app_id: appId,
  steam_asset_id: z.string(),
  market_hash_name: z.string(),
  amount: z.number().int().positive(),
  commodity: z.boolean(),
  tradable: z.boolean(),
  market_price: cents,
  recommended_price: cents,
  icon_url: z.string(),
});
export type InventoryItem = z.infer<typeof inventoryItem>;

// §3.2 Trade status values; §2.9 Trade.
export const TRADE_STATUSES = [
  'Invalid',
  'Active',
  'Accepted',
  'Countered',
  'Expired',
  'Canceled',
  'Declined',
  'InvalidItems',
  'CreatedNeedsConfirmation',
  'CanceledBySecondFactor',
  'InEscrow',
  'Reversed',
] as const;
export const tradeStatus = z.enum(TRADE_STATUSES);
export type TradeStatus = z.infer<typeof tradeStatus>;
/** Statuses after which a trade never changes again (assumption, see docs/api-assumptions.md). */
export const FINAL_TRADE_STATUSES: readonly TradeStatus[] = [
  'Accepted',
  'Expired',
  'Canceled',
  'Declined',
  'InvalidItems',
  'CanceledBySecondFactor',
  'Reversed',
  'Invalid',
];
/** Statuses that count against the 15-trades-in-flight cap. */
export const IN_FLIGHT_TRADE_STATUSES: readonly TradeStatus[] = ['Active', 'CreatedNeedsConfirmation', 'InEscrow', 'Countered'];
/** Known trade types; the full set is not shown, so the schema accepts any string. */
export const KNOWN_TRADE_TYPES = ['SELL', 'WITHDRAW', 'DEPOSIT'] as const;

export const tradeItem = z.looseObject({
  app_id: appId,
  market_hash_name: z.string(),
  steam_asset_id: z.string(),
  amount: z.number().int().positive(),
  value: cents,
});
export const trade = z.looseObject({
  id,
  type: z.string().min(1),
  status: tradeStatus,
  deposit_id: id.nullable(),
  withdraw_id: id.nullable(),
  // Set "once the offer is sent"; before that the service sends null (assumption).
  steam_offer_id: z.string().nullable(),
  value: cents,
  error: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  items: z.array(tradeItem),
});
export type Trade = z.infer<typeof trade>;

// §2.10 Purchase result.
export const purchaseResult = z.looseObject({
  order_id: id,
  created_at: timestamp,
  items: z.array(
    z.looseObject({
      order_item_id: id,
      app_id: appId,
      market_hash_name: z.string(),
      steam_asset_id: z.string(),
      price: positiveCents,
      amount: z.number().int().positive(),
    }),
  ),
});
export type PurchaseResult = z.infer<typeof purchaseResult>;

// §2.11 Order item.
export const ORDER_SIDES = ['bought', 'sold'] as const;
export const orderSide = z.enum(ORDER_SIDES);
export const orderItem = z.looseObject({
  order_item_id: id,
  order_id: id,
  side: orderSide,
  app_id: appId,
  market_hash_name: z.string(),
  price: positiveCents,
  amount: z.number().int().positive(),
  created_at: timestamp,
});
export type OrderItem = z.infer<typeof orderItem>;

// §2.12 Order export row. Named columns plus the ones we chose (docs/api-assumptions.md).
export const ORDER_EXPORT_COLUMNS = [
  'order_item_id',
  'order_id',
  'side',
  'app_id',
  'market_hash_name',
  'amount',
  'unit_price',
  'total_value',
  'fee',
  'net',
  'created_at',
  'settled_at',
] as const;
export const orderExportRow = z.looseObject({
  order_item_id: id,
  order_id: id,
  side: orderSide,
  app_id: appId,
  market_hash_name: z.string(),
  amount: z.number().int().positive(),
  unit_price: positiveCents,
  total_value: positiveCents,
  fee: cents.nullable(),
  /** Signed: a purchase is worth -total_value to the user, a sale total_value - fee. */
  net: int,
  created_at: timestamp,
  settled_at: timestamp.nullable(),
});
export type OrderExportRow = z.infer<typeof orderExportRow>;

// §2.13 Crypto withdrawal.
export const CRYPTO_TICKERS = ['BTC', 'ETH', 'LTC', 'SOL', 'USDC'] as const;
export const cryptoTicker = z.enum(CRYPTO_TICKERS);
export type CryptoTicker = z.infer<typeof cryptoTicker>;
export const WITHDRAWAL_STATUSES = ['CREATED', 'PENDING', 'CONFIRMING', 'SUCCESS', 'FAILED'] as const;
export const withdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export const cryptoWithdrawal = z.looseObject({
  withdrawal_id: id,
  status: withdrawalStatus,
  balance_amount: positiveCents,
  token_amount: z.number().nonnegative(),
  ticker: cryptoTicker,
  created_at: timestamp,
  tx_hash: z.string().nullable(),
  network_fee: z.string().nullable(),
});
export type CryptoWithdrawal = z.infer<typeof cryptoWithdrawal>;

// §2.14 Other records (types chosen where the spec names only the fields).
export const user = z.looseObject({
  id,
  steam_id: z.string(),
  name: z.string(),
  balance: cents,
});
export type User = z.infer<typeof user>;

export const saleRow = z.looseObject({
  id,
  app_id: appId,
  market_hash_name: z.string(),
  price: positiveCents,
  amount: z.number().int().positive(),
  sold_at: timestamp,
});
export type SaleRow = z.infer<typeof saleRow>;

export const TRANSACTION_TYPES = [
  'PURCHASE',
  'SALE',
  'SALE_FEE',
  'CRYPTO_WITHDRAWAL',
  'CRYPTO_REFUND',
  'DEPOSIT',
  'ADJUSTMENT',
] as const;
export const balanceTransaction = z.looseObject({
  id,
  type: z.string().min(1),
  /** Signed cents: negative for money leaving the balance. */
  amount: int,
  /** Running balance after this movement. */
  balance: int,
  description: z.string(),
  reference_id: id.nullable(),
  created_at: timestamp,
});
export type BalanceTransaction = z.infer<typeof balanceTransaction>;

export const bookSnapshot = z.looseObject({
  seq,
  listings: z.array(leanListing),
});
export type BookSnapshot = z.infer<typeof bookSnapshot>;

export { metadata };

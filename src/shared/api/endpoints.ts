/**
 * Every REST endpoint of spec part 4: method, path, query, body and response schemas, and its rate limit
 * from part 8. Query values are strings (spec §1.6); request bodies are strict (a typo is an error, not
 * a silently ignored field); responses are loose (new fields pass through).
 */
import { z } from 'zod';
import {
  appId,
  appIdQuery,
  bulkPageLimitQuery,
  id,
  intQuery,
  metadata,
  nonNegativeInt,
  pageLimitQuery,
  positiveCents,
  timestamp,
} from './primitives.ts';
import {
  averageRow,
  backpackItem,
  bookSnapshot,
  balanceTransaction,
  cryptoTicker,
  cryptoWithdrawal,
  fullListing,
  inventoryItem,
  leanListing,
  listingStatus,
  myListing,
  orderExportRow,
  orderItem,
  orderSide,
  priceDecayRequest,
  priceRow,
  priceRowWithStock,
  purchaseResult,
  saleRow,
  trade,
  tradeStatus,
  user,
} from './resources.ts';
import { bulkResult } from './errors.ts';
import { CRYPTO_FEE_LEVELS, LIMITS } from './limits.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH';
export interface RateLimit {
  /** Requests allowed in one window. */
  limit: number;
  windowMs: number;
}
const perMinute = (limit: number): RateLimit => ({ limit, windowMs: 60_000 });
const perSeconds = (limit: number, seconds: number): RateLimit => ({ limit, windowMs: seconds * 1000 });

export interface EndpointDef {
  method: HttpMethod;
  /** Path with `:id` placeholders. */
  path: string;
  auth: boolean;
  query: z.ZodType | null;
  body: z.ZodType | null;
  response: z.ZodType;
  rateLimit: RateLimit | null;
  /** Answers with an ETag and honours If-None-Match with 304. */
  etag: boolean;
  /** Top-level response keys that are int64 and must be parsed losslessly. */
  int64Keys: readonly string[];
  /** Changes state on the server: never retried automatically by a client. */
  write: boolean;
}

function endpoint<
  const M extends HttpMethod,
  const P extends string,
  Q extends z.ZodType | null,
  B extends z.ZodType | null,
  R extends z.ZodType,
>(def: {
  method: M;
  path: P;
  auth?: boolean;
  query?: Q;
  body?: B;
  response: R;
  rateLimit: RateLimit | null;
  etag?: boolean;
  int64Keys?: readonly string[];
}) {
  return {
    auth: true,
    etag: false,
    int64Keys: [] as readonly string[],
    ...def,
    query: (def.query ?? null) as Q,
    body: (def.body ?? null) as B,
    write: def.method !== 'GET',
  };
}

const paged = { page: intQuery, limit: pageLimitQuery };
const optionalPaged = { page: intQuery.optional(), limit: pageLimitQuery.optional() };
const listOf = <T extends z.ZodType>(item: T, max: number) => z.array(item).min(1).max(max);

// ---- request bodies -------------------------------------------------------------------------
export const purchaseLine = z.strictObject({
  listing_id: id,
  amount: z.number().int().positive(),
  max_price: positiveCents,
  private_token: z.string().min(1).optional(),
});
export const purchaseBody = z.strictObject({ items: listOf(purchaseLine, LIMITS.groupsPerBody) });

export const tokenEntry = z.strictObject({ token: z.string().min(1), amount: z.number().int().positive() });
export const sellBody = z.strictObject({
  listings: listOf(
    z.strictObject({ items: listOf(tokenEntry, LIMITS.entriesPerGroup), price: positiveCents }),
    LIMITS.groupsPerBody,
  ),
});
export const depositBody = z.strictObject({
  items: listOf(tokenEntry, LIMITS.groupsPerBody * LIMITS.entriesPerGroup),
});

export const backpackEntry = z.strictObject({ id, amount: z.number().int().positive() });
export const listGroup = z
  .strictObject({
    items: listOf(backpackEntry, LIMITS.entriesPerGroup),
    price: positiveCents.optional(),
    price_decay: priceDecayRequest.optional(),
  })
  .refine((g) => (g.price === undefined) !== (g.price_decay === undefined), {
    message: 'send exactly one of price and price_decay',
  });
export const listBody = z.strictObject({ listings: listOf(listGroup, LIMITS.groupsPerBody) });

export const listingEdit = z
  .strictObject({
    listing_id: id,
    price: positiveCents.optional(),
    amount: z.number().int().positive().optional(),
    price_decay: priceDecayRequest.optional(),
  })
  .refine((e) => e.price !== undefined || e.amount !== undefined || e.price_decay !== undefined, {
    message: 'send price, amount or price_decay',
  })
  .refine((e) => !(e.price !== undefined && e.price_decay !== undefined), {
    message: 'price_decay is sent instead of price, not with it',
  });
export const editListingBody = z.union([
  z.strictObject({ listings: listOf(listingEdit, LIMITS.bulkEditOrDelist) }),
  listingEdit,
]);
export const delistBody = z.union([
  z.strictObject({ listing_id: id }),
  z.strictObject({ listing_ids: listOf(id, LIMITS.bulkEditOrDelist) }),
]);
export const withdrawBody = z.strictObject({ items: listOf(backpackEntry, LIMITS.groupsPerBody) });
export const cryptoWithdrawBody = z.strictObject({
  amount: positiveCents,
  ticker: cryptoTicker,
  address: z.string().min(1).max(128),
  fee_level: z.enum(CRYPTO_FEE_LEVELS),
  two_factor_auth_token: z.string().min(1).optional(),
});

const bulkResults = z.looseObject({ results: z.array(bulkResult) });
const isoDateOrTime = z.union([z.iso.date(), timestamp]);

// ---- the table ------------------------------------------------------------------------------
export const ENDPOINTS = {
  info: endpoint({
    method: 'GET',
    path: '/public/v1',
    auth: false,
    response: z.looseObject({
      version: z.string(),
      websocket: z.looseObject({ path: z.string(), auth: z.string() }),
      events: z.array(z.string()),
      rest: z.array(z.string()),
    }),
    rateLimit: perMinute(60),
  }),
  listings: endpoint({
    method: 'GET',
    path: '/public/v1/listings',
    query: z
      .strictObject({
        limit: bulkPageLimitQuery,
        page: intQuery.optional(),
        cursor: intQuery.optional(),
        app_id: appIdQuery.optional(),
      })
      // Not shown: both at once. They are alternatives (docs/api-assumptions.md).
      .refine((q) => q.page === undefined || q.cursor === undefined, {
        message: 'page and cursor are alternatives: send one',
        path: ['cursor'],
      }),
    response: z.looseObject({ listings: z.array(fullListing), next_cursor: id.nullable(), metadata }),
    rateLimit: perSeconds(1, 1),
  }),
  listing: endpoint({
    method: 'GET',
    path: '/public/v1/listings/:id',
    response: fullListing,
    // Not in part 8's table: shares the listings route's budget? No: a separate, interactive route.
    rateLimit: perMinute(60),
  }),
  prices: endpoint({
    method: 'GET',
    path: '/public/v1/prices',
    query: z.strictObject({ ...paged, app_id: appIdQuery.optional() }),
    response: z.looseObject({ prices: z.array(priceRow), metadata }),
    rateLimit: perMinute(60),
  }),
  pricesAll: endpoint({
    method: 'GET',
    path: '/public/v1/prices/all',
    query: z.strictObject({ app_id: appIdQuery.optional() }),
    response: z.looseObject({ prices: z.array(priceRowWithStock), generated_at: timestamp }),
    rateLimit: perMinute(30),
    etag: true,
  }),
  book: endpoint({
    method: 'GET',
    path: '/public/v1/book',
    query: z.strictObject({ app_id: appIdQuery.optional() }),
    response: bookSnapshot,
    rateLimit: perMinute(6),
    etag: true,
    int64Keys: ['seq'],
  }),
  sales: endpoint({
    method: 'GET',
    path: '/public/v1/sales',
    query: z.strictObject({
      ...optionalPaged,
      app_id: appIdQuery.optional(),
      market_hash_name: z.string().min(1).max(500).optional(),
    }),
    response: z.looseObject({ sales: z.array(saleRow), metadata }),
    rateLimit: perSeconds(1, 5),
  }),
  salesAverages: endpoint({
    method: 'GET',
    path: '/public/v1/sales/averages',
    query: z.strictObject({ app_id: appIdQuery.optional() }),
    response: z.looseObject({ averages: z.array(averageRow), window_days: nonNegativeInt, generated_at: timestamp }),
    rateLimit: perMinute(30),
    etag: true,
  }),
  purchase: endpoint({
    method: 'POST',
    path: '/public/v1/purchase',
    body: purchaseBody,
    response: purchaseResult,
    rateLimit: perMinute(30),
  }),
  steamInventory: endpoint({
    method: 'GET',
    path: '/public/v1/steam-inventory',
    query: z.strictObject({ app_id: appIdQuery }),
    response: z.looseObject({ items: z.array(inventoryItem) }),
    rateLimit: perMinute(5),
  }),
  sell: endpoint({
    method: 'POST',
    path: '/public/v1/sell',
    body: sellBody,
    response: z.looseObject({ deposit_ids: z.array(id) }),
    rateLimit: perMinute(30),
  }),
  list: endpoint({
    method: 'POST',
    path: '/public/v1/list',
    body: listBody,
    response: z.looseObject({ listings: z.array(leanListing) }),
    rateLimit: perMinute(30),
  }),
  editListing: endpoint({
    method: 'PATCH',
    path: '/public/v1/list',
    body: editListingBody,
    response: z.union([bulkResults, leanListing]),
    rateLimit: perMinute(30),
  }),
  delist: endpoint({
    method: 'POST',
    path: '/public/v1/delist',
    body: delistBody,
    response: z.union([bulkResults, z.looseObject({ listing_id: id })]),
    rateLimit: perMinute(30),
  }),
  myListings: endpoint({
    method: 'GET',
    path: '/public/v1/my-listings',
    query: z.strictObject({ ...paged, app_id: appIdQuery.optional(), status: listingStatus.optional() }),
    response: z.looseObject({ listings: z.array(myListing), metadata }),
    rateLimit: perMinute(60),
  }),
  myListingsValue: endpoint({
    method: 'GET',
    path: '/public/v1/my-listings/value',
    query: z.strictObject({ app_id: appIdQuery.optional() }),
    response: z.looseObject({ listing_count: nonNegativeInt, item_count: nonNegativeInt, total_value: nonNegativeInt }),
    rateLimit: perMinute(30),
  }),
  backpack: endpoint({
    method: 'GET',
    path: '/public/v1/backpack',
    query: z.strictObject({
      ...paged,
      app_id: appIdQuery.optional(),
      search: z.string().min(LIMITS.backpackSearchMin).max(LIMITS.backpackSearchMax).optional(),
    }),
    response: z.looseObject({ items: z.array(backpackItem), metadata }),
    rateLimit: perMinute(30),
  }),
  deposit: endpoint({
    method: 'POST',
    path: '/public/v1/deposit',
    body: depositBody,
    response: z.looseObject({ deposit_ids: z.array(id) }),
    rateLimit: perMinute(30),
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/public/v1/withdraw',
    body: withdrawBody,
    response: z.looseObject({ withdraw_ids: z.array(id) }),
    rateLimit: null,
  }),
  trades: endpoint({
    method: 'GET',
    path: '/public/v1/trades',
    query: z.strictObject({ page: intQuery, limit: bulkPageLimitQuery, status: tradeStatus.optional() }),
    response: z.looseObject({ trades: z.array(trade), metadata }),
    rateLimit: perSeconds(1, 1),
  }),
  user: endpoint({
    method: 'GET',
    path: '/public/v1/user',
    response: user,
    rateLimit: perMinute(60),
  }),
  orders: endpoint({
    method: 'GET',
    path: '/public/v1/orders',
    query: z.strictObject(paged),
    response: z.looseObject({ orders: z.array(orderItem), metadata }),
    rateLimit: perMinute(30),
  }),
  ordersExport: endpoint({
    method: 'GET',
    path: '/public/v1/orders/export',
    query: z.strictObject({
      format: z.enum(['csv', 'json']).optional(),
      side: orderSide.optional(),
      app_id: appIdQuery.optional(),
      from: isoDateOrTime.optional(),
      to: isoDateOrTime.optional(),
    }),
    // CSV is streamed as text; the JSON form is `{ orders: [...] }` with the same columns.
    response: z.looseObject({ orders: z.array(orderExportRow) }),
    rateLimit: perMinute(5),
  }),
  transactions: endpoint({
    method: 'GET',
    path: '/public/v1/transactions',
    query: z.strictObject(optionalPaged),
    response: z.looseObject({ transactions: z.array(balanceTransaction), metadata }),
    rateLimit: perMinute(30),
  }),
  cryptoWithdraw: endpoint({
    method: 'POST',
    path: '/public/v1/crypto-withdraw',
    body: cryptoWithdrawBody,
    response: cryptoWithdrawal,
    rateLimit: perMinute(5),
  }),
  cryptoWithdrawal: endpoint({
    method: 'GET',
    path: '/public/v1/crypto-withdraw/:id',
    response: cryptoWithdrawal,
    rateLimit: perMinute(30),
  }),
} as const;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];
export type QueryOf<N extends EndpointName> = Endpoints[N]['query'] extends z.ZodType
  ? z.input<Endpoints[N]['query']>
  : undefined;
export type BodyOf<N extends EndpointName> = Endpoints[N]['body'] extends z.ZodType
  ? z.input<Endpoints[N]['body']>
  : undefined;
export type ResponseOf<N extends EndpointName> = z.infer<Endpoints[N]['response']>;

/** The same key the server counts by: one limiter per method + route (spec part 8). */
export function rateLimitKey(name: EndpointName): string {
  const e = ENDPOINTS[name];
  return `${e.method} ${e.path}`;
}

/** Fills `:id` placeholders; ids must be positive integers. */
export function buildPath(name: EndpointName, params: { id?: number } = {}): string {
  const e = ENDPOINTS[name];
  if (!e.path.includes(':id')) return e.path;
  if (params.id === undefined || !Number.isSafeInteger(params.id) || params.id <= 0) {
    throw new TypeError(`${name} needs a positive integer id`);
  }
  return e.path.replace(':id', String(params.id));
}

/** Matches a concrete request path to its endpoint (used by servers and test doubles). */
export function matchEndpoint(method: string, pathname: string): { name: EndpointName; id?: number } | null {
  for (const name of ENDPOINT_NAMES) {
    const e = ENDPOINTS[name];
    if (e.method !== method) continue;
    if (!e.path.includes(':id')) {
      if (e.path === pathname) return { name };
      continue;
    }
    const prefix = e.path.slice(0, e.path.indexOf(':id'));
    if (!pathname.startsWith(prefix)) continue;
    const rest = pathname.slice(prefix.length);
    // An id past 2^53 would be read as a neighbouring one (…993 as …992): no such route, not another id.
    if (/^[1-9]\d{0,15}$/.test(rest) && Number.isSafeInteger(Number(rest))) return { name, id: Number(rest) };
  }
  return null;
}

export { appId };

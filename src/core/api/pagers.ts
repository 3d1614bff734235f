/**
 * Async iteration over paged routes. Offset-paged routes are walked page by page until `total_pages`;
 * `GET /listings` can also be walked by cursor, which stays stable while the book changes underneath
 * (offset pages shift when listings are added or removed, so a row can be skipped or seen twice).
 * Pagers default to background priority: they are bulk work that interactive calls should overtake.
 */
import type { EndpointName, QueryOf, ResponseOf } from '../../shared/api/index.ts';
import type { Priority } from './governor.ts';

/** Offset-paged routes and the response key holding each page's rows. */
export const OFFSET_PAGED = {
  listings: 'listings',
  prices: 'prices',
  sales: 'sales',
  myListings: 'listings',
  backpack: 'items',
  trades: 'trades',
  orders: 'orders',
  transactions: 'transactions',
} as const satisfies Partial<Record<EndpointName, string>>;
export type OffsetPagedName = keyof typeof OFFSET_PAGED;
export type RowsOf<N extends OffsetPagedName> =
  ResponseOf<N> extends Record<(typeof OFFSET_PAGED)[N], infer R> ? R : never;
export type RowOf<N extends OffsetPagedName> = RowsOf<N> extends readonly (infer R)[] ? R : never;

export interface PageOptions {
  priority?: Priority;
  signal?: AbortSignal;
  /** Stop after this many pages (a bound for callers that only want the newest rows). */
  maxPages?: number;
}

export type PageCaller = <N extends EndpointName>(
  name: N,
  input: { query?: QueryOf<N> },
  opts: { priority: Priority; signal?: AbortSignal },
) => Promise<ResponseOf<N>>;

export async function* offsetPages<N extends OffsetPagedName>(
  call: PageCaller,
  name: N,
  query: Omit<NonNullable<QueryOf<N>>, 'page'>,
  options: PageOptions = {},
): AsyncGenerator<ResponseOf<N>, void, undefined> {
  const priority = options.priority ?? 'background';
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  for (let page = 1; page <= maxPages; page++) {
    const response = await call(name, { query: { ...query, page: String(page) } as QueryOf<N> }, {
      priority,
      signal: options.signal,
    });
    yield response;
    const meta = (response as { metadata: { total_pages: number } }).metadata;
    const rows = (response as Record<string, unknown>)[OFFSET_PAGED[name]] as unknown[];
    if (page >= meta.total_pages || rows.length === 0) return;
  }
}

export async function* offsetRows<N extends OffsetPagedName>(
  call: PageCaller,
  name: N,
  query: Omit<NonNullable<QueryOf<N>>, 'page'>,
  options: PageOptions = {},
): AsyncGenerator<RowOf<N>, void, undefined> {
  for await (const page of offsetPages(call, name, query, options)) {
    yield* (page as Record<string, unknown>)[OFFSET_PAGED[name]] as RowOf<N>[];
  }
}

export async function* cursorPages(
  call: PageCaller,
  query: Omit<NonNullable<QueryOf<'listings'>>, 'page'>,
  options: PageOptions = {},
): AsyncGenerator<ResponseOf<'listings'>, void, undefined> {
  const priority = options.priority ?? 'background';
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  let cursor = query.cursor;
  const seen = new Set<number>();
  for (let page = 1; page <= maxPages; page++) {
    const q: QueryOf<'listings'> = { ...query, cursor };
    if (cursor === undefined) delete q.cursor;
    const response = await call('listings', { query: q }, { priority, signal: options.signal });
    yield response;
    const next = response.next_cursor;
    // A cursor that repeats would loop forever on a misbehaving server: stop instead.
    if (next === null || seen.has(next)) return;
    seen.add(next);
    cursor = String(next);
  }
}

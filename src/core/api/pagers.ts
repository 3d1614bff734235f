/**
 * Async iteration over paged routes. Offset-paged routes are walked page by page until `total_pages`;
 * `GET /listings` can also be walked by cursor, which stays stable while the book changes underneath
 * (offset pages shift when listings are added or removed, so a row can be skipped or seen twice).
 * The account's histories (orders, the ledger, the trades) have no cursor: readNewestFirst walks their
 * offset pages and checks each page turn for such a shift. Pagers default to background priority: they
 * are bulk work that interactive calls should overtake.
 */
import type { EndpointName, Metadata, QueryOf, ResponseOf } from '../../shared/api/index.ts';
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

/**
 * Offset-paged histories listed newest first, with the field that names each row. Read them through
 * readNewestFirst only (the client's `pages` and `rows` do not take them): a walk of plain offset pages
 * shows a row twice or skips one when the history moves between two page turns.
 */
export const NEWEST_FIRST = {
  orders: 'order_item_id',
  transactions: 'id',
  // newest created first; a trade's status changes in place, it does not move the row
  trades: 'id',
} as const satisfies Partial<Record<OffsetPagedName, string>>;
export type NewestFirstName = keyof typeof NEWEST_FIRST;

/** What readNewestFirst calls for its pages: the client's own caller, or a source of one route alone. */
export type NewestFirstCaller<N extends NewestFirstName> = (
  name: N,
  input: { query: QueryOf<N> },
  opts: { priority: Priority; signal?: AbortSignal },
) => Promise<ResponseOf<N>>;

export interface NewestFirstOptions<R> extends PageOptions {
  /** True for a row older than the caller needs: the read stops there (that row is not kept). */
  olderThanWanted?: (row: R) => boolean;
  /** Page reads repeated after a shift, at most (default 5); past that the read ends incomplete. */
  maxRereads?: number;
  /**
   * Called after each page taken as unbroken, with the rows it added to the run (each row once, newest
   * first; rows a page 1 read again showed on top come first) and the whole run so far. Returning true
   * ends the read there, complete: for a caller that uses the rows as they come, or whose stop depends on
   * where a page ends rather than on one row.
   */
  afterPage?: (added: readonly R[], run: readonly R[]) => boolean | void;
}

export interface NewestFirstRead<R> {
  /**
   * Each row once, newest first: one unbroken run from the newest row (rows that arrived on top while
   * the read ran are in it when a page 1 read again showed them).
   */
  rows: R[];
  /**
   * The run reached the end of the history, a row older than wanted or a page after which `afterPage`
   * had enough. False when it stopped at `maxPages`, or when the history kept moving and the rereads ran
   * out: older rows may be missing.
   */
  complete: boolean;
  /** Incomplete because the history kept moving past the rereads (not because `maxPages` was reached). */
  stillMoving: boolean;
}

/**
 * Every row of a newest-first history once, with no row between two pages skipped.
 *
 * New rows arrive on top. One arriving between two page turns pushes every row down a place, so the
 * next page begins with a row already read: it is kept once (by its id). A row leaving pulls every row
 * below it up a place, so the next page begins one row late and the row that crossed the page boundary
 * is never seen. A page turn is therefore taken as unbroken only when the new page begins with a row
 * already read (the rows moved down, not up), or when the history holds as many rows as when the
 * previous page was read: with rows arriving only on top, the rows at the boundary moved by the
 * arrivals less the departures above it, so an unchanged count leaves them in place or moved down (by
 * the departures below it), never up. Otherwise rows may have moved up past the reader: the new page's
 * rows are dropped and the previous page is read again, where they now are, its turn checked in the
 * same way (so the reader steps back further after a shift of a page or more). Only rows of pages taken
 * as unbroken are kept, so the rows come newest first without a gap, and a caller that stops at the
 * first row older than it wants has seen every newer one.
 */
export async function readNewestFirst<N extends NewestFirstName>(
  call: NewestFirstCaller<N>,
  name: N,
  query: Omit<NonNullable<QueryOf<N>>, 'page'>,
  options: NewestFirstOptions<RowOf<N>> = {},
): Promise<NewestFirstRead<RowOf<N>>> {
  const priority = options.priority ?? 'background';
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  const maxRereads = options.maxRereads ?? 5;
  const idOf = (row: RowOf<N>) => (row as Record<string, unknown>)[NEWEST_FIRST[name]] as number;
  const rows: RowOf<N>[] = [];
  const seen = new Set<number>();
  /** The history's row count as each kept page saw it, by page number. */
  const countAt: number[] = [];
  let rereads = 0;
  let page = 1;
  while (page <= maxPages) {
    const response = await call(name, { query: { ...query, page: String(page) } as QueryOf<N> }, {
      priority,
      signal: options.signal,
    });
    const pageRows = (response as Record<string, unknown>)[OFFSET_PAGED[name]] as RowOf<N>[];
    const meta = (response as { metadata: Metadata }).metadata;
    const first = pageRows[0];
    const unbroken =
      page === 1 || meta.total_items === countAt[page - 1] || (first !== undefined && seen.has(idOf(first)));
    if (!unbroken) {
      if (rereads >= maxRereads) return { rows, complete: false, stillMoving: true };
      rereads += 1;
      page -= 1;
      continue;
    }
    countAt[page] = meta.total_items;
    // page 1 read again may begin with rows that arrived on top since: newer than all read, so first
    const arrivals: RowOf<N>[] = [];
    const below: RowOf<N>[] = [];
    let before = page === 1 && seen.size > 0;
    let olderReached = false;
    for (const row of pageRows) {
      const id = idOf(row);
      if (seen.has(id)) {
        before = false;
        continue;
      }
      if (options.olderThanWanted?.(row)) {
        olderReached = true;
        break;
      }
      seen.add(id);
      (before ? arrivals : below).push(row);
    }
    rows.unshift(...arrivals);
    rows.push(...below);
    const enough = options.afterPage?.([...arrivals, ...below], rows) === true;
    if (olderReached || enough || page >= meta.total_pages || pageRows.length === 0) return { rows, complete: true, stillMoving: false };
    page += 1;
  }
  return { rows, complete: false, stillMoving: false };
}

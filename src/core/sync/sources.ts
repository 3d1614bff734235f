/**
 * What the sync engine and the detail backfill need from the REST side, as two small interfaces, and
 * their implementation over the ApiClient (whose governor keeps every request inside part 8's budget:
 * book 6/min, listings 1/s; ours go at background priority so the user's own clicks go first).
 */
import type { BookReadProgress } from '../api/book-stream.ts';
import type { ApiClient } from '../api/client.ts';
import type { FullListing } from '../../shared/api/index.ts';
import type { SnapshotListings } from '../store/snapshot-merge.ts';

export interface BookSnapshotResult {
  seq: bigint;
  /** From the API client: columns, read from the body as it streamed in (never the whole text). */
  listings: SnapshotListings;
  /** The server answered 304: the same snapshot as the previous call. */
  fromCache: boolean;
  /** Names this copy of the snapshot: the server's cached copy keeps its ETag for the cache's 10 s. */
  etag: string | null;
}

export interface BookSource {
  /** `onProgress` hears how far the body has been read (a million listings take seconds to minutes). */
  fetchBook(
    appId: number | undefined,
    signal: AbortSignal,
    onProgress?: (progress: BookReadProgress) => void,
  ): Promise<BookSnapshotResult>;
  /** How long a `fetchBook` started now would wait for the 6/min budget before it is sent (ms). */
  bookBudgetWaitMs?(): number;
}

export interface ListingsPage {
  listings: readonly FullListing[];
  nextCursor: number | null;
}

export interface ListingsSource {
  /** One page of `GET /listings`, newest first, from `cursor` (exclusive) on. */
  fetchListingsPage(query: { cursor?: number; appId?: number; limit: 1000 | 500 }, signal: AbortSignal): Promise<ListingsPage>;
  /** `GET /listings/{id}` for the detail view (interactive priority). */
  fetchListing(id: number, signal?: AbortSignal): Promise<FullListing>;
}

export function apiSources(client: ApiClient): BookSource & ListingsSource {
  return {
    async fetchBook(appId, signal, onProgress) {
      const r = await client.book(appId === undefined ? {} : { app_id: String(appId) }, {
        priority: 'background',
        signal,
        ...(onProgress ? { onProgress } : {}),
      });
      return { seq: r.snapshot.seq, listings: r.snapshot.listings, fromCache: r.fromCache, etag: r.etag };
    },
    bookBudgetWaitMs: () => client.budgetWaitMs('book'),
    async fetchListingsPage(query, signal) {
      const page = await client.listings(
        {
          limit: String(query.limit) as '1000' | '500',
          ...(query.cursor === undefined ? {} : { cursor: String(query.cursor) }),
          ...(query.appId === undefined ? {} : { app_id: String(query.appId) }),
        },
        { priority: 'background', signal },
      );
      return { listings: page.listings, nextCursor: page.next_cursor };
    },
    fetchListing(id, signal) {
      return client.listing(id, { priority: 'interactive', signal });
    },
  };
}

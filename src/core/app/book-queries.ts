/**
 * Reads of the mirror for the renderer: windows of the book through the query engine (keyset paging, so
 * the renderer never holds the whole book), and one listing with its full detail — fetched from the
 * marketplace on demand when the mirror has only its price state yet.
 */
import type { FullListing } from '../../shared/api/index.ts';
import type { BookQuery } from '../../shared/query.ts';
import { SkindeskError } from '../../shared/ipc/index.ts';
import { InvalidCursorError, type QueryResult, queryBook } from '../query/index.ts';
import { type Db, asFullListing, readListing, readSyncState } from '../store/index.ts';
import type { MarketSession } from './session.ts';

export interface BookWindow extends QueryResult {
  lastSeq: string | null;
}

export interface BookQueries {
  query(query: BookQuery): BookWindow;
  listing(id: number, session: MarketSession): Promise<{ listing: FullListing | null; alive: boolean }>;
}

export function createBookQueries(db: Db): BookQueries {
  return {
    query(query) {
      let result: QueryResult;
      try {
        result = queryBook(db, query);
      } catch (err) {
        if (err instanceof InvalidCursorError) {
          throw new SkindeskError({
            code: 'INVALID_INPUT',
            message: err.message,
            issues: [{ path: 'after', message: err.message }],
          });
        }
        throw err;
      }
      const lastSeq = readSyncState(db).lastSeq;
      return { ...result, lastSeq: lastSeq === null ? null : lastSeq.toString() };
    },

    async listing(id, session) {
      const stored = readListing(db, id);
      if (!stored) return { listing: null, alive: false };
      const full = asFullListing(stored);
      if (full) return { listing: full, alive: true };
      if (!session.client) return { listing: null, alive: true };
      // fetched and stored by the sync worker (the book's writer); null: sold or delisted since — the
      // feed will remove it, say so now
      const fetched = await session.fetchListing(id);
      if (!fetched) return { listing: null, alive: false };
      // price and amount from the mirror: the feed may have moved them since the fetch was answered
      const { detail: _none, ...lean } = stored;
      return { listing: { ...fetched, ...lean }, alive: true };
    },
  };
}

/**
 * Reads of the mirror for the renderer: windows of the book through the query engine (keyset paging, so
 * the renderer never holds the whole book), and one listing with its full detail — fetched from the
 * marketplace on demand when the mirror has only its price state yet, or only a creation's fields.
 */
import type { FullListing } from '../../shared/api/index.ts';
import type { BookQuery } from '../../shared/query.ts';
import { SkindeskError } from '../../shared/ipc/index.ts';
import { InvalidCursorError, type QueryResult, queryBook } from '../query/index.ts';
import { type FloatRank, floatRank } from '../query/float-rank.ts';
import { type Db, asFullListing, readListing, readSyncState } from '../store/index.ts';
import type { MarketSession } from './session.ts';

export interface BookWindow extends QueryResult {
  lastSeq: string | null;
}

export interface BookQueries {
  query(query: BookQuery): BookWindow;
  listing(id: number, session: MarketSession): Promise<ListingRead>;
}

export interface ListingRead {
  listing: FullListing | null;
  alive: boolean;
  /** Its float among the item's live listings in the book (CS2 items with a known float). */
  floatRank: FloatRank | null;
}

/** The listing as read, with its float rank when it has a float. */
function withRank(db: Db, listing: FullListing | null, alive: boolean): ListingRead {
  const wear = listing?.cs_paint_wear ?? null;
  return { listing, alive, floatRank: listing && wear !== null ? floatRank(db, listing.market_hash_name, wear) : null };
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
      if (!stored) return withRank(db, null, false);
      const full = asFullListing(stored);
      // Details from a creation event are the per-game fields only (spec §6.1): the asset id, icon and
      // trade lock are read with the listing, and without a connection the detail shows what it has (a
      // lean row: no detail, still alive), as issue 7's offline, read-only detail promises.
      if ((full && full.steam_asset_id !== null) || !session.canFetchListings) return withRank(db, full, true);
      // fetched and stored by the sync worker (the book's writer); null: sold or delisted since — the
      // feed will remove it, say so now
      let fetched: FullListing | null;
      try {
        fetched = await session.fetchListing(id);
      } catch (err) {
        if (full) return withRank(db, full, true);
        throw err;
      }
      if (!fetched) return withRank(db, null, false);
      // price and amount from the mirror: the feed may have moved them since the fetch was answered
      const { detail: _none, ...lean } = stored;
      return withRank(db, { ...fetched, ...lean }, true);
    },
  };
}

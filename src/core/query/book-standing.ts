/**
 * Where an own listing stands in the mirrored book: how many other live listings of the same item there
 * are, how many ask less, and the cheapest of them. What a seller checks before an undercut war, read
 * from the local mirror instead of a request per item.
 */
import type { AppId } from '../../shared/api/index.ts';
import type { Db } from '../store/database.ts';
import { readSyncState } from '../store/sync-state.ts';

export interface OwnListingRef {
  id: number;
  app_id: AppId;
  market_hash_name: string;
  price: number;
}

export interface BookStanding {
  listingId: number;
  /** Other live listings of the same item in the book. */
  others: number;
  /** Of those, how many ask less than this listing. */
  cheaper: number;
  /** The cheapest other listing's price and id, or null when there is none. */
  lowestOther: number | null;
  lowestOtherId: number | null;
}

/**
 * Standings for the listings whose game the book mirrors; listings of games it does not mirror (or all,
 * before the first snapshot) get none, since an empty book would read as "nobody is cheaper". The
 * seller's own listings (`ownIds`, besides each listing itself) are not competition: two stacks of one
 * item must never be set against each other.
 */
export function bookStandings(
  db: Db,
  listings: readonly OwnListingRef[],
  ownIds: Iterable<number> = [],
): BookStanding[] {
  const state = readSyncState(db);
  if (state.lastSnapshotSeq === null) return [];
  const mirrored = (app: number) => state.scope === null || state.scope.includes(app);
  const nameId = db.prepare<[string], number>('SELECT name_id FROM item_names WHERE name = ?').pluck();
  // the listing itself and the seller's other listings are left out as one JSON list
  const notOwn = 'id NOT IN (SELECT value FROM json_each(?))';
  const summary = db.prepare<
    [number, number, number, string],
    { others: number; cheaper: number | null; lowest: number | null }
  >(
    `SELECT count(*) AS others, sum(price < ?) AS cheaper, min(price) AS lowest
     FROM listings WHERE name_id = ? AND alive = 1 AND app_id = ? AND ${notOwn}`,
  );
  const cheapestId = db
    .prepare<[number, number, number, string], number>(
      `SELECT id FROM listings WHERE name_id = ? AND alive = 1 AND app_id = ? AND price = ? AND ${notOwn} ORDER BY id LIMIT 1`,
    )
    .pluck();
  const ownOthers = [...ownIds];
  return listings
    .filter((l) => mirrored(l.app_id))
    .map((l) => {
      const name = nameId.get(l.market_hash_name);
      if (name === undefined)
        return { listingId: l.id, others: 0, cheaper: 0, lowestOther: null, lowestOtherId: null };
      const own = JSON.stringify([l.id, ...ownOthers]);
      const s = summary.get(l.price, name, l.app_id, own)!;
      return {
        listingId: l.id,
        others: s.others,
        cheaper: s.cheaper ?? 0,
        lowestOther: s.lowest,
        lowestOtherId: s.lowest === null ? null : (cheapestId.get(name, l.app_id, s.lowest, own) ?? null),
      };
    });
}

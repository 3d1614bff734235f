/**
 * Where an own listing stands in the mirrored book: how many other live listings of the same item there
 * are, how many ask less, and the cheapest of them. What a seller checks before an undercut war, read
 * from the local mirror instead of a request per item. A Doppler stands among the same name in its own
 * phase: a Ruby set against a Phase 3 of its name would be undercut to its floor.
 */
import type { AppId } from '../../shared/api/index.ts';
import { type DopplerPhase, paintIndexesOfPhases, phaseOfPaintIndex } from '../../shared/phases.ts';
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
  /** A Doppler's phase (from the listing's details in the book): only that phase counts as competition. */
  phase: DopplerPhase | null;
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
  const paintIndex = db.prepare<[number], number | null>('SELECT cs_paint_index FROM listing_attrs WHERE id = ?').pluck();
  // the listing itself and the seller's other listings are left out as one JSON list; the paint indexes
  // a rival may have as another (every paint index when the listing has no phase)
  const rivals = `FROM listings l WHERE l.name_id = ? AND l.alive = 1 AND l.app_id = ?
    AND l.id NOT IN (SELECT value FROM json_each(?))
    AND (? IS NULL OR (SELECT a.cs_paint_index FROM listing_attrs a WHERE a.id = l.id) IN (SELECT value FROM json_each(?)))`;
  type RivalParams = [number, number, string, string | null, string | null];
  const summary = db.prepare<[number, ...RivalParams], { others: number; cheaper: number | null; lowest: number | null }>(
    `SELECT count(*) AS others, sum(l.price < ?) AS cheaper, min(l.price) AS lowest ${rivals}`,
  );
  const cheapestId = db
    .prepare<[...RivalParams, number], number>(`SELECT l.id ${rivals} AND l.price = ? ORDER BY l.id LIMIT 1`)
    .pluck();
  const ownOthers = [...ownIds];
  return listings
    .filter((l) => mirrored(l.app_id))
    .map((l) => {
      const phase = l.app_id === 730 ? phaseOfPaintIndex(paintIndex.get(l.id)) : null;
      const name = nameId.get(l.market_hash_name);
      if (name === undefined)
        return { listingId: l.id, others: 0, cheaper: 0, lowestOther: null, lowestOtherId: null, phase };
      const own = JSON.stringify([l.id, ...ownOthers]);
      const indexes = phase === null ? null : JSON.stringify(paintIndexesOfPhases([phase]));
      const params: RivalParams = [name, l.app_id, own, indexes, indexes];
      const s = summary.get(l.price, ...params)!;
      return {
        listingId: l.id,
        others: s.others,
        cheaper: s.cheaper ?? 0,
        lowestOther: s.lowest,
        lowestOtherId: s.lowest === null ? null : (cheapestId.get(...params, s.lowest) ?? null),
        phase,
      };
    });
}

/**
 * Reads of the local book shared by the CLI and the app: the lean book in id order, one listing with
 * its details, and the mirror's status. Works on a read-only connection while a writer is syncing.
 */
import type { FullListing, LeanListing, ListingDetail } from '../../shared/api/index.ts';
import type { Db } from './database.ts';
import { restoreDetail } from './details.ts';
import { readSyncState } from './sync-state.ts';

export interface MirrorStatus {
  /** Highest seq applied, as a decimal string (int64 does not fit a JSON number); null before any sync. */
  last_seq: string | null;
  listings: number;
  detailed: number;
  tombstones: number;
  /** ISO time of the last snapshot merged completely. */
  last_snapshot_at: string | null;
  resyncs: number;
  divergence_repaired: number;
}

/** Live listings whose details are in the mirror (a walk of the listings_detailed partial index). */
export function countDetailed(db: Db): number {
  return db.prepare('SELECT count(*) FROM listings WHERE alive = 1 AND detailed_at IS NOT NULL').pluck().get() as number;
}

/** The highest listing id the book holds, tombstones included (ids grow with time); 0 for none. */
export function newestListingId(db: Db): number {
  return (db.prepare('SELECT max(id) FROM listings').pluck().get() as number | null) ?? 0;
}

/** Live listings without details above `id`: a walk of the newer ids only. */
export function countUndetailedAbove(db: Db, id: number): number {
  return db.prepare('SELECT count(*) FROM listings WHERE id > ? AND alive = 1 AND detailed_at IS NULL').pluck().get(id) as number;
}

/**
 * The newest live listing of `appId` without details below `id`, or null when there is none: a walk of the
 * game's entries in listings_app down from `id`, each row visited for its detailed_at, that stops at the
 * first one found. No index of undetailed listings: it would cost every detail fill and removal a write.
 * At worst (none left) it visits each of the game's older rows once: 40-110 ms for CS2's 600 000 listings
 * of a million-listing book, about what the backfill's recount of the detailed listings takes. Pinned to
 * listings_app: on a file never analyzed the planner walked the primary key, every game's rows.
 */
export function newestUndetailedBelow(db: Db, appId: number, id: number): number | null {
  const found = db
    .prepare(
      `SELECT id FROM listings INDEXED BY listings_app
        WHERE app_id = ? AND alive = 1 AND id < ? AND detailed_at IS NULL ORDER BY id DESC LIMIT 1`,
    )
    .pluck()
    .get(appId, id) as number | undefined;
  return found ?? null;
}

/** Live listings (a walk of the smallest partial index). */
export function countLive(db: Db): number {
  return db.prepare('SELECT count(*) FROM listings WHERE alive = 1').pluck().get() as number;
}

/**
 * The mirror's figures, all of one moment: read in one transaction, so a batch the sync commits between
 * two of the queries never mixes `listings` from after it with `last_seq` from before it.
 */
export function readStatus(db: Db): MirrorStatus {
  return db.transaction(() => readStatusNow(db))();
}

function readStatusNow(db: Db): MirrorStatus {
  const state = readSyncState(db);
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    last_seq: state.lastSeq === null ? null : state.lastSeq.toString(),
    listings: countLive(db),
    detailed: countDetailed(db),
    tombstones: count('SELECT count(*) FROM listings WHERE alive = 0'),
    last_snapshot_at: state.lastSnapshotAt === null ? null : new Date(state.lastSnapshotAt).toISOString(),
    resyncs: state.resyncs,
    divergence_repaired: state.divergenceRepaired,
  };
}

const LEAN_SELECT = `SELECT l.id, l.app_id, n.name AS market_hash_name, l.price, l.amount, l.commodity, l.created_at
  FROM listings l JOIN item_names n ON n.name_id = l.name_id`;

type LeanRow = Omit<LeanListing, 'commodity'> & { commodity: number };
const toLean = (r: LeanRow): LeanListing => ({ ...r, commodity: r.commodity === 1 }) as LeanListing;

/** The live book in id order, lean fields only (spec §2.2), streamed row by row. */
export function* iterateBook(db: Db, options: { appId?: number } = {}): Generator<LeanListing> {
  const stmt =
    options.appId === undefined
      ? db.prepare(`${LEAN_SELECT} WHERE l.alive = 1 ORDER BY l.id`)
      : db.prepare(`${LEAN_SELECT} WHERE l.alive = 1 AND l.app_id = ? ORDER BY l.id`);
  const rows = (options.appId === undefined ? stmt.iterate() : stmt.iterate(options.appId)) as IterableIterator<LeanRow>;
  for (const row of rows) yield toLean(row);
}

export interface StoredListing extends LeanListing {
  /** The detail fields when known (backfill, the creation event or an on-demand fetch), else null. */
  detail: ListingDetail | null;
}

/** One live listing with its details, or null when the book does not hold it. */
export function readListing(db: Db, id: number): StoredListing | null {
  const row = db.prepare(`${LEAN_SELECT} WHERE l.id = ? AND l.alive = 1`).get(id) as LeanRow | undefined;
  if (!row) return null;
  const attrs = db.prepare('SELECT * FROM listing_attrs WHERE id = ?').get(id) as Record<string, unknown> | undefined;
  const blob = db.prepare('SELECT detail FROM listing_details WHERE id = ?').pluck().get(id) as string | undefined;
  return { ...toLean(row), detail: attrs && blob !== undefined ? restoreDetail(attrs, blob) : null };
}

/** A stored listing as the full listing shape of §2.3 when its details are known. */
export function asFullListing(listing: StoredListing): FullListing | null {
  if (listing.detail === null) return null;
  const { detail, ...lean } = listing;
  return { ...lean, ...detail } as FullListing;
}

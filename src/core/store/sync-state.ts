/** The single `sync_state` row: watermark, snapshot coverage, counters, backfill position. */
import type { Db } from './database.ts';

export interface SyncState {
  /** Highest seq applied (events or snapshots), or null before the first sync. */
  lastSeq: bigint | null;
  /** Seq of the last snapshot merged completely. */
  lastSnapshotSeq: bigint | null;
  lastSnapshotAt: number | null;
  /** The ETag the server gave that snapshot, when it gave one. */
  lastSnapshotEtag: string | null;
  resyncs: number;
  divergenceRepaired: number;
  /** The REST base URL the book mirrors. */
  source: string | null;
  /** Mirrored games; null = every game. */
  scope: number[] | null;
  backfillCursor: number | null;
  /** The games the backfill cursor was saved for (backfillGamesKey), null when not recorded. */
  backfillGames: string | null;
  /**
   * A pass paging each of its games apart (2 or 3 of the 4): per game, the cursor of its next page, or
   * null once its pages were read to the end; a game not in it starts from its newest page. Null when
   * no such pass is under way (or what was saved cannot be read: the pass starts over).
   */
  backfillGameCursors: ReadonlyMap<number, number | null> | null;
  backfillPassStartedAt: number | null;
  backfillPassCompletedAt: number | null;
}

interface Row {
  last_seq: bigint | null;
  last_snapshot_seq: bigint | null;
  last_snapshot_at: bigint | null;
  /** Absent from a file before schema 4, which readers take as it is. */
  last_snapshot_etag?: string | null;
  resyncs: bigint;
  divergence_repaired: bigint;
  source: string | null;
  scope: string | null;
  backfill_cursor: bigint | null;
  /** Absent from a file before schema 7, which readers take as it is. */
  backfill_games?: string | null;
  /** Absent from a file before schema 9, which readers take as it is. */
  backfill_game_cursors?: string | null;
  backfill_pass_started_at: bigint | null;
  backfill_pass_completed_at: bigint | null;
}

const num = (v: bigint | null): number | null => (v === null ? null : Number(v));

export function readSyncState(db: Db): SyncState {
  // safeIntegers: the seq columns are int64 and must not round through a double.
  const row = db.prepare('SELECT * FROM sync_state WHERE id = 1').safeIntegers(true).get() as Row | undefined;
  if (!row) throw new Error('sync_state row is missing: the database is damaged');
  return {
    lastSeq: row.last_seq,
    lastSnapshotSeq: row.last_snapshot_seq,
    lastSnapshotAt: num(row.last_snapshot_at),
    lastSnapshotEtag: row.last_snapshot_etag ?? null,
    resyncs: Number(row.resyncs),
    divergenceRepaired: Number(row.divergence_repaired),
    source: row.source,
    scope: parseScope(row.scope),
    backfillCursor: num(row.backfill_cursor),
    backfillGames: row.backfill_games ?? null,
    backfillGameCursors: parseGameCursors(row.backfill_game_cursors ?? null),
    backfillPassStartedAt: num(row.backfill_pass_started_at),
    backfillPassCompletedAt: num(row.backfill_pass_completed_at),
  };
}

/** One spelling per REST address: `https://m.example/api/` and `https://M.example:443/api` are one market. */
function sourceKey(url: string): string {
  try {
    return new URL(url).href.replace(/\/+$/, '');
  } catch {
    return url; // a name, not a URL (the app's demo market)
  }
}

/**
 * The source the book holds when it is not `wanted` (null: the same one, or none recorded — a new file,
 * or one from before sources were kept). A book file mirrors one marketplace: synced from another (the
 * app switched market URL, or `skindesk sync --base-url` names another server for the same --db), its
 * rows are another market's — their ids other items, their seqs another feed's — and it starts over.
 */
export function otherSourceHeld(state: Pick<SyncState, 'source'>, wanted: string): string | null {
  return state.source === null || sourceKey(state.source) === sourceKey(wanted) ? null : state.source;
}

export function serializeScope(scope: readonly number[] | null): string | null {
  return scope === null ? null : JSON.stringify([...scope].sort((a, b) => a - b));
}

/**
 * One spelling per set of games for the backfill's cursor: `all` for every game, else the sorted ids. A
 * cursor is a place in the pages of the games it was read for (`GET /listings?app_id=730` pages only
 * CS2's listings), so it means nothing for another set.
 */
export function backfillGamesKey(appIds: readonly number[] | null): string {
  return appIds === null ? 'all' : JSON.stringify([...new Set(appIds)].sort((a, b) => a - b));
}

/** The JSON of sync_state.backfill_game_cursors: app id → the cursor of that game's next page, or null at its end. */
export function serializeGameCursors(cursors: ReadonlyMap<number, number | null>): string {
  return JSON.stringify(Object.fromEntries([...cursors].sort(([a], [b]) => a - b)));
}

/** What serializeGameCursors wrote; null for anything else (the pass starts over, which loses nothing). */
function parseGameCursors(text: string | null): ReadonlyMap<number, number | null> | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const cursors = new Map<number, number | null>();
  for (const [key, cursor] of Object.entries(value)) {
    const game = Number(key);
    if (!Number.isInteger(game) || (cursor !== null && !Number.isInteger(cursor))) return null;
    cursors.set(game, cursor as number | null);
  }
  return cursors;
}

function parseScope(text: string | null): number[] | null {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v))) {
    throw new Error('sync_state.scope is not a list of app ids: the database is damaged');
  }
  return value as number[];
}

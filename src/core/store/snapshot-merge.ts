/**
 * Merging a `/book` snapshot into the live table without emptying it: readers keep seeing every
 * listing (old or new state) throughout, never an empty or half-loaded book. The merge runs in short
 * transactions (a time budget each) so the event loop is never blocked for long:
 *   1. rows: each snapshot row goes through the guard at the snapshot's seq, written only if it differs;
 *   2. removal: live rows the snapshot does not contain, and whose last_seq is below its seq, become
 *      tombstones (the service removed them while we were not looking); rows outside the mirrored games
 *      too;
 *   3. commit: the snapshot's seq becomes the coverage (and the watermark), in one transaction.
 * A step that writes rows raises the watermark with them. A crash at any point leaves every row in a
 * state it really had and none newer than the watermark; the next start re-syncs.
 */
import type { LeanListing } from '../../shared/api/index.ts';
import { type ColumnRow, ListingColumns, newColumnRow } from '../api/listing-columns.ts';
import { REMOVED_REASON, type BookStore } from './book-store.ts';
import { serializeScope } from './sync-state.ts';

export const MERGE_BUDGET_MS = 25;
/** The merge reports changed ids up to this many; beyond it, "many" (the UI refetches everything). */
export const MERGE_CHANGED_IDS_CAP = 50_000;

/** A snapshot's rows: objects, or the columns a streamed `/book` read produces (api/book-stream.ts). */
export type SnapshotListings = readonly LeanListing[] | ListingColumns;

/** Reads row i with its created_at in ms: from the columns into one reused object, or the array's own. */
function rowReader(rows: SnapshotListings): (i: number) => ColumnRow {
  const row = newColumnRow();
  if (rows instanceof ListingColumns) return (i) => rows.read(i, row);
  return (i) => {
    row.listing = rows[i] as LeanListing;
    row.createdMs = Date.parse(row.listing.created_at);
    return row;
  };
}

export interface MergeSummary {
  seq: bigint;
  /** Snapshot rows inside the mirrored games. */
  rows: number;
  /** Rows written: new, changed or brought back. */
  changed: number;
  /** Listings turned into tombstones because the snapshot no longer has them. */
  removed: number;
  /** Ids of changed and removed listings, or null when there were more than MERGE_CHANGED_IDS_CAP. */
  changedIds: number[] | null;
  durationMs: number;
  /** Longest single transaction, in ms (the event-loop block it caused). */
  longestStepMs: number;
}

export interface CommitOptions {
  /** Counts as a resync (reconnect, overflow, server reset) rather than a first load or an anti-entropy pass. */
  resync: boolean;
  source?: string | null;
  /** The snapshot's ETag, kept with its seq and time (the sync engine judges a later stale answer by it). */
  etag?: string | null;
}

export class SnapshotMerge {
  readonly seq: bigint;
  readonly #store: BookStore;
  readonly #scope: ReadonlySet<number> | null;
  readonly #scopeList: readonly number[] | null;
  readonly #startedAt: number;
  readonly #hadLiveRows: boolean;
  #ids = new Float64Array(1024);
  #idCount = 0;
  #sorted = false;
  #scanAfterId = 0;
  #idCursor = 0;
  #rows = 0;
  #changed = 0;
  #removed = 0;
  #changedIds: number[] | null = [];
  #longestStepMs = 0;
  #finished = false;
  /** Set inside an atomic merge's transaction when `listings` was empty at its start (a first load). */
  #firstLoad = false;
  /** Hears how many of the snapshot's rows are merged so far (every few hundred rows: it must be cheap). */
  onRows: ((merged: number) => void) | null = null;
  readonly #removeStmt;
  readonly #scanStmt;
  readonly #raiseWatermarkStmt;

  constructor(store: BookStore, seq: bigint, scope: readonly number[] | null) {
    this.#store = store;
    this.seq = seq;
    this.#scopeList = scope;
    this.#scope = scope === null ? null : new Set(scope);
    this.#startedAt = performance.now();
    // A first load into an empty table has nothing to remove: the removal scan is skipped.
    this.#hadLiveRows = store.db.prepare('SELECT 1 FROM listings WHERE alive = 1 LIMIT 1').get() !== undefined;
    this.#removeStmt = store.db.prepare(
      `UPDATE listings SET alive = 0, removed_reason = ?, removed_at = ?, updated_at = ?, last_seq = ?
       WHERE id = ? AND alive = 1 AND last_seq < ?`,
    );
    this.#scanStmt = store.db
      .prepare('SELECT id, app_id FROM listings WHERE alive = 1 AND id > ? AND last_seq < ? ORDER BY id LIMIT 2000')
      .raw();
    this.#raiseWatermarkStmt = store.db.prepare('UPDATE sync_state SET last_seq = max(coalesce(last_seq, @seq), @seq) WHERE id = 1');
    store.beginCoverage(seq);
  }

  get rowsMerged(): number {
    return this.#rows;
  }

  /**
   * Merges rows from `start` on until the time budget is spent, in one transaction. Returns the index
   * of the first row not merged (rows.length when all are).
   */
  addRows(rows: SnapshotListings, start: number, budgetMs = MERGE_BUDGET_MS): number {
    const t0 = performance.now();
    const next = this.#store.write(() => {
      const written = this.#changed;
      const at = this.#addRowsUntil(rows, start, t0, budgetMs);
      if (this.#changed > written) this.#raiseWatermark();
      return at;
    });
    this.#noteStep(t0);
    return next;
  }

  /** The rows part of a step, inside the caller's transaction (never a nested one: see mergeAtomically). */
  #addRowsUntil(rows: SnapshotListings, start: number, t0: number, budgetMs: number): number {
    const now = this.#store.clock.now();
    const rowAt = rowReader(rows);
    let i = start;
    while (i < rows.length) {
      const end = Math.min(rows.length, i + 256);
      for (; i < end; i++) this.#addRow(rowAt(i), now);
      this.onRows?.(i);
      if (performance.now() - t0 >= budgetMs) break;
    }
    return i;
  }

  #addRow({ listing: row, createdMs }: ColumnRow, now: number): void {
    if (this.#scope !== null && !this.#scope.has(row.app_id)) return;
    this.#rows++;
    if (this.#idCount === this.#ids.length) {
      const grown = new Float64Array(this.#ids.length * 2);
      grown.set(this.#ids);
      this.#ids = grown;
    }
    this.#ids[this.#idCount++] = row.id;
    const written = this.#firstLoad
      ? this.#store.loadSnapshotRow(row, this.seq, now, createdMs)
      : this.#store.upsertSnapshotRow(row, this.seq, now, createdMs);
    if (written) {
      this.#changed++;
      this.#noteChanged(row.id);
    }
  }

  #noteChanged(id: number): void {
    if (this.#changedIds === null) return;
    if (this.#changedIds.length >= MERGE_CHANGED_IDS_CAP) this.#changedIds = null;
    else this.#changedIds.push(id);
  }

  /** Turns missing rows into tombstones until the budget is spent; true when the scan is complete. */
  removeMissing(budgetMs = MERGE_BUDGET_MS): boolean {
    if (!this.#hadLiveRows) return true;
    const t0 = performance.now();
    const done = this.#store.write(() => {
      const removed = this.#removed;
      const complete = this.#removeMissingUntil(t0, budgetMs);
      if (this.#removed > removed) this.#raiseWatermark();
      return complete;
    });
    this.#noteStep(t0);
    return done;
  }

  #removeMissingUntil(t0: number, budgetMs: number): boolean {
    if (!this.#hadLiveRows) return true;
    if (!this.#sorted) {
      this.#ids = this.#ids.subarray(0, this.#idCount).sort();
      this.#sorted = true;
    }
    const now = this.#store.clock.now();
    const removedAt = this.#store.removalTime();
    {
      // At least one batch per step, as addRows merges at least one chunk: a step whose budget went on
      // waiting for the write lock must still move the scan on, or the merge never ends.
      do {
        const batch = this.#scanStmt.all(this.#scanAfterId, this.seq) as [number, number][];
        if (batch.length === 0) return true;
        for (const [id, appId] of batch) {
          this.#scanAfterId = id;
          let reason: number | null = null;
          if (this.#scope !== null && !this.#scope.has(appId)) reason = REMOVED_REASON.outsideScope;
          else if (!this.#contains(id)) reason = REMOVED_REASON.missingFromSnapshot;
          if (reason === null) continue;
          if (this.#removeStmt.run(reason, removedAt, now, this.seq, id, this.seq).changes > 0) {
            this.#removed++;
            this.#noteChanged(id);
          }
        }
      } while (performance.now() - t0 < budgetMs);
    }
    return false;
  }

  /**
   * A step commits rows at the snapshot's seq long before the merge does: the watermark commits with
   * them, so a kill -9 between steps leaves no row newer than it (the invariant every event batch keeps).
   * Coverage still waits for the commit: an abandoned merge covers nothing.
   */
  #raiseWatermark(): void {
    this.#raiseWatermarkStmt.run({ seq: this.seq });
  }

  /** Whether the snapshot has `id`; ids are scanned in ascending order, so a cursor suffices. */
  #contains(id: number): boolean {
    const ids = this.#ids;
    while (this.#idCursor < ids.length && (ids[this.#idCursor] as number) < id) this.#idCursor++;
    return this.#idCursor < ids.length && ids[this.#idCursor] === id;
  }

  /** Records the snapshot as merged: coverage, watermark, time and counters in one transaction. */
  commit(options: CommitOptions): MergeSummary {
    const t0 = performance.now();
    this.#store.write(() => this.#recordMerged(options));
    this.#noteStep(t0);
    return this.#finish();
  }

  /**
   * Merges everything in ONE transaction: other connections keep reading the previous book until it
   * commits, then see the new one whole. For a writer that runs off the UI's thread (the sync worker),
   * where a long transaction blocks nobody and avoids rewriting index pages at every small commit.
   */
  mergeAtomically(rows: SnapshotListings, options: CommitOptions): MergeSummary {
    const t0 = performance.now();
    // One transaction and no savepoints inside it: a savepoint journals every page it touches, which
    // for a million rows costs more than the merge itself.
    this.#store.write(() => {
      // Only here, inside the one transaction, can nothing else write a row between the check and the load.
      this.#firstLoad = this.#store.db.prepare('SELECT 1 FROM listings LIMIT 1').get() === undefined;
      this.#addRowsUntil(rows, 0, t0, Number.POSITIVE_INFINITY);
      this.#removeMissingUntil(t0, Number.POSITIVE_INFINITY);
      this.#recordMerged(options);
    });
    this.#noteStep(t0);
    return this.#finish();
  }

  #recordMerged(options: CommitOptions): void {
    const now = this.#store.clock.now();
    this.#store.db
      .prepare(
        `UPDATE sync_state SET
           last_snapshot_seq = max(coalesce(last_snapshot_seq, @seq), @seq),
           last_seq = max(coalesce(last_seq, @seq), @seq),
           last_snapshot_at = @now,
           last_snapshot_etag = @etag,
           resyncs = resyncs + @resync,
           scope = @scope,
           source = coalesce(@source, source)
         WHERE id = 1`,
      )
      .run({
        seq: this.seq,
        now,
        etag: options.etag ?? null,
        resync: options.resync ? 1 : 0,
        scope: serializeScope(this.#scopeList),
        source: options.source ?? null,
      });
  }

  #finish(): MergeSummary {
    this.#store.commitCoverage(this.seq);
    this.#finished = true;
    return {
      seq: this.seq,
      rows: this.#rows,
      changed: this.#changed,
      removed: this.#removed,
      changedIds: this.#changedIds,
      durationMs: performance.now() - this.#startedAt,
      longestStepMs: this.#longestStepMs,
    };
  }

  /** Gives up an unfinished merge: committed rows stay (each is a state the listing really had). */
  abandon(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#store.abandonCoverage();
  }

  #noteStep(t0: number): void {
    const ms = performance.now() - t0;
    if (ms > this.#longestStepMs) this.#longestStepMs = ms;
  }
}

export interface RunMergeOptions extends CommitOptions {
  scope: readonly number[] | null;
  /** One transaction (see SnapshotMerge.mergeAtomically) instead of budgeted steps. */
  atomic?: boolean;
  budgetMs?: number;
  signal?: AbortSignal;
  /** Called between transactions; the default yields to the event loop. */
  pause?: () => Promise<void>;
  /** See SnapshotMerge.onRows: also called inside an atomic merge's one transaction. */
  onRows?: (merged: number) => void;
}

export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Merges a whole snapshot in budgeted steps, yielding between them. Abandons it when aborted. */
export async function mergeSnapshot(
  store: BookStore,
  snapshot: { seq: bigint; listings: SnapshotListings },
  options: RunMergeOptions,
): Promise<MergeSummary> {
  const merge = new SnapshotMerge(store, snapshot.seq, options.scope);
  merge.onRows = options.onRows ?? null;
  const pause = options.pause ?? yieldToEventLoop;
  try {
    if (options.atomic) {
      options.signal?.throwIfAborted();
      return merge.mergeAtomically(snapshot.listings, options);
    }
    let i = 0;
    while (i < snapshot.listings.length) {
      options.signal?.throwIfAborted();
      i = merge.addRows(snapshot.listings, i, options.budgetMs);
      await pause();
    }
    for (;;) {
      options.signal?.throwIfAborted();
      if (merge.removeMissing(options.budgetMs)) break;
      await pause();
    }
    options.signal?.throwIfAborted();
    return merge.commit(options);
  } catch (err) {
    merge.abandon();
    throw err;
  }
}

/**
 * The writer side of the local book. Every change to a listing goes through one guard: a write applies
 * only when its seq is above the `last_seq` the row already carries (tombstones included), so duplicated,
 * reordered and late events, and snapshots older than what a row already saw, can never move it back.
 *
 * The guard is kept per field for the two fields events change apart: `price_seq` and `amount_seq` (NULL
 * when equal to `last_seq`). The service's feed can deliver two events of one listing out of order; with
 * one seq per row, a price change arriving after a newer amount change of the same listing would be
 * refused and its price lost until the next snapshot. Per field, each event is judged only against the
 * events that wrote the same field. Creation and removal still judge the whole row: nothing follows a
 * removal, and nothing precedes a creation.
 *
 * Rows of a merged snapshot are written only when they differ, which leaves their `last_seq` below the
 * snapshot's seq; that is sound because every event at or below the last merged snapshot's seq
 * (`coveredSeq`) is dropped before it reaches SQL — the snapshot already contains it. The effective seq of
 * a row is therefore max(last_seq, coveredSeq), and the guard compares against exactly that.
 */
import type { Statement } from 'better-sqlite3';
import { intervalTime, systemClock } from '../api/clock.ts';
import { carriesGameDetails, type LeanListing, type ListingDetail, type ListingEvent } from '../../shared/api/index.ts';
import { DETAIL_COLUMNS } from './columns.ts';
import type { Db } from './database.ts';
import { STICKER_KIND, detailBlob, detailColumnValues, pickDetail, stickerRows } from './details.ts';
import { NameTable, indexNewNames } from './names.ts';
import { OrphanUpdates } from './orphans.ts';
import { readSyncState, type SyncState } from './sync-state.ts';

export const REMOVED_REASON = { removed: 1, soldOut: 2, missingFromSnapshot: 3, outsideScope: 4 } as const;

/** What one batch of events did. */
export interface ApplyOutcome {
  /** Events that changed the book. */
  applied: number;
  /** Of those, removals (tombstones written). */
  removed: number;
  /** Rejected by the guard: the listing already carries this seq or a later one. */
  stale: number;
  /** At or below the last merged snapshot, which already contains them. */
  covered: number;
  /** Updates for listings not held; kept a short while in case their creation arrives late. */
  unknown: number;
  /** Sales recorded in the sold history. */
  sold: number;
  /** Listings whose row changed (including removals), in order of first change. */
  changedIds: number[];
  /**
   * The events that changed the book, in arrival order (watchlists judge these); updates a creation
   * released from the orphans follow it.
   */
  events: ListingEvent[];
  /** Highest seq in the batch, or null for an empty batch. */
  maxSeq: bigint | null;
}

/** The listing's own fields copied into its detail rows (see listing_attrs in migrations.ts). */
interface ListingKeys {
  alive: number;
  app_id: number;
  name_id: number;
  commodity: number;
  created_ms: number;
  price: number;
}

export interface Clock {
  /** Milliseconds since the epoch: the times written into the book. */
  now(): number;
  /**
   * Milliseconds on a clock that never jumps (api/clock.ts), for the ages that matter: an orphan's hold,
   * a tombstone's window. Absent: `now()` is taken to run evenly (a test's clock does).
   */
  monotonic?(): number;
}

const LEAN_INSERT_COLUMNS = [
  'id',
  'app_id',
  'name_id',
  'price',
  'amount',
  'commodity',
  'created_at',
  'created_ms',
  'last_seq',
  'alive',
  'first_seen_at',
  'updated_at',
];
/** The listing's own fields, which never change (written again as they are). */
const LISTING_FIELDS_UPDATE = `app_id = excluded.app_id, name_id = excluded.name_id, commodity = excluded.commodity,
  created_at = excluded.created_at, created_ms = excluded.created_ms`;
/** Written whole or brought back: no longer a tombstone. */
const ALIVE_AGAIN = 'alive = 1, removed_reason = NULL, removed_at = NULL, updated_at = excluded.updated_at';
const LEAN_UPDATE = `${LISTING_FIELDS_UPDATE}, price = excluded.price, amount = excluded.amount,
  last_seq = excluded.last_seq, price_seq = NULL, amount_seq = NULL, ${ALIVE_AGAIN}`;
/** The guard, for upserts: the incoming state must be newer than what the row carries. */
const UPSERT_GUARD = 'excluded.last_seq > listings.last_seq';

/** The two fields events change apart, each with its own seq column (see the header). */
type SeqField = 'price' | 'amount';
/** The seq the field was last written at. */
const fieldSeq = (field: SeqField) => `coalesce(listings.${field}_seq, listings.last_seq)`;
/**
 * A snapshot row meeting a listing held, per field: the whole row when the snapshot is newer than all of
 * it; when an event newer than the snapshot already moved one field, the other field still takes the
 * snapshot's value if that is newer (the event that set it may be among those now dropped as covered).
 */
const snapshotNewer = (field: SeqField) => `excluded.last_seq > ${fieldSeq(field)}`;
const snapshotFieldUpdate = (field: SeqField) =>
  `${field} = iif(${snapshotNewer(field)}, excluded.${field}, listings.${field}),
  ${field}_seq = iif(${UPSERT_GUARD}, NULL, iif(${snapshotNewer(field)}, excluded.last_seq, listings.${field}_seq))`;
const SNAPSHOT_FIELD_UPDATE = `${LISTING_FIELDS_UPDATE}, ${snapshotFieldUpdate('price')}, ${snapshotFieldUpdate('amount')},
  last_seq = max(listings.last_seq, excluded.last_seq), ${ALIVE_AGAIN}`;
/**
 * A price or amount event, through its field's guard. SET reads the row as it was: the other field's seq
 * is pinned before last_seq moves past it.
 */
const fieldEventUpdate = (field: SeqField, other: SeqField) =>
  `UPDATE listings SET ${field} = @value, ${field}_seq = @seq, ${other}_seq = ${fieldSeq(other)},
     last_seq = max(last_seq, @seq), updated_at = @now
   WHERE id = @id AND alive = 1 AND ${fieldSeq(field)} < @seq`;
/**
 * The page cache an event batch may fill, per event and at most. A batch of random updates over a
 * million rows dirties about 4.5 KB of pages per event (a 20 000-event batch: ~90 MB); in a smaller
 * cache they spill to the WAL mid-transaction and are read back, and the spilled ones written twice.
 * Only for the batch: the connection's own cache is restored after it, so a snapshot merge or a
 * reader never holds more.
 */
const BATCH_CACHE_KB_PER_EVENT = 6;
const BATCH_CACHE_MAX_KB = 160 * 1024;

function cacheKb(db: Db): number {
  const size = Number(db.pragma('cache_size', { simple: true }));
  return size < 0 ? -size : (size * Number(db.pragma('page_size', { simple: true }))) / 1024;
}

/** An event that changed the book, with its position in the batch as it arrived. */
interface AppliedEvent {
  at: number;
  event: ListingEvent;
}

/** Positions of the batch's events sorted by listing id; the events of one listing stay in arrival order. */
function listingOrder(events: readonly ListingEvent[]): Uint32Array {
  const order = new Uint32Array(events.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const idAt = (i: number) => (events[i] as ListingEvent).data.listing_id;
  return order.sort((a, b) => idAt(a) - idAt(b) || a - b);
}

/**
 * Rows deleted per transaction while the book is emptied (wipeBook): listings go with their detail rows
 * (about four rows each), sales alone.
 */
const WIPE_STEP_LISTINGS = 5_000;
const WIPE_STEP_SALES = 20_000;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export class BookStore {
  readonly db: Db;
  readonly clock: Clock;
  readonly itemNames: NameTable;
  readonly stickerNames: NameTable;
  readonly orphans = new OrphanUpdates();
  /** Events at or below this seq are contained in a merged (or merging) snapshot. */
  #coveredSeq: bigint | null;
  #persistedCoveredSeq: bigint | null;
  /** The connection's own page cache, in KB: what a batch that raised it restores. */
  readonly #cacheKb: number;
  /** The wall clock and the monotonic clock when the store opened: removal times run from there. */
  readonly #opened: { wall: number; monotonic: number };

  readonly #insertCreated: Statement;
  readonly #upsertCreated: Statement;
  readonly #upsertSnapshotRow: Statement;
  readonly #insertFirstLoadRow: Statement;
  readonly #setPrice: Statement;
  readonly #setAmount: Statement;
  readonly #tombstone: Statement;
  readonly #removeHeld: Statement;
  readonly #exists: Statement;
  readonly #markDetailed: Statement;
  readonly #detailedKeys: Statement;
  readonly #putAttrs: Statement;
  readonly #putDetailJson: Statement;
  readonly #deleteStickers: Statement;
  readonly #insertSticker: Statement;
  readonly #recordSale: Statement;
  readonly #raiseLastSeq: Statement;
  readonly #enrichSold: Statement;

  constructor(db: Db, clock: Clock = systemClock) {
    this.db = db;
    this.clock = clock;
    this.#opened = { wall: clock.now(), monotonic: intervalTime(clock) };
    this.itemNames = new NameTable(db, 'item_names');
    this.stickerNames = new NameTable(db, 'sticker_names');
    this.#cacheKb = cacheKb(db);
    const state = readSyncState(db);
    this.#coveredSeq = state.lastSnapshotSeq;
    this.#persistedCoveredSeq = state.lastSnapshotSeq;

    const detailCols = DETAIL_COLUMNS.map((c) => c.field);
    // A creation usually meets no row: a plain insert, which fires no trigger and needs no statement
    // journal. Only when a row is there (a tombstone, a duplicate) does the guarded upsert run.
    this.#insertCreated = db.prepare(
      `INSERT INTO listings (${[...LEAN_INSERT_COLUMNS, 'detailed_at'].join(', ')})
       VALUES (${placeholders(LEAN_INSERT_COLUMNS.length + 1)}) ON CONFLICT(id) DO NOTHING`,
    );
    this.#upsertCreated = db.prepare(
      `INSERT INTO listings (${[...LEAN_INSERT_COLUMNS, 'detailed_at'].join(', ')})
       VALUES (${placeholders(LEAN_INSERT_COLUMNS.length + 1)})
       ON CONFLICT(id) DO UPDATE SET ${LEAN_UPDATE}, detailed_at = coalesce(listings.detailed_at, excluded.detailed_at)
       WHERE ${UPSERT_GUARD}`,
    );
    // The creation time is compared as a moment (created_ms), not as text: /book and the feed may write
    // the same moment differently (with or without milliseconds), and every check would rewrite such rows.
    this.#upsertSnapshotRow = db.prepare(
      `INSERT INTO listings (${LEAN_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders(LEAN_INSERT_COLUMNS.length)})
       ON CONFLICT(id) DO UPDATE SET ${SNAPSHOT_FIELD_UPDATE}
       WHERE (${UPSERT_GUARD} AND (listings.alive = 0 OR listings.price IS NOT excluded.price
           OR listings.amount IS NOT excluded.amount OR listings.name_id IS NOT excluded.name_id
           OR listings.app_id <> excluded.app_id OR listings.commodity IS NOT excluded.commodity
           OR listings.created_ms IS NOT excluded.created_ms))
         OR (listings.alive = 1 AND ((${snapshotNewer('price')} AND listings.price IS NOT excluded.price)
           OR (${snapshotNewer('amount')} AND listings.amount IS NOT excluded.amount)))`,
    );
    // No guard and no change test: only for a table that held no row when the transaction began (see
    // loadSnapshotRow), where a conflict can only be a duplicate of this snapshot at the same seq.
    this.#insertFirstLoadRow = db.prepare(
      `INSERT INTO listings (${LEAN_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders(LEAN_INSERT_COLUMNS.length)})
       ON CONFLICT(id) DO NOTHING`,
    );
    this.#setPrice = db.prepare(fieldEventUpdate('price', 'amount'));
    this.#setAmount = db.prepare(fieldEventUpdate('amount', 'price'));
    // The removal of a listing held: a plain guarded UPDATE, cheaper than the upsert below, which is
    // needed only when no row took it (the listing is not held, or the removal is stale).
    this.#removeHeld = db.prepare(
      `UPDATE listings SET alive = 0, removed_reason = ?, amount = coalesce(?, amount), last_seq = ?,
         updated_at = ?, removed_at = CASE WHEN alive = 1 THEN ? ELSE removed_at END
       WHERE id = ? AND last_seq < ?`,
    );
    // A removal of a listing never held still leaves a tombstone: its creation may yet arrive, late.
    this.#tombstone = db.prepare(
      `INSERT INTO listings (id, app_id, last_seq, alive, removed_reason, amount, first_seen_at, updated_at, removed_at)
       VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET alive = 0, removed_reason = excluded.removed_reason,
         amount = coalesce(excluded.amount, listings.amount), last_seq = excluded.last_seq,
         updated_at = excluded.updated_at,
         removed_at = CASE WHEN listings.alive = 1 THEN excluded.removed_at ELSE listings.removed_at END
       WHERE ${UPSERT_GUARD}`,
    );
    this.#exists = db.prepare('SELECT 1 FROM listings WHERE id = ?').pluck();
    this.#markDetailed = db.prepare(
      `UPDATE listings SET detailed_at = ? WHERE id = ? AND detailed_at IS NULL AND name_id IS NOT NULL
       RETURNING alive, app_id, name_id, commodity, created_ms, price`,
    );
    this.#detailedKeys = db.prepare(
      `SELECT alive, app_id, name_id, commodity, created_ms, price FROM listings
       WHERE id = ? AND detailed_at IS NOT NULL AND name_id IS NOT NULL`,
    );
    this.#putAttrs = db.prepare(
      `INSERT OR REPLACE INTO listing_attrs (id, alive, app_id, name_id, commodity, created_ms, price, sticker_count,
         ${detailCols.join(', ')}) VALUES (${placeholders(detailCols.length + 8)})`,
    );
    this.#putDetailJson = db.prepare('INSERT OR REPLACE INTO listing_details (id, detail) VALUES (?, ?)');
    this.#deleteStickers = db.prepare('DELETE FROM listing_stickers WHERE listing_id = ?');
    this.#insertSticker = db.prepare(
      `INSERT OR REPLACE INTO listing_stickers (listing_id, kind, position, alive, slot, name_id, wear, pattern)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // The item's float, seed and stickers are copied in once per batch (#enrichBatchSales): a join per
    // sale tripled the cost of recording it.
    this.#recordSale = db.prepare(
      `INSERT OR IGNORE INTO sold_history (listing_id, seq, app_id, market_hash_name, price, amount, listed_at,
         sold_at, sold_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#enrichSold = db.prepare(
      `UPDATE sold_history SET paint_wear = a.cs_paint_wear, paint_seed = a.cs_paint_seed,
         paint_index = a.cs_paint_index, stickers = json_extract(d.detail, '$.cs_stickers'), enriched = 1
       FROM listing_attrs a LEFT JOIN listing_details d ON d.id = a.id
       WHERE sold_history.enriched = 0 AND a.id = sold_history.listing_id
         AND sold_history.listing_id IN (SELECT value FROM json_each(?))`,
    );
    this.#raiseLastSeq = db.prepare(
      'UPDATE sync_state SET last_seq = max(coalesce(last_seq, @seq), @seq) WHERE id = 1',
    );
  }

  get coveredSeq(): bigint | null {
    return this.#coveredSeq;
  }

  /**
   * What a removal is stamped with (`removed_at`) and tombstones are aged by: the wall clock read when the
   * store opened, carried on by the monotonic clock. Still epoch milliseconds, so the age of a tombstone
   * an earlier run left counts on after a restart; within a run a step of the wall clock (NTP, the user
   * setting the time) moves neither the stamps nor the pruning cutoff. On the wall clock, a step ahead
   * pruned every tombstone at once, and one back pruned none for as long as the step.
   */
  removalTime(): number {
    return this.#opened.wall + (intervalTime(this.clock) - this.#opened.monotonic);
  }

  state(): SyncState {
    return readSyncState(this.db);
  }

  /**
   * Runs `fn` in one write transaction. On failure the name caches are re-read (ids handed out inside
   * the rolled-back transaction no longer exist) and the error is rethrown.
   */
  write<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (err) {
      this.itemNames.reload();
      this.stickerNames.reload();
      throw err;
    }
  }

  /**
   * Applies a batch of feed events in one transaction; the watermark commits with the rows.
   *
   * The events are applied in listing-id order (stable, so each listing's own events keep their arrival
   * order): the guard makes the order between different listings irrelevant, and walking the b-trees in
   * key order visits each page once per batch instead of jumping across a million rows. The outcome
   * still lists the applied events in arrival order (watchlists judge them in that order).
   */
  applyEvents(events: readonly ListingEvent[]): ApplyOutcome {
    const outcome: ApplyOutcome = {
      applied: 0,
      removed: 0,
      stale: 0,
      covered: 0,
      unknown: 0,
      sold: 0,
      changedIds: [],
      events: [],
      maxSeq: null,
    };
    if (events.length === 0) return outcome;
    const now = this.clock.now();
    this.orphans.expire(intervalTime(this.clock));
    const batchCacheKb = Math.min(BATCH_CACHE_MAX_KB, events.length * BATCH_CACHE_KB_PER_EVENT);
    const raiseCache = batchCacheKb > this.#cacheKb;
    if (raiseCache) this.db.pragma(`cache_size = -${batchCacheKb}`);
    try {
      this.#applyBatch(events, now, outcome);
    } finally {
      if (raiseCache) this.db.pragma(`cache_size = -${this.#cacheKb}`);
    }
    return outcome;
  }

  #applyBatch(events: readonly ListingEvent[], now: number, outcome: ApplyOutcome): void {
    this.write(() => {
      const applied: AppliedEvent[] = [];
      const sold: number[] = [];
      for (const at of listingOrder(events)) {
        const event = events[at] as ListingEvent;
        if (outcome.maxSeq === null || event.seq > outcome.maxSeq) outcome.maxSeq = event.seq;
        this.#applyOne(event, at, now, outcome, applied);
        if (event.event === 'listing.sold') sold.push(event.data.listing_id);
      }
      if (sold.length > 0) this.#enrichSold.run(JSON.stringify(sold));
      if (outcome.maxSeq !== null) this.#raiseLastSeq.run({ seq: outcome.maxSeq });
      // A stable sort: updates released by a creation keep their place right after it.
      applied.sort((x, y) => x.at - y.at);
      const changed = new Set<number>();
      for (const { event } of applied) {
        outcome.events.push(event);
        changed.add(event.data.listing_id);
      }
      outcome.changedIds = [...changed];
    });
  }

  #applyOne(event: ListingEvent, at: number, now: number, outcome: ApplyOutcome, applied: AppliedEvent[]): void {
    if (event.event === 'listing.sold') {
      const d = event.data;
      // the sales tape finds sales by name through item_names: a sold item never held in the book
      // (sold before the mirror saw it listed) must be named there too
      this.itemNames.idOf(d.market_hash_name);
      const info = this.#recordSale.run(
        d.listing_id,
        event.seq,
        d.app_id,
        d.market_hash_name,
        d.price,
        d.amount,
        d.listed_at,
        d.sold_at,
        Date.parse(d.sold_at),
      );
      outcome.sold += info.changes;
      return;
    }
    const id = event.data.listing_id;
    if (this.#coveredSeq !== null && event.seq <= this.#coveredSeq) {
      outcome.covered++;
      // Details never change, so a covered creation still saves a detail fetch later.
      if (event.event === 'listing.created' && carriesGameDetails(event.data)) this.fillDetails(id, event.data, now);
      return;
    }
    let changes: number;
    switch (event.event) {
      case 'listing.created': {
        const d = event.data;
        const nameId = this.itemNames.idOf(d.market_hash_name);
        const createdMs = Date.parse(d.created_at);
        // Detailed with its game's fields, which are what the backfill is for: left undetailed, every
        // creation was newer than the pass's cursor and no pass ever ended. Without them its details are
        // written for the filters as far as they go, and left to the backfill.
        const complete = carriesGameDetails(d);
        const row = [id, d.app_id, nameId, d.price, d.amount, d.commodity ? 1 : 0, d.created_at, createdMs, event.seq, 1, now, now, complete ? now : null];
        changes = this.#insertCreated.run(row).changes || this.#upsertCreated.run(row).changes;
        if (changes > 0) {
          this.#writeDetailRows(id, d, { alive: 1, app_id: d.app_id, name_id: nameId, commodity: d.commodity ? 1 : 0, created_ms: createdMs, price: d.price });
        } else if (complete) {
          this.fillDetails(id, d, now);
        }
        break;
      }
      case 'listing.price_changed':
        changes = this.#setPrice.run({ value: event.data.price_after, seq: event.seq, now, id }).changes;
        break;
      case 'listing.amount_changed':
        changes =
          event.data.new_amount === 0
            ? this.#remove(id, event.data.app_id, event.seq, REMOVED_REASON.soldOut, 0, now)
            : this.#setAmount.run({ value: event.data.new_amount, seq: event.seq, now, id }).changes;
        break;
      case 'listing.removed':
        changes = this.#remove(id, event.data.app_id, event.seq, REMOVED_REASON.removed, null, now);
        break;
    }
    if (changes > 0) {
      outcome.applied++;
      applied.push({ at, event });
      if (event.event === 'listing.removed' || (event.event === 'listing.amount_changed' && event.data.new_amount === 0)) {
        outcome.removed++;
      }
      if (event.event === 'listing.created') {
        // Updates that overtook this creation on the wire apply now, through the same guard.
        for (const late of this.orphans.take(id)) this.#applyOne(late, at, now, outcome, applied);
      }
      return;
    }
    if (
      (event.event === 'listing.price_changed' || event.event === 'listing.amount_changed') &&
      this.#exists.get(id) === undefined
    ) {
      outcome.unknown++;
      this.orphans.hold(event, intervalTime(this.clock));
      return;
    }
    outcome.stale++;
  }

  /** Marks a listing removed through the guard, leaving a tombstone even when it was never held. */
  #remove(id: number, appId: number, seq: bigint, reason: number, amount: number | null, now: number): number {
    const removedAt = this.removalTime();
    const changes = this.#removeHeld.run(reason, amount, seq, now, removedAt, id, seq).changes;
    if (changes > 0) return changes;
    return this.#tombstone.run(id, appId, seq, reason, amount, now, now, removedAt).changes;
  }

  /**
   * Stores the detail fields of a listing the book holds without them (backfill, on-demand fetch, a
   * covered creation). Returns whether anything was written.
   */
  fillDetails(id: number, source: Partial<ListingDetail>, now = this.clock.now()): boolean {
    const listing = this.#markDetailed.get(now, id) as ListingKeys | undefined;
    if (!listing) return false;
    this.#writeDetailRows(id, source, listing);
    return true;
  }

  /**
   * Stores a listing read on demand: its details when the book has none, else all of them again, for a
   * listing detailed from its creation lacks the general fields (asset id, icon, trade lock) the read
   * brings. Returns whether anything was written.
   */
  fillFetched(id: number, listing: ListingDetail, now = this.clock.now()): boolean {
    if (this.fillDetails(id, listing, now)) return true;
    const keys = this.#detailedKeys.get(id) as ListingKeys | undefined;
    if (!keys) return false;
    this.#writeDetailRows(id, listing, keys);
    return true;
  }

  #writeDetailRows(id: number, source: Partial<ListingDetail>, listing: ListingKeys): void {
    const detail = pickDetail(source);
    const stickers = stickerRows(detail);
    const stickerCount = listing.app_id === 730 ? stickers.filter((s) => s.kind === STICKER_KIND.sticker).length : null;
    this.#putAttrs.run(
      id,
      listing.alive,
      listing.app_id,
      listing.name_id,
      listing.commodity,
      listing.created_ms,
      listing.price,
      stickerCount,
      ...detailColumnValues(detail),
    );
    this.#putDetailJson.run(id, detailBlob(detail));
    this.#deleteStickers.run(id);
    for (const s of stickers) {
      this.#insertSticker.run(id, s.kind, s.position, listing.alive, s.slot, this.stickerNames.idOf(s.name), s.wear, s.pattern);
    }
  }

  /** Upserts one snapshot row at `seq` (guarded, written only when it differs). Inside a transaction. */
  upsertSnapshotRow(row: LeanListing, seq: bigint, now: number, createdMs = Date.parse(row.created_at)): boolean {
    return this.#runSnapshotRow(this.#upsertSnapshotRow, row, seq, now, createdMs);
  }

  /**
   * Writes one row of a snapshot loaded, in ONE transaction, into a `listings` table that held no row at
   * all (not even a tombstone) when that transaction began. Any row met there was written by this same
   * load at this same seq, so the guard would refuse the write: ON CONFLICT DO NOTHING is its exact
   * outcome, without the upsert's cost (a quarter of a first load). Any other merge uses the guard.
   */
  loadSnapshotRow(row: LeanListing, seq: bigint, now: number, createdMs = Date.parse(row.created_at)): boolean {
    return this.#runSnapshotRow(this.#insertFirstLoadRow, row, seq, now, createdMs);
  }

  #runSnapshotRow(statement: Statement, row: LeanListing, seq: bigint, now: number, createdMs: number): boolean {
    return (
      statement.run(
        row.id,
        row.app_id,
        this.itemNames.idOf(row.market_hash_name),
        row.price,
        row.amount,
        row.commodity ? 1 : 0,
        row.created_at,
        createdMs,
        seq,
        1,
        now,
        now,
      ).changes > 0
    );
  }

  /** Called by a snapshot merge when it starts: events at or below its seq are in it. */
  beginCoverage(seq: bigint): void {
    if (this.#coveredSeq === null || seq > this.#coveredSeq) this.#coveredSeq = seq;
  }

  /** A merge that did not finish: only what was committed as merged stays covered. */
  abandonCoverage(): void {
    this.#coveredSeq = this.#persistedCoveredSeq;
  }

  /** A merge committed: its seq is the new persisted coverage. */
  commitCoverage(seq: bigint): void {
    if (this.#persistedCoveredSeq === null || seq > this.#persistedCoveredSeq) this.#persistedCoveredSeq = seq;
    this.beginCoverage(seq);
  }

  /**
   * Adds recently interned names to the substring indexes, at most `max` per table per call, in one
   * transaction. Returns how many are still waiting (call again later, between other work).
   */
  indexNames(max: number): number {
    return this.write(() => indexNewNames(this.db, 'item_names', max) + indexNewNames(this.db, 'sticker_names', max));
  }

  addDivergenceRepaired(count: number): void {
    if (count <= 0) return;
    this.db.prepare('UPDATE sync_state SET divergence_repaired = divergence_repaired + ? WHERE id = 1').run(count);
  }

  /**
   * Empties the book and forgets every seq (the service's sequence restarted, or the mirror now follows
   * another market): afterwards the next snapshot loads as a first one. In bounded steps, yielding.
   * `withSales`: the sold history goes too (another market's sales say nothing of this one's prices).
   *
   * Each step deletes the lowest listings together with their detail rows, in one transaction. The detail
   * writers keep running between the steps (the backfill, an on-demand read, creations during a resync),
   * and each writes a listing's detail rows only in a transaction that finds the listing there: whatever
   * they write goes with that listing's step. (Emptied table by table, a detail table emptied first was
   * written again for listings deleted later: attrs rows without a listing, which every query reading
   * `listing_attrs` alone counts — float ranks, totals.) Readers see, at each step, a smaller book whose
   * every detail row has its listing.
   */
  async wipeBook(signal?: AbortSignal, { withSales = false } = {}): Promise<void> {
    const pause = async () => {
      signal?.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
    };
    const wipeStep = this.#wipeListingsStep(WIPE_STEP_LISTINGS);
    while (this.write(wipeStep) > 0) await pause();
    if (withSales) {
      const deleteSales = this.db.prepare(
        `DELETE FROM sold_history WHERE listing_id IN (SELECT listing_id FROM sold_history LIMIT ${WIPE_STEP_SALES})`,
      );
      while (this.write(() => deleteSales.run().changes) > 0) await pause();
    }
    this.write(() => {
      // what the writers added during the last pauses, and detail rows an older version left without
      // their listing: few rows, gone with the seqs in one transaction
      for (const table of ['listing_stickers', 'listing_details', 'listing_attrs', 'listings']) {
        this.db.prepare(`DELETE FROM ${table}`).run();
      }
      this.db
        .prepare(
          `UPDATE sync_state SET last_seq = NULL, last_snapshot_seq = NULL, last_snapshot_at = NULL,
             backfill_cursor = NULL, backfill_game_cursors = NULL, backfill_pass_started_at = NULL,
             backfill_pass_completed_at = NULL WHERE id = 1`,
        )
        .run();
    });
    this.#coveredSeq = null;
    this.#persistedCoveredSeq = null;
    this.orphans.clear();
  }

  /**
   * A step of wipeBook, prepared once for all its steps: deletes the `limit` lowest listings and every
   * detail row up to the highest of them (theirs, and any an older version left without a listing). Run
   * inside a transaction; returns the listings deleted.
   */
  #wipeListingsStep(limit: number): () => number {
    const highest = this.db.prepare(`SELECT max(id) FROM (SELECT id FROM listings ORDER BY id LIMIT ${limit})`).pluck();
    const deleteDetails = [
      this.db.prepare('DELETE FROM listing_stickers WHERE listing_id <= ?'),
      this.db.prepare('DELETE FROM listing_details WHERE id <= ?'),
      this.db.prepare('DELETE FROM listing_attrs WHERE id <= ?'),
    ];
    const deleteListings = this.db.prepare('DELETE FROM listings WHERE id <= ?');
    return () => {
      const upTo = highest.get() as number | null;
      if (upTo === null) return 0;
      for (const statement of deleteDetails) statement.run(upTo);
      return deleteListings.run(upTo).changes;
    };
  }

  /**
   * Sales are enriched with the item's float, seed, paint index and stickers in the batch that records
   * them (when the details are known by then). This sweeps up the rest: sales whose details arrived
   * later, then closes, as they are, sales older than `giveUpMs` whose details never came. Bounded per
   * call; runs before tombstones (and their details) are pruned. Returns rows enriched.
   */
  enrichSales(giveUpMs = 60 * 60_000, limit = 5_000): number {
    return this.write(() => {
      const enriched = this.db
        .prepare(
          `UPDATE sold_history SET paint_wear = a.cs_paint_wear, paint_seed = a.cs_paint_seed,
             paint_index = a.cs_paint_index, stickers = json_extract(d.detail, '$.cs_stickers'), enriched = 1
           FROM listing_attrs a LEFT JOIN listing_details d ON d.id = a.id
           WHERE sold_history.enriched = 0 AND a.id = sold_history.listing_id
             AND sold_history.listing_id IN (SELECT listing_id FROM sold_history WHERE enriched = 0 LIMIT ?)`,
        )
        .run(limit).changes;
      this.db
        .prepare(
          `UPDATE sold_history SET enriched = 1 WHERE enriched = 0 AND sold_ms < ?
             AND listing_id IN (SELECT listing_id FROM sold_history WHERE enriched = 0 LIMIT ?)`,
        )
        .run(this.clock.now() - giveUpMs, limit);
      return enriched;
    });
  }

  /**
   * Deletes tombstones older than `windowMs` whose seq is covered by the last merged snapshot: any event
   * that could still reach them is dropped as covered, so they protect nothing any more. Bounded per
   * call; returns how many were pruned. Ages are on removalTime(). A tombstone stamped after it (the wall
   * clock was set back between two runs) is stamped now instead: its window starts again, rather than
   * holding it for as long as the clock was set back.
   */
  pruneTombstones(windowMs: number, limit = 20_000): number {
    const covered = this.#persistedCoveredSeq;
    if (covered === null) return 0;
    this.enrichSales();
    const now = this.removalTime();
    const cutoff = now - windowMs;
    return this.write(() => {
      this.db
        .prepare(
          `UPDATE listings SET removed_at = @now
           WHERE id IN (SELECT id FROM listings WHERE alive = 0 AND removed_at > @now LIMIT @limit)`,
        )
        .run({ now, limit });
      const ids = this.db
        .prepare('SELECT id FROM listings WHERE alive = 0 AND removed_at < ? AND last_seq <= ? LIMIT ?')
        .pluck()
        .all(cutoff, covered, limit) as number[];
      if (ids.length === 0) return 0;
      const del = this.db.prepare('DELETE FROM listings WHERE id = ? AND alive = 0');
      const delAttrs = this.db.prepare('DELETE FROM listing_attrs WHERE id = ?');
      const delDetail = this.db.prepare('DELETE FROM listing_details WHERE id = ?');
      for (const id of ids) {
        del.run(id);
        delAttrs.run(id);
        delDetail.run(id);
        this.#deleteStickers.run(id);
      }
      return ids.length;
    });
  }
}

/** Snapshot merges: through the same guard, never emptying the table, removing what the service removed. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ListingColumns } from '../../../src/core/api/listing-columns.ts';
import { SnapshotMerge, mergeSnapshot, readStatus, readSyncState } from '../../../src/core/store/index.ts';
import { amountChangedEvent, createRng, createdEvent, makeFullListing, priceChangedEvent, removedEvent } from '../../bench/generate.ts';
import { book, lean, openTestStore, type TestStore } from './helpers.ts';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const merge = (seq: bigint, listings = [lean(1), lean(2), lean(3)], scope: number[] | null = null, resync = false) =>
  mergeSnapshot(t.store, { seq, listings }, { scope, resync, source: 'http://market.test' });

describe('snapshot merge', () => {
  it.each([true, false])('tells how many rows are merged as it goes, up to all of them (atomic: %s)', async (atomic) => {
    const listings = Array.from({ length: 700 }, (_, i) => lean(i + 1));
    const merged: number[] = [];
    await mergeSnapshot(t.store, { seq: 100n, listings }, { scope: null, resync: false, atomic, budgetMs: 60_000, onRows: (n) => merged.push(n) });
    expect(merged).toEqual([256, 512, 700]);
  });

  it('loads a first snapshot and records its seq, time and source', async () => {
    const s = await merge(100n);
    expect(s).toMatchObject({ rows: 3, changed: 3, removed: 0 });
    expect(book(t.db).map((l) => l.id)).toEqual([1, 2, 3]);
    const state = readSyncState(t.db);
    expect(state).toMatchObject({ lastSeq: 100n, lastSnapshotSeq: 100n, source: 'http://market.test', resyncs: 0 });
    expect(state.lastSnapshotAt).toBe(t.clock.t);
  });

  it('writes only rows that differ, and removes rows the snapshot no longer has', async () => {
    await merge(100n);
    const s = await merge(200n, [lean(1), lean(3, { price: 5 }), lean(4)], null, true);
    expect(s).toMatchObject({ rows: 3, changed: 2, removed: 1 });
    expect(s.changedIds?.sort()).toEqual([2, 3, 4]);
    expect(book(t.db).map((l) => [l.id, l.price])).toEqual([
      [1, 101],
      [3, 5],
      [4, 104],
    ]);
    expect(readStatus(t.db)).toMatchObject({ listings: 3, tombstones: 1, resyncs: 1 });
  });

  it('does not take the same creation time written another way (no milliseconds, an offset) for a change', async () => {
    await merge(100n);
    const sameTimes = [lean(1, { created_at: '2026-01-01T00:00:00Z' }), lean(2, { created_at: '2026-01-01T01:00:00.000+01:00' }), lean(3)];
    const s = await merge(200n, sameTimes, null, true);
    expect(s).toMatchObject({ rows: 3, changed: 0, removed: 0 });
  });

  it('keeps rows that an event moved past the snapshot, and listings created after it', async () => {
    await merge(100n);
    const rng = createRng(3);
    t.store.applyEvents([
      priceChangedEvent(1, 730, 101, 777, 300n),
      createdEvent({ ...makeFullListing(rng, 50), app_id: 730 }, 301n),
    ]);
    // A snapshot at 250 does not know either change: the guard keeps both.
    await merge(250n, [lean(1), lean(2), lean(3)]);
    const rows = book(t.db);
    expect(rows.find((l) => l.id === 1)?.price).toBe(777);
    expect(rows.some((l) => l.id === 50)).toBe(true);
  });

  it('takes the field a newer event left behind from the snapshot, whose own event is then dropped as covered', async () => {
    await merge(100n);
    // A price change after the snapshot arrived first; the amount change before it is still on its way.
    t.store.applyEvents([priceChangedEvent(1, 730, 101, 777, 300n)]);
    const snapshotAt250 = [lean(1, { amount: 5 }), lean(2), lean(3)];
    const summary = await merge(250n, snapshotAt250);
    expect(summary.changedIds).toEqual([1]);
    expect(t.store.applyEvents([amountChangedEvent(1, 730, 5, 240n)]).covered).toBe(1);
    expect(book(t.db).find((l) => l.id === 1)).toMatchObject({ price: 777, amount: 5 });
    // and the field the event moved stays the event's: an older snapshot value never overwrites it
    await merge(260n, [lean(1, { amount: 5 }), lean(2), lean(3)]);
    expect(book(t.db).find((l) => l.id === 1)).toMatchObject({ price: 777, amount: 5 });
  });

  it('drops events at or below a merged snapshot: the snapshot already holds them', async () => {
    await merge(100n);
    await merge(200n, [lean(1, { price: 42 }), lean(2), lean(3)]);
    // Applied after a merge that skipped an unchanged row, a stale event would otherwise pass the row guard.
    const out = t.store.applyEvents([priceChangedEvent(2, 730, 1, 999, 150n), removedEvent(3, 730, 199n)]);
    expect(out.covered).toBe(2);
    expect(book(t.db).map((l) => l.price)).toEqual([42, 102, 103]);
  });

  it('brings back a tombstoned listing that a newer snapshot still holds', async () => {
    await merge(100n);
    t.store.applyEvents([removedEvent(2, 730, 150n)]);
    await merge(160n);
    expect(book(t.db).map((l) => l.id)).toEqual([1, 2, 3]);
  });

  it('loads a first snapshot in one transaction exactly as the guard would: a duplicated id keeps its first row', async () => {
    const rows = [lean(1), lean(2), lean(2, { price: 7 }), lean(3)];
    const atomic = await mergeSnapshot(t.store, { seq: 100n, listings: rows }, { scope: null, resync: false, atomic: true });
    const other = openTestStore();
    try {
      const stepped = await mergeSnapshot(other.store, { seq: 100n, listings: rows }, { scope: null, resync: false });
      expect(atomic).toMatchObject({ rows: 4, changed: 3, removed: 0 });
      expect({ ...atomic, durationMs: 0, longestStepMs: 0 }).toEqual({ ...stepped, durationMs: 0, longestStepMs: 0 });
      expect(book(t.db)).toEqual(book(other.db));
      expect(book(t.db).map((l) => l.price)).toEqual([101, 102, 103]);
    } finally {
      other.close();
    }
  });

  it('merges the columns of a streamed /book exactly as the same rows as objects', async () => {
    const first = [lean(1), lean(2, { created_at: '2026-01-01T02:00:00+02:00', market_hash_name: '★ Karambit' }), lean(3, { app_id: 570, commodity: true })];
    const second = [lean(1, { price: 5 }), lean(3, { app_id: 570, commodity: true }), lean(4, { amount: 3 })];
    const other = openTestStore();
    const everything = (store: TestStore) => store.db.prepare('SELECT * FROM listings ORDER BY id').all();
    try {
      for (const [seq, rows, atomic] of [[100n, first, true], [200n, second, false]] as const) {
        const fromColumns = await mergeSnapshot(t.store, { seq, listings: ListingColumns.from(rows) }, { scope: null, resync: seq > 100n, atomic });
        const fromObjects = await mergeSnapshot(other.store, { seq, listings: rows }, { scope: null, resync: seq > 100n, atomic });
        expect({ ...fromColumns, durationMs: 0, longestStepMs: 0 }).toEqual({ ...fromObjects, durationMs: 0, longestStepMs: 0 });
        expect(everything(t)).toEqual(everything(other));
      }
      expect(book(t.db).map((l) => [l.id, l.price, l.created_at])).toEqual([
        [1, 5, '2026-01-01T00:00:00.000Z'],
        [3, 103, '2026-01-01T00:00:00.000Z'],
        [4, 104, '2026-01-01T00:00:00.000Z'],
      ]);
    } finally {
      other.close();
    }
  });

  it('takes the guarded path in one transaction when the book holds only a tombstone', async () => {
    // A removal that arrived before any snapshot leaves a tombstone at seq 50; the snapshot at 100 is newer.
    t.store.applyEvents([removedEvent(2, 730, 50n), removedEvent(3, 730, 150n)]);
    const s = await mergeSnapshot(t.store, { seq: 100n, listings: [lean(1), lean(2), lean(3)] }, { scope: null, resync: false, atomic: true });
    expect(s).toMatchObject({ rows: 3, changed: 2 });
    // 2 comes back (its tombstone is older than the snapshot), 3 stays removed (its tombstone is newer).
    expect(book(t.db).map((l) => l.id)).toEqual([1, 2]);
  });

  it('removes listings of games outside the mirrored scope', async () => {
    await merge(100n, [lean(1), lean(2, { app_id: 570 }), lean(3, { app_id: 440 })]);
    const s = await merge(200n, [lean(1), lean(2, { app_id: 570 }), lean(3, { app_id: 440 })], [730, 570]);
    expect(s).toMatchObject({ rows: 2, removed: 1 });
    expect(book(t.db).map((l) => l.id)).toEqual([1, 2]);
    expect(readSyncState(t.db).scope).toEqual([570, 730]);
  });

  it('never shows readers an empty or half book while a large resync merges', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => lean(i + 1));
    await merge(100n, many);
    const seen: number[] = [];
    const changedPrices = many.map((l) => ({ ...l, price: l.price + 1 }));
    await mergeSnapshot(
      t.store,
      { seq: 200n, listings: changedPrices },
      {
        scope: null,
        resync: true,
        budgetMs: 1,
        pause: async () => {
          seen.push(t.db.prepare('SELECT count(*) FROM listings WHERE alive = 1').pluck().get() as number);
        },
      },
    );
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((n) => n === 20_000)).toBe(true);
  });

  it('moves the removal scan on in every step, even one whose budget was spent before it began', async () => {
    // (the budget counts the wait for the write lock: another writer can spend all of it)
    await merge(100n, Array.from({ length: 3000 }, (_, i) => lean(i + 1)));
    const m = new SnapshotMerge(t.store, 200n, null);
    expect(m.addRows([lean(1)], 0, 0)).toBe(1);
    let steps = 0;
    while (!m.removeMissing(0) && steps < 10) steps++;
    expect(steps).toBeLessThan(10);
    expect(m.commit({ resync: true })).toMatchObject({ removed: 2999 });
    expect(book(t.db).map((l) => l.id)).toEqual([1]);
  });

  it('keeps the previous coverage when a merge is abandoned half-way', async () => {
    await merge(100n);
    const m = new SnapshotMerge(t.store, 500n, null);
    m.addRows([lean(1, { price: 1 })], 0);
    expect(t.store.coveredSeq).toBe(500n);
    m.abandon();
    expect(t.store.coveredSeq).toBe(100n);
    expect(readSyncState(t.db).lastSnapshotSeq).toBe(100n);
    // A later event between the two seqs applies again: the abandoned snapshot covers nothing.
    expect(t.store.applyEvents([priceChangedEvent(2, 730, 1, 9, 300n)]).applied).toBe(1);
  });

  it('commits no row newer than the watermark in any step: a kill -9 between steps leaves none', async () => {
    await merge(100n);
    const rowsAboveWatermark = () =>
      t.db.prepare('SELECT count(*) FROM listings WHERE last_seq > (SELECT last_seq FROM sync_state WHERE id = 1)').pluck().get();
    const m = new SnapshotMerge(t.store, 500n, null);
    m.addRows([lean(1, { price: 1 }), lean(9)], 0);
    expect(rowsAboveWatermark(), 'after a step of rows').toBe(0);
    while (!m.removeMissing()) {
      // the removal scan's steps, each committed on its own
    }
    expect(rowsAboveWatermark(), 'after the removal steps').toBe(0);
    // killed here, before the commit: the snapshot covers nothing yet, but the watermark holds its rows
    expect(readSyncState(t.db)).toMatchObject({ lastSeq: 500n, lastSnapshotSeq: 100n });
  });

  it('prunes tombstones past the window once a snapshot covers them', async () => {
    await merge(100n);
    t.store.applyEvents([removedEvent(1, 730, 150n)]);
    expect(t.store.pruneTombstones(60_000)).toBe(0); // not covered by a snapshot yet
    await merge(200n, [lean(2), lean(3)]);
    expect(t.store.pruneTombstones(60_000)).toBe(0); // inside the window
    t.clock.t += 120_000;
    expect(t.store.pruneTombstones(60_000)).toBe(1);
    expect(readStatus(t.db).tombstones).toBe(0);
    // A late creation of the pruned listing is below the coverage and stays out.
    const rng = createRng(1);
    expect(t.store.applyEvents([createdEvent({ ...makeFullListing(rng, 1), id: 1 }, 120n)]).covered).toBe(1);
    expect(book(t.db).map((l) => l.id)).toEqual([2, 3]);
  });
});

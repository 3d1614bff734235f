/**
 * The ages the store keeps — an early update held for its creation (an orphan), a tombstone's window —
 * when the wall clock is stepped (NTP, the user setting the time): they run on the monotonic clock, while
 * `removed_at` stays a moment in epoch milliseconds that a later run can still age.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BookStore,
  mergeSnapshot,
  openDatabase,
  readStatus,
  type Db,
} from '../../../src/core/store/index.ts';
import { ORPHAN_TTL_MS } from '../../../src/core/store/orphans.ts';
import {
  createRng,
  createdEvent,
  makeFullListing,
  priceChangedEvent,
  removedEvent,
} from '../../bench/generate.ts';
import { book, lean, tempDir } from './helpers.ts';

const HOUR_MS = 60 * 60_000;
const WINDOW_MS = 30 * 60_000;

/** A wall clock that can be stepped, beside a monotonic one that only runs. */
class SteppedClock {
  wall = Date.UTC(2026, 0, 1);
  mono = 1_000;
  now(): number {
    return this.wall;
  }
  monotonic(): number {
    return this.mono;
  }
  /** Time passes: both clocks run. */
  run(ms: number): void {
    this.wall += ms;
    this.mono += ms;
  }
  /** The wall clock is set, and nothing else happens. */
  step(ms: number): void {
    this.wall += ms;
  }
}

let dir: { dir: string; remove(): void };
let db: Db;
let clock: SteppedClock;
let store: BookStore;
const rng = createRng(3);
const listing = (id: number) => ({ ...makeFullListing(rng, id), app_id: 730 as const });

beforeEach(() => {
  dir = tempDir();
  db = openDatabase(join(dir.dir, 'book.db'));
  clock = new SteppedClock();
  store = new BookStore(db, clock);
});

afterEach(() => {
  db.close();
  dir.remove();
});

describe('orphans when the wall clock is stepped', () => {
  it('still follows a late creation with the update that overtook it after the clock jumped an hour ahead', () => {
    store.applyEvents([priceChangedEvent(5, 730, 100, 4321, 41n)]);
    clock.step(HOUR_MS);
    clock.run(1_000);
    const l = listing(5);
    store.applyEvents([createdEvent(l, 40n)]);
    expect(book(db).find((r) => r.id === 5)?.price).toBe(4321);
  });

  it('drops an orphan whose creation never came once its time is up, though the clock was set back an hour', () => {
    store.applyEvents([priceChangedEvent(5, 730, 100, 4321, 41n)]);
    expect(store.orphans.size).toBe(1);
    clock.step(-HOUR_MS);
    clock.run(ORPHAN_TTL_MS);
    store.applyEvents([priceChangedEvent(6, 730, 100, 200, 50n)]); // any batch expires what is due
    expect(store.orphans.size).toBe(1); // the new one only
    store.applyEvents([createdEvent(listing(5), 40n)]);
    expect(book(db).find((r) => r.id === 5)?.price).not.toBe(4321);
  });
});

describe('tombstones when the wall clock is stepped', () => {
  /** A book of three at seq 100, listing 1 removed at 150, and a snapshot at 200 covering the removal. */
  async function coveredTombstone(): Promise<void> {
    await mergeSnapshot(
      store,
      { seq: 100n, listings: [lean(1), lean(2), lean(3)] },
      { scope: null, resync: false },
    );
    store.applyEvents([removedEvent(1, 730, 150n)]);
    await mergeSnapshot(store, { seq: 200n, listings: [lean(2), lean(3)] }, { scope: null, resync: true });
    expect(readStatus(db).tombstones).toBe(1);
  }

  it('keeps a tombstone inside its window when the clock jumps a day ahead', async () => {
    await coveredTombstone();
    clock.step(24 * HOUR_MS);
    clock.run(60_000);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(0);
    clock.run(WINDOW_MS);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(1);
  });

  it('prunes a tombstone once its window has passed though the clock was set back a day', async () => {
    await coveredTombstone();
    clock.step(-24 * HOUR_MS);
    clock.run(WINDOW_MS + 60_000);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(1);
    expect(readStatus(db).tombstones).toBe(0);
  });

  it('stamps removals in epoch ms that a later run ages on, and restarts the window of one stamped in its future', async () => {
    await coveredTombstone();
    const removedAt = () =>
      db.prepare('SELECT removed_at FROM listings WHERE id = 1').pluck().get() as number;
    expect(removedAt()).toBe(clock.wall);
    // a restart 20 minutes later: the tombstone is 20 minutes old, 10 more and it goes
    clock.run(20 * 60_000);
    clock.mono = 5; // a new process's monotonic clock starts anew
    store = new BookStore(db, clock);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(0);
    clock.run(10 * 60_000 + 1);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(1);

    // a tombstone of a run whose clock was a day ahead, read by one whose clock is right
    store.applyEvents([removedEvent(2, 730, 250n)]);
    await mergeSnapshot(store, { seq: 300n, listings: [lean(3)] }, { scope: null, resync: true });
    db.prepare('UPDATE listings SET removed_at = removed_at + ? WHERE id = 2').run(24 * HOUR_MS);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(0);
    clock.run(WINDOW_MS + 1);
    expect(store.pruneTombstones(WINDOW_MS)).toBe(1);
  });
});

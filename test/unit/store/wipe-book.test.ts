/**
 * Emptying the book (a seq restart, another market) runs in steps that yield, and the detail writers
 * (the backfill, an on-demand read) keep running between them. No step may leave a detail row, a
 * sticker row or an attrs row whose listing is gone: queries that read `listing_attrs` alone (float
 * ranks, counts) would count listings the book does not hold.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { floatRank } from '../../../src/core/query/float-rank.ts';
import { mergeSnapshot, readStatus } from '../../../src/core/store/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import { createRng, leanOf, makeFullListing } from '../../bench/generate.ts';
import { book, openTestStore, type TestStore } from './helpers.ts';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const rng = createRng(7);
const NAME = 'AK-47 | Redline (Field-Tested)';
/** A CS2 listing of one name, with stickers, so it has rows in every detail table. */
const listing = (id: number): FullListing => {
  const l = makeFullListing(rng, id);
  return l.app_id === 730 ? { ...l, market_hash_name: NAME } : listing(id);
};

/** Detail rows of each table whose listing the book no longer holds. */
function orphans(): Record<string, number> {
  const count = (sql: string) => t.db.prepare(sql).pluck().get() as number;
  return {
    attrs: count('SELECT count(*) FROM listing_attrs WHERE id NOT IN (SELECT id FROM listings)'),
    details: count('SELECT count(*) FROM listing_details WHERE id NOT IN (SELECT id FROM listings)'),
    stickers: count(
      'SELECT count(*) FROM listing_stickers WHERE listing_id NOT IN (SELECT id FROM listings)',
    ),
  };
}
const NONE = { attrs: 0, details: 0, stickers: 0 };

describe('wiping the book while details are written', () => {
  it('leaves no detail row without its listing, at any step or at the end', async () => {
    // more listings than one step of the wipe takes
    const listings = Array.from({ length: 12_000 }, (_, i) => listing(i + 1));
    await mergeSnapshot(
      t.store,
      { seq: 100n, listings: listings.map(leanOf) },
      { scope: null, resync: false },
    );
    // half detailed already (the wipe has rows to delete in every table), half waiting for the backfill
    t.store.write(() => {
      for (const l of listings.slice(0, 6_000)) t.store.fillDetails(l.id, l);
    });
    expect(t.db.prepare('SELECT count(*) FROM listing_stickers').pluck().get()).toBeGreaterThan(0);

    let wiped = false;
    const wipe = t.store.wipeBook().then(() => (wiped = true));
    // between the wipe's steps, the writers the sync worker runs beside it: a backfill page (newest
    // first: details of listings without them) or an on-demand read (details again), now and then; what
    // a reader could see at each step is checked too
    const seenAtSteps: Record<string, number>[] = [];
    const newestFirst = listings.toReversed();
    let written = 0;
    for (let tick = 0; !wiped; tick++) {
      if (tick % 2 === 0) {
        const page = newestFirst.slice(tick * 25, tick * 25 + 50);
        t.store.write(() => {
          for (const l of page) if (t.store.fillFetched(l.id, l)) written++;
        });
      }
      seenAtSteps.push(orphans());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await wipe;

    expect(written).toBeGreaterThan(0);
    expect(seenAtSteps.length).toBeGreaterThan(1);
    expect(seenAtSteps.filter((seen) => JSON.stringify(seen) !== JSON.stringify(NONE))).toEqual([]);
    expect(orphans()).toEqual(NONE);
    expect(book(t.db)).toEqual([]);
    expect(readStatus(t.db)).toMatchObject({ listings: 0, detailed: 0 });
    expect(floatRank(t.db, NAME, 0.5)).toBeNull();
  });

  it('also sweeps detail rows an older version left without their listing', async () => {
    const l = listing(1);
    await mergeSnapshot(t.store, { seq: 100n, listings: [leanOf(l)] }, { scope: null, resync: false });
    t.store.fillDetails(l.id, l);
    t.db.prepare('DELETE FROM listings WHERE id = 1').run();
    expect(orphans().attrs).toBe(1);
    await t.store.wipeBook();
    expect(orphans()).toEqual(NONE);
    expect(t.db.prepare('SELECT count(*) FROM listing_attrs').pluck().get()).toBe(0);
  });
});

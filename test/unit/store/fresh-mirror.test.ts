/** A book file synced from another marketplace starts over; the same one, however its URL is written, does not. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeSnapshot, readStatus, readSyncState } from '../../../src/core/store/index.ts';
import { otherSourceHeld } from '../../../src/core/store/sync-state.ts';
import { book, lean, openTestStore, type TestStore } from './helpers.ts';

let t: TestStore;
beforeEach(async () => {
  t = openTestStore();
  await mergeSnapshot(
    t.store,
    { seq: 9_007_199_254_740_993n, listings: [lean(1), lean(2)] },
    { scope: [730], resync: false, source: 'https://market.example/api' },
  );
});
afterEach(() => t.close());

describe('another source', () => {
  it.each(['https://market.example/api', 'https://MARKET.example/api/', 'https://market.example:443/api'])(
    'is not %s, the same market written another way',
    (url) => {
      expect(otherSourceHeld(readSyncState(t.db), url)).toBeNull();
    },
  );

  it('is another address, or a name for a book that held a URL', () => {
    expect(otherSourceHeld(readSyncState(t.db), 'https://other.example/api')).toBe('https://market.example/api');
    expect(otherSourceHeld(readSyncState(t.db), 'https://market.example/v2')).toBe('https://market.example/api');
    expect(otherSourceHeld(readSyncState(t.db), 'the demo market')).toBe('https://market.example/api');
  });

  it('is never a file that names no source (a new one, or one from before sources were kept)', () => {
    expect(otherSourceHeld({ source: null }, 'https://other.example')).toBeNull();
  });

  it("starts over: the book, its seqs and (withSales) the other market's sold history are gone", async () => {
    t.db
      .prepare(
        "INSERT INTO sold_history (listing_id, seq, app_id, market_hash_name, price, amount, listed_at, sold_at, sold_ms) VALUES (1, 5, 730, 'x', 1, 1, 'a', 'b', 0)",
      )
      .run();
    await t.store.wipeBook(undefined, { withSales: true });
    expect(book(t.db)).toEqual([]);
    expect(readStatus(t.db)).toMatchObject({ listings: 0, tombstones: 0, last_seq: null });
    expect(readSyncState(t.db)).toMatchObject({ lastSeq: null, lastSnapshotSeq: null });
    expect(t.db.prepare('SELECT count(*) FROM sold_history').pluck().get()).toBe(0);
  });
});

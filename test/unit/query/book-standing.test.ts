import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookStandings } from '../../../src/core/query/book-standing.ts';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { createRng, createdEvent, dopplerListing, removedEvent } from '../../bench/generate.ts';
import { lean, openTestStore, type TestStore } from '../store/helpers.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const own = (id: number, price: number, market_hash_name = REDLINE, app_id: 730 | 570 = 730) => ({
  id,
  app_id,
  market_hash_name,
  price,
});

describe('bookStandings', () => {
  it('counts the other live listings of the item, those asking less, and names the cheapest', async () => {
    await mergeSnapshot(
      t.store,
      {
        seq: 100n,
        listings: [
          lean(1, { market_hash_name: REDLINE, price: 1200 }), // the own listing itself: not counted
          lean(2, { market_hash_name: REDLINE, price: 1100 }),
          lean(3, { market_hash_name: REDLINE, price: 1150 }),
          lean(4, { market_hash_name: REDLINE, price: 1100 }),
          lean(5, { market_hash_name: REDLINE, price: 1300 }),
          lean(6, { market_hash_name: REDLINE, price: 900, app_id: 570 }), // same name, another game
          lean(7, { market_hash_name: 'Revolution Case', price: 50 }),
        ],
      },
      { scope: null, resync: false },
    );
    t.store.applyEvents([removedEvent(3, 730, 101n)]); // a removed listing no longer competes
    expect(
      bookStandings(t.db, [own(1, 1200), own(7, 50, 'Revolution Case'), own(99, 10, 'Never Listed')]),
    ).toEqual([
      { listingId: 1, others: 3, cheaper: 2, lowestOther: 1100, lowestOtherId: 2, phase: null },
      { listingId: 7, others: 0, cheaper: 0, lowestOther: null, lowestOtherId: null, phase: null },
      { listingId: 99, others: 0, cheaper: 0, lowestOther: null, lowestOtherId: null, phase: null },
    ]);
    // the seller's own other listings are not competition
    expect(bookStandings(t.db, [own(1, 1200)], [2, 4])).toEqual([{ listingId: 1, others: 1, cheaper: 0, lowestOther: 1300, lowestOtherId: 5, phase: null }]);
    // the cheapest already: nobody asks less, even at an equal price
    expect(bookStandings(t.db, [own(2, 1100)])[0]).toMatchObject({
      others: 3,
      cheaper: 0,
      lowestOther: 1100,
      lowestOtherId: 4,
    });
  });

  it('sets a Doppler only against its own phase, of the same name', async () => {
    const DOPPLER = 'Karambit | Doppler (Factory New)';
    await mergeSnapshot(t.store, { seq: 100n, listings: [] }, { scope: null, resync: false });
    const rng = createRng(5);
    const doppler = (id: number, price: number, paintIndex: number, name = DOPPLER) => dopplerListing(rng, id, price, paintIndex, name);
    t.store.applyEvents(
      [
        doppler(1, 300_000, 415), // the own Ruby
        doppler(2, 60_000, 420), // Phase 3: cheaper, but no rival of a Ruby
        doppler(3, 62_000, 418), // Phase 1
        doppler(4, 290_000, 415), // a Ruby asking less
        doppler(5, 310_000, 415), // a Ruby asking more
        doppler(6, 100_000, 568, 'Karambit | Gamma Doppler (Factory New)'), // another name
        doppler(7, 61_000, 420), // the own Phase 3
      ].map((l, i) => createdEvent(l, 101n + BigInt(i))),
    );
    expect(bookStandings(t.db, [own(1, 300_000, DOPPLER), own(7, 61_000, DOPPLER)])).toEqual([
      { listingId: 1, others: 2, cheaper: 1, lowestOther: 290_000, lowestOtherId: 4, phase: 'Ruby' },
      { listingId: 7, others: 1, cheaper: 1, lowestOther: 60_000, lowestOtherId: 2, phase: 'Phase 3' },
    ]);
  });

  it('says nothing where the book does not know the market: before a snapshot, or for a game not mirrored', async () => {
    expect(bookStandings(t.db, [own(1, 1200)])).toEqual([]);
    await mergeSnapshot(
      t.store,
      { seq: 100n, listings: [lean(2, { market_hash_name: REDLINE, price: 1100 })] },
      { scope: [730], resync: false },
    );
    expect(bookStandings(t.db, [own(1, 1200), own(8, 10, REDLINE, 570)]).map((s) => s.listingId)).toEqual([
      1,
    ]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { ReferencePrices } from '../../../src/core/watch/reference-prices.ts';
import { createRng, createdEvent, dopplerListing } from '../../bench/generate.ts';
import { lean, openTestStore, type TestStore } from '../store/helpers.ts';

const DOPPLER = 'Karambit | Doppler (Factory New)';
let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

describe('ReferencePrices: the cheapest other listing', () => {
  it('is the cheapest other of the same name, and of a Doppler the cheapest other of its phase', async () => {
    await mergeSnapshot(
      t.store,
      {
        seq: 100n,
        listings: [
          lean(50, { market_hash_name: 'AK-47 | Redline (Field-Tested)', price: 900 }),
          lean(51, { market_hash_name: 'AK-47 | Redline (Field-Tested)', price: 800 }),
        ],
      },
      { scope: null, resync: false },
    );
    const rng = createRng(9);
    const doppler = (id: number, price: number, paintIndex: number) => dopplerListing(rng, id, price, paintIndex, DOPPLER);
    const rows = [
      doppler(1, 60_000, 420),
      doppler(2, 62_000, 418),
      doppler(3, 290_000, 415),
      doppler(4, 310_000, 415),
      doppler(5, 58_000, 420),
    ];
    t.store.applyEvents(rows.map((l, i) => createdEvent(l, 101n + BigInt(i))));
    const prices = new ReferencePrices(t.db);
    const of = (id: number, paintIndex: number | null) =>
      prices.of('cheapest_other', {
        id,
        app_id: 730,
        market_hash_name: DOPPLER,
        detail: paintIndex === null ? null : { paint_index: paintIndex },
      });
    expect(of(4, 415)).toBe(290_000); // a Ruby: the other Ruby, not a Phase 3 at 580
    expect(of(1, 420)).toBe(58_000); // a Phase 3: the other Phase 3
    expect(of(2, 418)).toBeNull(); // the only Phase 1
    expect(of(99, null)).toBe(58_000); // details unknown: the whole name, as before
    expect(
      prices.of('cheapest_other', {
        id: 50,
        app_id: 730,
        market_hash_name: 'AK-47 | Redline (Field-Tested)',
      }),
    ).toBe(800);
  });
});

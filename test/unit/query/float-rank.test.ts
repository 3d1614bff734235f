import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { floatRank } from '../../../src/core/query/float-rank.ts';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { BASE_TIME_MS, createRng, createdEvent, makeFullListing, removedEvent } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const NAME = 'AK-47 | Redline (Field-Tested)';

describe('floatRank', () => {
  it('ranks a float among the live listings of the item with a known float; equal floats share a rank', async () => {
    await mergeSnapshot(t.store, { seq: 100n, listings: [] }, { scope: null, resync: false });
    const rng = createRng(3);
    const cs = (id: number, wear: number, name = NAME) => ({
      ...makeFullListing(rng, id, BASE_TIME_MS),
      app_id: 730 as const,
      market_hash_name: name,
      cs_paint_wear: wear,
    });
    let seq = 100n;
    const floats = [0.31, 0.18, 0.25, 0.18, 0.37];
    t.store.applyEvents(floats.map((w, i) => createdEvent(cs(i + 1, w), ++seq)));
    t.store.applyEvents([createdEvent(cs(50, 0.01, 'M4A4 | Howl (Field-Tested)'), ++seq)]); // another item
    expect(floatRank(t.db, NAME, 0.18)).toEqual({ rank: 1, of: 5 });
    expect(floatRank(t.db, NAME, 0.25)).toEqual({ rank: 3, of: 5 });
    expect(floatRank(t.db, NAME, 0.37)).toEqual({ rank: 5, of: 5 });
    // a removed listing no longer counts
    t.store.applyEvents([removedEvent(2, 730, ++seq)]);
    expect(floatRank(t.db, NAME, 0.25)).toEqual({ rank: 2, of: 4 });
    expect(floatRank(t.db, 'Never Listed', 0.1)).toBeNull();
  });
});

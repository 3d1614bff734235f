/**
 * A new listing's frame is on the purchase's hot path: each watchlist's filter is run on it once, its
 * verdict serving both the check for a stale creation and the judging.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchEvaluator } from '../../../src/core/watch/evaluator.ts';
import type * as Matcher from '../../../src/core/watch/matcher.ts';
import { ReferencePrices } from '../../../src/core/watch/reference-prices.ts';
import { WatchStore } from '../../../src/core/watch/store.ts';
import type { ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { watchlistInput } from '../../../src/shared/watchlist.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

/** How many times each watchlist's filter (by the name it looks for) was run. */
const runs = vi.hoisted(() => new Map<string, number>());
vi.mock('../../../src/core/watch/matcher.ts', async (importOriginal) => {
  const matcher = await importOriginal<typeof Matcher>();
  return {
    ...matcher,
    compileFilter: (...args: Parameters<typeof matcher.compileFilter>) => {
      const test = matcher.compileFilter(...args);
      const name = String(args[0].name);
      return (...listing: Parameters<typeof test>) => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        return test(...listing);
      };
    },
  };
});

let t: TestStore | null = null;
afterEach(() => {
  t?.close();
  t = null;
  runs.clear();
});

describe('a new listing judged on arrival', () => {
  it('runs each filter once, whether it passes or not', () => {
    t = openTestStore();
    const store = new WatchStore(t.db);
    const evaluator = new WatchEvaluator(t.db, store, new ReferencePrices(t.db));
    const listing = {
      ...makeFullListing(createRng(5), 1),
      market_hash_name: 'AK-47 | Redline (Field-Tested)',
      price: 500,
    };
    const watchlist = (id: number, name: string) => ({
      ...watchlistInput.parse({
        name: `w${id}`,
        filter: { name },
        price: { kind: 'ceiling', max_price: 1_000_000 },
      }),
      id,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    evaluator.setWatchlists([
      watchlist(1, 'AK-47 | Redline (Field-Tested)'),
      watchlist(2, 'AWP | Asiimov (Field-Tested)'),
    ]);

    const matches = evaluator.evaluateArrival(createdEvent(listing, 1n) as ListingCreatedEvent);
    expect(matches.map((m) => m.watchlist.id)).toEqual([1]);
    expect(Object.fromEntries(runs)).toEqual({
      'AK-47 | Redline (Field-Tested)': 1,
      'AWP | Asiimov (Field-Tested)': 1,
    });
  });
});

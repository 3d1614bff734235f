/**
 * The hourly pruning writes the match memory: it must not write the memory of a match whose alert is
 * still to be written (on the next turn of the event loop, or when the sweep that matched it returns),
 * or a run that stops in between leaves a listing remembered as alerted that no one was ever told of.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WatchEvaluator } from '../../../src/core/watch/evaluator.ts';
import { ReferencePrices } from '../../../src/core/watch/reference-prices.ts';
import { WatchStore } from '../../../src/core/watch/store.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore | null = null;
afterEach(() => {
  t?.close();
  t = null;
});

describe('the pruning of the match memory', () => {
  it('keeps what a sweep under way matched: not written before the sweep returns, not matched twice either', async () => {
    t = openTestStore();
    const rng = createRng(9);
    // more than a sweep's page (1,000 listings): the pruning comes between two pages
    t.store.applyEvents(
      Array.from({ length: 1_200 }, (_, i) => createdEvent(makeFullListing(rng, i + 1), BigInt(i + 1))),
    );
    const store = new WatchStore(t.db);
    const w = store.create({
      name: 'everything',
      filter: {},
      price: { kind: 'ceiling', max_price: 100_000_000 },
    });
    const evaluator = new WatchEvaluator(t.db, store, new ReferencePrices(t.db));
    evaluator.setWatchlists([w]);

    const sweeping = evaluator.sweep();
    evaluator.prune();
    expect(store.matches()).toEqual([]);
    expect(await sweeping).toHaveLength(1_200);
    evaluator.persist();
    expect(store.matches()).toHaveLength(1_200);
    expect(await evaluator.sweep()).toEqual([]);
  });
});

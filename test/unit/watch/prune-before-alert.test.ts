/**
 * The hourly pruning writes the match memory: it must not write the memory of a match whose alert is
 * still to be written (on the next turn of the event loop, or when the sweep that matched it returns),
 * or a run that stops in between leaves a listing remembered as alerted that no one was ever told of.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/core/store/index.ts';
import { WatchEvaluator } from '../../../src/core/watch/evaluator.ts';
import { ReferencePrices } from '../../../src/core/watch/reference-prices.ts';
import { WatchService } from '../../../src/core/watch/service.ts';
import { WatchStore } from '../../../src/core/watch/store.ts';
import type { ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

const ITEM = 'AK-47 | Redline (Field-Tested)';

let t: TestStore | null = null;
afterEach(() => {
  t?.close();
  t = null;
  vi.useRealTimers();
});

describe('the pruning of the match memory', () => {
  it('writes the alerts judged before it first, so a run stopping right after it loses none', async () => {
    // the service's hourly and minute timers only: the rest keeps real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = openTestStore();
    const crashedDb = openDatabase(t.file);
    const crashed = new WatchService({ db: crashedDb });
    crashed.create({
      name: 'redlines',
      filter: { name: ITEM },
      price: { kind: 'ceiling', max_price: 5_000 },
    });
    await crashed.sweep();
    const event = createdEvent(
      { ...makeFullListing(createRng(3), 1), market_hash_name: ITEM, price: 900 },
      1n,
    );
    t.store.applyEvents([event]);

    // the process dies right after the pruning wrote the match memory
    vi.spyOn(crashed.store, 'pruneAlerts').mockImplementation(() => {
      crashedDb.close();
      return 0;
    });
    vi.advanceTimersByTime(3_600_000 - 1);
    // judged just before the hour: its alert row is for the next turn of the event loop, the pruning comes first
    crashed.onArrived(event as ListingCreatedEvent);
    vi.advanceTimersByTime(1);
    expect(crashedDb.open).toBe(false);
    await crashed.close();

    const next = new WatchService({ db: t.db });
    try {
      await next.sweep();
      expect(next.alerts().map((a) => a.listingId)).toEqual([1]);
    } finally {
      await next.close();
    }
  });

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

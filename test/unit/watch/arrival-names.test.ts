/**
 * A new listing is judged from its frame before the book applies it, names included: a name whose case
 * folding differs between JavaScript's toLowerCase and SQLite's index (here a Greek final sigma) is
 * judged in JavaScript like any other, so it matches on arrival, while the book does not hold the name
 * yet, and is not judged again when the book applies it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WatchService, type WatchMatch } from '../../../src/core/watch/index.ts';
import type { FullListing, ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore | null = null;
let service: WatchService | null = null;
afterEach(async () => {
  await service?.close();
  t?.close();
  service = null;
  t = null;
});

describe('a new listing judged on arrival', () => {
  it('matches a name SQLite folds differently from toLowerCase before the book holds it, once', async () => {
    t = openTestStore();
    const s = (service = new WatchService({ db: t.db }));
    s.onStatus('live');
    s.create({
      name: 'sigma',
      filter: { name: 'ΣΟΦΟΣ' },
      price: { kind: 'ceiling', max_price: 1_000_000 },
      paused: false,
      alerts: { notify: false, sound: false, webhook: null },
      auto_buy: { mode: 'off' },
    });
    await s.settled();
    const matches: WatchMatch[] = [];
    s.on('match', (m) => matches.push(m));

    const listing: FullListing = {
      ...makeFullListing(createRng(3), 1),
      market_hash_name: 'Sticker | σοφος (Holo)',
    };
    const event = createdEvent(listing, 1n) as ListingCreatedEvent;
    s.onArrived(event);
    await s.settled(); // matches are told on the next turn
    const held = t.db.prepare('SELECT count(*) FROM item_names WHERE name = ?').pluck();
    expect(held.get(listing.market_hash_name)).toBe(0);
    expect(matches.map((m) => m.listing.id)).toEqual([listing.id]);

    t.store.applyEvents([event]);
    expect(held.get(listing.market_hash_name)).toBe(1);
    s.onApplied([event]);
    await s.settled();
    expect(matches).toHaveLength(1);
    expect(s.alerts(10).filter((a) => a.listingId === listing.id)).toHaveLength(1);
  });
});

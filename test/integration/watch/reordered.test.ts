/**
 * Two events of one listing can arrive out of order (the marketplace runs on several processes): a
 * creation whose listing the book already holds removed at a newer seq is stale — on arrival too, where
 * it is judged before the sync worker's seq guard would drop it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { ManualRig } from './rig.ts';

let rig: ManualRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('a creation that arrives after its listing was removed', () => {
  it('is neither alerted nor bought on arrival: the book holds a newer event of it', async () => {
    const r = await ManualRig.start();
    rig = r;
    const item = await r.snipeOneItem();
    const l = r.demo.createListing({ name: item, price: 900 });
    r.demo.delistListing(l.listing.id);
    // the book has applied the removal (its own events, without the watch hearing them)...
    const applied = r.applyFeed();
    const creation = applied.find(
      (e): e is ListingCreatedEvent => e.event === 'listing.created' && e.data.listing_id === l.listing.id,
    );
    expect(applied.some((e) => e.event === 'listing.removed' && e.data.listing_id === l.listing.id)).toBe(
      true,
    );
    // ...when the creation's frame arrives, late
    r.service.onArrived(creation!);
    await r.service.settled();
    expect(r.service.alerts(10).filter((a) => a.listingId === l.listing.id)).toEqual([]);
    expect(r.service.log(10).filter((e) => e.listingId === l.listing.id)).toEqual([]);
    expect(r.journal().filter((j) => j.listing_id === l.listing.id)).toEqual([]);
  });
});

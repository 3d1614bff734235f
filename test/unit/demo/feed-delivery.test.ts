/** Reordering and duplication on the WebSocket: changes of one listing overtake each other, whatever the field. */
import { describe, expect, it } from 'vitest';
import type { ListingEventName } from '../../../src/shared/api/index.ts';
import type { PublishedEvent } from '../../../src/demo/market/feed.ts';
import { FeedDelivery } from '../../../src/demo/server/feed-delivery.ts';
import { Random } from '../../../src/demo/random.ts';

let seq = 0n;
const ev = (name: ListingEventName, listingId: number, newAmount: number | null = null): PublishedEvent => ({
  seq: ++seq,
  name,
  listingId,
  appId: 730,
  newAmount,
  frame: `${name}:${listingId}:${seq}`,
});

/** Pushes `events` through a delivery with these odds, then sends whatever is still held. */
function deliver(events: PublishedEvent[], reorder: number): { out: PublishedEvent[]; delivery: FeedDelivery } {
  const out: PublishedEvent[] = [];
  const delivery = new FeedDelivery({ rng: new Random(1), reorder, duplicate: 0, send: (e) => out.push(e) });
  for (const e of events) delivery.push(e);
  delivery.flush();
  return { out, delivery };
}

describe('FeedDelivery', () => {
  it('delivers in order when reorder and duplicate are 0', () => {
    const sent = [ev('listing.created', 1), ev('listing.price_changed', 1), ev('listing.removed', 1)];
    expect(deliver(sent, 0).out).toEqual(sent);
  });

  it('lets a later event of the same kind overtake a held one, never a created or sold', () => {
    const created = ev('listing.created', 2);
    const p1 = ev('listing.price_changed', 2);
    const p2 = ev('listing.price_changed', 2);
    const a1 = ev('listing.amount_changed', 2, 3);
    const sold = ev('listing.sold', 2);
    const removed = ev('listing.removed', 2);
    const { out, delivery: d } = deliver([created, p1, p2, a1, sold, removed], 1);
    // created goes out at once; p1 is held and overtaken by p2 (same kind); p2... is held next only if
    // holdable — the order below is what a seq-guarded client turns into the right state
    expect(out[0]).toBe(created);
    expect(out.indexOf(p2)).toBeLessThan(out.indexOf(p1));
    expect(out.indexOf(sold)).toBeGreaterThan(out.indexOf(a1));
    expect(out.filter((e) => e === removed)).toHaveLength(1);
    expect(d.stats.reordered).toBeGreaterThan(0);
  });

  it('lets a stock change overtake a price change of the listing, and the reverse', () => {
    const price = ev('listing.price_changed', 3);
    const stock = ev('listing.amount_changed', 3, 4);
    const price2 = ev('listing.price_changed', 4);
    const stock2 = ev('listing.amount_changed', 4, 2);
    const { out, delivery: d } = deliver([price, stock, stock2, price2], 1);
    expect(out.indexOf(stock)).toBeLessThan(out.indexOf(price));
    expect(out.indexOf(price2)).toBeLessThan(out.indexOf(stock2));
    expect(d.stats.reordered).toBe(2);
  });

  it('never lets a change overtake the creation of its listing, nor anything overtake a sale', () => {
    const created = ev('listing.created', 5);
    const price = ev('listing.price_changed', 5);
    const sold = ev('listing.sold', 5);
    const stock = ev('listing.amount_changed', 5, 1);
    const { out } = deliver([created, price, sold, stock], 1);
    expect(out.indexOf(created)).toBeLessThan(out.indexOf(price));
    expect(out.indexOf(price)).toBeLessThan(out.indexOf(sold));
    expect(out.indexOf(sold)).toBeLessThan(out.indexOf(stock));
  });

  it('sends duplicates as exact copies, a little later', async () => {
    const out: PublishedEvent[] = [];
    const d = new FeedDelivery({ rng: new Random(1), reorder: 0, duplicate: 1, send: (e) => out.push(e) });
    const e = ev('listing.price_changed', 4);
    d.push(e);
    expect(out).toEqual([e]);
    await new Promise((r) => setTimeout(r, 50));
    expect(out).toEqual([e, e]);
    d.close();
  });
});

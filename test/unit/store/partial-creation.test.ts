/**
 * A `listing.created` as the spec promises it: the lean fields "plus the per-game item fields of 2.3",
 * which need not include the general ones (steam_asset_id, icon_url, trade_locked_until) nor the other
 * games' nulls. The frame is taken (a refused frame costs a book re-read), the listing is found by its
 * per-game fields at once, and it is left to the detail backfill for the rest.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBookQueries } from '../../../src/core/app/book-queries.ts';
import type { MarketSession } from '../../../src/core/app/session.ts';
import { queryBook } from '../../../src/core/query/index.ts';
import { readStatus } from '../../../src/core/store/index.ts';
import {
  parseServerFrame,
  stringifyJson,
  type FullListing,
  type ListingEvent,
} from '../../../src/shared/api/index.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from './helpers.ts';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const rng = createRng(11);
const full = (id: number): FullListing => ({
  ...makeFullListing(rng, id),
  app_id: 730,
  cs_paint_wear: 0.0712,
  commodity: false,
});

/** The frame a market that sends only the listing's own game's fields would send. */
function ownGameOnlyFrame(listing: FullListing, seq: bigint): ListingEvent {
  const data = Object.fromEntries(
    Object.entries(createdEvent(listing, seq).data).filter(
      ([key]) =>
        !['steam_asset_id', 'icon_url', 'trade_locked_until'].includes(key) && !/^(rust|dota|tf2)_/.test(key),
    ),
  );
  const frame = parseServerFrame(
    stringifyJson({ event: 'listing.created', seq, ts: '2026-11-23T06:00:00Z', data }),
  );
  if (frame.kind !== 'listing') throw new Error(`the frame was not taken as a listing event: ${frame.kind}`);
  return frame.event;
}

describe('a creation without the general detail fields', () => {
  it('is a listing event, found by its float at once, and left for the backfill', () => {
    const listing = full(1);
    const event = ownGameOnlyFrame(listing, 10n);
    expect(event.data).not.toHaveProperty('icon_url');
    expect(t.store.applyEvents([event]).applied).toBe(1);
    const found = queryBook(t.db, {
      filter: { app_id: 730, float: { min: 0.07, max: 0.072 } },
      sort: { field: 'id', dir: 'asc' },
      limit: 10,
    });
    expect(found.rows.map((r) => r.id)).toEqual([1]);
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 0 });
    // the backfill's page brings the whole listing
    expect(t.store.fillDetails(1, listing)).toBe(true);
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 1 });
  });

  it('a complete creation is detailed at once, and an incomplete one seen twice is still not detailed', () => {
    t.store.applyEvents([createdEvent(full(2), 10n)]);
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 1 });
    const again = ownGameOnlyFrame(full(3), 11n);
    t.store.applyEvents([again]);
    t.store.applyEvents([again]);
    expect(readStatus(t.db)).toMatchObject({ listings: 2, detailed: 1 });
  });
});

describe('the detail view of a listing known from a creation without the general fields', () => {
  /** A connected session whose on-demand read answers with the market's listing, or fails. */
  function session(answer: () => Promise<FullListing | null>): { session: MarketSession; reads: number[] } {
    const reads: number[] = [];
    const fake = {
      client: {},
      fetchListing: (id: number) => {
        reads.push(id);
        return answer();
      },
    };
    return { session: fake as unknown as MarketSession, reads };
  }

  it('reads the asset id, icon and trade lock with the listing, the mirror still giving price and amount', async () => {
    const listing = full(4);
    t.store.applyEvents([ownGameOnlyFrame(listing, 10n)]);
    const market = session(() => Promise.resolve({ ...listing, price: listing.price + 1 }));
    const read = await createBookQueries(t.db).listing(4, market.session);
    expect(market.reads).toEqual([4]);
    expect(read.listing).toEqual(listing);
  });

  it('shows the per-game fields it has when that read fails', async () => {
    const listing = full(5);
    t.store.applyEvents([ownGameOnlyFrame(listing, 10n)]);
    const market = session(() => Promise.reject(new Error('the marketplace could not be reached')));
    const read = await createBookQueries(t.db).listing(5, market.session);
    expect(read).toMatchObject({ alive: true, listing: { id: 5, cs_paint_wear: 0.0712, icon_url: null } });
  });
});

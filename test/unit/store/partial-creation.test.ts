/**
 * A `listing.created` as the spec promises it: the lean fields "plus the per-game item fields of 2.3",
 * which need not include the general ones (steam_asset_id, icon_url, trade_locked_until) nor the other
 * games' nulls. The frame is taken (a refused frame costs a book re-read), the listing is found by its
 * per-game fields at once and counts as detailed (those fields are what the backfill is for); the rest
 * comes with the listing when its detail is opened. A creation without its game's fields is left to the
 * backfill.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBookQueries } from '../../../src/core/app/book-queries.ts';
import type { MarketSession } from '../../../src/core/app/session.ts';
import { queryBook } from '../../../src/core/query/index.ts';
import { asFullListing, mergeSnapshot, readListing, readStatus } from '../../../src/core/store/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import { createRng, createdEvent, leanOf, makeFullListing } from '../../bench/generate.ts';
import {
  GENERAL_DETAIL_FIELDS,
  creationFrameWithout,
  leanOnlyFrame,
  openTestStore,
  ownGameOnlyFrame,
  type TestStore,
} from './helpers.ts';

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

describe('a creation without the general detail fields', () => {
  it('is a listing event, found by its float at once, and detailed', () => {
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
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 1 });
    // no backfill page is needed for it; the detail view's read brings the general fields
    expect(t.store.fillDetails(1, listing)).toBe(false);
    expect(t.store.fillFetched(1, listing)).toBe(true);
    const stored = readListing(t.db, 1);
    expect(stored && asFullListing(stored)).toEqual(listing);
  });

  it('covered by the snapshot, still details the listing the snapshot brought', async () => {
    const listing = full(2);
    await mergeSnapshot(t.store, { seq: 20n, listings: [leanOf(listing)] }, { scope: null, resync: false });
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 0 });
    t.store.applyEvents([ownGameOnlyFrame(listing, 15n)]);
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 1 });
  });

  it('is left to the backfill when it lacks a field of its game, seen once or twice', () => {
    t.store.applyEvents([createdEvent(full(2), 10n)]);
    expect(readStatus(t.db)).toMatchObject({ listings: 1, detailed: 1 });
    const leanOnly = leanOnlyFrame(full(3), 11n);
    const noStickers = creationFrameWithout(full(4), 12n, (field) => GENERAL_DETAIL_FIELDS.includes(field) || field === 'cs_stickers');
    t.store.applyEvents([leanOnly, noStickers]);
    t.store.applyEvents([leanOnly, noStickers]);
    expect(readStatus(t.db)).toMatchObject({ listings: 3, detailed: 1 });
    expect(t.store.fillDetails(3, full(3))).toBe(true);
  });
});

describe('the detail view of a listing known from a creation without the general fields', () => {
  /** A connected session whose on-demand read answers with the market's listing, or fails. */
  function session(answer: () => Promise<FullListing | null>): { session: MarketSession; reads: number[] } {
    const reads: number[] = [];
    const fake = {
      canFetchListings: true,
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

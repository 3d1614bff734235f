/**
 * A sticker the market sends without `wear` (or with null) is unscraped: a max-wear filter takes it as
 * wear 0, in the query engine and in the watchlists' matcher alike, and the contract accepts it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryBook } from '../../../src/core/query/index.ts';
import {
  ListingReader,
  NameMatcher,
  compileFilter,
  listingFromCreated,
  type WatchedListing,
} from '../../../src/core/watch/matcher.ts';
import {
  fullListing,
  listingCreatedData,
  type FullListing,
  type ListingCreatedData,
  type ListingEvent,
  type Sticker,
} from '../../../src/shared/api/index.ts';
import type { BookFilter } from '../../../src/shared/query.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore;
const events: ListingEvent[] = [];

function sticker(slot: number, name: string, wear: number | null | 'missing'): Sticker {
  const s: Record<string, unknown> = {
    slot,
    sticker_id: 7,
    name,
    image: 'https://img.example/s.png',
    wear,
    scale: 1,
    rotation: 0,
    tint_id: 0,
    offset_x: 0,
    offset_y: 0,
    offset_z: 0,
    pattern: 0,
  };
  if (wear === 'missing') delete s.wear;
  return s as Sticker;
}

/** Listing id → its one sticker's wear as the market sent it. */
const WEARS: [number, number | null | 'missing'][] = [
  [1, 'missing'],
  [2, null],
  [3, 0],
  [4, 0.004],
  [5, 0.5],
];

beforeAll(() => {
  t = openTestStore();
  const rng = createRng(21);
  for (const [id, wear] of WEARS) {
    let l = makeFullListing(rng, id);
    while (l.app_id !== 730) l = makeFullListing(rng, id);
    const listing: FullListing = { ...l, cs_stickers: [sticker(1, 'Crown (Foil)', wear)], cs_keychains: [] };
    events.push(createdEvent(listing, BigInt(id)));
  }
  t.store.applyEvents(events);
});
afterAll(() => t.close());

const engineIds = (filter: BookFilter) =>
  queryBook(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 100 }).rows.map((r) => r.id);

describe('sticker wear the market leaves out', () => {
  it('is accepted by the contract (full listing and listing.created)', () => {
    const withoutWear = events[0]!.data as ListingCreatedData;
    expect(listingCreatedData.safeParse(withoutWear).success).toBe(true);
    const { listing_id: id, ...rest } = withoutWear;
    expect(fullListing.safeParse({ id, ...rest }).success).toBe(true);
  });

  it('counts as wear 0 for a max-wear filter, in the engine and in the watch matcher', () => {
    const reader = new ListingReader(t.db);
    const names = new NameMatcher();
    const filters: [BookFilter, number[]][] = [
      [{ stickers: { all: [{ max_wear: 0 }] } }, [1, 2, 3]],
      [{ stickers: { all: [{ max_wear: 0.01 }] } }, [1, 2, 3, 4]],
      [{ stickers: { all: [{ max_wear: 0.01, name: 'crown' }] } }, [1, 2, 3, 4]],
      [{ stickers: { all: [{ max_wear: 0.01, slot: 1 }] } }, [1, 2, 3, 4]],
      [{ stickers: { all: [{ max_wear: 1 }] } }, [1, 2, 3, 4, 5]],
      [{ stickers: { all: [{ max_wear: 0.01, slot: 0 }] } }, []],
    ];
    for (const [filter, expected] of filters) {
      expect(engineIds(filter), JSON.stringify(filter)).toEqual(expected);
      const test = compileFilter(filter, names);
      for (const e of events) {
        const fromEvent = listingFromCreated(e.data as ListingCreatedData);
        const stored = reader.read(fromEvent.id) as WatchedListing;
        const want = expected.includes(fromEvent.id);
        expect(test(fromEvent), `${JSON.stringify(filter)} event ${fromEvent.id}`).toBe(want);
        expect(test(stored), `${JSON.stringify(filter)} stored ${fromEvent.id}`).toBe(want);
      }
    }
  });
});

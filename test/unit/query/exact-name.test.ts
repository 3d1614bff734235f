/**
 * A name filter in double quotes is the whole name: "Show in book" and "All sales on the tape" of an
 * AK-47 | Redline (Field-Tested) must not bring in its StatTrak™ and Souvenir versions, which a substring
 * does. Case-insensitive like the substring; for item and sticker names alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryBook } from '../../../src/core/query/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import { exactNameFilter, exactNameOf, type BookFilter } from '../../../src/shared/query.ts';
import { createRng, createdEvent, makeFullListing, stickerNamed } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

const NAMES = [
  'AK-47 | Redline (Field-Tested)',
  'StatTrak™ AK-47 | Redline (Field-Tested)',
  'Souvenir AK-47 | Redline (Field-Tested)',
  'AK-47 | Redline (Minimal Wear)',
];

let t: TestStore;
beforeAll(() => {
  t = openTestStore();
  const rng = createRng(5);
  const events = NAMES.map((name, i) => {
    let base = makeFullListing(rng, i + 1);
    while (base.app_id !== 730) base = makeFullListing(rng, i + 1);
    const listing: FullListing = { ...base, market_hash_name: name, cs_stickers: [stickerNamed(i === 0 ? 'Crown (Foil)' : 'Crown (Foil) | Katowice 2014')] };
    return createdEvent(listing, BigInt(i + 1));
  });
  t.store.applyEvents(events);
});
afterAll(() => t.close());

const names = (filter: BookFilter) =>
  queryBook(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 100 }).rows.map((r) => r.market_hash_name);

describe('exact names', () => {
  it('a quoted name finds that item only; unquoted it is a substring', () => {
    expect(names({ name: exactNameFilter('AK-47 | Redline (Field-Tested)') })).toEqual(['AK-47 | Redline (Field-Tested)']);
    expect(names({ name: '"ak-47 | REDLINE (field-tested)"' })).toEqual(['AK-47 | Redline (Field-Tested)']);
    expect(names({ name: 'AK-47 | Redline (Field-Tested)' })).toEqual(NAMES.slice(0, 3));
    expect(names({ name: '"AK-47 | Redline"' })).toEqual([]);
  });

  it('a quoted sticker name finds listings with that sticker, not with a longer name holding it', () => {
    expect(names({ stickers: { all: [{ name: '"Crown (Foil)"' }] } })).toEqual([NAMES[0]]);
    expect(names({ stickers: { all: [{ name: 'Crown (Foil)' }] } })).toEqual(NAMES);
  });

  it('reads a needle as exact only when quoted at both ends around something', () => {
    expect(exactNameOf('"AWP | Asiimov"')).toBe('AWP | Asiimov');
    expect(exactNameOf('"AWP')).toBeNull();
    expect(exactNameOf('""')).toBeNull();
    expect(exactNameOf('"')).toBeNull();
    expect(exactNameOf('AWP')).toBeNull();
  });
});

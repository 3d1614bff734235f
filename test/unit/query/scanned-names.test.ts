/**
 * Names found by a scan of every name (a needle under 3 characters, a whole name) are kept per book file:
 * at 1M listings the scan of ~100k names took 11 ms for "ak", once per statement of a query. A kept match
 * is handed to the statements as a list with a scan of the names added since, so a statement planned
 * before a new name arrived still finds it (a window keeps its statement for later pages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileQuery, queryBook } from '../../../src/core/query/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import { exactNameFilter, type BookFilter } from '../../../src/shared/query.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

let t: TestStore;
let nextId = 1;
const rng = createRng(8);

/** Lists a CS item under `name`: a new name when the book has none like it. */
function list(name: string): number {
  let base = makeFullListing(rng, nextId);
  while (base.app_id !== 730) base = makeFullListing(rng, nextId);
  const listing: FullListing = { ...base, market_hash_name: name };
  t.store.applyEvents([createdEvent(listing, BigInt(nextId))]);
  return nextId++;
}

beforeAll(() => {
  t = openTestStore();
  for (const name of ['AK-47 | Redline (Field-Tested)', 'M4A1-S | Nightmare (Minimal Wear)', 'Karambit | Doppler (Factory New)']) list(name);
});
afterAll(() => t.close());

const idsOf = (filter: BookFilter) => queryBook(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 100 }).rows.map((r) => r.id);

describe('names found by a scan', () => {
  it('are kept as a list, and a statement planned before a new name still finds its listings', () => {
    const filter: BookFilter = { name: 'ak' };
    const before = idsOf(filter);
    expect(before).toEqual([1]);
    const compiled = compileQuery(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 100 });
    expect(compiled.sql).toContain('json_each(?)');
    const planned = t.db.prepare(compiled.sql);
    // a name no listing had when the match was kept
    const added = list('Snakebite Case Key');
    expect((planned.all(...compiled.params) as { id: number }[]).map((r) => r.id)).toEqual([...before, added]);
    expect(idsOf(filter)).toEqual([...before, added]);
  });

  it('a whole name is kept the same way', () => {
    const filter: BookFilter = { name: exactNameFilter('Karambit | Doppler (Factory New)') };
    expect(compileQuery(t.db, { filter }).sql).toContain('json_each(?)');
    expect(idsOf(filter)).toEqual([3]);
    const again = list('Karambit | Doppler (Factory New)');
    expect(idsOf(filter)).toEqual([3, again]);
  });

  it('match as the trigram index does, in any case', () => {
    expect(idsOf({ name: 'AK' })).toEqual(idsOf({ name: 'ak' }));
    expect(idsOf({ name: 'ak' })).toEqual(idsOf({ name: 'aK' }));
    expect(idsOf({ name: '"m4a1-s | NIGHTMARE (minimal wear)"' })).toEqual([2]);
  });
});

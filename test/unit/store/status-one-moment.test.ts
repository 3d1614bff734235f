/**
 * `skindesk status` and the app's status row read several counts: they must all be of one moment, even
 * while the sync (another connection) commits a batch between two of them — else `listings` can come
 * from after a batch and `last_seq` from before it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, readStatus, type Db } from '../../../src/core/store/index.ts';
import { openTestStore, type TestStore } from './helpers.ts';
import { createRng, createdEvent, makeFullListing, removedEvent } from '../../bench/generate.ts';

let t: TestStore;
let reader: Db;
beforeEach(() => {
  t = openTestStore();
  const rng = createRng(3);
  t.store.applyEvents([1, 2, 3].map((id) => createdEvent({ ...makeFullListing(rng, id), app_id: 730 }, BigInt(7 + id))));
  reader = openDatabase(t.file, { readonly: true });
});
afterEach(() => {
  reader.close();
  t.close();
});

describe('readStatus', () => {
  it('reads every figure at one moment though a batch commits between two of its queries', () => {
    const prepare = reader.prepare.bind(reader);
    let calls = 0;
    // the sync's writer commits a removal right after the status's first query
    (reader as { prepare: Db['prepare'] }).prepare = ((sql: string) => {
      if (calls++ === 1) t.store.applyEvents([removedEvent(2, 730, 11n)]);
      return prepare(sql);
    }) as Db['prepare'];
    const status = readStatus(reader);
    (reader as { prepare: Db['prepare'] }).prepare = prepare;
    // either all before the removal, or all after it; never a mix
    const before = { last_seq: '10', listings: 3, tombstones: 0 };
    const after = { last_seq: '11', listings: 2, tombstones: 1 };
    const seen = { last_seq: status.last_seq, listings: status.listings, tombstones: status.tombstones };
    expect([before, after]).toContainEqual(seen);
    expect(calls).toBeGreaterThan(1);
  });
});

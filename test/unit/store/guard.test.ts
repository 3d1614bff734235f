/**
 * The seq guard: one rule (apply only above the seq the listing carries, tombstones included; for price
 * and amount, above the seq that last wrote that field) covering duplicates, reordering, late events and
 * int64 seqs above 2^53.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asFullListing, readListing, readStatus, readSyncState } from '../../../src/core/store/index.ts';
import {
  amountChangedEvent,
  createRng,
  createdEvent,
  makeFullListing,
  priceChangedEvent,
  removedEvent,
  soldEvent,
} from '../../bench/generate.ts';
import { book, openTestStore, type TestStore } from './helpers.ts';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.close());

const rng = createRng(7);
const listing = (id: number) => ({ ...makeFullListing(rng, id), app_id: 730 as const });

describe('event guard', () => {
  it('applies a creation and later updates, and ignores duplicates', () => {
    const l = listing(1);
    const ev = [createdEvent(l, 10n), priceChangedEvent(1, 730, l.price, 999, 11n), amountChangedEvent(1, 730, 3, 12n)];
    const first = t.store.applyEvents(ev);
    expect(first.applied).toBe(3);
    const again = t.store.applyEvents(ev);
    expect(again.applied).toBe(0);
    expect(again.stale).toBe(3);
    expect(book(t.db)).toEqual([expect.objectContaining({ id: 1, price: 999, amount: 3 })]);
  });

  it('keeps the newer state when two events of a listing arrive out of order', () => {
    const l = listing(1);
    t.store.applyEvents([createdEvent(l, 10n)]);
    const out = t.store.applyEvents([priceChangedEvent(1, 730, 5, 700, 20n), priceChangedEvent(1, 730, 5, 500, 15n)]);
    expect(out.applied).toBe(1);
    expect(out.stale).toBe(1);
    expect(book(t.db)[0]?.price).toBe(700);
  });

  it('keeps a late price change that arrives after a newer amount change, and the reverse', () => {
    t.store.applyEvents([createdEvent(listing(1), 10n), createdEvent(listing(2), 10n)]);
    // the feed delivers each listing's two changes newest first
    const out = t.store.applyEvents([
      amountChangedEvent(1, 730, 4, 30n),
      priceChangedEvent(1, 730, 5, 700, 20n),
      priceChangedEvent(2, 730, 5, 800, 31n),
      amountChangedEvent(2, 730, 6, 21n),
    ]);
    expect(out).toMatchObject({ applied: 4, stale: 0 });
    expect(book(t.db).map((l) => [l.id, l.price, l.amount])).toEqual([
      [1, 700, 4],
      [2, 800, 6],
    ]);
    // each field still refuses what is older than its own last write
    const late = t.store.applyEvents([priceChangedEvent(1, 730, 5, 600, 15n), amountChangedEvent(2, 730, 9, 19n)]);
    expect(late).toMatchObject({ applied: 0, stale: 2 });
    expect(readSyncState(t.db).lastSeq).toBe(31n);
  });

  it('never lets a late update bring a removed listing back', () => {
    const l = listing(1);
    t.store.applyEvents([createdEvent(l, 10n), removedEvent(1, 730, 30n)]);
    const late = t.store.applyEvents([priceChangedEvent(1, 730, 5, 123, 20n), createdEvent(l, 10n)]);
    expect(late.applied).toBe(0);
    expect(book(t.db)).toEqual([]);
    expect(readStatus(t.db).tombstones).toBe(1);
  });

  it('leaves a tombstone for a removal that overtakes the creation', () => {
    const l = listing(2);
    t.store.applyEvents([removedEvent(2, 730, 31n)]);
    const out = t.store.applyEvents([createdEvent(l, 30n)]);
    expect(out.applied).toBe(0);
    expect(book(t.db)).toEqual([]);
  });

  it('turns amount_changed to 0 into a tombstone and keeps it across a late amount update', () => {
    t.store.applyEvents([createdEvent(listing(3), 10n), amountChangedEvent(3, 730, 0, 12n)]);
    expect(book(t.db)).toEqual([]);
    t.store.applyEvents([amountChangedEvent(3, 730, 1, 11n)]);
    expect(book(t.db)).toEqual([]);
    expect(readStatus(t.db).tombstones).toBe(1);
  });

  it('ignores updates of unknown listings, but applies them after a creation that arrives late', () => {
    const out = t.store.applyEvents([priceChangedEvent(4, 730, 5, 4321, 41n), amountChangedEvent(9, 730, 2, 42n)]);
    expect(out.unknown).toBe(2);
    expect(book(t.db)).toEqual([]);
    t.store.applyEvents([createdEvent(listing(4), 40n)]);
    expect(book(t.db)).toEqual([expect.objectContaining({ id: 4, price: 4321 })]);
  });

  it('reports the applied events in arrival order and the changed ids in order of first change', () => {
    // Applied in listing-id order internally; the outcome must not show it.
    t.store.applyEvents([createdEvent(listing(1), 5n)]);
    const batch = [
      createdEvent(listing(30), 10n),
      priceChangedEvent(1, 730, 5, 111, 11n),
      createdEvent(listing(20), 12n),
      removedEvent(1, 730, 4n), // stale: the listing already carries seq 11
      priceChangedEvent(30, 730, 5, 333, 13n),
      removedEvent(20, 730, 14n),
      removedEvent(25, 730, 15n), // never held: a tombstone all the same
    ];
    const out = t.store.applyEvents(batch);
    expect(out.events).toEqual([batch[0], batch[1], batch[2], batch[4], batch[5], batch[6]]);
    expect(out.changedIds).toEqual([30, 1, 20, 25]);
    expect(out).toMatchObject({ applied: 6, stale: 1, removed: 2, maxSeq: 15n });
    expect(book(t.db).map((l) => [l.id, l.price])).toEqual([
      [1, 111],
      [30, 333],
    ]);
    expect(readStatus(t.db).tombstones).toBe(2);
  });

  it('places the held updates released by a creation right after it in the outcome', () => {
    const held = priceChangedEvent(5, 730, 5, 4321, 41n);
    expect(t.store.applyEvents([held]).unknown).toBe(1);
    const batch = [createdEvent(listing(9), 50n), createdEvent(listing(5), 40n), priceChangedEvent(5, 730, 4321, 999, 45n)];
    const out = t.store.applyEvents(batch);
    expect(out.events).toEqual([batch[0], batch[1], held, batch[2]]);
    expect(out.changedIds).toEqual([9, 5]);
    expect(book(t.db).find((l) => l.id === 5)?.price).toBe(999);
  });

  it('gives a large batch a larger page cache and restores the connection\'s own afterwards, even on failure', () => {
    const own = t.db.pragma('cache_size', { simple: true });
    const l = listing(11);
    const sales = Array.from({ length: 12_000 }, (_, i) => soldEvent(l, 1, 100n + BigInt(i)));
    expect(t.store.applyEvents(sales).sold).toBe(12_000);
    expect(t.db.pragma('cache_size', { simple: true })).toBe(own);
    const bad = { ...priceChangedEvent(11, 730, 1, 2, 60n) };
    (bad.data as { price_after: unknown }).price_after = { not: 'a number' };
    expect(() => t.store.applyEvents([...sales.map((e) => ({ ...e, seq: e.seq + 20_000n })), bad])).toThrow();
    expect(t.db.pragma('cache_size', { simple: true })).toBe(own);
  });

  it('compares seqs above 2^53 exactly', () => {
    // 2^60 + 1 and 2^60 + 2 are the same double: a number-based guard would treat the second as a duplicate.
    const base = 2n ** 60n;
    expect(Number(base + 1n)).toBe(Number(base + 2n));
    t.store.applyEvents([createdEvent(listing(5), base)]);
    const out = t.store.applyEvents([
      priceChangedEvent(5, 730, 5, 111, base + 1n),
      priceChangedEvent(5, 730, 5, 222, base + 2n),
    ]);
    expect(out.applied).toBe(2);
    expect(book(t.db)[0]?.price).toBe(222);
    const stale = t.store.applyEvents([priceChangedEvent(5, 730, 5, 111, base + 1n)]);
    expect(stale.stale).toBe(1);
    expect(book(t.db)[0]?.price).toBe(222);
    expect(readSyncState(t.db).lastSeq).toBe(base + 2n);
    expect(readStatus(t.db).last_seq).toBe((base + 2n).toString());
  });

  it('handles the largest int64 seq', () => {
    const max = 2n ** 63n - 1n;
    t.store.applyEvents([createdEvent(listing(6), max - 1n), priceChangedEvent(6, 730, 1, 77, max)]);
    expect(book(t.db)[0]?.price).toBe(77);
    expect(readStatus(t.db).last_seq).toBe('9223372036854775807');
  });

  it('commits the watermark with the rows, and rolls both back together', () => {
    t.store.applyEvents([createdEvent(listing(7), 50n)]);
    const bad = { ...priceChangedEvent(7, 730, 1, 2, 60n) };
    (bad.data as { price_after: unknown }).price_after = { not: 'a number' };
    expect(() => t.store.applyEvents([priceChangedEvent(7, 730, 1, 55, 55n), bad])).toThrow();
    expect(readSyncState(t.db).lastSeq).toBe(50n);
    expect(book(t.db)[0]?.price).not.toBe(55);
  });

  it('records sales with the float, seed and stickers of the listing when known', () => {
    const l = { ...listing(8), cs_paint_wear: 0.0123, cs_paint_seed: 661 };
    t.store.applyEvents([createdEvent(l, 70n)]);
    const sale = soldEvent(l, 1, 71n);
    t.store.applyEvents([amountChangedEvent(8, 730, 0, 72n), sale, sale]);
    const rows = t.db.prepare('SELECT * FROM sold_history').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ listing_id: 8, price: l.price, paint_wear: 0.0123, paint_seed: 661 });
    expect(JSON.parse(rows[0]?.stickers as string)).toEqual(l.cs_stickers);
  });

  it('enriches a sale whose details arrive after it, and closes those whose details never come', () => {
    const l = { ...listing(12), cs_paint_wear: 0.5, cs_paint_seed: 7 };
    t.store.applyEvents([soldEvent(l, 1, 90n), soldEvent({ ...l, id: 13 }, 1, 91n)]);
    expect(t.db.prepare('SELECT count(*) FROM sold_history WHERE enriched = 0').pluck().get()).toBe(2);
    t.store.applyEvents([createdEvent(l, 89n)]);
    expect(t.store.enrichSales()).toBe(1);
    expect(t.db.prepare('SELECT paint_seed FROM sold_history WHERE listing_id = 12').pluck().get()).toBe(7);
    t.clock.t += 2 * 60 * 60_000;
    t.store.enrichSales();
    expect(t.db.prepare('SELECT count(*) FROM sold_history WHERE enriched = 0').pluck().get()).toBe(0);
  });

  it('stores the details of a creation and their stickers as rows', () => {
    const l = {
      ...listing(9),
      cs_stickers: [
        { slot: 0, sticker_id: 1, name: 'Sticker | Titan (Holo) | Katowice 2014', image: 'x', wear: 0.05, scale: 1, rotation: 0, tint_id: null, offset_x: 0, offset_y: 0, offset_z: 0, pattern: null },
        { slot: 2, sticker_id: 2, name: 'Sticker | Crown (Foil)', image: 'y', wear: 0.5, scale: 1, rotation: 0, tint_id: null, offset_x: 0, offset_y: 0, offset_z: 0, pattern: null },
      ],
    };
    t.store.applyEvents([createdEvent(l, 80n)]);
    const stickers = t.db
      .prepare('SELECT s.slot, n.name, s.wear FROM listing_stickers s JOIN sticker_names n USING (name_id) ORDER BY slot')
      .all();
    expect(stickers).toEqual([
      { slot: 0, name: 'Sticker | Titan (Holo) | Katowice 2014', wear: 0.05 },
      { slot: 2, name: 'Sticker | Crown (Foil)', wear: 0.5 },
    ]);
    expect(readStatus(t.db).detailed).toBe(1);
    // Read back whole: columns, JSON and restored nulls give the listing exactly as it arrived.
    const stored = readListing(t.db, 9);
    expect(stored && asFullListing(stored)).toEqual(l);
  });
});

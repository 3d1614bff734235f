import { describe, expect, it } from 'vitest';
import { ACTIVE, FILLED, ListingStore, PRIVATE, REMOVED } from '../../../src/demo/market/listing-store.ts';

function filled(n: number) {
  const store = new ListingStore(16, 10);
  for (let i = 0; i < n; i++) {
    store.append({ id: 100 + i * 3, appId: i % 2 ? 730 : 570, item: i, price: 10 + i, amount: 1, createdAt: i, assetId: i, seller: i % 20, status: i % 10 === 0 ? PRIVATE : ACTIVE });
  }
  return store;
}

describe('ListingStore', () => {
  it('finds rows by id and cursor position by binary search, growing as needed', () => {
    const store = filled(1_000);
    expect(store.size).toBe(1_000);
    expect(store.indexOf(100)).toBe(0);
    expect(store.indexOf(100 + 999 * 3)).toBe(999);
    expect(store.indexOf(101)).toBe(-1);
    expect(store.lastIndexBelow(100)).toBe(-1);
    expect(store.lastIndexBelow(104)).toBe(1);
    expect(store.lastIndexBelow(10 ** 9)).toBe(999);
    expect(() => store.append({ id: 5, appId: 730, item: 0, price: 1, amount: 1, createdAt: 0, assetId: 0, seller: 1, status: ACTIVE })).toThrow();
  });

  it('counts the public book per app through status changes', () => {
    const store = filled(100);
    expect(store.activeCount).toBe(90);
    expect(store.activeCountFor(730)).toBe(50);
    store.setStatus(1, FILLED);
    store.setStatus(0, ACTIVE);
    expect(store.activeCount).toBe(90);
    expect(store.activeCountFor(570)).toBe(41);
  });

  it('bumps the segment version on every visible change', () => {
    const store = filled(10);
    const v = store.segmentVersion[0]!;
    store.setPrice(3, 999);
    store.setAmount(4, 2);
    store.setStatus(5, REMOVED);
    expect(store.segmentVersion[0]).toBe(v + 3);
  });

  it('compacts dead rows away, keeping live rows, chosen dead rows and the id order', () => {
    const store = filled(200);
    for (let i = 0; i < 200; i += 2) store.setStatus(i, i % 4 === 0 ? REMOVED : FILLED);
    const liveIds = Array.from({ length: store.size }, (_, i) => i).filter((i) => store.status[i] === ACTIVE || store.status[i] === PRIVATE).map((i) => store.id[i]!);
    const layout = store.layoutVersion;
    store.compact((i) => store.status[i] === FILLED && store.seller[i]! < 10);
    expect(store.layoutVersion).toBe(layout + 1);
    const ids = Array.from({ length: store.size }, (_, i) => store.id[i]!);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const id of liveIds) expect(store.indexOf(id)).toBeGreaterThanOrEqual(0);
    expect(Array.from({ length: store.size }, (_, i) => store.status[i]).includes(REMOVED)).toBe(false);
    expect(store.indexesOfSeller(2).every((i) => store.seller[i] === 2)).toBe(true);
  });

  it('lists a tracked seller\'s rows newest first, forgetting compacted ones', () => {
    const store = filled(100);
    const rows = store.indexesOfSeller(3);
    expect(rows.map((i) => store.seller[i])).toEqual(rows.map(() => 3));
    expect([...rows].sort((a, b) => b - a)).toEqual(rows);
    expect(store.indexesOfSeller(15)).toEqual([]); // not tracked (>= 10)
    store.setStatus(rows[0]!, REMOVED);
    store.compact(() => false);
    expect(store.indexesOfSeller(3)).toHaveLength(rows.length - 1);
  });
});

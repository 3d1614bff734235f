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

  it('orders rows appended with older dates by creation, handing out the same ids in created_at order', () => {
    const store = filled(100);
    const ids = Array.from(store.id.subarray(0, store.size));
    // an account's opening listings, drawn after the crowd's with older dates (one of them tied)
    store.append({ id: 1_000, appId: 730, item: 500, price: 7, amount: 1, createdAt: 50.5, assetId: 500, seller: 3, status: PRIVATE });
    store.append({ id: 1_001, appId: 730, item: 501, price: 8, amount: 1, createdAt: -1, assetId: 501, seller: 3, status: ACTIVE });
    store.append({ id: 1_002, appId: 570, item: 502, price: 9, amount: 1, createdAt: 20, assetId: 502, seller: 3, status: ACTIVE });
    store.extra.set(1_000, { privateToken: 'pt_x' });
    store.extra.set(100 + 99 * 3, { privateToken: 'pt_last' });
    const before = store.activeCount;
    const renamed = store.orderByCreation();
    expect(Array.from(store.id.subarray(0, store.size))).toEqual([...ids, 1_000, 1_001, 1_002]);
    const created = Array.from(store.createdAt.subarray(0, store.size));
    expect(created).toEqual([...created].sort((x, y) => x - y));
    expect(store.activeCount).toBe(before);
    // each row keeps its own columns and extras under its new id
    const moved = store.indexOf(renamed.get(1_000)!);
    expect([store.item[moved], store.price[moved], store.status[moved], store.createdAt[moved]]).toEqual([500, 7, PRIVATE, 50.5]);
    expect(store.extraOf(renamed.get(1_000)!)?.privateToken).toBe('pt_x');
    expect(store.extraOf(renamed.get(100 + 99 * 3)!)?.privateToken).toBe('pt_last');
    expect(store.item[0]).toBe(501);
    expect(store.item[store.indexOf(renamed.get(1_002)!)]).toBe(502);
    // a seller's listings, newest first, follow the new ids
    const ofSeller = store.indexesOfSeller(3).map((i) => store.item[i]);
    expect(ofSeller).toEqual([83, 63, 500, 43, 23, 502, 3, 501]);
    expect(store.orderByCreation().size).toBe(0);
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

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DeliveryLog } from '../../../src/core/trades/delivery-log.ts';

describe('DeliveryLog', () => {
  it('accepts an id once within the retention window', () => {
    const log = new DeliveryLog({ retentionMs: 1000 });
    expect(log.accept('a', 0)).toBe(true);
    expect(log.accept('a', 999)).toBe(false);
    expect(log.accept('a', 1000)).toBe(true); // older than retention: a stale replay is caught by the timestamp check instead
  });

  it('keeps memory bounded and falls back to the table for ids the LRU forgot', () => {
    const db = new Database(':memory:');
    const log = new DeliveryLog({ db, maxInMemory: 3 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) expect(log.accept(id, 10)).toBe(true);
    expect(log.sizeInMemory).toBe(3);
    expect(log.accept('a', 20)).toBe(false);
    expect(log.accept('e', 20)).toBe(false);
  });

  it('without a table, an id evicted from memory is forgotten (why the app passes one)', () => {
    const log = new DeliveryLog({ maxInMemory: 1 });
    log.accept('a', 0);
    log.accept('b', 0);
    expect(log.accept('a', 1)).toBe(true);
  });

  it('prunes expired ids from memory and disk', () => {
    const db = new Database(':memory:');
    const log = new DeliveryLog({ db, retentionMs: 100 });
    log.accept('a', 0);
    log.accept('b', 90);
    log.prune(150);
    expect(log.sizeInMemory).toBe(1);
    expect(db.prepare('SELECT delivery_id FROM webhook_deliveries').pluck().all()).toEqual(['b']);
  });
});

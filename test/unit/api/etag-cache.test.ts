import { describe, expect, it } from 'vitest';
import { EtagCache } from '../../../src/core/api/etag-cache.ts';

const body = (etag: string, bytes: number, value: unknown = { etag }) => ({ etag, value, bytes, storedAt: 0 });

describe('EtagCache', () => {
  it('keeps small bodies strongly, least recently used evicted past the budget', () => {
    const cache = new EtagCache({ maxBytes: 100, strongBytes: 60 });
    cache.set('a', body('"a"', 40));
    cache.set('b', body('"b"', 40));
    expect(cache.get('a')?.etag).toBe('"a"'); // a is now the most recent
    cache.set('c', body('"c"', 40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.etag).toBe('"a"');
    expect(cache.get('c')?.etag).toBe('"c"');
    expect(cache.bytes).toBe(80);
  });

  it('holds big bodies weakly: served while alive, never counted against the budget', () => {
    const cache = new EtagCache({ maxBytes: 100, strongBytes: 60 });
    const snapshot = { seq: 1n, listings: [] };
    cache.set('book', body('"s1"', 10_000, snapshot));
    expect(cache.bytes).toBe(0);
    expect(cache.get('book')?.value).toBe(snapshot);
  });

  it('replacing an entry frees its bytes', () => {
    const cache = new EtagCache({ maxBytes: 100, strongBytes: 100 });
    cache.set('a', body('"1"', 70));
    cache.set('a', body('"2"', 30));
    expect(cache.bytes).toBe(30);
    expect(cache.get('a')?.etag).toBe('"2"');
  });
});

/**
 * `skindesk search` reads the book in pages while `skindesk sync` keeps writing it: every page must come
 * from the same moment of the book, or a listing that moves between two pages' reads is printed twice or
 * not at all.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands/index.ts';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { priceChangedEvent } from '../../bench/generate.ts';
import { lean, openTestStore, type TestStore } from '../store/helpers.ts';

const search = COMMANDS.find((c) => c.name === 'search');
if (!search) throw new Error('no search command');

let t: TestStore;
beforeEach(async () => {
  t = openTestStore();
  const listings = Array.from({ length: 2_500 }, (_, i) => lean(i + 1, { price: i + 1 }));
  await mergeSnapshot(t.store, { seq: 100n, listings }, { scope: null, resync: false, atomic: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  t.close();
});

describe('skindesk search over a book that changes while it prints', () => {
  it('prints every listing once, as the book was when the search began', async () => {
    const printed: string[] = [];
    let moved = false;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      if (!moved) {
        // after the first page: the sync writer makes the cheapest listing the dearest
        moved = true;
        t.store.applyEvents([priceChangedEvent(1, 730, 1, 999_999, 200n)]);
      }
      return true;
    });
    expect(await search.run(['--db', t.file, '--sort', 'price', '--limit', '5000'])).toBe(0);
    const rows = printed
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id: number; price: number });
    expect(moved).toBe(true);
    expect(rows).toHaveLength(2_500);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2_500);
    expect(rows[0]).toMatchObject({ id: 1, price: 1 });
  });
});

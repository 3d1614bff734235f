// The grid's data store: only the visible blocks are fetched, book changes refetch the visible ones at a
// bounded rate, price moves and new listings flash, the freeze keeps rows in place and strikes leavers,
// bought rows are struck at once, and answers for an older filter are dropped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookChanged, BookRow } from '../../../src/shared/ipc/index.ts';
import type { BookWindow, BookWindowInput } from '../../../src/shared/ipc/calls-market.ts';
import { BookWindowStore } from '../../../src/renderer/screens/market/book/book-window-store.ts';
import { bookRow } from './fake-app.ts';

const VIEW = { filter: {}, sort: { field: 'price' as const, dir: 'asc' as const } };

/** A book of rows held in an array the test edits; windows are slices of it. */
function fakeBook(initial: BookRow[]) {
  const state = { rows: initial, version: 1 };
  const requests: BookWindowInput[] = [];
  const fetch = vi.fn(async (input: BookWindowInput): Promise<BookWindow> => {
    requests.push(input);
    const offset = input.offset;
    const limit = input.limit ?? 100;
    return { rows: state.rows.slice(offset, offset + limit), offset, total: state.rows.length, version: state.version, totalVersion: state.version, lastSeq: '1' };
  });
  return { state, requests, fetch };
}

const change = (version: number, ids: number[], reset = false): BookChanged => ({
  version,
  lastSeq: String(version),
  reset,
  upserted: ids.length,
  removed: 0,
  ids,
  idsTruncated: false,
});

const flush = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('BookWindowStore', () => {
  it('fetches only the blocks in view, by position', async () => {
    const book = fakeBook(Array.from({ length: 1000 }, (_, i) => bookRow(i + 1)));
    const store = new BookWindowStore(book.fetch, { blockSize: 100 });
    store.setView(VIEW);
    store.setVisible(0, 30);
    await flush();
    store.setVisible(450, 480);
    await flush();
    expect(book.requests.map((r) => r.offset)).toEqual([0, 400]);
    const snap = store.getSnapshot();
    expect(snap.total).toBe(1000);
    expect(snap.rowAt(0)?.row.id).toBe(1);
    expect(snap.rowAt(470)?.row.id).toBe(471);
    expect(snap.rowAt(250)).toBeUndefined();
    expect(snap.indexOf(471)).toBe(470);
  });

  it('refetches only visible blocks after changes, at most once per interval however many arrive', async () => {
    vi.useFakeTimers();
    const book = fakeBook(Array.from({ length: 500 }, (_, i) => bookRow(i + 1)));
    const store = new BookWindowStore(book.fetch, { blockSize: 100, refetchMinMs: 150 });
    store.setView(VIEW);
    store.setVisible(0, 250);
    await vi.advanceTimersByTimeAsync(0);
    expect(book.requests).toHaveLength(3);
    store.setVisible(0, 30);
    for (let v = 2; v < 40; v++) store.onBookChanged(change(v, [v]));
    await vi.advanceTimersByTimeAsync(200);
    // one round, for the one visible block
    expect(book.requests.slice(3).map((r) => r.offset)).toEqual([0]);
  });

  it('flashes a price move up or down and a new listing, and not rows merely scrolled into view', async () => {
    vi.useFakeTimers();
    const book = fakeBook([bookRow(1, { price: 100 }), bookRow(2, { price: 200 }), bookRow(3, { price: 300 })]);
    const store = new BookWindowStore(book.fetch, { blockSize: 100, refetchMinMs: 0 });
    store.setView(VIEW);
    store.setVisible(0, 10);
    await vi.advanceTimersByTimeAsync(0);
    expect([0, 1, 2].map((i) => store.getSnapshot().rowAt(i)?.flash)).toEqual([null, null, null]);

    book.state.rows = [bookRow(1, { price: 150 }), bookRow(2, { price: 180 }), bookRow(3, { price: 300 }), bookRow(4, { price: 400 })];
    book.state.version = 2;
    store.onBookChanged(change(2, [1, 2, 4]));
    await vi.advanceTimersByTimeAsync(0);
    const snap = store.getSnapshot();
    expect(snap.rowAt(0)?.flash).toBe('up');
    expect(snap.rowAt(1)?.flash).toBe('down');
    expect(snap.rowAt(2)?.flash).toBeNull();
    expect(snap.rowAt(3)?.flash).toBe('new');
    expect(snap.total).toBe(4);
  });

  it('while frozen, rows keep their places: a sold row is struck in place and new rows wait', async () => {
    vi.useFakeTimers();
    const book = fakeBook([bookRow(1), bookRow(2), bookRow(3)]);
    const store = new BookWindowStore(book.fetch, { blockSize: 100, refetchMinMs: 0 });
    store.setView(VIEW);
    store.setVisible(0, 10);
    await vi.advanceTimersByTimeAsync(0);
    store.setFrozen(true);

    book.state.rows = [bookRow(9), bookRow(1), bookRow(3)]; // 9 is new, 2 sold
    book.state.version = 2;
    store.onBookChanged(change(2, [9, 2]));
    await vi.advanceTimersByTimeAsync(0);
    let snap = store.getSnapshot();
    expect([0, 1, 2].map((i) => snap.rowAt(i)?.row.id)).toEqual([1, 2, 3]);
    expect(snap.rowAt(1)?.gone).toBe('gone');
    expect(snap.rowAt(0)?.gone).toBeNull();

    store.setFrozen(false);
    await vi.advanceTimersByTimeAsync(0);
    snap = store.getSnapshot();
    expect([0, 1, 2].map((i) => snap.rowAt(i)?.row.id)).toEqual([9, 1, 3]);
    expect(snap.rowAt(1)?.gone).toBeNull();
  });

  it('asks again for a total counted before the latest change, once the app recounts', async () => {
    vi.useFakeTimers();
    const book = fakeBook([bookRow(1), bookRow(2)]);
    let counted = 1;
    const fetch = vi.fn(async (input: BookWindowInput) => ({ ...(await book.fetch(input)), totalVersion: counted }));
    const store = new BookWindowStore(fetch, { blockSize: 100, refetchMinMs: 0 });
    store.setView(VIEW);
    store.setVisible(0, 10);
    await vi.advanceTimersByTimeAsync(0);
    book.state.rows = [bookRow(1), bookRow(2), bookRow(3)];
    book.state.version = 2; // the app answers version 2 with the total it counted at version 1
    store.onBookChanged(change(2, [3]));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
    counted = 2;
    await vi.advanceTimersByTimeAsync(1_200);
    expect(fetch).toHaveBeenCalledTimes(3); // no change arrived, and still the total was asked for again
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetch).toHaveBeenCalledTimes(3); // and only until it was current
  });

  it('strikes bought rows at once, before the feed removes them', async () => {
    const book = fakeBook([bookRow(1), bookRow(2)]);
    const store = new BookWindowStore(book.fetch, { blockSize: 100, refetchMinMs: 0 });
    store.setView(VIEW);
    store.setVisible(0, 10);
    await flush();
    store.markBought([{ listingId: 2, amount: 1 }]);
    expect(store.getSnapshot().rowAt(1)?.gone).toBe('bought');
  });

  it('a commodity bought in part stays a normal row with the copies left; one bought whole stays struck until it leaves', async () => {
    vi.useFakeTimers();
    const scrap = (id: number, amount: number) => bookRow(id, { market_hash_name: 'Scrap Metal', commodity: true, amount });
    const book = fakeBook([scrap(1, 7), scrap(2, 3)]);
    const store = new BookWindowStore(book.fetch, { blockSize: 100, refetchMinMs: 0 });
    store.setView(VIEW);
    store.setVisible(0, 10);
    await vi.advanceTimersByTimeAsync(0);

    store.markBought([
      { listingId: 1, amount: 1 },
      { listingId: 2, amount: 3 },
    ]);
    expect(store.getSnapshot().rowAt(0)?.gone).toBeNull();
    expect(store.getSnapshot().rowAt(1)?.gone).toBe('bought');

    // the feed has the purchase: 6 copies of the first left, the second not yet removed
    book.state.rows = [scrap(1, 6), scrap(2, 3)];
    book.state.version = 2;
    store.onBookChanged(change(2, [1]));
    await vi.advanceTimersByTimeAsync(10);
    expect(store.getSnapshot().rowAt(0)).toMatchObject({ gone: null, row: { id: 1, amount: 6 } });
    expect(store.getSnapshot().rowAt(1)?.gone).toBe('bought');

    // the rest of the first is bought later, whole: struck
    store.markBought([{ listingId: 1, amount: 6 }]);
    expect(store.getSnapshot().rowAt(0)?.gone).toBe('bought');
  });

  it('drops answers for an older view, and a reset empties what was shown', async () => {
    let release: (() => void) | null = null;
    const book = fakeBook([bookRow(1)]);
    const slow = vi.fn(async (input: BookWindowInput) => {
      if (input.filter && 'name' in input.filter) return book.fetch(input);
      await new Promise<void>((r) => (release = r));
      return book.fetch(input);
    });
    const store = new BookWindowStore(slow, { blockSize: 100 });
    store.setView(VIEW);
    store.setVisible(0, 10);
    store.setView({ ...VIEW, filter: { name: 'AK' } });
    await flush();
    expect(store.getSnapshot().rowAt(0)?.row.id).toBe(1);
    book.state.rows = [bookRow(77)];
    (release as (() => void) | null)?.();
    await flush();
    expect(store.getSnapshot().rowAt(0)?.row.id).toBe(1); // the old view's answer was dropped

    store.onBookChanged(change(5, [], true));
    expect(store.getSnapshot().total).toBeNull();
  });

  it('reports a failed fetch in words and keeps what it had', async () => {
    const store = new BookWindowStore(async () => {
      throw new Error('the app did not answer queryBookWindow');
    });
    store.setView(VIEW);
    store.setVisible(0, 10);
    await flush();
    expect(store.getSnapshot().problem).toBe('the app did not answer queryBookWindow');
  });
});

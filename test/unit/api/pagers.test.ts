// readNewestFirst: the orders, the ledger and the trades (newest first, offset pages, no cursor) read
// while rows arrive on top and leave from anywhere between two page turns: each row once, none skipped.
import { describe, expect, it } from 'vitest';
import { type PageCaller, readNewestFirst } from '../../../src/core/api/pagers.ts';
import type { BalanceTransaction } from '../../../src/shared/api/index.ts';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

/** A ledger row; a higher id is newer. */
const row = (id: number): BalanceTransaction => ({
  id,
  type: 'SALE',
  amount: 100,
  balance: 0,
  description: 'sale',
  reference_id: null,
  created_at: new Date(T0 + id * 1_000).toISOString(),
});

/**
 * A ledger served newest first in offset pages; `between(page)` runs before each page is served, so a
 * test changes the ledger between two page turns. `pages` records the pages asked for.
 */
function ledger(ids: number[], between: (page: number, rows: BalanceTransaction[]) => void = () => {}) {
  const rows = ids.map(row);
  const pages: number[] = [];
  const call = (async (_name: string, input: { query?: { page?: string; limit?: string } }) => {
    const page = Number(input.query?.page);
    const limit = Number(input.query?.limit);
    pages.push(page);
    between(page, rows);
    const newestFirst = [...rows].sort((a, b) => b.id - a.id);
    return {
      transactions: newestFirst.slice((page - 1) * limit, page * limit),
      metadata: {
        total_pages: Math.ceil(newestFirst.length / limit),
        total_items: newestFirst.length,
        current_page: page,
        current_limit: limit,
      },
    };
  }) as unknown as PageCaller;
  return { call, rows, pages };
}

/** Takes the rows of these ids out of the ledger. */
const leave = (rows: BalanceTransaction[], ...gone: number[]) => {
  for (const id of gone)
    rows.splice(
      rows.findIndex((r) => r.id === id),
      1,
    );
};
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => to - i);
const ids = (rows: readonly BalanceTransaction[]) => rows.map((r) => r.id);

describe('readNewestFirst', () => {
  it('reads every page once when nothing moves', async () => {
    const l = ledger(range(1, 12));
    const read = await readNewestFirst(l.call, 'transactions', { limit: '5' });
    expect(ids(read.rows)).toEqual(range(1, 12));
    expect(read.complete).toBe(true);
    expect(l.pages).toEqual([1, 2, 3]);
  });

  it('keeps a row once when rows arriving on top push it onto the next page', async () => {
    let next = 13;
    const l = ledger(range(1, 12), (page, rows) => {
      if (page > 1) rows.push(row(next++), row(next++));
    });
    const read = await readNewestFirst(l.call, 'transactions', { limit: '5' });
    expect(ids(read.rows)).toEqual(range(1, 12));
    expect(read.complete).toBe(true);
  });

  it('does not skip the row pulled up past the page boundary when a newer row leaves', async () => {
    // page 1 is 12..8; row 10 leaves before page 2 is read, so 7 moves up onto page 1 and page 2 starts at 6
    const l = ledger(range(1, 12), (page, rows) => {
      if (page === 2 && rows.some((r) => r.id === 10)) leave(rows, 10);
    });
    const read = await readNewestFirst(l.call, 'transactions', { limit: '5' });
    expect(ids(read.rows)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(read.complete).toBe(true);
    expect(l.pages).toEqual([1, 2, 1, 2, 3]);
  });

  it('steps back as far as the rows moved when more than a page of newer rows leaves', async () => {
    // pages 1 and 2 (12..3) are read; then 12..6 leave (7 rows): 2 and 1 move up onto page 1, read
    // already, and page 3 is empty
    const l = ledger(range(1, 12), (page, rows) => {
      if (page === 3 && rows.length === 12) leave(rows, ...range(6, 12));
    });
    const read = await readNewestFirst(l.call, 'transactions', { limit: '5' });
    expect(ids(read.rows)).toEqual(range(1, 12));
    expect(l.pages).toEqual([1, 2, 3, 2, 1]);
    expect(read.complete).toBe(true);
  });

  it('arrivals on top and a departure in the same page turn: each row once, none skipped', async () => {
    const l = ledger(range(1, 12), (page, rows) => {
      if (page !== 2 || rows.some((r) => r.id === 13)) return;
      rows.push(row(13));
      leave(rows, 9, 11);
    });
    const read = await readNewestFirst(l.call, 'transactions', { limit: '5' });
    // 13 arrived while the read ran, and is found when page 1 is read again: newest, so first
    expect(ids(read.rows)).toEqual(range(1, 13));
    expect(read.complete).toBe(true);
  });

  it('stops at the first row older than wanted, with every newer one', async () => {
    const l = ledger(range(1, 12));
    const read = await readNewestFirst(
      l.call,
      'transactions',
      { limit: '5' },
      {
        olderThanWanted: (r) => Date.parse(r.created_at) < T0 + 7 * 1_000,
      },
    );
    expect(ids(read.rows)).toEqual(range(7, 12));
    expect(read.complete).toBe(true);
    expect(l.pages).toEqual([1, 2]);
  });

  it('hands the rows each page adds to afterPage, once each, and ends the read when it has enough', async () => {
    // 17 arrives and 13, 15 leave before page 2: page 1 is read again, 17 on top of it and 11 pulled up
    const l = ledger(range(1, 16), (page, rows) => {
      if (page !== 2 || rows.some((r) => r.id === 17)) return;
      rows.push(row(17));
      leave(rows, 13, 15);
    });
    const handed: number[][] = [];
    const read = await readNewestFirst(
      l.call,
      'transactions',
      { limit: '5' },
      {
        afterPage: (added, run) => {
          handed.push(ids(added));
          return run.length >= 9; // enough once nine rows are read: after page 2
        },
      },
    );
    // page 3 (rows 5 to 1) is never asked for
    expect(l.pages).toEqual([1, 2, 1, 2]);
    expect(handed).toEqual([range(12, 16), [17, 11], range(6, 10)]);
    expect(ids(read.rows)).toEqual([17, ...range(6, 16)]);
    expect(read.complete).toBe(true);
  });

  it('is incomplete when it stops at maxPages, or when the history keeps moving past the rereads', async () => {
    const capped = await readNewestFirst(
      ledger(range(1, 12)).call,
      'transactions',
      { limit: '5' },
      { maxPages: 2 },
    );
    expect(ids(capped.rows)).toEqual(range(3, 12));
    expect(capped).toMatchObject({ complete: false, stillMoving: false });

    // a newer row leaves before every page 2: rows keep moving up past the reader
    const restless = ledger(range(1, 40), (page, rows) => {
      if (page === 2) leave(rows, Math.max(...ids(rows)));
    });
    const moving = await readNewestFirst(restless.call, 'transactions', { limit: '5' }, { maxRereads: 2 });
    expect(moving).toMatchObject({ complete: false, stillMoving: true });
    expect(restless.pages).toEqual([1, 2, 1, 2, 1, 2]);
    // what was read is still an unbroken run from the newest row: page 1 twice read again gave 35 and 34
    expect(ids(moving.rows)).toEqual(range(34, 40));
  });
});

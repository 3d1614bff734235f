/**
 * What the app's "export this view" writes: the book as filtered and sorted on screen, or the sales
 * tape as filtered — every row, not only the ones shown — in the columns the command line prints
 * (`skindesk search` and `skindesk sales`), so one script reads both. Read a page at a time between
 * turns of the event loop, so an export of a million rows never blocks the app.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BookFilter, BookQuery } from '../../shared/query.ts';
import { type QueryRow, queryBook } from '../query/index.ts';
import { type TapeFilter, readSalesTape } from '../query/sales-tape.ts';
import type { Db } from '../store/database.ts';
import { SALE_COLUMNS } from '../store/sales-reader.ts';
import { type RowFormat, headerText, rowsText } from './row-text.ts';

/** The spec's lean listing fields, as `skindesk book` prints them. */
export const LEAN_COLUMNS = ['id', 'app_id', 'market_hash_name', 'price', 'amount', 'commodity', 'created_at'] as const;

/** A book row's fields in `skindesk search`'s order (its JSON lines carry the same keys). */
export const BOOK_ROW_COLUMNS = [
  ...LEAN_COLUMNS,
  'paint_wear',
  'paint_seed',
  'paint_index',
  'fade',
  'blue',
  'stattrak',
  'souvenir',
  'stickers',
  'keychains',
] as const satisfies readonly (keyof QueryRow)[];

const PAGE_ROWS = 1000;

/** The matching listings in the view's order, a keyset page at a time, up to `limit` rows. */
export function* bookPages(
  db: Db,
  view: { filter: BookFilter; sort?: BookQuery['sort'] },
  limit = Infinity,
): Generator<QueryRow[]> {
  let after: string | undefined;
  let remaining = limit;
  while (remaining > 0) {
    const page = queryBook(db, {
      filter: view.filter,
      ...(view.sort ? { sort: view.sort } : {}),
      limit: Math.min(remaining, PAGE_ROWS),
      ...(after === undefined ? {} : { after }),
    });
    if (page.rows.length > 0) yield page.rows;
    remaining -= page.rows.length;
    if (!page.next) return;
    after = page.next;
  }
}

/** Counts what an export wrote, for its progress. */
export interface RowCounter {
  rows: number;
}

export async function* bookViewText(
  db: Db,
  view: { filter: BookFilter; sort: BookQuery['sort'] },
  format: RowFormat,
  counter: RowCounter,
): AsyncGenerator<string> {
  yield headerText(BOOK_ROW_COLUMNS, format);
  for (const rows of bookPages(db, view)) {
    yield rowsText(rows, BOOK_ROW_COLUMNS, format);
    counter.rows += rows.length;
    await nextTurn();
  }
}

/** The sales tape, newest first, with `skindesk sales`'s columns. */
export async function* salesTapeText(
  db: Db,
  filter: TapeFilter,
  format: RowFormat,
  counter: RowCounter,
): AsyncGenerator<string> {
  yield headerText(SALE_COLUMNS, format);
  let before: string | null = null;
  do {
    const page = readSalesTape(db, { ...filter, before, limit: PAGE_ROWS });
    const rows = page.sales.map(
      (sale) =>
        Object.fromEntries(SALE_COLUMNS.map((c) => [c, sale[c]])) as Record<
          (typeof SALE_COLUMNS)[number],
          unknown
        >,
    );
    yield rowsText(rows, SALE_COLUMNS, format);
    counter.rows += rows.length;
    before = page.next;
    await nextTurn();
  } while (before !== null);
}

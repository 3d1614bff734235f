/**
 * The cart against the live book. The cart keeps what the book showed when a line was added; without
 * this, a listing sold to someone else stayed in it at its old price, and the all-or-nothing purchase
 * failed on it. A line's listing is read again from the mirror when a book change names it (every line
 * on a reset, or a change too large to name its ids), and every line once as the book opens (the cart
 * kept its lines while another screen was shown). Private listings are not in the book: never read.
 */
import { useEffect } from 'react';
import type { BookChanged } from '../../../../shared/ipc/index.ts';
import { call, usePush } from '../../../bridge/index.ts';
import { failureLatch } from '../../../shell/report-failure.ts';
import { type CartLine, cartStore, markCartLine } from './cart-store.ts';

/** The lines whose listing is in the book (all but private listings). */
function bookLineIds(lines: readonly CartLine[]): number[] {
  return lines.filter((l) => l.privateToken === undefined).map((l) => l.listingId);
}

/** The cart's book lines a change may have touched. */
export function cartLinesTouched(change: BookChanged, lines: readonly CartLine[]): number[] {
  const inBook = bookLineIds(lines);
  if (change.reset || change.idsTruncated) return inBook;
  const changed = new Set(change.ids);
  return inBook.filter((id) => changed.has(id));
}

/** The latest read asked per listing: an older answer arriving after a newer one is dropped. */
const latestRead = new Map<number, number>();
const failures = failureLatch('The cart could not be checked against the book');

async function readLine(listingId: number): Promise<void> {
  const turn = (latestRead.get(listingId) ?? 0) + 1;
  latestRead.set(listingId, turn);
  try {
    const read = await call('getListing', { id: listingId });
    failures.succeeded();
    if (latestRead.get(listingId) !== turn) return;
    markCartLine(listingId, read.alive && read.listing ? { alive: true, price: read.listing.price } : { alive: false });
  } catch (err) {
    // the line keeps its last mark; the trader is told the cart may be out of date
    failures.failed(err);
  }
}

function readLines(ids: readonly number[]): void {
  for (const id of ids) void readLine(id);
}

/** Keeps the cart's lines marked against the live book while the book is on screen. */
export function useCartFollowsBook(): void {
  usePush('bookChanged', (change) => readLines(cartLinesTouched(change, cartStore.get())));
  useEffect(() => readLines(bookLineIds(cartStore.get())), []);
}

/**
 * The local cart: listings gathered to be bought together in one atomic purchase. It lives in this
 * window only (nothing is reserved on the marketplace). A bought listing leaves it; one that left the
 * book (sold to someone else, delisted) stays, marked gone, until the trader removes it, and one whose
 * price moved shows the price now (see cart-follow.ts).
 */
import type { BookRow } from '../../../../shared/ipc/index.ts';
import { parseCents } from '../../../../shared/money.ts';
import { LiveStore, useLive } from '../../../shell/app-state.ts';
import { copiesProblem } from './copies.ts';
import { maxPriceProblem } from './max-price.ts';

export interface CartLine {
  listingId: number;
  name: string;
  appId: number | null;
  /** The item's float when known: what tells two lines of the same item apart. */
  wear?: number | null;
  /** Price per copy when added (null for a private listing, whose price is not in the book). */
  shownPrice: number | null;
  /** Copies to buy: always a number the listing holds (1 to `available`); one that is not is in amountDraft. */
  amount: number;
  /** Copies the listing holds (commodities), 1 otherwise. */
  available: number;
  /**
   * The line's copies as last typed, when they cannot be bought (emptied, none, more than the listing
   * holds): its field shows them, the words under the line say why, and the cart cannot be bought until
   * they are fixed. Absent otherwise.
   */
  amountDraft?: number | null;
  /**
   * Ceiling per copy in cents: the line fails instead of paying more. Always one that can be sent (a
   * positive amount): an edit that cannot be is kept in maxDraft instead, never here.
   */
  maxPrice: number;
  /**
   * The line's max price as last typed, when it cannot be sent (emptied, zero, not a price, 11+ whole
   * digits): its field shows it with why, and the cart cannot be bought until it is fixed. Absent otherwise.
   */
  maxDraft?: string;
  privateToken?: string;
  /** The book no longer holds the listing (sold, delisted): it cannot be bought, and holds the cart back. */
  gone?: true;
  /**
   * The listing's price in the book now, when it moved from `shownPrice`. The maximum stays the trader's
   * until they take the new price (takeCartLinePriceNow). Absent: as shown.
   */
  priceNow?: number;
}

/** What the live book says of a line's listing: gone, or its price now. */
export type ListingNow = { alive: false } | { alive: true; price: number };

export const CART_MAX_LINES = 50;

export const cartStore = new LiveStore<readonly CartLine[]>([]);

export function useCart(): readonly CartLine[] {
  return useLive(cartStore);
}

/** A book row's line: one copy, at most its shown price; `changes` for what the buyer chose instead. */
export function cartLineOf(row: BookRow, changes: Partial<Pick<CartLine, 'amount' | 'maxPrice'>> = {}): CartLine {
  return {
    listingId: row.id,
    name: row.market_hash_name,
    appId: row.app_id,
    wear: row.paint_wear,
    shownPrice: row.price,
    amount: 1,
    available: row.amount,
    maxPrice: row.price,
    ...changes,
  };
}

/** Adds a line (or replaces the line of the same listing). False when the cart is full. */
export function addToCart(line: CartLine): boolean {
  const lines = cartStore.get();
  const others = lines.filter((l) => l.listingId !== line.listingId);
  if (others.length >= CART_MAX_LINES) return false;
  cartStore.set([...others, line]);
  return true;
}

/**
 * A line's copies as typed: a number the listing holds becomes the line's amount; one it does not is kept
 * as the line's draft (shown with why), never put back into range behind the trader's back.
 */
export function setCartLineAmount(listingId: number, copies: number | null): void {
  cartStore.set(
    cartStore.get().map((l) => {
      if (l.listingId !== listingId) return l;
      if (copies === null || copiesProblem(copies, l.available) !== null) return { ...l, amountDraft: copies };
      const { amountDraft: _fixed, ...rest } = l;
      return { ...rest, amount: copies };
    }),
  );
}

/**
 * A line's max price as typed: one that can be sent becomes the line's maximum; one that cannot is kept
 * as the line's draft (shown with why) and the maximum is left as it was, never sent while the draft stands.
 */
export function setCartLineMax(listingId: number, text: string): void {
  const cents = maxPriceProblem(text) === null ? parseCents(text) : null;
  cartStore.set(
    cartStore.get().map((l) => {
      if (l.listingId !== listingId) return l;
      if (cents === null) return { ...l, maxDraft: text };
      const { maxDraft: _fixed, ...rest } = l;
      return { ...rest, maxPrice: cents };
    }),
  );
}

/** Why the line's max price cannot be sent as it stands (null: it can). */
export function cartLineProblem(line: CartLine): string | null {
  return line.maxDraft === undefined ? null : maxPriceProblem(line.maxDraft);
}

/** Why the line's copies cannot be bought as they stand (null: they can). */
export function cartLineCopiesProblem(line: CartLine): string | null {
  return line.amountDraft === undefined ? null : copiesProblem(line.amountDraft, line.available);
}

/** The line as the book says it is now: marked gone, or carrying its price now when it moved. */
function lineAsBookSays(line: CartLine, now: ListingNow): CartLine {
  const { gone: _gone, priceNow: _priceNow, ...rest } = line;
  if (!now.alive) return { ...rest, gone: true };
  return now.price === line.shownPrice ? rest : { ...rest, priceNow: now.price };
}

/** Marks the line of `listingId` (if in the cart) with what the live book says of its listing. */
export function markCartLine(listingId: number, now: ListingNow): void {
  const lines = cartStore.get();
  const line = lines.find((l) => l.listingId === listingId);
  if (!line) return;
  const marked = lineAsBookSays(line, now);
  if (marked.gone === line.gone && marked.priceNow === line.priceNow) return;
  cartStore.set(lines.map((l) => (l === line ? marked : l)));
}

/**
 * The trader takes the price the book shows now: it becomes the line's price and its maximum (as "Use
 * $X" does in the Buy dialog). Until then the line is sent with the maximum the trader chose before.
 */
export function takeCartLinePriceNow(listingId: number): void {
  cartStore.set(
    cartStore.get().map((l) => {
      if (l.listingId !== listingId || l.priceNow === undefined) return l;
      const { priceNow, maxDraft: _typed, ...rest } = l;
      return { ...rest, shownPrice: priceNow, maxPrice: priceNow };
    }),
  );
}

export function removeFromCart(listingIds: readonly number[]): void {
  const drop = new Set(listingIds);
  cartStore.set(cartStore.get().filter((l) => !drop.has(l.listingId)));
}

export function clearCart(): void {
  cartStore.set([]);
}

/**
 * What the lines cost at the prices shown (the price now where the book moved it; private lines at their
 * maximum). Null while a private line's maximum cannot be sent, a line's copies cannot be bought, or a
 * line is gone: the cost is not known then.
 */
export function cartTotal(lines: readonly CartLine[]): number | null {
  if (lines.some((l) => l.gone || cartLineCopiesProblem(l) !== null || (l.shownPrice === null && cartLineProblem(l) !== null))) return null;
  return lines.reduce((sum, l) => sum + (l.priceNow ?? l.shownPrice ?? l.maxPrice) * l.amount, 0);
}

/** The most the lines can cost (every line at its maximum). Null while a line cannot be sent as it stands. */
export function cartCeiling(lines: readonly CartLine[]): number | null {
  if (lines.some((l) => l.gone || cartLineProblem(l) !== null || cartLineCopiesProblem(l) !== null)) return null;
  return lines.reduce((sum, l) => sum + l.maxPrice * l.amount, 0);
}

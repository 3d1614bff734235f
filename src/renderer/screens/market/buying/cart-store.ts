/**
 * The local cart: listings gathered to be bought together in one atomic purchase. It lives in this
 * window only (nothing is reserved on the marketplace), and a bought or vanished listing leaves it.
 */
import { LiveStore, useLive } from '../../../shell/app-state.ts';

export interface CartLine {
  listingId: number;
  name: string;
  appId: number | null;
  /** Price per copy when added (null for a private listing, whose price is not in the book). */
  shownPrice: number | null;
  amount: number;
  /** Copies the listing holds (commodities), 1 otherwise. */
  available: number;
  /** Ceiling per copy in cents: the line fails instead of paying more. */
  maxPrice: number;
  privateToken?: string;
}

export const CART_MAX_LINES = 50;

export const cartStore = new LiveStore<readonly CartLine[]>([]);

export function useCart(): readonly CartLine[] {
  return useLive(cartStore);
}

/** Adds a line (or replaces the line of the same listing). False when the cart is full. */
export function addToCart(line: CartLine): boolean {
  const lines = cartStore.get();
  const others = lines.filter((l) => l.listingId !== line.listingId);
  if (others.length >= CART_MAX_LINES) return false;
  cartStore.set([...others, line]);
  return true;
}

export function updateCartLine(listingId: number, patch: Partial<Pick<CartLine, 'amount' | 'maxPrice'>>): void {
  cartStore.set(cartStore.get().map((l) => (l.listingId === listingId ? { ...l, ...patch } : l)));
}

export function removeFromCart(listingIds: readonly number[]): void {
  const drop = new Set(listingIds);
  cartStore.set(cartStore.get().filter((l) => !drop.has(l.listingId)));
}

export function clearCart(): void {
  cartStore.set([]);
}

/** What the lines cost at their shown prices (private lines at their maximum). */
export function cartTotal(lines: readonly CartLine[]): number {
  return lines.reduce((sum, l) => sum + (l.shownPrice ?? l.maxPrice) * l.amount, 0);
}

/**
 * A cart: several listings bought in ONE atomic POST /purchase (the marketplace buys every line or
 * none), through the session's purchaser, so that it is journaled, sent and reconciled like a single
 * purchase: one intent per line under one cart id, never retried blindly, an ambiguous outcome
 * (timeout, dropped connection, 5xx) settled as a whole cart from the order history by the same rules
 * reconcileUnresolved applies (see src/core/api/purchaser.ts), never sent beside a reconciliation.
 */
import type { CartLineRequest, CartPurchaseOutcome, Purchaser } from '../../api/purchaser.ts';

export { coversCart } from '../../api/purchaser.ts';

/** A line of the cart; the item comes from the mirror when the listing is in the book (private listings are not). */
export type CartLine = CartLineRequest;

export type CartOutcome = CartPurchaseOutcome;

export function buyCart(purchaser: Purchaser, lines: readonly CartLine[]): Promise<CartOutcome> {
  return purchaser.buyCart(lines);
}

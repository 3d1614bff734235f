/**
 * What a purchase outcome means, in words a trader reads in one glance: a headline, then what happened
 * and what to do. The codes the marketplace sends (LISTING_PRICE_CHANGED, LISTING_NOT_FOUND, ...) and
 * the "unknown — check orders" outcome each get their own explanation; nothing is left as a bare code.
 */
import { formatCents } from '../../../shared/money.ts';
import { upperFirst } from '../../../shared/sentence.ts';
import type { ApiError } from '../../api/errors.ts';
import type { PurchaseStatus } from '../../api/purchaser.ts';

export interface OutcomeLine {
  listingId: number;
  name: string | null;
  amount: number;
  maxPrice: number;
  /** The price per copy the trader was shown when deciding (null or absent: none was shown). */
  shownPrice?: number | null;
}

export interface OutcomeFacts {
  status: PurchaseStatus;
  orderId: number | null;
  error: ApiError | null;
  lines: readonly OutcomeLine[];
  /** Cents paid (bought only). */
  spent: number;
  /** Why the outcome is unknown, from the journal. */
  note: string | null;
}

export interface OutcomeWords {
  title: string;
  message: string;
  failedListingId: number | null;
}

const itemName = (line: OutcomeLine | undefined) => (line?.name ? `“${line.name}”` : line ? `listing ${line.listingId}` : 'a listing');

/**
 * Whether a LISTING_PRICE_CHANGED was the buyer's own maximum refusing a price known before buying (the
 * one shown, or read just before the purchase), not a seller's raise: that price was already above it.
 * The app and `skindesk buy` tell the two apart the same way.
 */
export function maximumBelowKnownPrice(knownPrice: number | null | undefined, maxPrice: number): knownPrice is number {
  return knownPrice != null && knownPrice > maxPrice;
}

/** The line the marketplace named as failing (`details.line`, 0-based), if any. */
export function failedLine(error: ApiError | null, lines: readonly OutcomeLine[]): OutcomeLine | undefined {
  const index = error?.details?.['line'];
  if (typeof index === 'number' && Number.isInteger(index)) return lines[index];
  return lines.length === 1 ? lines[0] : undefined;
}

export function describePurchase(facts: OutcomeFacts): OutcomeWords {
  const { lines } = facts;
  const cart = lines.length > 1;
  const nothing = cart ? 'Nothing in the cart was bought (a cart is all or nothing) and nothing was charged.' : 'Nothing was bought and nothing was charged.';
  const failed = failedLine(facts.error, lines);
  const failedListingId = failed?.listingId ?? null;

  if (facts.status === 'bought') {
    const what = cart ? `${lines.length} listings` : itemName(lines[0]);
    return {
      title: 'Bought',
      message: `${what} for ${formatCents(facts.spent)}${facts.orderId === null ? '' : ` — order ${facts.orderId}`}. The items go to your backpack.`,
      failedListingId: null,
    };
  }

  if (facts.status === 'unknown') {
    return {
      title: 'Unknown — check orders',
      message:
        'The marketplace did not answer clearly (the connection dropped, timed out or the server failed), and a purchase ' +
        'cannot be safely sent twice. Skindesk looked in your order history and could not tell whether it went through. ' +
        'Check your orders before buying this again.' +
        (facts.note ? ` (${facts.note.replace(/^unknown — check orders:?\s*/, '')})` : ''),
      failedListingId,
    };
  }

  const code = facts.error?.code ?? null;
  switch (code) {
    case 'LISTING_PRICE_CHANGED':
      // the maximum was already below the price the trader saw: their own ceiling refused it, no seller moved
      if (failed && maximumBelowKnownPrice(failed.shownPrice, failed.maxPrice)) {
        return {
          title: 'Your maximum is below the price — not bought',
          message: `${upperFirst(itemName(failed))} is listed at ${formatCents(failed.shownPrice)}, above your maximum of ${formatCents(failed.maxPrice)}, so the marketplace refused the order. ${nothing} ${cart ? 'Raise that line’s maximum (or remove it) to buy the cart.' : 'Raise your maximum to buy it.'}`,
          failedListingId,
        };
      }
      return {
        title: 'Price went up — not bought',
        message: `The seller raised the price of ${itemName(failed)} above your maximum of ${formatCents(failed?.maxPrice ?? 0)} just before your order arrived. ${nothing} Look at the new price and buy again if it still suits you.`,
        failedListingId,
      };
    case 'LISTING_NOT_FOUND':
      return {
        title: 'Listing is gone — not bought',
        message: `${upperFirst(itemName(failed))} was sold or delisted before your order arrived (or, for a private listing, the share token is wrong). ${nothing}`,
        failedListingId,
      };
    case 'INSUFFICIENT_ITEMS':
      return {
        title: 'Not enough copies — not bought',
        message: `${upperFirst(itemName(failed))} has fewer copies left than you asked for. ${nothing} Lower the amount and try again.`,
        failedListingId,
      };
    case 'INSUFFICIENT_BALANCE':
      return { title: 'Balance too low — not bought', message: `Your balance does not cover this purchase. ${nothing}`, failedListingId: null };
    case 'RATE_LIMITED':
      return {
        title: 'Too many purchases — not bought',
        message: `The marketplace allows 30 purchases a minute and asked us to wait. ${nothing} Try again in a moment.`,
        failedListingId: null,
      };
    case 'VALIDATION_ERROR':
      return {
        title: 'Refused — not bought',
        message: `The marketplace refused the order as invalid (buying your own listing is one such case). ${nothing}`,
        failedListingId,
      };
    default:
      return {
        title: 'Not bought',
        message: `${facts.error?.explanation ?? 'The purchase was refused.'} ${nothing}`,
        failedListingId,
      };
  }
}

/**
 * The auto-buy guardrails as one pure function: every reason not to send a purchase, checked in order,
 * before anything is sent. The auto-buyer gathers the facts (spend from its log, the balance, the book's
 * state, the rate governor) and sends only on `ok`.
 */
import type { Guardrails } from '../../shared/watchlist.ts';

export const BLOCK_REASONS = {
  kill_switch: 'the auto-buy kill switch is engaged',
  no_market: 'not connected to the marketplace',
  book_not_live: 'the book is not live (resyncing or offline)',
  rate_limited: 'the rate governor is holding purchases back',
  already_attempted: 'this listing was already bought, or a purchase of it is pending or unknown',
  listing_gone: 'the listing is no longer in the book',
  max_price: 'the price is above the watchlist’s maximum per item',
  total_budget: 'the watchlist’s total budget would be exceeded',
  daily_cap: 'the watchlist’s 24-hour spend cap would be exceeded',
  hourly_limit: 'the watchlist’s purchases-per-hour limit is reached',
  balance_unknown: 'the account balance is not known',
  min_balance: 'the balance left would fall below the watchlist’s minimum',
} as const;
export type BlockReason = keyof typeof BLOCK_REASONS;

export interface PurchaseFacts {
  /** Price per copy (the price seen in the event) and copies. */
  price: number;
  amount: number;
  killSwitch: boolean;
  marketConnected: boolean;
  bookLive: boolean;
  /** The governor would not send a purchase now (blocked by Retry-After, or no headroom). */
  purchaseThrottled: boolean;
  /** A purchase of this listing was sent before and did not end in "not bought" for an older event. */
  alreadyAttempted: boolean;
  /** The listing is still live in the mirror. */
  listingAlive: boolean;
  /** Spend committed by this watchlist: ever, in the last 24 hours; purchases sent in the last hour. */
  spentTotal: number;
  spentDay: number;
  purchasesHour: number;
  /** Balance available now (last known balance minus purchases since), null when unknown. */
  balance: number | null;
}

export type Verdict = { ok: true } | { ok: false; reason: BlockReason; message: string };

const block = (reason: BlockReason): Verdict => ({ ok: false, reason, message: BLOCK_REASONS[reason] });

export function checkGuardrails(rails: Guardrails, f: PurchaseFacts): Verdict {
  const cost = f.price * f.amount;
  if (f.killSwitch) return block('kill_switch');
  if (!f.marketConnected) return block('no_market');
  if (!f.bookLive) return block('book_not_live');
  if (f.purchaseThrottled) return block('rate_limited');
  if (f.alreadyAttempted) return block('already_attempted');
  if (!f.listingAlive) return block('listing_gone');
  if (f.price > rails.max_price) return block('max_price');
  if (f.spentTotal + cost > rails.total_budget) return block('total_budget');
  if (f.spentDay + cost > rails.daily_cap) return block('daily_cap');
  if (f.purchasesHour + 1 > rails.max_per_hour) return block('hourly_limit');
  if (f.balance === null) return block('balance_unknown');
  if (f.balance - cost < rails.min_balance) return block('min_balance');
  return { ok: true };
}

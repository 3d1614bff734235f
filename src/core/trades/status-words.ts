/**
 * Trade statuses in plain words, for the timeline and the OS notification on each status change. The
 * spec names the statuses but not their meaning; these readings follow the trade-offer platform's own
 * terms (an offer is sent, may need a mobile confirmation, may be held in escrow, and ends accepted or not).
 */
import { FINAL_TRADE_STATUSES, type Trade, type TradeStatus } from '../../shared/api/index.ts';
import { statusLabel } from '../../shared/status-labels.ts';
import type { TradeChange } from './tracker.ts';

export const TRADE_STATUS_WORDS: Record<TradeStatus, string> = {
  Active: 'the trade offer is waiting for you to accept it on the platform',
  CreatedNeedsConfirmation: 'the trade offer waits for your mobile confirmation',
  InEscrow: 'the platform is holding the trade in escrow',
  Countered: 'the other side answered with a counter-offer',
  Accepted: 'the trade was accepted',
  Declined: 'the trade offer was declined',
  Expired: 'the trade offer expired before it was accepted',
  Canceled: 'the trade offer was canceled',
  CanceledBySecondFactor: 'the trade offer was canceled at the mobile confirmation',
  InvalidItems: 'the items in the offer are no longer available',
  Reversed: 'the platform reversed the trade',
  Invalid: 'the trade offer is invalid',
};

/**
 * What the trade came from, by the id its sell, deposit or withdraw answered with, as the send dialog
 * (TradeFollow) names it: "withdrawal 800004", "sale offer, deposit 800002". That id is not the trade's
 * own (`id`): told as one ("Withdrawal #700009"), the trader looks for a withdrawal that never was.
 */
function origin(trade: Trade): string {
  const deposit = trade.deposit_id === null ? null : `deposit ${trade.deposit_id}`;
  const withdrawal = trade.withdraw_id === null ? null : `withdrawal ${trade.withdraw_id}`;
  switch (trade.type) {
    case 'WITHDRAW':
      return withdrawal ?? 'withdrawal';
    case 'DEPOSIT':
      return deposit ?? 'deposit';
    case 'SELL':
      // a sell answers with deposit ids: its items are deposited, then listed
      return deposit === null ? 'sale offer' : `sale offer, ${deposit}`;
    default:
      return [trade.type, deposit, withdrawal].filter((part) => part !== null).join(', ');
  }
}

export interface TradeNotification {
  title: string;
  body: string;
  /** True for statuses that end the trade. */
  final: boolean;
}

function itemsSummary(trade: Trade): string {
  const copies = trade.items.reduce((s, it) => s + it.amount, 0);
  const first = trade.items[0]?.market_hash_name;
  if (!first) return 'no items';
  if (trade.items.length === 1) return copies === 1 ? first : `${copies} × ${first}`;
  return `${first} and ${trade.items.length - 1} more (${copies} items)`;
}

/** Compared without case and end punctuation: "The trade offer was declined." says what the words say. */
const sameSentence = (a: string, b: string) => {
  const plain = (s: string) => s.trim().replace(/[.!\s]+$/, '').toLowerCase();
  return plain(a) === plain(b);
};

/**
 * The trade's own reason, when it adds something: the platform often fills `error` with the status in
 * words, and a notification that says the same sentence twice reads like a glitch.
 */
function reasonBeyond(words: string, error: string | null | undefined): string {
  if (!error || sameSentence(error, words)) return '';
  return ` ${error}`;
}

/** The trade's status in words, then its own reason when that adds something: one or two sentences. */
export function statusSentences(trade: Pick<Trade, 'status' | 'error'>): string {
  const words = TRADE_STATUS_WORDS[trade.status];
  return `${words}.${reasonBeyond(words, trade.error)}`;
}

/** The notification for a tracker change, or null when the status did not change (nothing to tell). */
export function describeStatusChange(change: TradeChange): TradeNotification | null {
  if (!change.statusChanged) return null;
  const { trade } = change;
  return {
    title: `Trade #${trade.id} (${origin(trade)}): ${statusLabel(trade.status)}`,
    body: `${itemsSummary(trade)}: ${statusSentences(trade)}`,
    final: FINAL_TRADE_STATUSES.includes(trade.status),
  };
}

/**
 * The guardrails as a pure function: each one alone stops a purchase exactly when it is reached (and not
 * one cent or one purchase before), and the reasons come in the documented order.
 */
import { describe, expect, it } from 'vitest';
import { checkGuardrails, type PurchaseFacts } from '../../../src/core/watch/guardrails.ts';
import type { Guardrails } from '../../../src/shared/watchlist.ts';

const rails: Guardrails = { max_price: 1_000, total_budget: 5_000, daily_cap: 3_000, max_per_hour: 4, min_balance: 10_000 };
const ok: PurchaseFacts = {
  price: 1_000,
  amount: 1,
  killSwitch: false,
  marketConnected: true,
  bookLive: true,
  purchaseThrottled: false,
  alreadyAttempted: false,
  listingAlive: true,
  spentTotal: 0,
  spentDay: 0,
  purchasesHour: 0,
  balance: 50_000,
};
const reason = (over: Partial<PurchaseFacts>, r: Guardrails = rails) => {
  const v = checkGuardrails(r, { ...ok, ...over });
  return v.ok ? null : v.reason;
};

describe('guardrails', () => {
  it('let a purchase through when nothing is reached', () => {
    expect(checkGuardrails(rails, ok)).toEqual({ ok: true });
  });

  it('stop at each limit, not before', () => {
    expect(reason({ price: 1_000 })).toBeNull();
    expect(reason({ price: 1_001 })).toBe('max_price');
    expect(reason({ spentTotal: 4_000 })).toBeNull();
    expect(reason({ spentTotal: 4_001 })).toBe('total_budget');
    expect(reason({ spentDay: 2_000 })).toBeNull();
    expect(reason({ spentDay: 2_001 })).toBe('daily_cap');
    expect(reason({ purchasesHour: 3 })).toBeNull();
    expect(reason({ purchasesHour: 4 })).toBe('hourly_limit');
    expect(reason({ balance: 11_000 })).toBeNull();
    expect(reason({ balance: 10_999 })).toBe('min_balance');
    expect(reason({ balance: null })).toBe('balance_unknown');
  });

  it('count every copy of a commodity purchase', () => {
    expect(reason({ price: 900, amount: 3 })).toBeNull();
    expect(reason({ price: 900, amount: 4 })).toBe('daily_cap');
    expect(reason({ price: 900, amount: 6 })).toBe('total_budget');
  });

  it('never buy while stopped, disconnected, not live, throttled, already attempted or gone — whatever else holds', () => {
    expect(reason({ killSwitch: true, price: 1 })).toBe('kill_switch');
    expect(reason({ marketConnected: false })).toBe('no_market');
    expect(reason({ bookLive: false })).toBe('book_not_live');
    expect(reason({ purchaseThrottled: true })).toBe('rate_limited');
    expect(reason({ alreadyAttempted: true })).toBe('already_attempted');
    expect(reason({ listingAlive: false })).toBe('listing_gone');
    // the kill switch wins over everything
    expect(reason({ killSwitch: true, bookLive: false, price: 99_999, balance: null })).toBe('kill_switch');
  });
});

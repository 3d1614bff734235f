/**
 * The balance estimate follows every purchase a purchaser is handed (see purchase-spending.ts): held at
 * its ceiling while on its way, released when not bought, kept when bought or unknown until a balance read
 * sent after it covers it.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/core/api/client.ts';
import { SpendWatchers } from '../../../src/core/api/purchase-spending.ts';
import type { PurchaseStatus } from '../../../src/core/api/purchaser.ts';
import { BalanceTracker } from '../../../src/core/watch/balance.ts';
import type { PurchaseResult } from '../../../src/shared/api/index.ts';

/** A GET /user that answers only when the test says so, with the balance the test gives. */
function heldUserReads() {
  const waiting: ((balance: number) => void)[] = [];
  const client = {
    user: () => new Promise<{ balance: number }>((answer) => waiting.push((balance) => answer({ balance }))),
  } as unknown as ApiClient;
  return {
    client,
    get reads() {
      return waiting.length;
    },
    /** Answers the oldest read still waiting. */
    answer(balance: number): void {
      const next = waiting.shift();
      if (!next) throw new Error('no balance read is waiting');
      next(balance);
    },
  };
}

/** A purchase that ends when the test says so. */
function heldPurchase(purchases: SpendWatchers, ceiling: number) {
  let end!: (outcome: { status: PurchaseStatus; result: PurchaseResult | null }) => void;
  const done = purchases.track(ceiling, () => new Promise<{ status: PurchaseStatus; result: PurchaseResult | null }>((resolve) => (end = resolve)));
  return {
    async end(status: PurchaseStatus, result: PurchaseResult | null = null) {
      end({ status, result });
      await done;
    },
  };
}

async function trackerAt(balance: number) {
  const user = heldUserReads();
  const purchases = new SpendWatchers();
  const clock = { ms: 1_000 };
  const tracker = new BalanceTracker({ client: user.client, purchases, now: () => clock.ms });
  const first = tracker.refresh();
  user.answer(balance);
  await first;
  return { user, purchases, tracker, clock };
}

describe('the balance estimate', () => {
  it('holds a purchase at its ceiling while it is on its way, and releases it, with no read, when it is not bought', async () => {
    const { user, purchases, tracker } = await trackerAt(10_000);
    const purchase = heldPurchase(purchases, 1_500);
    expect(tracker.available()).toBe(8_500);
    await purchase.end('not_bought');
    expect(tracker.available()).toBe(10_000);
    expect(user.reads).toBe(0);
  });

  it('keeps a bought purchase at what it cost until a read sent after it covers it', async () => {
    const { user, purchases, tracker, clock } = await trackerAt(10_000);
    const purchase = heldPurchase(purchases, 1_500);
    await purchase.end('bought', { order_id: 7, items: [{ price: 1_200, amount: 1 }] } as unknown as PurchaseResult);
    expect(tracker.available()).toBe(8_800);
    // the purchase asked for a read of its own; sent in the millisecond it ended, it may not cover it
    expect(user.reads).toBe(1);
    user.answer(8_800);
    await tracker.refresh();
    expect(tracker.available()).toBe(7_600);
    clock.ms += 1;
    const later = tracker.refresh();
    user.answer(8_800);
    await later;
    expect(tracker.available()).toBe(8_800);
  });

  it('stops counting a purchaser once stopped', async () => {
    const { purchases, tracker } = await trackerAt(10_000);
    tracker.stop();
    heldPurchase(purchases, 1_500);
    expect(tracker.available()).toBe(10_000);
  });
});

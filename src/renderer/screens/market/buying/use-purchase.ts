/**
 * Sends a purchase (one listing or a cart) and applies its report at once: the balance in the status
 * bar, the bought rows struck in the grid (the feed's removal follows), the bought lines out of the cart.
 */
import { useCallback, useState } from 'react';
import type { PurchaseLineInput, PurchaseReport } from '../../../../shared/ipc/calls-market.ts';
import { SkindeskError, call } from '../../../bridge/index.ts';
import { balanceStore } from '../../../shell/app-state.ts';
import type { BoughtCopies } from '../book/book-window-store.ts';
import { removeFromCart } from './cart-store.ts';

export type { BoughtCopies };

export interface PurchaseState {
  busy: boolean;
  report: PurchaseReport | null;
  /** The app refused before sending anything (trading off, invalid input). */
  refused: string | null;
  buy(lines: PurchaseLineInput[]): Promise<PurchaseReport | null>;
  reset(): void;
}

export function usePurchase(onBought: (lines: readonly BoughtCopies[]) => void): PurchaseState {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<PurchaseReport | null>(null);
  const [refused, setRefused] = useState<string | null>(null);

  const buy = useCallback(
    async (lines: PurchaseLineInput[]) => {
      setBusy(true);
      setRefused(null);
      setReport(null);
      try {
        const answer = await call('buyListings', { lines });
        setReport(answer);
        balanceStore.set(answer.balance);
        if (answer.boughtListingIds.length > 0) {
          // how many copies went, not only which listings: a listing with copies left stays on the market
          const bought = new Set(answer.boughtListingIds);
          onBought(lines.filter((l) => bought.has(l.listingId)).map((l) => ({ listingId: l.listingId, amount: l.amount ?? 1 })));
          removeFromCart(answer.boughtListingIds);
        }
        return answer;
      } catch (err) {
        setRefused(err instanceof SkindeskError ? err.message : String(err));
        return null;
      } finally {
        setBusy(false);
      }
    },
    [onBought],
  );

  const reset = useCallback(() => {
    setReport(null);
    setRefused(null);
  }, []);

  return { busy, report, refused, buy, reset };
}

import { useEffect, useRef } from 'react';
import { balanceStore, useLive } from '../../../shell/app-state.ts';
import { useLatest } from './hooks.ts';

/**
 * Reads a screen again when the balance moves (a purchase, a sale of a listing, a withdrawal): the ledger
 * lists every movement and the orders every purchase and sale, so a moved balance means they have a row
 * more; a purchase lands in the backpack; the portfolio shows the balance itself. The balance is read
 * after each purchase and every half minute while live (app-state.ts).
 */
export function useReloadWhenBalanceMoves(reload: () => void): void {
  const balance = useLive(balanceStore)?.balance ?? null;
  const seen = useRef(balance);
  const latest = useLatest(reload);
  useEffect(() => {
    if (balance === null) return;
    const before = seen.current;
    seen.current = balance;
    // the first balance known is no movement: the screen's own first read is already under way
    if (before !== null && before !== balance) latest.current();
  }, [balance, latest]);
}

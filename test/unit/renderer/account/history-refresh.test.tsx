// The orders and the ledger are read again when the balance moves (a purchase, a listing of yours sold,
// a withdrawal: each adds a row to one or both), and on R or their Refresh button, as the other account
// screens are; so are the backpack (a purchase lands in it) and the portfolio (it shows the balance). The
// first balance known is no movement.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { OrdersScreen } from '../../../../src/renderer/screens/account/history/OrdersScreen.tsx';
import { TransactionsScreen } from '../../../../src/renderer/screens/account/history/TransactionsScreen.tsx';
import { PortfolioScreen } from '../../../../src/renderer/screens/account/portfolio/PortfolioScreen.tsx';
import { balanceStore } from '../../../../src/renderer/shell/app-state.ts';
import { useCommands } from '../../../../src/renderer/shell/commands.ts';
import { useCommandHotkeys } from '../../../../src/renderer/shell/hotkeys.ts';
import { resetRendererState } from '../fake-app.ts';
import { NO_PAGES, NOW_ISO, freshness, installFakeBridge, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

function WithHotkeys({ children }: { children: ReactNode }) {
  useCommandHotkeys(useCommands());
  return <>{children}</>;
}

const balance = (cents: number) => ({ balance: cents, userName: 'Trader', asOf: NOW_ISO, problem: null });

describe.each([
  { name: 'Orders', call: 'getOrders' as const, Screen: OrdersScreen },
  { name: 'Ledger', call: 'getTransactions' as const, Screen: TransactionsScreen },
  { name: 'Backpack', call: 'getBackpack' as const, Screen: BackpackScreen },
  { name: 'Portfolio', call: 'getPortfolio' as const, Screen: PortfolioScreen },
])('$name screen', ({ name, call, Screen }) => {
  const bridgeFor = () =>
    installFakeBridge({
      getOrders: () => ({ orders: [], metadata: NO_PAGES, freshness }),
      getTransactions: () => ({ transactions: [], metadata: NO_PAGES, freshness }),
      getBackpack: () => ({ items: [], metadata: NO_PAGES, freshness }),
      getPortfolio: () => ({
        user: null,
        listed: null,
        backpack: null,
        inventory: { value: 0, games: [] },
        positions: [],
        positionCount: 0,
        total: 0,
        history: [],
        freshness: null,
      }),
      getTradingPnl: () => ({
        items: [],
        totals: { paid: 0, received: 0, unsettled: 0, fees: 0, realized: 0, matched: 0, unsettledRealized: 0, unsettledMatched: 0, rows: 0 },
        computedAt: null,
        problem: null,
      }),
      getBalance: () => balance(100_000),
    });

  it('when the balance moves, not when it is first known nor when it is read unchanged', async () => {
    const bridge = bridgeFor();
    renderWithTheme(<Screen />);
    const reads = () => bridge.calls.filter((c) => c.name === call).length;
    await waitFor(() => expect(reads()).toBe(1));
    act(() => balanceStore.set(balance(100_000)));
    act(() => balanceStore.set(balance(100_000)));
    expect(reads()).toBe(1);
    act(() => balanceStore.set(balance(96_500)));
    await waitFor(() => expect(reads()).toBe(2));
  });

  it('is titled as the navigation names it', async () => {
    bridgeFor();
    renderWithTheme(<Screen />);
    expect(await screen.findByRole('heading', { name })).toBeTruthy();
  });

  it('on R and on its Refresh button', async () => {
    const bridge = bridgeFor();
    renderWithTheme(
      <WithHotkeys>
        <Screen />
      </WithHotkeys>,
    );
    const reads = () => bridge.calls.filter((c) => c.name === call).length;
    await waitFor(() => expect(reads()).toBe(1));
    fireEvent.keyDown(document.body, { key: 'r', code: 'KeyR' });
    await waitFor(() => expect(reads()).toBe(2));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(reads()).toBe(3));
  });
});

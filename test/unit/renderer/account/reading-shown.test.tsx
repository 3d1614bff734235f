// A read asked for again is shown as on its way until it answers: "Read order history" (one of 5 exports a
// minute, seconds long), "Read Steam inventories" and the inventory's "Read again" spin, and the "as of"
// line says it is refreshing. They did only for the screen's first read: a click gave nothing to see.
// And "Read Steam inventories" says what it does when pressed again: a game read lately is not read anew.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { InventoryScreen } from '../../../../src/renderer/screens/account/inventory/InventoryScreen.tsx';
import { PortfolioScreen } from '../../../../src/renderer/screens/account/portfolio/PortfolioScreen.tsx';
import type { IpcOutput } from '../../../../src/shared/ipc/index.ts';
import { resetRendererState } from '../fake-app.ts';
import { freshness, installFakeBridge, renderWithTheme, skinRow } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

const PORTFOLIO: IpcOutput<'getPortfolio'> = {
  user: null,
  listed: null,
  backpack: null,
  inventory: { value: 0, games: [] },
  positions: [],
  positionCount: 0,
  total: 0,
  history: [],
  freshness,
};

const NO_RESULTS: IpcOutput<'getTradingPnl'> = {
  items: [],
  totals: {
    paid: 0,
    received: 0,
    unsettled: 0,
    fees: 0,
    realized: 0,
    matched: 0,
    unsettledRealized: 0,
    unsettledMatched: 0,
    rows: 0,
  },
  computedAt: null,
  problem: null,
};

/** A promise answered from the test, and how many are waiting. */
function held<T>() {
  const waiting: ((value: T) => void)[] = [];
  return {
    next: () => new Promise<T>((resolve) => waiting.push(resolve)),
    answer: (value: T) => waiting.shift()!(value),
    get count() {
      return waiting.length;
    },
  };
}

const spinning = (button: HTMLElement) => button.getAttribute('data-loading') === 'true';

describe('a read asked for again, shown as on its way', () => {
  it('Portfolio: "Read order history" spins until the order history is read', async () => {
    const user = userEvent.setup();
    const history = held<IpcOutput<'getTradingPnl'>>();
    installFakeBridge({
      getPortfolio: () => PORTFOLIO,
      getTradingPnl: ({ refresh }) => (refresh ? history.next() : NO_RESULTS),
    });
    renderWithTheme(<PortfolioScreen />);
    const button = await screen.findByTestId('read-order-history');
    await waitFor(() => expect(spinning(button)).toBe(false));
    await user.click(button);
    await waitFor(() => expect(history.count).toBe(1));
    expect(spinning(screen.getByTestId('read-order-history'))).toBe(true);
    act(() => history.answer({ ...NO_RESULTS, computedAt: freshness.fetchedAt }));
    await waitFor(() => expect(spinning(screen.getByTestId('read-order-history'))).toBe(false));
  });

  it('Portfolio: "Read Steam inventories" spins, and the "as of" line says refreshing', async () => {
    const user = userEvent.setup();
    const inventories = held<IpcOutput<'getPortfolio'>>();
    installFakeBridge({
      getPortfolio: ({ readInventories }) => (readInventories ? inventories.next() : PORTFOLIO),
      getTradingPnl: () => NO_RESULTS,
    });
    renderWithTheme(<PortfolioScreen />);
    await screen.findByTestId('freshness');
    const button = screen.getByRole('button', { name: 'Read Steam inventories' });
    await user.click(button);
    await waitFor(() => expect(inventories.count).toBe(1));
    expect(spinning(screen.getByRole('button', { name: 'Read Steam inventories' }))).toBe(true);
    expect(screen.getByTestId('freshness').textContent).toContain('refreshing…');
    act(() => inventories.answer(PORTFOLIO));
    await waitFor(() =>
      expect(spinning(screen.getByRole('button', { name: 'Read Steam inventories' }))).toBe(false),
    );
  });

  it('Inventory: "Read again" spins until the new read answers', async () => {
    const user = userEvent.setup();
    const again = held<IpcOutput<'getInventory'>>();
    const inventory = (): IpcOutput<'getInventory'> => ({
      appId: 730,
      items: [skinRow()],
      freshness: { ...freshness, fetchedAt: new Date().toISOString() },
      tokensExpireAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      expired: false,
      tradesInFlight: 0,
    });
    installFakeBridge({ getInventory: ({ refresh }) => (refresh ? again.next() : inventory()) });
    renderWithTheme(<InventoryScreen />);
    const button = await screen.findByTestId('inventory-refresh');
    await user.click(button);
    await waitFor(() => expect(again.count).toBe(1));
    expect(spinning(screen.getByTestId('inventory-refresh'))).toBe(true);
    act(() => again.answer(inventory()));
    await waitFor(() => expect(spinning(screen.getByTestId('inventory-refresh'))).toBe(false));
  });

  it('Portfolio: Refresh pressed once the inventories are read spins Refresh, not "Read Steam inventories"', async () => {
    const user = userEvent.setup();
    const reads = held<IpcOutput<'getPortfolio'>>();
    let first = true;
    installFakeBridge({
      getPortfolio: () => {
        if (first) {
          first = false;
          return PORTFOLIO;
        }
        return reads.next();
      },
      getTradingPnl: () => NO_RESULTS,
    });
    renderWithTheme(<PortfolioScreen />);
    await screen.findByTestId('freshness');
    const inventories = () => screen.getByRole('button', { name: 'Read Steam inventories' });
    const refresh = () => screen.getByRole('button', { name: 'Refresh' });
    await user.click(inventories());
    await waitFor(() => expect(reads.count).toBe(1));
    act(() => reads.answer(PORTFOLIO));
    await waitFor(() => expect(spinning(inventories())).toBe(false));
    await user.click(refresh());
    await waitFor(() => expect(reads.count).toBe(1));
    expect(spinning(refresh())).toBe(true);
    expect(spinning(inventories())).toBe(false);
    act(() => reads.answer(PORTFOLIO));
    await waitFor(() => expect(spinning(refresh())).toBe(false));
  });

  it('Portfolio: "Read Steam inventories" says that a game read in the last 29 minutes is used as read', async () => {
    const user = userEvent.setup();
    installFakeBridge({ getPortfolio: () => PORTFOLIO, getTradingPnl: () => NO_RESULTS });
    renderWithTheme(<PortfolioScreen />);
    await screen.findByTestId('freshness');
    await user.hover(screen.getByRole('button', { name: 'Read Steam inventories' }));
    expect((await screen.findByRole('tooltip')).textContent).toContain(
      'A game read in the last 29 minutes is used as read',
    );
  });
});

// The inventory route reads live (spec §4.4): a game read minutes ago may be read again when asked, and
// the portfolio offered no way to (only a tooltip saying it would not).
describe('Portfolio: "Read every game again"', () => {
  it('asks once for every game anew, spins "Read Steam inventories", and the Refresh after it does not ask again', async () => {
    const user = userEvent.setup();
    const asked: { readInventories: boolean; readInventoriesAgain: boolean; refresh: boolean }[] = [];
    const reads = held<IpcOutput<'getPortfolio'>>();
    installFakeBridge({
      getPortfolio: (input) => {
        asked.push(input);
        return asked.length === 1 ? PORTFOLIO : reads.next();
      },
      getTradingPnl: () => NO_RESULTS,
    });
    renderWithTheme(<PortfolioScreen />);
    await screen.findByTestId('freshness');
    await user.click(screen.getByRole('button', { name: 'More ways to read the Steam inventories' }));
    // jsdom lays nothing out, so the menu's floating dropdown counts as detached (display: none)
    await user.click(await screen.findByRole('menuitem', { name: /Read every game again/, hidden: true }));
    await waitFor(() => expect(reads.count).toBe(1));
    expect(asked.at(-1)).toEqual({ readInventories: true, readInventoriesAgain: true, refresh: false });
    expect(spinning(screen.getByRole('button', { name: 'Read Steam inventories' }))).toBe(true);
    act(() => reads.answer(PORTFOLIO));
    await waitFor(() => expect(spinning(screen.getByRole('button', { name: 'Read Steam inventories' }))).toBe(false));

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(reads.count).toBe(1));
    expect(asked.at(-1)).toEqual({ readInventories: true, readInventoriesAgain: false, refresh: true });
    act(() => reads.answer(PORTFOLIO));
    expect(asked).toHaveLength(3);
  });
});

// Review of the account screens: Refresh served backpack pages up to a minute old, so right after a list
// from the backpack the portfolio counted the items listed and, from the old page, held too.
describe('Portfolio: Refresh', () => {
  it('asks for the backpack anew once; a reload after it (a trade changed) does not', async () => {
    const user = userEvent.setup();
    const asked: boolean[] = [];
    const bridge = installFakeBridge({
      getPortfolio: ({ refresh }) => {
        asked.push(refresh);
        return PORTFOLIO;
      },
      getTradingPnl: () => NO_RESULTS,
    });
    renderWithTheme(<PortfolioScreen />);
    await screen.findByTestId('freshness');
    expect(asked).toEqual([false]);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(asked).toEqual([false, true]));
    await waitFor(() => expect(spinning(screen.getByRole('button', { name: 'Refresh' }))).toBe(false));
    act(() => bridge.push('tradesUpdated', { trades: [] }));
    await waitFor(() => expect(asked).toEqual([false, true, false]));
  });
});

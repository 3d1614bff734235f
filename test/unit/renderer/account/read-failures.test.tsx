// A table screen whose read failed: the first read that fails is told in the table's place (what failed,
// the marketplace's words, the spec's code, a Retry button), never as a box over an empty table that says
// there is nothing; a refresh that fails while rows are shown keeps them, and says so in the header line.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { InventoryScreen } from '../../../../src/renderer/screens/account/inventory/InventoryScreen.tsx';
import { PortfolioScreen } from '../../../../src/renderer/screens/account/portfolio/PortfolioScreen.tsx';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { OrdersScreen } from '../../../../src/renderer/screens/account/history/OrdersScreen.tsx';
import { TransactionsScreen } from '../../../../src/renderer/screens/account/history/TransactionsScreen.tsx';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { WalletScreen } from '../../../../src/renderer/screens/account/wallet/WalletScreen.tsx';
import { TradesScreen } from '../../../../src/renderer/screens/account/trades/TradesScreen.tsx';
import { type IpcOutput, SkindeskError } from '../../../../src/shared/ipc/index.ts';
import { resetRendererState } from '../fake-app.ts';
import {
  NOW_ISO,
  NO_PAGES,
  freshness,
  installFakeBridge,
  myListing,
  myListingsPage,
  renderWithTheme,
  skinRow,
  trackedTrade,
} from './fake-bridge.tsx';

afterEach(() => resetRendererState());

const rateLimited = () =>
  new SkindeskError({
    code: 'MARKET',
    message: 'The marketplace answered 429: slow down.',
    apiCode: 'RATE_LIMITED',
  });

const FEEDS: IpcOutput<'getTradeFeeds'> = {
  settings: {
    notifyOnStatusChange: true,
    webhook: { enabled: false, port: 8931, headerPrefix: 'X-Service-' },
  },
  secretSet: false,
  receiver: { state: 'off', localUrl: null, problem: null, accepted: 0, rejected: 0 },
  poller: { running: true, lastPollAt: NOW_ISO, nextPollAt: null, lastError: null, failingSince: null },
  demo: false,
};

const tradesPage = (trades: IpcOutput<'getTrades'>['trades']): IpcOutput<'getTrades'> => ({
  trades,
  inFlight: trades.filter((t) => t.inFlight).length,
  total: trades.length,
  metadata: { total_pages: 1, total_items: trades.length, current_page: 1, current_limit: 100 },
});

/** The failure said in the table's place, with no table (nor its empty words) beside it. */
async function failureInPlace(tableTestId: string, title: string) {
  const failure = await screen.findByTestId('read-failed');
  expect(failure.textContent).toContain(title);
  expect(failure.textContent).toContain('The marketplace answered 429: slow down.');
  expect(failure.textContent).toContain('RATE_LIMITED');
  expect(screen.queryByTestId(tableTestId)).toBeNull();
  expect(screen.queryByTestId(`${tableTestId}-empty`)).toBeNull();
  expect(screen.queryByTestId('error-note')).toBeNull();
  return failure;
}

describe('a failed first read, in the table’s place', () => {
  it('Trades: what failed, the code and Retry, which reads again and shows the trades', async () => {
    const user = userEvent.setup();
    let fail = true;
    const bridge = installFakeBridge({
      getTrades: () => {
        if (fail) throw rateLimited();
        return tradesPage([trackedTrade(1, 'Active')]);
      },
      getTradeFeeds: () => FEEDS,
    });
    renderWithTheme(<TradesScreen />);
    const failure = await failureInPlace('trades-table', 'The trades could not be read');
    // nothing read is not nothing in flight
    expect(screen.getByTestId('trades-in-flight').textContent).toBe('in flight –/15');
    fail = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(1));
    expect(screen.queryByTestId('read-failed')).toBeNull();
    expect(bridge.calls.filter((c) => c.name === 'getTrades')).toHaveLength(2);
  });

  it('Trades: a filter whose read fails does not go on showing the rows of the filter before', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getTrades: ({ inFlight }) => {
        if (inFlight === true) throw rateLimited();
        return tradesPage([trackedTrade(1, 'Accepted')]);
      },
      getTradeFeeds: () => FEEDS,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(1));
    await user.click(screen.getByText('In flight'));
    await failureInPlace('trades-table', 'The trades could not be read');
    expect(screen.queryByTestId('trade-row')).toBeNull();
  });

  it('My listings: what failed, the code and Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    installFakeBridge({
      getMyListings: () => {
        if (fail) throw rateLimited();
        return myListingsPage([myListing(7)]);
      },
    });
    renderWithTheme(<MyListingsScreen />);
    const failure = await failureInPlace('listings-table', 'The listings could not be read');
    fail = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByTestId('listing-row')).toHaveLength(1));
    expect(screen.queryByTestId('read-failed')).toBeNull();
  });

  it.each([
    {
      name: 'Orders',
      Screen: OrdersScreen,
      call: 'getOrders' as const,
      table: 'orders-table',
      title: 'The orders could not be read',
    },
    {
      name: 'Ledger',
      Screen: TransactionsScreen,
      call: 'getTransactions' as const,
      table: 'ledger-table',
      title: 'The ledger could not be read',
    },
    {
      name: 'Backpack',
      Screen: BackpackScreen,
      call: 'getBackpack' as const,
      table: 'backpack-table',
      title: 'The backpack could not be read',
    },
  ])('$name, as the other table screens', async ({ Screen, call, table, title }) => {
    installFakeBridge({
      [call]: () => {
        throw rateLimited();
      },
    });
    renderWithTheme(<Screen />);
    await failureInPlace(table, title);
  });
});

describe('a failed refresh while rows are shown', () => {
  it('Trades: keeps the rows, and says in the header line that the refresh failed', async () => {
    let fail = false;
    const bridge = installFakeBridge({
      getTrades: () => {
        if (fail) throw rateLimited();
        return tradesPage([trackedTrade(1, 'Active')]);
      },
      getTradeFeeds: () => FEEDS,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(1));
    fail = true;
    act(() => bridge.push('tradesUpdated', { trades: [] }));
    const note = await screen.findByTestId('read-refresh-failed');
    expect(note.textContent).toBe('not refreshed');
    expect(note.getAttribute('aria-label')).toContain(
      'The trades could not be read again: the marketplace answered 429: slow down (RATE_LIMITED',
    );
    expect(screen.getAllByTestId('trade-row')).toHaveLength(1);
    expect(screen.queryByTestId('read-failed')).toBeNull();
    expect(screen.queryByTestId('error-note')).toBeNull();
  });

  it('My listings: keeps the rows, and says in the header line that the refresh failed', async () => {
    const user = userEvent.setup();
    let fail = false;
    installFakeBridge({
      getMyListings: () => {
        if (fail) throw rateLimited();
        return myListingsPage([myListing(7)]);
      },
    });
    renderWithTheme(<MyListingsScreen />);
    await waitFor(() => expect(screen.getAllByTestId('listing-row')).toHaveLength(1));
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    const note = await screen.findByTestId('read-refresh-failed');
    // the rows' own read (NOW_ISO, an earlier day) is still the one they are "as of"
    expect(note.textContent).toMatch(/^not refreshed · as of 2026-01-02 \d\d:\d\d$/);
    expect(note.getAttribute('aria-label')).toContain(
      'The listings could not be read again: the marketplace answered 429',
    );
    expect(screen.getAllByTestId('listing-row')).toHaveLength(1);
    expect(screen.queryByTestId('read-failed')).toBeNull();
    expect(screen.queryByTestId('error-note')).toBeNull();
  });

  it('Orders: an empty table read before, then a failed refresh, is told in place, not as "No orders yet"', async () => {
    const user = userEvent.setup();
    let fail = false;
    installFakeBridge({
      getOrders: () => {
        if (fail) throw rateLimited();
        return { orders: [], metadata: NO_PAGES, freshness };
      },
    });
    renderWithTheme(<OrdersScreen />);
    await screen.findByTestId('orders-table-empty');
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await failureInPlace('orders-table', 'The orders could not be read');
  });

  it('Orders: a refresh that failed is not said of the next page while that page is on its way', async () => {
    const user = userEvent.setup();
    let fail = false;
    let answerPage2: (() => void) | null = null;
    const page = (n: number): IpcOutput<'getOrders'> => ({
      orders: [
        {
          order_id: n,
          order_item_id: n,
          side: 'bought',
          app_id: 730,
          market_hash_name: `Item ${n}`,
          price: 100,
          amount: 1,
          created_at: NOW_ISO,
        },
      ],
      metadata: { total_pages: 2, total_items: 2, current_page: n, current_limit: 50 },
      freshness,
    });
    installFakeBridge({
      getOrders: ({ page: n }) => {
        if (n === 2) return new Promise((resolve) => (answerPage2 = () => resolve(page(2))));
        if (fail) throw rateLimited();
        return page(1);
      },
    });
    renderWithTheme(<OrdersScreen />);
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(1));
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByTestId('read-refresh-failed');
    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(answerPage2).not.toBeNull());
    // page 1's rows stay while page 2 is read, and page 1's failure is not told of page 2
    expect(screen.getAllByTestId('order-row')).toHaveLength(1);
    expect(screen.queryByTestId('read-failed')).toBeNull();
    expect(screen.queryByTestId('read-refresh-failed')).toBeNull();
    act(() => answerPage2!());
    await waitFor(() => expect(screen.getByTestId('order-row').getAttribute('data-order-item-id')).toBe('2'));
  });
});

describe('the portfolio and the inventory, as the tables', () => {
  const noResults: IpcOutput<'getTradingPnl'> = {
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

  it('Portfolio: a first read that failed is told in place of the tiles, not as "No history yet" and "not read yet"', async () => {
    const user = userEvent.setup();
    let fail = true;
    installFakeBridge({
      getPortfolio: () => {
        if (fail) throw rateLimited();
        return {
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
      },
      getTradingPnl: () => noResults,
    });
    renderWithTheme(<PortfolioScreen />);
    const failure = await screen.findByTestId('read-failed');
    expect(failure.textContent).toContain('The portfolio could not be read');
    expect(failure.textContent).toContain('RATE_LIMITED');
    expect(screen.queryByTestId('portfolio-chart-empty')).toBeNull();
    expect(screen.queryByTestId('portfolio-inventory')).toBeNull();
    expect(screen.queryByTestId('error-note')).toBeNull();
    fail = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('portfolio-chart-empty')).textContent).toContain('No history yet.');
  });

  it('Portfolio: while the first read is on its way, the chart does not say there is no history', async () => {
    installFakeBridge({ getPortfolio: () => new Promise(() => undefined), getTradingPnl: () => noResults });
    renderWithTheme(<PortfolioScreen />);
    const empty = await screen.findByTestId('portfolio-chart-empty');
    expect(empty.textContent).not.toContain('No history yet.');
    expect(screen.getByTestId('portfolio-inventory').textContent).not.toContain('not read yet');
  });

  const inventory = (): IpcOutput<'getInventory'> => ({
    appId: 730,
    items: [skinRow()],
    freshness: { ...freshness, fetchedAt: new Date().toISOString() },
    tokensExpireAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    expired: false,
    tradesInFlight: 0,
  });

  it('Inventory: a first read that failed is told in place of the table, with Retry (there is no Read again without a read)', async () => {
    const user = userEvent.setup();
    let fail = true;
    installFakeBridge({
      getInventory: () => {
        if (fail) throw rateLimited();
        return inventory();
      },
    });
    renderWithTheme(<InventoryScreen />);
    const failure = await failureInPlace('inventory-table', 'The inventory could not be read');
    fail = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByTestId('inventory-row')).toHaveLength(1));
  });

  it('Inventory: a "Read again" that failed keeps the rows read before, and says so in the header', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getInventory: ({ refresh }) => {
        if (refresh) throw rateLimited();
        return inventory();
      },
    });
    renderWithTheme(<InventoryScreen />);
    await user.click(await screen.findByTestId('inventory-refresh'));
    const note = await screen.findByTestId('read-refresh-failed');
    expect(note.getAttribute('aria-label')).toContain('The inventory could not be read again');
    expect(screen.getAllByTestId('inventory-row')).toHaveLength(1);
    expect(screen.queryByTestId('error-note')).toBeNull();
  });

  it('Portfolio: "Read order history" that failed is told in the trading results’ place, or beside results read before', async () => {
    const user = userEvent.setup();
    let stored: IpcOutput<'getTradingPnl'> = noResults;
    installFakeBridge({
      getPortfolio: () => ({
        user: null,
        listed: null,
        backpack: null,
        inventory: { value: 0, games: [] },
        positions: [],
        positionCount: 0,
        total: 0,
        history: [],
        freshness,
      }),
      getTradingPnl: ({ refresh }) => {
        if (refresh) throw rateLimited();
        return stored;
      },
    });
    const view = renderWithTheme(<PortfolioScreen />);
    await user.click(await screen.findByTestId('read-order-history'));
    const failure = await within(screen.getByTestId('trading-results')).findByTestId('read-failed');
    expect(failure.textContent).toContain('The order history could not be read');
    expect(screen.queryByText(/once read\.$/)).toBeNull();
    expect(screen.queryByTestId('error-note')).toBeNull();
    view.unmount();

    stored = { ...noResults, computedAt: NOW_ISO, totals: { ...noResults.totals, rows: 3 } };
    renderWithTheme(<PortfolioScreen />);
    await waitFor(() =>
      expect(screen.getByTestId('trading-results-note').textContent).toContain('3 order rows'),
    );
    await user.click(screen.getByTestId('read-order-history'));
    const note = await within(screen.getByTestId('trading-results')).findByTestId('read-refresh-failed');
    expect(note.getAttribute('aria-label')).toContain('The order history could not be read again');
    expect(screen.getByTestId('pnl-paid')).toBeTruthy();
    expect(screen.queryByTestId('error-note')).toBeNull();
  });
});

describe('the wallet’s withdrawals, as the tables', () => {
  it('a read that failed is told in the list’s place, not as "No withdrawals made from this app yet."', async () => {
    const user = userEvent.setup();
    let fail = true;
    installFakeBridge({
      getWithdrawals: () => {
        if (fail) throw rateLimited();
        return { withdrawals: [], unsettled: [] };
      },
      getBalance: () => ({ balance: 100_000, userName: 'Trader', asOf: NOW_ISO, problem: null }),
    });
    renderWithTheme(<WalletScreen />);
    const failure = await screen.findByTestId('read-failed');
    expect(failure.textContent).toContain('The withdrawals could not be read');
    expect(screen.queryByText('No withdrawals made from this app yet.')).toBeNull();
    expect(screen.queryByTestId('error-note')).toBeNull();
    fail = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No withdrawals made from this app yet.')).toBeTruthy();
  });
});

// The count beside each account table's pages names what it counts: listings, orders, movements of
// the balance, backpack items — not "rows".
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { OrdersScreen } from '../../../../src/renderer/screens/account/history/OrdersScreen.tsx';
import { TransactionsScreen } from '../../../../src/renderer/screens/account/history/TransactionsScreen.tsx';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { freshness, installFakeBridge, myListingsPage, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

/** Metadata of `total` rows in all, none on the page read (the count is the metadata's). */
const counted = (total: number) => ({
  total_pages: Math.ceil(total / 50),
  total_items: total,
  current_page: 1,
  current_limit: 50,
});

const count = () => screen.getByTestId('pager-count').textContent;

describe('page counters', () => {
  it('My listings counts listings', async () => {
    installFakeBridge({ getMyListings: () => ({ ...myListingsPage([]), metadata: counted(1_203) }) });
    renderWithTheme(<MyListingsScreen />);
    await waitFor(() => expect(count()).toBe('1,203 listings'));
  });

  it('Orders counts orders', async () => {
    installFakeBridge({ getOrders: () => ({ orders: [], metadata: counted(1), freshness }) });
    renderWithTheme(<OrdersScreen />);
    await waitFor(() => expect(count()).toBe('1 order'));
  });

  it('the Ledger counts movements', async () => {
    installFakeBridge({ getTransactions: () => ({ transactions: [], metadata: counted(75), freshness }) });
    renderWithTheme(<TransactionsScreen />);
    await waitFor(() => expect(count()).toBe('75 movements'));
  });

  it('the Backpack counts items', async () => {
    installFakeBridge({ getBackpack: () => ({ items: [], metadata: counted(3), freshness }) });
    renderWithTheme(<BackpackScreen />);
    await waitFor(() => expect(count()).toBe('3 items'));
  });
});

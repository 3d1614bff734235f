// An account table with nothing to show says so in one row across every column: the row's span is the
// table's own column count, so a column shown only on some tabs (My listings' "In book", the checkboxes
// and the edit buttons) cannot leave it a column short of the header.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { OrdersScreen } from '../../../../src/renderer/screens/account/history/OrdersScreen.tsx';
import { TransactionsScreen } from '../../../../src/renderer/screens/account/history/TransactionsScreen.tsx';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { NO_PAGES, backpackStack, freshness, installFakeBridge, myListingsPage, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

/** The empty row of a table, and how many columns its header has. */
async function emptyRow(testId: string) {
  const row = await screen.findByTestId(`${testId}-empty`);
  const table = screen.getByTestId(testId);
  const headerCells = table.querySelectorAll('thead th').length;
  const cell = row.querySelector('td');
  return { text: row.textContent, span: Number(cell?.getAttribute('colspan')), headerCells };
}

describe('empty account tables', () => {
  it('My listings: "No active listings." spans every column of the active tab', async () => {
    installFakeBridge({
      getMyListings: () => myListingsPage([]),
    });
    renderWithTheme(<MyListingsScreen />);
    const { text, span, headerCells } = await emptyRow('listings-table');
    expect(text).toBe('No active listings.');
    expect(headerCells).toBeGreaterThan(10);
    expect(span).toBe(headerCells);
  });

  it('Backpack: no row while it is read, then "The backpack is empty." across the table', async () => {
    let answer: (() => void) | null = null;
    installFakeBridge({
      getBackpack: () =>
        new Promise((resolve) => {
          answer = () => resolve({ items: [], metadata: NO_PAGES, freshness });
        }),
    });
    renderWithTheme(<BackpackScreen />);
    await waitFor(() => expect(answer).not.toBeNull());
    expect(screen.queryByTestId('backpack-table-empty')).toBeNull();
    answer!();
    const { text, span, headerCells } = await emptyRow('backpack-table');
    expect(text).toBe('The backpack is empty.');
    expect(span).toBe(headerCells);
  });

  // Review of the account screens: a search over 200 characters showed the whole backpack under the
  // refused text, which read as every row matching it
  it('Backpack: a search too long shows no row and says it was not searched', async () => {
    installFakeBridge({ getBackpack: () => ({ items: [backpackStack(1), backpackStack(2)], metadata: { ...NO_PAGES, total_pages: 1, total_items: 2 }, freshness }) });
    renderWithTheme(<BackpackScreen />);
    await waitFor(() => expect(screen.getAllByTestId('backpack-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('backpack-search'), { target: { value: 'x'.repeat(205) } });
    const { text, span, headerCells } = await emptyRow('backpack-table');
    expect(text).toBe('Not searched: a search is at most 200 characters. Shorten it to see what matches.');
    expect(span).toBe(headerCells);
    expect(screen.queryAllByTestId('backpack-row')).toHaveLength(0);
    expect(screen.getByTestId('screen-backpack').textContent).not.toContain('2 items');
  });

  it('Orders: an account with no order yet says so across the table, not only its headers', async () => {
    installFakeBridge({ getOrders: () => ({ orders: [], metadata: NO_PAGES, freshness }) });
    renderWithTheme(<OrdersScreen />);
    const { text, span, headerCells } = await emptyRow('orders-table');
    expect(text).toBe('No orders yet: what you buy and sell shows here.');
    expect(span).toBe(headerCells);
  });

  it('Ledger: an account whose balance never moved says so across the table', async () => {
    installFakeBridge({ getTransactions: () => ({ transactions: [], metadata: NO_PAGES, freshness }) });
    renderWithTheme(<TransactionsScreen />);
    const { text, span, headerCells } = await emptyRow('ledger-table');
    expect(text).toBe('No movement of the balance yet.');
    expect(span).toBe(headerCells);
  });
});

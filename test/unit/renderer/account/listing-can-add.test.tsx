// My listings' "Can add" column: how many more copies a live stack can take from the backpack. A filled
// (or disabled) listing takes none, whatever available_amount the marketplace sends with it.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { installFakeBridge, myListing, myListingsPage, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

/** The "Can add" cell of the one listing row shown. */
function canAddCell(): string | null {
  const table = screen.getByTestId('listings-table');
  const column = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent === 'Can add');
  const row = screen.getByTestId('listing-row');
  return row.querySelectorAll('td')[column]?.textContent ?? null;
}

describe('My listings "Can add"', () => {
  it('shows the copies a live stack can take, and a dash for a filled one', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getMyListings: ({ status }) => myListingsPage([myListing(1, { available_amount: 10, status })]),
    });
    renderWithTheme(<MyListingsScreen />);
    await screen.findByTestId('listing-row');
    expect(canAddCell()).toBe('10');

    await user.click(screen.getByText('Filled'));
    await waitFor(() => expect(screen.getByTestId('listing-row').textContent).toContain('FILLED'));
    expect(canAddCell()).toBe('–');
  });
});

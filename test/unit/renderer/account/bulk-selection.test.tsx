// My listings' bulk actions and the selection they act on: backing out of the dialog (Cancel, Escape)
// keeps the listings picked, as the inventory and the backpack do; a sent action clears them, and its
// result table still names every listing it acted on.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import {
  confirmButton,
  installFakeBridge,
  myListing,
  myListingsPage,
  renderWithTheme,
} from './fake-bridge.tsx';

const selection = () => screen.getByTestId('listings-selection').textContent;

async function pickTwo(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('checkbox', { name: 'Select listing 1' }));
  await user.click(screen.getByRole('checkbox', { name: 'Select listing 3' }));
  expect(selection()).toBe('2 listings selected');
}

describe('My listings: the selection of a bulk action', () => {
  it('is kept when the reprice is canceled, and when the delist is closed with Escape', async () => {
    const user = userEvent.setup();
    installFakeBridge({ getMyListings: () => myListingsPage([myListing(1), myListing(2), myListing(3)]) });
    renderWithTheme(<MyListingsScreen />);
    await pickTwo(user);

    await user.click(screen.getByTestId('bulk-reprice-open'));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(selection()).toBe('2 listings selected');

    await user.click(screen.getByTestId('bulk-delist-open'));
    await screen.findByTestId('confirm-dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(selection()).toBe('2 listings selected');
    expect((screen.getByRole('checkbox', { name: 'Select listing 3' }) as HTMLInputElement).checked).toBe(
      true,
    );
  });

  it('is cleared once the delist is sent, the result still naming both listings', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getMyListings: () => myListingsPage([myListing(1), myListing(2), myListing(3)]),
      delistListings: ({ listingIds }) => ({
        results: listingIds.map((listingId) => ({ listingId, ok: true, error: null, explanation: null })),
      }),
    });
    renderWithTheme(<MyListingsScreen />);
    await pickTwo(user);

    await user.click(screen.getByTestId('bulk-delist-open'));
    await user.click(confirmButton());
    const rows = await screen.findAllByTestId('bulk-result-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Item 1'),
      expect.stringContaining('Item 3'),
    ]);
    expect(selection()).toMatch(/^Select up to 50 listings/);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(selection()).toMatch(/^Select up to 50 listings/);
  });
});

// My listings' "Listed" column: "29d ago" alone does not say when; the instant, on UTC as the marketplace
// keeps it, is on hover (as the Trades screen's "Updated" column does).
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { installFakeBridge, myListing, myListingsPage, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

describe('My listings "Listed"', () => {
  it('tells the instant a listing was made, on UTC, on hover over its "… ago"', async () => {
    installFakeBridge({
      getMyListings: ({ status }) =>
        myListingsPage([myListing(1, { status, created_at: '2025-12-04T09:41:27.000Z' })]),
    });
    renderWithTheme(<MyListingsScreen />);
    const listed = await screen.findByTestId('listing-listed');
    expect(listed.textContent).toMatch(/ago$/);
    expect(listed.getAttribute('title')).toBe('2025-12-04 09:41 UTC');
  });
});

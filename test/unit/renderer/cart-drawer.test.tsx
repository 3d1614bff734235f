// The cart after a refused purchase: a cart is all or nothing, so the line that stopped it is marked
// (the report names it by listing id) for the trader to fix or remove.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CartDrawer } from '../../../src/renderer/screens/market/buying/CartDrawer.tsx';
import { addToCart } from '../../../src/renderer/screens/market/buying/cart-store.ts';
import { syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { theme } from '../../../src/renderer/theme.ts';
import type { PurchaseReport } from '../../../src/shared/ipc/calls-market.ts';
import { NOW, installFakeApp, resetRendererState, status } from './fake-app.ts';

afterEach(() => {
  cleanup();
  resetRendererState();
});

const line = (listingId: number, name: string) => ({
  listingId,
  name,
  appId: 730,
  shownPrice: 500,
  amount: 1,
  available: 1,
  maxPrice: 500,
});

describe('cart', () => {
  it('marks the line that stopped an all-or-nothing purchase', async () => {
    const refused: PurchaseReport = {
      status: 'not_bought',
      orderId: null,
      title: 'Listing is gone — not bought',
      message: '“AK-47 | Redline (Field-Tested)” was sold or delisted before your order arrived.',
      apiCode: 'LISTING_NOT_FOUND',
      failedListingId: 12,
      spent: 0,
      boughtListingIds: [],
      balance: { balance: 50_000, userName: 'trader', asOf: NOW, problem: null },
    };
    installFakeApp({ buyListings: () => refused });
    syncStatusStore.set(status());
    // two copies of one item: the name alone cannot tell which line failed
    addToCart(line(11, 'AK-47 | Redline (Field-Tested)'));
    addToCart(line(12, 'AK-47 | Redline (Field-Tested)'));
    const user = userEvent.setup();
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <CartDrawer opened onClose={() => undefined} onBought={() => undefined} />
      </MantineProvider>,
    );
    await user.click(await screen.findByTestId('buy-cart'));
    const drawer = screen.getByTestId('cart-lines');
    await within(screen.getByTestId('cart-drawer')).findByTestId('purchase-outcome');
    await waitFor(() =>
      expect(drawer.querySelector('[data-cart-listing-id="12"]')?.getAttribute('data-failed')).toBe('true'),
    );
    expect(drawer.querySelector('[data-cart-listing-id="11"]')?.hasAttribute('data-failed')).toBe(false);
  });
});

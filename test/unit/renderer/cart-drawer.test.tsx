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

/** The drawer open on the cart, its Buy clicked once; the user, for the clicks after. */
async function openAndBuy() {
  const user = userEvent.setup();
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <CartDrawer opened onClose={() => undefined} onBought={() => undefined} />
    </MantineProvider>,
  );
  await user.click(await screen.findByTestId('buy-cart'));
  return user;
}

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
    await openAndBuy();
    const drawer = screen.getByTestId('cart-lines');
    await within(screen.getByTestId('cart-drawer')).findByTestId('purchase-outcome');
    await waitFor(() =>
      expect(drawer.querySelector('[data-cart-listing-id="12"]')?.getAttribute('data-failed')).toBe('true'),
    );
    expect(drawer.querySelector('[data-cart-listing-id="11"]')?.hasAttribute('data-failed')).toBe(false);
  });

  it('sends each line with the price the cart shows for it (none for a private listing), so a refusal can say whose price was short', async () => {
    const sent: unknown[] = [];
    installFakeApp({
      buyListings: ({ lines }: { lines: unknown[] }) => {
        sent.push(...lines);
        return {
          status: 'not_bought',
          orderId: null,
          title: 'Your maximum is below the price — not bought',
          message: '“AWP | Asiimov (Field-Tested)” is listed at $5.00, above your maximum of $4.00, so the marketplace refused the order.',
          apiCode: 'LISTING_PRICE_CHANGED',
          failedListingId: 31,
          spent: 0,
          boughtListingIds: [],
          balance: { balance: 50_000, userName: 'trader', asOf: NOW, problem: null },
        } satisfies PurchaseReport;
      },
    });
    syncStatusStore.set(status());
    addToCart({ ...line(31, 'AWP | Asiimov (Field-Tested)'), maxPrice: 400 });
    addToCart({ ...line(32, 'Private listing 32'), shownPrice: null, maxPrice: 900, privateToken: 'tok_abcd' });
    await openAndBuy();
    await waitFor(() =>
      expect(sent).toEqual([
        { listingId: 31, amount: 1, maxPrice: 400, shownPrice: 500 },
        { listingId: 32, amount: 1, maxPrice: 900, privateToken: 'tok_abcd' },
      ]),
    );
    const outcome = await within(screen.getByTestId('cart-drawer')).findByTestId('purchase-outcome');
    expect(outcome.textContent).toContain('Your maximum is below the price');
  });

  it('says which listing held the cart back, marks it, and keeps the cart for the next click', async () => {
    const message =
      'Skindesk did not send the request: the earlier purchase of “AK-47 | Redline (Field-Tested)” (listing 22) may have been bought (unknown — check orders); ' +
      'buy again to send it anyway. Nothing in the cart was bought (a cart is all or nothing) and nothing was charged.';
    const held: PurchaseReport = {
      status: 'not_bought',
      orderId: null,
      title: 'Not bought',
      message,
      apiCode: null,
      failedListingId: 22,
      spent: 0,
      boughtListingIds: [],
      balance: { balance: 50_000, userName: 'trader', asOf: NOW, problem: null },
    };
    const sent: number[][] = [];
    installFakeApp({
      buyListings: ({ lines }: { lines: { listingId: number }[] }) => {
        sent.push(lines.map((l) => l.listingId));
        return held;
      },
    });
    syncStatusStore.set(status());
    addToCart(line(21, 'AWP | Asiimov (Field-Tested)'));
    addToCart(line(22, 'AK-47 | Redline (Field-Tested)'));
    const user = await openAndBuy();
    const outcome = await within(screen.getByTestId('cart-drawer')).findByTestId('purchase-outcome');
    expect(outcome.getAttribute('data-status')).toBe('not_bought');
    expect(outcome.textContent).toContain(message);
    const lines = screen.getByTestId('cart-lines');
    await waitFor(() => expect(lines.querySelector('[data-cart-listing-id="22"]')?.getAttribute('data-failed')).toBe('true'));
    expect(lines.querySelector('[data-cart-listing-id="21"]')?.hasAttribute('data-failed')).toBe(false);
    // nothing was bought: both lines stay, and the same cart goes out on the next click
    await user.click(screen.getByTestId('buy-cart'));
    await waitFor(() => expect(sent).toEqual([[21, 22], [21, 22]]));
  });
});

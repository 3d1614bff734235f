// A number of copies typed in the Buy dialog, a cart line or a watchlist is the number shown and the
// number sent: one out of range stays on screen as typed, is refused in words, and the button is off.
// These fields once put the figure back into range behind the trader's back: '100' read '30' and bought
// 3, '0' read '0' with a "Buy for $0.02" button, '999' in the cart read '139' and cost 14 copies, and a
// watchlist's Copies '0' was saved as 1.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuyDialog } from '../../../src/renderer/screens/market/buying/BuyDialog.tsx';
import { CartDrawer } from '../../../src/renderer/screens/market/buying/CartDrawer.tsx';
import { addToCart, cartStore } from '../../../src/renderer/screens/market/buying/cart-store.ts';
import { WatchlistDialog } from '../../../src/renderer/screens/watchlists/WatchlistDialog.tsx';
import { balanceStore, syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { theme } from '../../../src/renderer/theme.ts';
import type { PurchaseReport } from '../../../src/shared/ipc/calls-market.ts';
import type { Watchlist } from '../../../src/shared/watchlist.ts';
import { NOW, bookRow, installFakeApp, resetRendererState, status } from './fake-app.ts';

beforeEach(() => {
  syncStatusStore.set(status());
  balanceStore.set({ balance: 50_000, userName: 'trader', asOf: NOW, problem: null });
});
afterEach(() => {
  cleanup();
  resetRendererState();
});

const inMantine = (node: ReactNode) =>
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      {node}
    </MantineProvider>,
  );

const bought: PurchaseReport = {
  status: 'bought',
  orderId: 5,
  title: 'Bought',
  message: 'Bought.',
  apiCode: null,
  failedListingId: null,
  spent: 4,
  boughtListingIds: [9],
  balance: { balance: 49_996, userName: 'trader', asOf: NOW, problem: null },
};

describe('copies typed by the trader', () => {
  it('Buy dialog: a figure the listing does not hold is shown as typed, said why, and not bought', async () => {
    const buy = vi.fn(() => bought);
    installFakeApp({ buyListings: buy });
    const user = userEvent.setup();
    const row = bookRow(9, { market_hash_name: 'Scrap Metal', commodity: true, amount: 3, price: 2 });
    inMantine(<BuyDialog row={row} onClose={() => undefined} onBought={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    const amount = within(dialog).getByLabelText('Amount') as HTMLInputElement;
    const confirm = within(dialog).getByTestId('confirm-buy');

    for (const typed of ['100', '5', '0', '']) {
      await user.clear(amount);
      if (typed !== '') await user.type(amount, typed);
      await user.tab(); // leaving the field does not put it back into range either
      expect(amount.value).toBe(typed);
      expect(within(dialog).getByTestId('amount-problem').textContent).toBe(
        'The listing has 3 copies: enter 1 to 3.',
      );
      expect(confirm.hasAttribute('disabled')).toBe(true);
      expect(confirm.textContent).toBe('Buy');
      expect(within(dialog).getByTestId('buy-total').textContent).toBe('–');
      expect(within(dialog).getByRole('button', { name: 'Add to cart' }).hasAttribute('disabled')).toBe(true);
    }

    await user.clear(amount);
    await user.type(amount, '2');
    expect(within(dialog).queryByTestId('amount-problem')).toBeNull();
    expect(within(dialog).getByTestId('buy-total').textContent).toBe('$0.04');
    expect(confirm.textContent).toBe('Buy for $0.04');
    await user.click(confirm);
    await waitFor(() =>
      expect(buy).toHaveBeenCalledWith({ lines: [{ listingId: 9, amount: 2, maxPrice: 2, shownPrice: 2 }] }),
    );
  });

  it('cart: a line asking for more copies than the listing holds is shown as typed and holds the cart back, named', async () => {
    installFakeApp({});
    const user = userEvent.setup();
    addToCart({
      listingId: 7,
      name: 'Scrap Metal',
      appId: 440,
      shownPrice: 2,
      amount: 1,
      available: 14,
      maxPrice: 2,
    });
    inMantine(<CartDrawer opened onClose={() => undefined} onBought={() => undefined} />);
    const qty = (await screen.findByLabelText('Amount of Scrap Metal')) as HTMLInputElement;
    const buy = screen.getByTestId('buy-cart');

    await user.clear(qty);
    await user.type(qty, '999');
    await user.tab();
    expect(qty.value).toBe('999');
    expect(screen.getByTestId('cart-copies-problem').textContent).toBe(
      'The listing has 14 copies: enter 1 to 14.',
    );
    expect(screen.getByTestId('cart-blocked').textContent).toBe(
      'The cart cannot be bought until the number of copies of “Scrap Metal” (listing 7) is fixed: the listing has 14 copies: enter 1 to 14.',
    );
    expect(buy.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('cart-total').textContent).toBe('–');
    // the line keeps the last number the listing holds (what the keystrokes before made of it), and the figure as typed beside it
    expect(cartStore.get()[0]).toMatchObject({ amount: 9, amountDraft: 999 });

    await user.clear(qty);
    await user.type(qty, '12');
    expect(screen.queryByTestId('cart-copies-problem')).toBeNull();
    expect(screen.queryByTestId('cart-blocked')).toBeNull();
    expect(buy.hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('cart-total').textContent).toBe('$0.24');
    expect(cartStore.get()[0]).toEqual(expect.not.objectContaining({ amountDraft: expect.anything() }));
    expect(cartStore.get()[0]?.amount).toBe(12);
  });

  it('watchlist: Copies 0 is shown, refused in words, and not saved as 1', async () => {
    const update = vi.fn();
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    const watchlist: Watchlist = {
      id: 1,
      name: 'Scrap',
      filter: { name: 'Scrap Metal' },
      price: { kind: 'ceiling', max_price: 3 },
      paused: false,
      alerts: { notify: true, sound: false, webhook: null },
      auto_buy: {
        mode: 'confirm',
        copies: 2,
        guardrails: { max_price: 5, total_budget: 1_000, daily_cap: 500, max_per_hour: 3, min_balance: 100 },
      },
      created_at: NOW,
      updated_at: NOW,
    };
    inMantine(<WatchlistDialog watchlist={watchlist} onClose={() => undefined} onSaved={() => undefined} />);
    const copies = (await screen.findByTestId('autobuy-copies')) as HTMLInputElement;
    const save = screen.getByTestId('watchlist-save');
    for (const [typed, words] of [
      ['0', 'Copies: must be at least 1.'],
      ['', 'Copies: must be at least 1.'],
    ] as const) {
      await user.clear(copies);
      if (typed !== '') await user.type(copies, typed);
      await user.tab();
      expect(copies.value).toBe(typed);
      expect(screen.getByTestId('watchlist-issues').textContent).toContain(words);
      expect(save.hasAttribute('disabled')).toBe(true);
    }
    await user.click(save);
    expect(update).not.toHaveBeenCalled();
  });
});

// The cart after a refused purchase: a cart is all or nothing, so the line that stopped it is marked
// (the report names it by listing id) for the trader to fix or remove.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CartDrawer } from '../../../src/renderer/screens/market/buying/CartDrawer.tsx';
import { addToCart, cartLineOf, cartStore } from '../../../src/renderer/screens/market/buying/cart-store.ts';
import { syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { theme } from '../../../src/renderer/theme.ts';
import { type PurchaseReport, purchaseLineInput } from '../../../src/shared/ipc/calls-market.ts';
import { type FakeHandlers, NOW, bookRow, installFakeApp, resetRendererState, status } from './fake-app.ts';
import { fullListingExample } from '../shared/fixtures.ts';

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

/** The drawer open on the cart; the user, for the clicks. */
async function open() {
  const user = userEvent.setup();
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <CartDrawer opened onClose={() => undefined} onBought={() => undefined} />
    </MantineProvider>,
  );
  await screen.findByTestId('buy-cart');
  return user;
}

/** The drawer open on the cart, its Buy clicked once; the user, for the clicks after. */
async function openAndBuy() {
  const user = await open();
  await user.click(screen.getByTestId('buy-cart'));
  return user;
}

const EMPTY = 'Enter the most you will pay for each copy.';
const TOO_LONG = 'The maximum takes at most 10 digits before the point.';
const ZERO = 'A maximum of $0.00 buys nothing: enter the most you will pay for each copy.';

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
        { listingId: 31, amount: 1, maxPrice: 400, shownPrice: 500, name: 'AWP | Asiimov (Field-Tested)' },
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

  it('a private listing whose maximum cannot be sent (empty, 11 digits, zero) says why Add is off', async () => {
    installFakeApp({});
    syncStatusStore.set(status());
    const user = await open();
    const form = screen.getByTestId('private-listing-form');
    const add = within(form).getByRole('button', { name: 'Add' });
    // an untouched form is not scolded
    expect(within(form).queryByTestId('max-price-problem')).toBeNull();
    await user.click(within(form).getByLabelText('Share link or token'));
    await user.paste('https://market.example/listings/77?private_token=tok_abcd');
    const max = within(form).getByLabelText('Private max price');
    const blocked = async (typed: string, reason: string) => {
      await user.clear(max);
      if (typed !== '') await user.type(max, typed);
      expect(add.hasAttribute('disabled')).toBe(true);
      expect(within(form).getByTestId('max-price-problem').textContent).toBe(reason);
    };
    await blocked('', EMPTY);
    await blocked('99999999999', TOO_LONG);
    await blocked('0', ZERO);
    await user.clear(max);
    await user.type(max, '6.4');
    expect(within(form).queryByTestId('max-price-problem')).toBeNull();
    expect(add.hasAttribute('disabled')).toBe(false);
    await user.click(add);
    expect(cartStore.get()).toEqual([expect.objectContaining({ listingId: 77, maxPrice: 640, privateToken: 'tok_abcd' })]);
  });

  it('a line whose maximum is edited to one that cannot be sent keeps the last one, says why, and holds the cart back naming it', async () => {
    const sent: unknown[] = [];
    installFakeApp({
      buyListings: ({ lines }: { lines: unknown[] }) => {
        sent.push(...lines);
        return {
          status: 'bought',
          orderId: 9,
          title: 'Bought',
          message: 'Bought 2 listings.',
          apiCode: null,
          failedListingId: null,
          spent: 1_225,
          boughtListingIds: [41, 42],
          balance: { balance: 48_775, userName: 'trader', asOf: NOW, problem: null },
        } satisfies PurchaseReport;
      },
    });
    syncStatusStore.set(status());
    addToCart(line(41, 'AWP | Asiimov (Field-Tested)'));
    addToCart(line(42, 'AK-47 | Redline (Field-Tested)'));
    const user = await open();
    const buy = screen.getByTestId('buy-cart');
    const max = screen.getByLabelText('Max price of AK-47 | Redline (Field-Tested)');
    const row = () => screen.getByTestId('cart-lines').querySelector('[data-cart-listing-id="42"]') as HTMLElement;
    const blocked = async (typed: string, reason: string) => {
      await user.clear(max);
      if (typed !== '') await user.type(max, typed);
      // the line keeps its last sendable maximum (what the keystrokes before made of it): never one that cannot be sent
      const kept = cartStore.get().find((l) => l.listingId === 42);
      expect(purchaseLineInput.safeParse({ listingId: 42, amount: 1, maxPrice: kept?.maxPrice }).success).toBe(true);
      if (typed === '') expect(kept?.maxPrice).toBe(500);
      expect(row().getAttribute('data-max-problem')).toBe('true');
      expect(screen.getByTestId('cart-max-problem').textContent).toBe(reason);
      expect(buy.hasAttribute('disabled')).toBe(true);
      const why = screen.getByTestId('cart-blocked').textContent;
      expect(why).toContain('“AK-47 | Redline (Field-Tested)” (listing 42)');
      expect(why).toContain(reason.slice(1));
    };
    await blocked('', EMPTY);
    // what was typed stays in the field to be fixed, rather than snapping back as if the edit were ignored
    expect((max as HTMLInputElement).value).toBe('');
    await blocked('99999999999', TOO_LONG);
    await blocked('0', ZERO);
    expect(screen.getByTestId('cart-blocked').textContent).toBe(
      'The cart cannot be bought until the max price of “AK-47 | Redline (Field-Tested)” (listing 42) is fixed: a maximum of $0.00 buys nothing: enter the most you will pay for each copy.',
    );
    await user.click(buy);
    expect(sent).toEqual([]);
    // fixed: the line takes it, and the cart goes out with it
    await user.clear(max);
    await user.type(max, '7.25');
    expect(screen.queryByTestId('cart-max-problem')).toBeNull();
    expect(screen.queryByTestId('cart-blocked')).toBeNull();
    expect(row().hasAttribute('data-max-problem')).toBe(false);
    expect(buy.hasAttribute('disabled')).toBe(false);
    await user.click(buy);
    await waitFor(() =>
      expect(sent).toEqual([
        { listingId: 41, amount: 1, maxPrice: 500, shownPrice: 500, name: 'AWP | Asiimov (Field-Tested)' },
        { listingId: 42, amount: 1, maxPrice: 725, shownPrice: 500, name: 'AK-47 | Redline (Field-Tested)' },
      ]),
    );
  });

  it('a private line whose maximum cannot be sent leaves the totals unknown rather than counting a maximum not chosen', async () => {
    installFakeApp({});
    syncStatusStore.set(status());
    addToCart(line(51, 'AWP | Asiimov (Field-Tested)'));
    addToCart({ ...line(52, 'Private listing 52'), shownPrice: null, maxPrice: 900, privateToken: 'tok_abcd' });
    const user = await open();
    expect(screen.getByTestId('cart-total').textContent).toBe('$14.00');
    await user.clear(screen.getByLabelText('Max price of Private listing 52'));
    expect(screen.getByTestId('cart-total').textContent).toBe('–');
    expect(screen.getByTestId('cart-blocked').textContent).toContain('(listing 52)');
    expect(screen.getByTestId('buy-cart').hasAttribute('disabled')).toBe(true);
    // removing the line lets the rest of the cart be bought
    await user.click(screen.getByLabelText('Remove Private listing 52'));
    expect(screen.getByTestId('cart-total').textContent).toBe('$5.00');
    expect(screen.queryByTestId('cart-blocked')).toBeNull();
    expect(screen.getByTestId('buy-cart').hasAttribute('disabled')).toBe(false);
  });
});

describe('cart: where the focus goes', () => {
  const render$ = (focus?: 'lines' | 'private-link') =>
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <CartDrawer opened {...(focus ? { focus } : {})} onClose={() => undefined} onBought={() => undefined} />
      </MantineProvider>,
    );

  it('opened for a private listing (P), the share-link field has the focus, so a paste lands in it', async () => {
    render$('private-link');
    const field = await screen.findByLabelText('Share link or token');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  it('P, paste, Tab, a maximum, Enter: the private listing is in the cart without reaching for the mouse', async () => {
    installFakeApp({});
    syncStatusStore.set(status());
    const user = userEvent.setup();
    render$('private-link');
    const field = await screen.findByLabelText('Share link or token');
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.paste('https://market.example/listings/55?private_token=tok_enter');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Private max price'));
    await user.keyboard('3.5{Enter}');
    expect(cartStore.get()).toEqual([expect.objectContaining({ listingId: 55, maxPrice: 350, privateToken: 'tok_enter' })]);
    // Enter on a form that cannot be added yet adds nothing
    await user.click(screen.getByLabelText('Share link or token'));
    await user.keyboard('not a link{Enter}');
    expect(cartStore.get()).toHaveLength(1);
  });

  it('opened on its lines (C, the cart button), the share-link field does not take the focus', async () => {
    render$();
    const field = await screen.findByLabelText('Share link or token');
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    expect(document.activeElement).not.toBe(field);
  });

  it('two lines of the same item are told apart by their floats (a listing id when the float is unknown); a lone line has no tell', async () => {
    installFakeApp({});
    const redline = bookRow(21, { market_hash_name: 'AK-47 | Redline (Field-Tested)', paint_wear: 0.2512345 });
    addToCart(cartLineOf(redline));
    addToCart({ ...line(22, 'AK-47 | Redline (Field-Tested)'), wear: null });
    addToCart(line(23, 'AWP | Asiimov (Field-Tested)'));
    await open();
    const tellOf = (id: number) => within(document.querySelector(`[data-cart-listing-id="${id}"]`) as HTMLElement).queryByTestId('cart-line-tell');
    expect(tellOf(21)?.textContent).toBe('0.251234');
    expect(tellOf(22)?.textContent).toBe('#22');
    expect(tellOf(23)).toBeNull();
  });
});

describe('cart, against the live book', () => {
  const NOT_BOUGHT: PurchaseReport = {
    status: 'not_bought',
    orderId: null,
    title: 'Not bought',
    message: 'Nothing in the cart was bought.',
    apiCode: null,
    failedListingId: null,
    spent: 0,
    boughtListingIds: [],
    balance: { balance: 50_000, userName: 'trader', asOf: NOW, problem: null },
  };

  /**
   * An app whose book holds the listings of `prices` at those prices (cents), and no other; the lines sent
   * by each purchase are kept in `sent`.
   */
  function bookOf(prices: Map<number, number>) {
    const sent: unknown[][] = [];
    const handlers: FakeHandlers = {
      getListing: ({ id }) => {
        const price = prices.get(id);
        return price === undefined
          ? { listing: null, alive: false, floatRank: null }
          : { listing: { ...fullListingExample, id, price }, alive: true, floatRank: null };
      },
      buyListings: ({ lines }) => {
        sent.push(lines);
        return NOT_BOUGHT;
      },
    };
    const app = installFakeApp(handlers);
    syncStatusStore.set(status());
    const changed = (ids: number[]) =>
      act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 0, removed: 0, ids, idsTruncated: false }));
    return { sent, changed };
  }

  const rowOf = (id: number) => document.querySelector(`[data-cart-listing-id="${id}"]`) as HTMLElement;

  it('marks a line whose listing left the book gone, holds the cart back naming it, and sends nothing until it is removed', async () => {
    const prices = new Map([
      [11, 500],
      [12, 500],
    ]);
    const { sent, changed } = bookOf(prices);
    addToCart(line(11, 'AWP | Asiimov (Field-Tested)'));
    addToCart(line(12, 'AK-47 | Redline (Field-Tested)'));
    const user = await open();
    // sold to someone else: the feed names it in a book change
    prices.delete(12);
    changed([12]);
    await waitFor(() => expect(rowOf(12).getAttribute('data-gone')).toBe('true'));
    expect(rowOf(11).hasAttribute('data-gone')).toBe(false);
    expect(screen.getByTestId('cart-line-gone').textContent).toContain('sold or delisted');
    expect(screen.getByTestId('cart-blocked').textContent).toBe(
      'The cart cannot be bought while “AK-47 | Redline (Field-Tested)” (listing 12) is in it: sold or delisted, it left the book. Remove it to buy the rest.',
    );
    const buy = screen.getByTestId('buy-cart');
    expect(buy.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('cart-total').textContent).toBe('–');

    await user.click(screen.getByRole('button', { name: 'Remove AK-47 | Redline (Field-Tested)' }));
    expect(screen.queryByTestId('cart-blocked')).toBeNull();
    await user.click(buy);
    await waitFor(() => expect(sent).toEqual([[{ listingId: 11, amount: 1, maxPrice: 500, shownPrice: 500, name: 'AWP | Asiimov (Field-Tested)' }]]));
  });

  it('checks every line as the book opens: a listing gone while another screen was shown is marked too', async () => {
    bookOf(new Map([[11, 500]]));
    addToCart(line(11, 'AWP | Asiimov (Field-Tested)'));
    addToCart(line(12, 'AK-47 | Redline (Field-Tested)'));
    await open();
    await waitFor(() => expect(rowOf(12).getAttribute('data-gone')).toBe('true'));
    expect(rowOf(11).hasAttribute('data-gone')).toBe(false);
  });

  it('shows a moved price as the price now, sends the maximum the trader chose, and takes the new price only on "Use"', async () => {
    const prices = new Map([[31, 500]]);
    const { sent, changed } = bookOf(prices);
    addToCart(line(31, 'AWP | Asiimov (Field-Tested)'));
    const user = await open();
    prices.set(31, 725);
    changed([31]);
    const now = await screen.findByTestId('cart-price-now');
    expect(now.textContent).toContain('Price now $7.25, above your maximum of $5.00.');
    expect(screen.getByTestId('cart-total').textContent).toBe('$7.25');
    // bought as it stands: the trader's maximum, the price shown now (a refusal says the maximum is below it)
    await user.click(screen.getByTestId('buy-cart'));
    await waitFor(() => expect(sent.at(-1)).toEqual([{ listingId: 31, amount: 1, maxPrice: 500, shownPrice: 725, name: 'AWP | Asiimov (Field-Tested)' }]));

    await user.click(within(now).getByRole('button', { name: 'Use $7.25' }));
    expect(screen.queryByTestId('cart-price-now')).toBeNull();
    expect((screen.getByLabelText('Max price of AWP | Asiimov (Field-Tested)') as HTMLInputElement).value).toBe('$7.25');
    await user.click(screen.getByTestId('buy-cart'));
    await waitFor(() => expect(sent.at(-1)).toEqual([{ listingId: 31, amount: 1, maxPrice: 725, shownPrice: 725, name: 'AWP | Asiimov (Field-Tested)' }]));
  });
});

// Pieces of the market calls that decide things on their own: which inspect links may be opened, how a
// purchase outcome reads to a person, and when an order accounts for a whole cart.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/api/errors.ts';
import type { PurchaseIntent } from '../../../src/core/api/purchase-journal.ts';
import { coversCart } from '../../../src/core/app/market-buying/cart-purchase.ts';
import { describePurchase } from '../../../src/core/app/market-buying/purchase-words.ts';
import { checkInspectLink } from '../../../src/core/app/market-links/inspect-link.ts';
import type { OrderItem } from '../../../src/shared/api/index.ts';

describe('inspect links', () => {
  it('opens the two item-preview shapes the games use', () => {
    const cs = 'steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S76561198000000001A31000000001D1234567890123';
    expect(checkInspectLink(cs)).toEqual({ ok: true, url: cs });
    const tf2 = 'steam://rungame/440/76561202255233023/+tf_econ_item_preview S76561198000000001A42D7';
    expect(checkInspectLink(tf2)).toEqual({ ok: true, url: tf2.replace(' ', '%20') });
  });

  it('refuses anything else a steam:// URL could do', () => {
    for (const link of [
      'steam://run/730',
      'steam://rungame/730/76561202255233023/+exec%20evil.cfg',
      'steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S1A2D3;quit',
      'steam://rungame/570/76561202255233023/+csgo_econ_action_preview%20S1A2D3',
      'https://steamcommunity.com/',
      'file:///etc/passwd',
      `steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S1A2D${'9'.repeat(300)}`,
      null,
    ]) {
      expect(checkInspectLink(link).ok, String(link)).toBe(false);
    }
  });
});

const line = { listingId: 5, name: 'AK-47 | Redline (Field-Tested)', amount: 1, maxPrice: 1250 };
const apiError = (code: string, details: Record<string, unknown> | null = null) =>
  new ApiError({ kind: 'api', route: 'POST /public/v1/purchase', message: code, code, status: 409, details });

describe('purchase outcomes in plain words', () => {
  it('says what was bought and for how much', () => {
    const words = describePurchase({ status: 'bought', orderId: 9, error: null, lines: [line], spent: 1200, note: null });
    expect(words).toEqual({ title: 'Bought', message: '“AK-47 | Redline (Field-Tested)” for $12.00 — order 9. The items go to your backpack.', failedListingId: null });
  });

  it('explains a price that went up, naming the maximum, and that nothing was charged', () => {
    const words = describePurchase({ status: 'not_bought', orderId: null, error: apiError('LISTING_PRICE_CHANGED'), lines: [line], spent: 0, note: null });
    expect(words.title).toBe('Price went up — not bought');
    expect(words.message).toContain('above your maximum of $12.50');
    expect(words.message).toContain('Nothing was bought and nothing was charged.');
    expect(words.failedListingId).toBe(5);
  });

  it('tells a maximum the trader set below the price shown from a seller who raised it', () => {
    // a single listing: the maximum was typed under the price the dialog showed
    const single = describePurchase({
      status: 'not_bought',
      orderId: null,
      error: apiError('LISTING_PRICE_CHANGED'),
      lines: [{ ...line, shownPrice: 1500 }],
      spent: 0,
      note: null,
    });
    expect(single).toEqual({
      title: 'Your maximum is below the price — not bought',
      message:
        '“AK-47 | Redline (Field-Tested)” is listed at $15.00, above your maximum of $12.50, so the marketplace refused the order. ' +
        'Nothing was bought and nothing was charged. Raise your maximum to buy it.',
      failedListingId: 5,
    });
    // shown at the maximum (or not shown at all): the price moved after the trader decided
    for (const shownPrice of [1250, 1000, null, undefined]) {
      const words = describePurchase({ status: 'not_bought', orderId: null, error: apiError('LISTING_PRICE_CHANGED'), lines: [{ ...line, shownPrice }], spent: 0, note: null });
      expect(words.title, String(shownPrice)).toBe('Price went up — not bought');
      expect(words.message).toContain('The seller raised the price');
    }
  });

  it('names the cart line whose maximum is below the price it showed, and says a cart is all or nothing', () => {
    const cheap = { ...line, shownPrice: 1250 };
    const low = { listingId: 6, name: 'AWP | Asiimov (Field-Tested)', amount: 1, maxPrice: 8000, shownPrice: 9000 };
    const words = describePurchase({ status: 'not_bought', orderId: null, error: apiError('LISTING_PRICE_CHANGED', { line: 1 }), lines: [cheap, low], spent: 0, note: null });
    expect(words.title).toBe('Your maximum is below the price — not bought');
    expect(words.message).toContain('“AWP | Asiimov (Field-Tested)” is listed at $90.00, above your maximum of $80.00');
    expect(words.message).toContain('Nothing in the cart was bought (a cart is all or nothing) and nothing was charged.');
    expect(words.message).not.toContain('raised');
    expect(words.failedListingId).toBe(6);
    // the marketplace named the other line, whose maximum was the price shown: that seller raised it
    const raised = describePurchase({ status: 'not_bought', orderId: null, error: apiError('LISTING_PRICE_CHANGED', { line: 0 }), lines: [cheap, low], spent: 0, note: null });
    expect(raised.title).toBe('Price went up — not bought');
    expect(raised.message).toContain('“AK-47 | Redline (Field-Tested)” above your maximum of $12.50');
    expect(raised.failedListingId).toBe(5);
  });

  it('names the failing line of a cart and says a cart is all or nothing', () => {
    const other = { listingId: 6, name: 'AWP | Asiimov (Field-Tested)', amount: 1, maxPrice: 9000 };
    const words = describePurchase({ status: 'not_bought', orderId: null, error: apiError('LISTING_NOT_FOUND', { line: 1 }), lines: [line, other], spent: 0, note: null });
    expect(words.title).toBe('Listing is gone — not bought');
    expect(words.message).toContain('“AWP | Asiimov (Field-Tested)” was sold or delisted');
    expect(words.message).toContain('a cart is all or nothing');
    expect(words.failedListingId).toBe(6);
  });

  it('tells the trader to check the orders when the outcome is unknown', () => {
    const words = describePurchase({
      status: 'unknown',
      orderId: null,
      error: new ApiError({ kind: 'timeout', route: 'POST /public/v1/purchase', message: 'timed out', maybeDelivered: true }),
      lines: [line],
      spent: 0,
      note: 'unknown — check orders: the order history could not be read',
    });
    expect(words.title).toBe('Unknown — check orders');
    expect(words.message).toContain('cannot be safely sent twice');
    expect(words.message).toContain('Check your orders before buying this again.');
    expect(words.message).toContain('(the order history could not be read)');
  });
});

describe('a cart in the order history', () => {
  const intent = (listingId: number, amount: number, maxPrice: number, name: string | null): PurchaseIntent => ({
    intentId: `i${listingId}`,
    createdAtMs: 0,
    listingId,
    amount,
    maxPrice,
    appId: 730,
    marketHashName: name,
    triggerSeq: null,
    watchlistId: null,
    source: 'app-cart',
  });
  const item = (id: number, name: string, price: number, amount = 1): OrderItem => ({
    order_item_id: id,
    order_id: 1,
    side: 'bought',
    app_id: 730,
    market_hash_name: name,
    price,
    amount,
    created_at: '2026-01-01T00:00:00.000Z',
  });

  it('is accounted for by an order whose items match every line', () => {
    const cart = [intent(1, 1, 500, 'A'), intent(2, 2, 300, 'B')];
    expect(coversCart([item(1, 'B', 300, 2), item(2, 'A', 450)], cart)).toBe(true);
    expect(coversCart([item(1, 'B', 301, 2), item(2, 'A', 450)], cart)).toBe(false); // dearer than the maximum
    expect(coversCart([item(1, 'A', 450)], cart)).toBe(false); // a line missing
    expect(coversCart([item(1, 'A', 450), item(2, 'A', 450)], cart)).toBe(false); // one item cannot serve two lines
  });
});

// The book screen inside the real App, over a stand-in app (the real dispatcher and generated bridge,
// handlers written here): rows come from windows, the keyboard selects, opens the detail (float bar,
// stickers with scrape) and buys; the report updates the balance and strikes the row; offline turns
// trading off; filters reach the app and the last view is restored.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/renderer/App.tsx';
import { commandRegistry } from '../../../src/renderer/shell/commands.ts';
import { NULL_LISTING_DETAIL, type FullListing } from '../../../src/shared/api/index.ts';
import type { BookRow } from '../../../src/shared/ipc/index.ts';
import type { BookView, BookWindowInput, PurchaseReport } from '../../../src/shared/ipc/calls-market.ts';
import { type FakeHandlers, NOW, bookRow, installFakeApp, resetRendererState, status } from './fake-app.ts';

// canvas charts do not run in jsdom
vi.mock('lightweight-charts', () => import('./chart-stub.ts'));

const STICKERS = [
  { slot: 0, sticker_id: 1, name: 'Katowice 2014 (Holo)', image: 'https://cdn.example/k.png', wear: 0.12, scale: null, rotation: null, tint_id: null, offset_x: null, offset_y: null, offset_z: null, pattern: null },
  { slot: 2, sticker_id: 2, name: 'Crown (Foil)', image: 'https://cdn.example/c.png', wear: 0, scale: null, rotation: null, tint_id: null, offset_x: null, offset_y: null, offset_z: null, pattern: null },
];

function full(row: BookRow): FullListing {
  return {
    ...NULL_LISTING_DETAIL,
    id: row.id,
    app_id: row.app_id,
    market_hash_name: row.market_hash_name,
    price: row.price,
    amount: row.amount,
    commodity: row.commodity,
    created_at: row.created_at,
    steam_asset_id: String(row.id * 10),
    icon_url: 'https://cdn.example/icon.png',
    trade_locked_until: null,
    cs_paint_wear: row.paint_wear,
    cs_paint_seed: row.paint_seed,
    cs_paint_index: row.paint_index,
    cs_is_stattrak: false,
    cs_is_souvenir: false,
    cs_wear: 'Field-Tested',
    cs_inspect_link: null,
    cs_stickers: STICKERS,
    cs_keychains: [],
  } as unknown as FullListing;
}

/** An app that answers every window with the first row, recording the windows asked and the views saved. */
function recordingViews(rows: BookRow[]): { windows: BookWindowInput[]; saved: unknown[]; handlers: FakeHandlers } {
  const windows: BookWindowInput[] = [];
  const saved: unknown[] = [];
  const recording = handlers(rows, {
    queryBookWindow: (input) => {
      windows.push(input);
      return { rows: rows.slice(0, 1), offset: 0, total: 1, version: 1, totalVersion: 1, lastSeq: '1' };
    },
    setLastBookView: (view) => {
      saved.push(view);
      return { saved: true };
    },
  });
  return { windows, saved, handlers: recording };
}

function handlers(rows: BookRow[], overrides: FakeHandlers = {}): FakeHandlers {
  return {
    getStatus: () => status({ rows: rows.length }),
    getBackfillProgress: () => ({ state: 'done', detailed: rows.length, total: rows.length, problem: null, etaMs: null }),
    getRateLimits: () => ({ endpoints: [{ key: 'POST /public/v1/purchase', limit: 30, windowMs: 60_000, headroom: 29, blockedUntil: null }], rateLimited: 0, queued: 0 }),
    getBalance: () => ({ balance: 50_000, userName: 'trader', asOf: NOW, problem: null }),
    getMarketScreenState: () => ({ lastView: null, presets: [] }),
    setLastBookView: () => ({ saved: true }),
    queryBookWindow: (input) => ({
      rows: rows.slice(input.offset, input.offset + input.limit),
      offset: input.offset,
      total: rows.length,
      version: 1,
      totalVersion: 1,
      lastSeq: '9007199254740993',
    }),
    getListing: ({ id }) => {
      const row = rows.find((r) => r.id === id);
      return { listing: row ? full(row) : null, alive: row !== undefined, floatRank: row?.paint_wear != null ? { rank: 2, of: 17 } : null };
    },
    getPriceContext: ({ stickers }) => ({
      market_price: 1100,
      recommended_price: 1050,
      lowest_listing_price: 1001,
      lowest_in_book: 1001,
      lowest_in_book_id: 1,
      listings_in_book: 3,
      average_30d: 980,
      sales_30d: 12,
      volume_30d: 14,
      time_to_sell: { sales: 9, median_ms: 3 * 3_600_000 + 59 * 60_000 },
      pricesAsOf: NOW,
      averagesAsOf: NOW,
      // the first sticker priced, the second not in prices/all
      stickers: stickers.map((name, i) => ({ name, market_price: i === 0 ? 4000 : null })),
      phase: null,
      problem: null,
    }),
    getSalesHistory: () => ({ sales: [{ at: NOW, price: 990, amount: 1, source: 'feed', paint_wear: 0.21 }], marketAsOf: NOW, problem: null }),
    ...overrides,
  };
}

const rows = [bookRow(1, { paint_wear: 0.1534, stickers: [{ slot: 0, name: 'Katowice 2014 (Holo)', wear: 0.12 }, { slot: 2, name: 'Crown (Foil)', wear: 0 }] }), bookRow(2), bookRow(3)];

beforeEach(() => resetRendererState());
afterEach(() => {
  cleanup();
  resetRendererState();
});

async function renderBook(h: FakeHandlers) {
  const app = installFakeApp(h);
  const user = userEvent.setup();
  render(<App />);
  await screen.findByText('3 listings');
  await waitFor(() => expect(document.querySelectorAll('[data-listing-id]')).toHaveLength(3));
  return { app, user };
}

describe('book screen', () => {
  it('shows the rows of the book window and the status bar', async () => {
    await renderBook(handlers(rows));
    const first = document.querySelector('[data-listing-id="1"]') as HTMLElement;
    expect(first.textContent).toContain('AK-47 | Redline (Field-Tested) #1');
    expect(first.textContent).toContain('$10.01');
    expect(first.textContent).toContain('0.153400');
    expect(first.querySelector('.sd-slots')?.getAttribute('data-stickers')).toBe('2');
    const bar = screen.getByTestId('status-bar');
    await waitFor(() => expect(within(bar).getByTestId('balance').textContent).toBe('$500.00'));
    expect(within(bar).getByTestId('sync-badge').textContent).toBe('live');
    expect(within(bar).getByTestId('last-seq').textContent).toBe('9007199254740993');
    await waitFor(() => expect(within(bar).getByTestId('rate-headroom').textContent).toContain('29/30'));
  });

  it('keyboard: ↓ selects, Enter opens the detail with its float bar and stickers, B buys after confirming', async () => {
    const report: PurchaseReport = {
      status: 'bought',
      orderId: 77,
      title: 'Bought',
      message: '“AK-47 | Redline (Field-Tested) #1” for $10.01 — order 77. The items go to your backpack.',
      apiCode: null,
      failedListingId: null,
      spent: 1001,
      boughtListingIds: [1],
      balance: { balance: 48_999, userName: 'trader', asOf: NOW, problem: null },
    };
    const buy = vi.fn(() => report);
    const { user, app } = await renderBook(handlers(rows, { buyListings: buy }));

    await user.keyboard('{ArrowDown}');
    expect(document.querySelector('[data-listing-id="1"]')?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    const detail = await screen.findByTestId('detail-panel');
    expect(within(detail).getByTestId('float-bar').getAttribute('data-float')).toBe('0.1534');
    expect(within(detail).getByTestId('float-bar').textContent).toContain('0.1534000000 · FT');
    expect((await within(detail).findByTestId('float-rank')).textContent).toBe(' · #2 lowest of 17');
    // $10.01 asked, $11.00 market: 99 cents below market, over $40.00 of stickers
    expect((await within(detail).findByTestId('sticker-worth')).textContent).toBe('$40.00 (1 of 2 priced) · SP −2%');
    const stickers = await within(detail).findAllByTestId('detail-sticker');
    expect(stickers.map((s) => s.textContent)).toEqual(['Katowice 2014 (Holo)slot 1 · scrape 12%', 'Crown (Foil)slot 3 · scrape 0%']);
    await waitFor(() => expect(detail.textContent).toContain('30-day average'));
    expect(detail.textContent).toContain('$9.80');
    expect(within(detail).getByTestId('time-to-sell').textContent).toBe('3h 59m median of 9 sales');

    await user.keyboard('b');
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    expect(within(dialog).getByTestId('buy-total').textContent).toBe('$10.01');
    expect(within(dialog).getByTestId('balance-after').textContent).toBe('$489.99');
    await user.click(within(dialog).getByTestId('confirm-buy'));
    await waitFor(() => expect(within(dialog).getByTestId('purchase-outcome').getAttribute('data-status')).toBe('bought'));
    expect(buy).toHaveBeenCalledWith({ lines: [{ listingId: 1, amount: 1, maxPrice: 1001, shownPrice: 1001 }] });
    expect(app.calls.filter((c) => c.name === 'buyListings')).toHaveLength(1);
    // the balance and the book update at once (the feed's removal follows)
    expect(screen.getByTestId('balance').textContent).toBe('$489.99');
    // answered: the balance before and now, never an "after" that takes the price off a second time
    expect(within(dialog).getByTestId('balance-before').textContent).toBe('$500.00');
    expect(within(dialog).getByTestId('balance-now').textContent).toBe('$489.99');
    expect(within(dialog).queryByTestId('balance-after')).toBeNull();
    expect(document.querySelector('[data-gone-id="1"]')?.getAttribute('data-gone')).toBe('bought');
    expect(document.querySelector('[data-listing-id="1"]')).toBeNull();
  });

  it('a row key after a click in the filter panel moves the focus to the grid: Enter opens the row, the filter stays', async () => {
    const windows: BookWindowInput[] = [];
    const answers = handlers(rows);
    const { user } = await renderBook({
      ...answers,
      queryBookWindow: (input) => {
        windows.push(input);
        return answers.queryBookWindow!(input);
      },
    });
    const mw = { float: { min: 0.07, max: 0.15 } };
    await user.click(screen.getByTestId('wear-MW'));
    await waitFor(() => expect(windows.at(-1)?.filter).toEqual(mw));
    await user.keyboard('{ArrowDown}');
    expect(document.querySelector('[data-listing-id="1"]')?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    const detail = await screen.findByTestId('detail-panel');
    expect(detail.textContent).toContain('AK-47 | Redline (Field-Tested) #1');
    expect(screen.getByTestId('wear-MW').getAttribute('aria-pressed')).toBe('true');
    expect(windows.at(-1)?.filter).toEqual(mw);

    // ↓ after a click on the game switch moves the selection, not the game
    await user.click(within(screen.getByRole('radiogroup', { name: 'Game' })).getByLabelText('CS2'));
    await waitFor(() => expect(windows.at(-1)?.filter).toEqual({ ...mw, app_id: 730 }));
    await user.keyboard('{ArrowDown}');
    expect(document.querySelector('[data-listing-id="1"]')?.getAttribute('aria-selected')).toBe('true');
    expect((screen.getByRole('radio', { name: 'CS2' }) as HTMLInputElement).checked).toBe(true);
    expect(windows.at(-1)?.filter).toEqual({ ...mw, app_id: 730 });
  });

  it('↓ with the detail open never shows the last item’s sales or market figures under the next one’s name', async () => {
    const named = [bookRow(1, { market_hash_name: 'Sorcerous Hat' }), bookRow(2, { market_hash_name: 'FAMAS | Vendetta (Well-Worn)' }), bookRow(3)];
    // the next item's reads wait (a rate-limited GET /sales, a slow prices read) until released
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hat = [0, 1, 2].map((i) => ({ at: `2026-01-01T1${i}:00:00.000Z`, price: 4, amount: 1, source: 'feed' as const, paint_wear: null }));
    const base = handlers(named);
    await renderBook({
      ...base,
      getSalesHistory: async ({ market_hash_name }) => {
        if (market_hash_name !== 'Sorcerous Hat') await released;
        return { sales: market_hash_name === 'Sorcerous Hat' ? hat : [], marketAsOf: NOW, problem: null };
      },
      getPriceContext: async (input) => {
        const context = await base.getPriceContext!(input);
        if (input.market_hash_name !== 'Sorcerous Hat') await released;
        return { ...context, market_price: input.market_hash_name === 'Sorcerous Hat' ? 4 : 1100 };
      },
    });
    const user = userEvent.setup();
    await user.keyboard('{ArrowDown}{Enter}');
    const detail = await screen.findByTestId('detail-panel');
    await waitFor(() => expect(within(detail).getByTestId('price-chart').getAttribute('data-points')).toBe('3'));
    await waitFor(() => expect(detail.textContent).toContain('Market price$0.04'));

    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(detail.getAttribute('data-listing-id-detail')).toBe('2'));
    expect(detail.textContent).toContain('FAMAS | Vendetta (Well-Worn)');
    // its own reads are on their way: nothing of the hat's is shown for it
    expect(within(detail).queryByTestId('price-chart')).toBeNull();
    expect(detail.textContent).not.toContain('3 sales');
    expect(detail.textContent).not.toContain('Market price$0.04');

    release();
    expect(await within(detail).findByText('No sales of this item seen yet.')).toBeTruthy();
    await waitFor(() => expect(detail.textContent).toContain('Market price$11.00'));
  });

  it("a Doppler's detail compares its price within its phase, not with the name's market price of every phase", async () => {
    const doppler = [bookRow(1, { market_hash_name: '★ Karambit | Doppler (Factory New)', paint_index: 419, price: 57_874 })];
    const base = handlers(doppler);
    installFakeApp({
      ...base,
      getPriceContext: async (input) => ({
        ...(await base.getPriceContext!(input)),
        market_price: 58_695,
        average_30d: 60_000,
        phase: { name: 'Phase 2', lowest_in_book: 57_874, lowest_in_book_id: 1, listings_in_book: 18, sales_30d: 3, average_30d: 70_000 },
      }),
    });
    const user = userEvent.setup();
    render(<App />);
    await screen.findByText('1 listing');
    await user.keyboard('{ArrowDown}{Enter}');
    const detail = await screen.findByTestId('detail-panel');
    await waitFor(() => expect(within(detail).getByTestId('phase-sales').textContent).toBe('3 · avg $700.00 −$121.26 (−17.3%)'));
    expect(detail.textContent).toContain('Market price$586.95Recommended');
    expect(detail.textContent).toContain('30-day average$600.0030-day sales');
  });

  it("the detail's 'listed … ago' keeps time like the grid's age column, not frozen at the moment it opened", async () => {
    // the clock is the test's (timers stay real, so the panel's own ticking runs): on a loaded machine the
    // real one could pass the minute before the panel first showed the age
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const fresh = [bookRow(1, { created_at: new Date(Date.now() - 58_000).toISOString() }), bookRow(2), bookRow(3)];
      const { user } = await renderBook(handlers(fresh));
      await user.keyboard('{ArrowDown}{Enter}');
      const detail = await screen.findByTestId('detail-panel');
      await waitFor(() => expect(detail.textContent).toContain('listed 58s ago · #1'));
      vi.setSystemTime(Date.now() + 3_000);
      await waitFor(() => expect(detail.textContent).toContain('listed 1m ago · #1'), { timeout: 4_000 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('part of a commodity listing bought: the copies left stay a normal row that B buys again', async () => {
    const live = [bookRow(1, { market_hash_name: 'Scrap Metal', commodity: true, amount: 7, price: 2 }), bookRow(2), bookRow(3)];
    let version = 1;
    const buy = vi.fn((): PurchaseReport => ({
      status: 'bought',
      orderId: 78,
      title: 'Bought',
      message: '1 × “Scrap Metal” for $0.02 — order 78.',
      apiCode: null,
      failedListingId: null,
      spent: 2,
      boughtListingIds: [1],
      balance: { balance: 49_998, userName: 'trader', asOf: NOW, problem: null },
    }));
    const { user, app } = await renderBook(
      handlers(live, {
        buyListings: buy,
        queryBookWindow: (input) => ({ rows: live.slice(input.offset, input.offset + input.limit), offset: input.offset, total: live.length, version, totalVersion: version, lastSeq: String(version) }),
      }),
    );
    await user.keyboard('{ArrowDown}');
    await user.keyboard('b');
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    await user.click(within(dialog).getByTestId('confirm-buy'));
    await waitFor(() => expect(within(dialog).getByTestId('purchase-outcome').getAttribute('data-status')).toBe('bought'));
    expect(buy).toHaveBeenCalledWith({ lines: [{ listingId: 1, amount: 1, maxPrice: 2, shownPrice: 2 }] });
    await user.click(within(dialog).getByTestId('close-buy'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Buy' })).toBeNull());

    // the feed has it: the listing is live with 6 copies
    live[0] = { ...(live[0] as BookRow), amount: 6 };
    version = 2;
    act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 1, removed: 0, ids: [1], idsTruncated: false }));
    await waitFor(() => expect(document.querySelector('[data-listing-id="1"] [data-col="amount"]')?.textContent).toBe('6'));
    expect(document.querySelector('[data-gone-id="1"]')).toBeNull();
    await user.keyboard('b');
    const again = await screen.findByRole('dialog', { name: 'Buy' });
    expect(again.textContent).toContain('Amount (of 6)');
  });

  it('a selected listing that leaves the book takes the selection with it: B never buys the row that slid into its place', async () => {
    const live = [...rows];
    let version = 1;
    const buy = vi.fn();
    const h = handlers(live, {
      buyListings: buy,
      queryBookWindow: (input) => ({ rows: live.slice(input.offset, input.offset + input.limit), offset: input.offset, total: live.length, version, totalVersion: version, lastSeq: String(version) }),
    });
    const { user, app } = await renderBook(h);
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    const detail = await screen.findByTestId('detail-panel');
    await waitFor(() => expect(within(detail).getByTestId('detail-buy').hasAttribute('disabled')).toBe(false));

    // the feed removes it (sold to someone else)
    live.splice(0, 1);
    version = 2;
    act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 0, removed: 1, ids: [1], idsTruncated: false }));
    await waitFor(() => expect(document.querySelector('[data-listing-id="1"]')).toBeNull());
    expect(document.querySelector('[aria-selected="true"]')).toBeNull();
    // the detail says it left, and its Buy is off
    await within(detail).findByTestId('detail-gone');
    expect(within(detail).getByTestId('detail-buy').hasAttribute('disabled')).toBe(true);
    // B, A and Enter act on nothing rather than on listing 2, now where listing 1 was
    await user.keyboard('b');
    await user.keyboard('a');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('dialog', { name: 'Buy' })).toBeNull();
    expect(screen.getByTestId('cart-button').textContent).toBe('0');
    expect(buy).not.toHaveBeenCalled();
    // ↓ picks up with the row that followed it
    await user.keyboard('{ArrowDown}');
    expect(document.querySelector('[data-listing-id="2"]')?.getAttribute('aria-selected')).toBe('true');
  });

  it('a refused purchase is shown in plain words and the dialog stays open to try again', async () => {
    const refused: PurchaseReport = {
      status: 'not_bought',
      orderId: null,
      title: 'Price went up — not bought',
      message: 'The seller raised the price above your maximum of $10.02 just before your order arrived. Nothing was bought and nothing was charged.',
      apiCode: 'LISTING_PRICE_CHANGED',
      failedListingId: 2,
      spent: 0,
      boughtListingIds: [],
      balance: { balance: 50_000, userName: 'trader', asOf: NOW, problem: null },
    };
    const { user } = await renderBook(handlers(rows, { buyListings: () => refused }));
    await user.click(document.querySelector('[data-listing-id="2"]') as HTMLElement);
    await user.keyboard('b');
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    await user.click(within(dialog).getByTestId('confirm-buy'));
    const outcome = await within(dialog).findByTestId('purchase-outcome');
    expect(outcome.getAttribute('data-code')).toBe('LISTING_PRICE_CHANGED');
    expect(outcome.textContent).toContain('nothing was charged');
    expect(within(dialog).getByTestId('confirm-buy')).toBeTruthy();
  });

  it('a price raised while the dialog is open: the button says the maximum it sends, and taking the new price is its own click', async () => {
    const live = [...rows];
    let version = 1;
    const refused: PurchaseReport = {
      status: 'not_bought',
      orderId: null,
      title: 'Your maximum is below the price — not bought',
      message: '“AK-47 | Redline (Field-Tested) #2” is listed at $15.07, above your maximum of $10.02, so the marketplace refused the order.',
      apiCode: 'LISTING_PRICE_CHANGED',
      failedListingId: 2,
      spent: 0,
      boughtListingIds: [],
      balance: { balance: 50_000, userName: 'trader', asOf: NOW, problem: null },
    };
    const buy = vi.fn(() => refused);
    const { user, app } = await renderBook(
      handlers(live, {
        buyListings: buy,
        queryBookWindow: (input) => ({ rows: live.slice(input.offset, input.offset + input.limit), offset: input.offset, total: live.length, version, totalVersion: version, lastSeq: String(version) }),
      }),
    );
    await user.click(document.querySelector('[data-listing-id="2"]') as HTMLElement);
    await user.keyboard('b');
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    expect(within(dialog).getByTestId('confirm-buy').textContent).toBe('Buy for $10.02');

    live[1] = bookRow(2, { price: 1507 });
    version = 2;
    act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 1, removed: 0, ids: [2], idsTruncated: false }));
    await waitFor(() => expect(within(dialog).getByTestId('buy-price').textContent).toBe('$15.07'));
    // the maximum is still $10.02: that is what the button sends, and says
    expect(within(dialog).getByTestId('confirm-buy').textContent).toBe('Buy at most $10.02');
    await user.click(within(dialog).getByTestId('confirm-buy'));
    // the raise was on screen when the trader confirmed: the refusal is worded by it, not as a seller's surprise
    expect(buy).toHaveBeenLastCalledWith({ lines: [{ listingId: 2, amount: 1, maxPrice: 1002, shownPrice: 1507 }] });
    await within(dialog).findByTestId('purchase-outcome');

    await user.click(within(dialog).getByRole('button', { name: 'Use $15.07' }));
    expect(within(dialog).getByTestId('confirm-buy').textContent).toBe('Buy for $15.07');
    await user.click(within(dialog).getByTestId('confirm-buy'));
    expect(buy).toHaveBeenLastCalledWith({ lines: [{ listingId: 2, amount: 1, maxPrice: 1507, shownPrice: 1507 }] });
  });

  it('a maximum that cannot be sent (emptied, 11 digits, zero) says why Buy and Add to cart are off', async () => {
    const { user } = await renderBook(handlers(rows));
    await user.click(document.querySelector('[data-listing-id="2"]') as HTMLElement);
    await user.keyboard('b');
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    const max = within(dialog).getByLabelText('Max price');
    const blocked = async (typed: string, reason: string) => {
      await user.clear(max);
      if (typed !== '') await user.type(max, typed);
      expect(within(dialog).getByTestId('confirm-buy').hasAttribute('disabled')).toBe(true);
      expect(within(dialog).getByRole('button', { name: 'Add to cart' }).hasAttribute('disabled')).toBe(true);
      expect(within(dialog).getByTestId('max-price-problem').textContent).toBe(reason);
    };
    await blocked('', 'Enter the most you will pay for each copy.');
    await blocked('99999999999', 'The maximum takes at most 10 digits before the point.');
    await blocked('0', 'A maximum of $0.00 buys nothing: enter the most you will pay for each copy.');
    await user.clear(max);
    await user.type(max, '12.5');
    expect(within(dialog).queryByTestId('max-price-problem')).toBeNull();
    expect(within(dialog).getByTestId('confirm-buy').hasAttribute('disabled')).toBe(false);
    // a comma is never the decimal point: "1,000" is a thousand dollars (it once read as $1.00)
    await user.clear(max);
    await user.type(max, '1,000');
    expect((max as HTMLInputElement).value).toBe('$1000.00');
  });

  it('offline: the cached book is shown, marked, and trading is off', async () => {
    const buy = vi.fn();
    // a book from today: the time alone (one from an earlier day shows its date, offline-as-of.test.tsx)
    const asOf = new Date();
    asOf.setSeconds(7);
    const h = handlers(rows, { getStatus: () => status({ state: 'offline', bookAsOf: asOf.toISOString(), problem: 'Could not connect to the market' }), buyListings: buy });
    const { user } = await renderBook(h);
    await screen.findByTestId('offline-banner');
    expect(screen.getByTestId('sync-badge').textContent).toMatch(/^offline · book as of \d\d:\d\d:07$/);
    await user.click(document.querySelector('[data-listing-id="1"]') as HTMLElement);
    await user.keyboard('b');
    expect(screen.queryByRole('dialog', { name: 'Buy' })).toBeNull();
    await user.keyboard('{Enter}');
    const detailBuy = await screen.findByTestId('detail-buy');
    expect((detailBuy as HTMLButtonElement).disabled).toBe(true);
    expect(buy).not.toHaveBeenCalled();
  });

  it('resyncing: the badge says the book keeps following the feed while it is re-read', async () => {
    const problem = 'the feed closed (code 1006); reconnecting';
    const { user } = await renderBook(handlers(rows, { getStatus: () => status({ state: 'resyncing', problem }) }));
    const badge = await screen.findByTestId('sync-badge');
    expect(badge.textContent).toBe('resyncing');
    await user.hover(badge);
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toBe(`${problem}\nThe book keeps following the feed; what changed while disconnected arrives with the book read.`);
  });

  it('a first start: while the book is read, the empty grid and the status bar say how far it has come', async () => {
    const app = installFakeApp(
      handlers([], {
        getStatus: () => status({ state: 'connecting', rows: 0, lastSeq: null, bookRead: { phase: 'reading', rows: 412_000, bytes: 40_055_603, merged: 0 } }),
      }),
    );
    render(<App />);
    expect((await screen.findByTestId('book-empty')).textContent).toBe('Reading the book: 412,000 listings (38.2 MB)…');
    expect(screen.getByTestId('book-read').textContent).toBe('reading the book: 412,000 listings (38.2 MB)');
    act(() => app.push('syncStatus', status({ state: 'connecting', rows: 0, bookRead: { phase: 'merging', rows: 1_000_000, bytes: 97_000_000, merged: 412_000 } })));
    expect(screen.getByTestId('book-empty').textContent).toBe('Writing 412,000 of 1,000,000 listings into the book…');
    act(() => app.push('syncStatus', status({ state: 'live', rows: 0 })));
    expect(screen.getByTestId('book-empty').textContent).toBe('No listing matches yet — the book is empty.');
    expect(screen.queryByTestId('book-read')).toBeNull();
  });

  it('a first start: the detail backfill says how many listings have their details, and how long the rest takes', async () => {
    const app = installFakeApp(
      handlers([], { getBackfillProgress: () => ({ state: 'running', detailed: 0, total: 0, problem: null, etaMs: null }) }),
    );
    const user = userEvent.setup();
    render(<App />);
    await screen.findByTestId('book-empty');
    // the snapshot's rows carry no float, seed or stickers: at the market's 1,000 a second a big book takes a while
    act(() => app.push('backfillProgress', { state: 'running', detailed: 11_023, total: 1_211_023, problem: null, etaMs: 1_200_000 }));
    const backfill = screen.getByTestId('backfill');
    expect(backfill.textContent).toBe('detail 0%');
    await user.hover(backfill);
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      '11,023 of 1,211,023 listings have their float, seed and stickers; the rest in about 20m',
    );
  });

  it('an empty book the market would not give says why, and leads to Settings, instead of "the book is empty"', async () => {
    const refused = 'The marketplace refused the API key (WebSocket closed with 4401). Check the key; sync stopped.';
    const real = { mode: 'real' as const, baseUrl: 'https://market.example', demoReason: null };
    installFakeApp(
      handlers([], { getStatus: () => status({ market: real, state: 'stopped', rows: 0, lastSeq: null, bookAsOf: null, problem: refused }) }),
    );
    const user = userEvent.setup();
    render(<App />);
    expect((await screen.findByTestId('book-empty')).textContent).toBe(refused);
    await user.click(screen.getByRole('button', { name: 'Marketplace settings' }));
    expect(await screen.findByTestId('settings-screen')).toBeTruthy();
  });

  it('offline before any book of the market was read: the banner does not call an empty book the one on disk', async () => {
    const unreachable = 'Could not connect to the market: the marketplace could not be reached (ECONNREFUSED)';
    const real = { mode: 'real' as const, baseUrl: 'https://market.example', demoReason: null };
    installFakeApp(
      handlers([], { getStatus: () => status({ market: real, state: 'offline', rows: 0, lastSeq: null, bookAsOf: null, problem: unreachable }) }),
    );
    render(<App />);
    expect((await screen.findByTestId('offline-banner')).textContent).toBe(
      'OfflineNo book of this market has been read yet. Trading is off until the market is reachable.',
    );
    expect(screen.getByTestId('book-empty').textContent).toBe(unreachable);
  });

  it('sends filters to the app, remembers them, and restores the last view on the next start', async () => {
    const { windows, saved, handlers: h } = recordingViews(rows);
    installFakeApp(h);
    const user = userEvent.setup();
    render(<App />);
    await screen.findByTestId('filter-panel');
    await user.click(screen.getByTestId('wear-FN'));
    await waitFor(() => expect(windows.at(-1)?.filter).toEqual({ float: { min: 0, max: 0.07 } }), { timeout: 3000 });
    await waitFor(() => expect(saved.at(-1)).toEqual({ filter: { float: { min: 0, max: 0.07 } }, sort: { field: 'created_at', dir: 'desc' } }), { timeout: 3000 });
    expect(screen.getByTestId('filter-chips').textContent).toContain('FN');

    // next start: the app hands back the last view, and the first window already uses it
    cleanup();
    resetRendererState();
    const restored: BookWindowInput[] = [];
    installFakeApp({
      ...h,
      getMarketScreenState: () => ({ lastView: { filter: { app_id: 730, price: { max: 5000 } }, sort: { field: 'price', dir: 'asc' } }, presets: [] }),
      queryBookWindow: (input) => {
        restored.push(input);
        return { rows: [], offset: 0, total: 0, version: 1, totalVersion: 1, lastSeq: '1' };
      },
    });
    render(<App />);
    await screen.findByTestId('book-empty');
    expect(restored[0]).toMatchObject({ filter: { app_id: 730, price: { max: 5000 } }, sort: { field: 'price', dir: 'asc' }, offset: 0 });
    expect(screen.getByTestId('filter-chips').textContent).toContain('price ≤ $50.00');
  });

  it('a filter changed just before leaving the book is still saved for the next start', async () => {
    const { windows, saved, handlers: h } = recordingViews(rows);
    installFakeApp(h);
    const user = userEvent.setup();
    render(<App />);
    await screen.findByTestId('filter-panel');
    await user.click(screen.getByTestId('wear-MW'));
    await waitFor(() => expect(windows.at(-1)?.filter).toEqual({ float: { min: 0.07, max: 0.15 } }), { timeout: 3000 });
    // the trader moves on (another screen, or the window closes) before the save's pause is over
    cleanup();
    await waitFor(() => expect(saved.at(-1)).toEqual({ filter: { float: { min: 0.07, max: 0.15 } }, sort: { field: 'created_at', dir: 'desc' } }));
  });

  it('a filter typed and left (another screen) within the panel’s pause is applied, saved and shown on return', async () => {
    const { windows, saved, handlers: h } = recordingViews(rows);
    installFakeApp({ ...h, getMarketScreenState: () => ({ lastView: (saved.at(-1) as BookView | undefined) ?? null, presets: [] }) });
    const user = userEvent.setup();
    render(<App />);
    await screen.findByTestId('filter-panel');
    // typed, and the nav clicked at once: the panel's 250 ms pause is not over
    await user.type(screen.getByLabelText('Max price'), '50');
    await user.click(screen.getByTestId('nav-sales'));
    await waitFor(() => expect(screen.queryByTestId('book-screen')).toBeNull());
    await waitFor(() => expect(saved.at(-1)).toEqual({ filter: { price: { max: 5000 } }, sort: { field: 'created_at', dir: 'desc' } }));
    await user.click(screen.getByTestId('nav-book'));
    await screen.findByTestId('filter-panel');
    await waitFor(() => expect(windows.at(-1)?.filter).toEqual({ price: { max: 5000 } }));
    expect((screen.getByLabelText('Max price') as HTMLInputElement).value).toBe('50');
  });

  it('a filter and a name typed within their pause when the window closes are saved with the view', async () => {
    const { saved, handlers: h } = recordingViews(rows);
    installFakeApp(h);
    const user = userEvent.setup();
    render(<App />);
    await screen.findByTestId('filter-panel');
    await user.type(screen.getByLabelText('Max price'), '50');
    await user.type(screen.getByTestId('name-search'), 'redline');
    // the window closes at once: neither pause is over, and no timer runs after the page is gone
    const before = saved.length;
    window.dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the save's round trip, not the pauses
    expect(saved.slice(before)).toEqual([{ filter: { name: 'redline', price: { max: 5000 } }, sort: { field: 'created_at', dir: 'desc' } }]);
  });

  it('a name typed in the search and left within its pause is saved too', async () => {
    const { saved, handlers: h } = recordingViews(rows);
    installFakeApp(h);
    const user = userEvent.setup();
    render(<App />);
    await user.type(await screen.findByTestId('name-search'), 'redline');
    await user.click(screen.getByTestId('nav-sales'));
    await waitFor(() => expect(saved.at(-1)).toEqual({ filter: { name: 'redline' }, sort: { field: 'created_at', dir: 'desc' } }));
  });

  it('loads a saved preset from the menu and saves the current filter under a name', async () => {
    const windows: BookWindowInput[] = [];
    const saved: unknown[] = [];
    const fnFloats = { name: 'FN floats', view: { filter: { app_id: 730 as const, float: { min: 0, max: 0.07 } }, sort: { field: 'float' as const, dir: 'asc' as const } } };
    installFakeApp(
      handlers(rows, {
        getMarketScreenState: () => ({ lastView: null, presets: [fnFloats] }),
        queryBookWindow: (input) => {
          windows.push(input);
          return { rows: rows.slice(0, 1), offset: 0, total: 1, version: 1, totalVersion: 1, lastSeq: '1' };
        },
        saveFilterPreset: (preset) => {
          saved.push(preset);
          return { lastView: null, presets: [fnFloats, preset] };
        },
      }),
    );
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByTestId('presets-button'));
    // jsdom runs no CSS transitions, so the dropdown's items count as hidden to role queries
    await user.click(await screen.findByTestId('preset-item'));
    await waitFor(() => expect(windows.at(-1)).toMatchObject({ filter: fnFloats.view.filter, sort: fnFloats.view.sort }));
    expect(screen.getByTestId('filter-chips').textContent).toContain('FN');

    await user.click(screen.getByTestId('presets-button'));
    await user.click(await screen.findByText('Save current filter…'));
    const dialog = await screen.findByRole('dialog', { name: 'Save filter preset' });
    await user.type(within(dialog).getByLabelText('Name'), 'Mine');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ name: 'Mine', view: fnFloats.view }]));
    expect(screen.getByTestId('presets-button').textContent).toContain('(2)');
  });

  it('saving a preset under a name in use says it replaces it; a preset is deleted from the keyboard, in the palette', async () => {
    const fnFloats = { name: 'FN floats', view: { filter: { float: { min: 0, max: 0.07 } }, sort: { field: 'float' as const, dir: 'asc' as const } } };
    const deleted: string[] = [];
    installFakeApp(
      handlers(rows, {
        getMarketScreenState: () => ({ lastView: null, presets: [fnFloats] }),
        saveFilterPreset: (preset) => ({ lastView: null, presets: [preset] }),
        deleteFilterPreset: ({ name }) => {
          deleted.push(name);
          return { lastView: null, presets: [] };
        },
      }),
    );
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByTestId('presets-button'));
    await user.click(await screen.findByText('Save current filter…'));
    const dialog = await screen.findByRole('dialog', { name: 'Save filter preset' });
    await user.type(within(dialog).getByLabelText('Name'), 'FN floats');
    expect(within(dialog).getByText('Replaces the preset “FN floats” with the current filter and sort.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Replace' })).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Name'), ' 2');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save filter preset' })).toBeNull());

    // the palette lists the registered commands (jsdom cannot run the palette's own list)
    const remove = commandRegistry.all().find((c) => c.label === 'Delete preset: FN floats');
    expect(remove?.group).toBe('Filters');
    act(() => void remove?.run());
    await waitFor(() => expect(deleted).toEqual(['FN floats']));
    await waitFor(() => expect(screen.getByTestId('presets-button').textContent).toBe('Presets'));
  });

  it('a book change flashes the changed row and updates the total', async () => {
    const live = [...rows];
    let version = 1;
    const h = handlers(live, { queryBookWindow: (input) => ({ rows: live.slice(input.offset, input.offset + input.limit), offset: input.offset, total: live.length, version, totalVersion: version, lastSeq: String(version) }) });
    const { app } = await renderBook(h);
    live[1] = bookRow(2, { price: 5000 });
    live.push(bookRow(4));
    version = 2;
    act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 2, removed: 0, ids: [2, 4], idsTruncated: false }));
    await screen.findByText('4 listings');
    await waitFor(() => expect(document.querySelector('[data-listing-id="2"]')?.className).toContain('sd-flash-up'));
    expect(document.querySelector('[data-listing-id="4"]')?.className).toContain('sd-flash-new');
  });

  it('rows arriving between the top of the view and the selected row do not push the selection down the screen', async () => {
    // a grid body ten rows high (jsdom lays nothing out)
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset['testid'] === 'book-grid-body' ? 280 : 0;
    });
    try {
      const live = Array.from({ length: 40 }, (_, i) => bookRow(i + 1));
      let version = 1;
      const app = installFakeApp(
        handlers(live, {
          queryBookWindow: (input) => ({ rows: live.slice(input.offset, input.offset + input.limit), offset: input.offset, total: live.length, version, totalVersion: version, lastSeq: String(version) }),
        }),
      );
      const user = userEvent.setup();
      render(<App />);
      await screen.findByText('40 listings');
      await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
      await waitFor(() => expect(document.querySelector('[data-listing-id="6"]')?.getAttribute('aria-selected')).toBe('true'));
      const body = screen.getByTestId('book-grid-body');
      expect(body.scrollTop).toBe(0);
      // three cheaper listings land as rows 3–5, between the top of the view and the selection
      live.splice(2, 0, bookRow(101), bookRow(102), bookRow(103));
      version = 2;
      act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 3, removed: 0, ids: [101, 102, 103], idsTruncated: false }));
      await screen.findByText('43 listings');
      await waitFor(() => expect(document.querySelector('[data-listing-id="6"]')?.getAttribute('aria-rowindex')).toBe('9'));
      expect(document.querySelector('[data-listing-id="6"]')?.getAttribute('aria-selected')).toBe('true');
      // the view moved with it: the selected row keeps its place on the screen
      await waitFor(() => expect(body.scrollTop).toBe(3 * 28));
    } finally {
      height.mockRestore();
    }
  });

  it('sorted by float, the count says it is of the listings with a float (the others are left out)', async () => {
    const { user } = await renderBook(handlers(rows));
    await user.click(document.querySelector('[role="columnheader"][data-sort-field="float"] button') as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('book-summary').textContent).toBe('3 with a float'));
    expect(screen.getByTestId('book-summary').getAttribute('title')).toBe('3 listings with a float: sorted by float, the book lists only those');
    await user.click(document.querySelector('[role="columnheader"][data-sort-field="price"] button') as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('book-summary').textContent).toBe('3 listings'));
  });

  it('sorted by float, a game without floats is not called an empty book: it says why and sorts by age in one click', async () => {
    const { windows, handlers: h } = recordingViews(rows);
    installFakeApp({
      ...h,
      getMarketScreenState: () => ({ lastView: { filter: { app_id: 252490 }, sort: { field: 'float', dir: 'asc' } }, presets: [] }),
      queryBookWindow: (input) => {
        windows.push(input);
        const total = input.sort.field === 'float' ? 0 : 1;
        return { rows: rows.slice(0, total), offset: 0, total, version: 1, totalVersion: 1, lastSeq: '1' };
      },
    });
    const user = userEvent.setup();
    render(<App />);
    expect((await screen.findByTestId('book-empty')).textContent).toBe(
      'No listing that matches these filters has a float: sorted by float, the book lists only those that do.',
    );
    await user.click(screen.getByRole('button', { name: 'Sort by age' }));
    await waitFor(() => expect(windows.at(-1)?.sort).toEqual({ field: 'created_at', dir: 'desc' }));
    await waitFor(() => expect(screen.queryByTestId('book-empty')).toBeNull());
  });

  it('with only a game chosen, an empty book says no listing matches, not that the book is empty', async () => {
    installFakeApp(
      handlers([], { getMarketScreenState: () => ({ lastView: { filter: { app_id: 440 }, sort: { field: 'created_at', dir: 'desc' } }, presets: [] }) }),
    );
    const user = userEvent.setup();
    render(<App />);
    expect((await screen.findByTestId('book-empty')).textContent).toBe('No listing matches these filters.');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('book-empty').textContent).toBe('No listing matches yet — the book is empty.'));
  });

  it('keyboard: a sort header is a Tab stop that Enter and Space sort by, its cell saying the order', async () => {
    const { user } = await renderBook(handlers(rows));
    const priceHeader = () => document.querySelector('[role="columnheader"][data-sort-field="price"]') as HTMLElement;
    const sortButton = within(priceHeader()).getByRole('button', { name: 'Price' });
    // every sortable column's header holds a button, the others none
    const headerButtons = [...document.querySelectorAll<HTMLElement>('[role="columnheader"] button')];
    const sortable = [...document.querySelectorAll('[role="columnheader"][data-sort-field]')];
    expect(headerButtons.map((b) => b.closest('[role="columnheader"]'))).toEqual(sortable);
    expect(sortable.length).toBeGreaterThan(1);
    // Tab goes from one sort to the next and back
    const next = headerButtons[headerButtons.indexOf(sortButton) + 1]!;
    sortButton.focus();
    await user.tab();
    expect(document.activeElement).toBe(next);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(sortButton);
    expect(priceHeader().getAttribute('aria-sort')).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(priceHeader().getAttribute('aria-sort')).toBe('ascending'));
    await user.keyboard(' ');
    await waitFor(() => expect(priceHeader().getAttribute('aria-sort')).toBe('descending'));
  });

  it('says "1 listing" when one is left', async () => {
    const live = [...rows];
    let version = 1;
    const h = handlers(live, { queryBookWindow: (input) => ({ rows: live.slice(input.offset, input.offset + input.limit), offset: input.offset, total: live.length, version, totalVersion: version, lastSeq: String(version) }) });
    const { app } = await renderBook(h);
    live.splice(1);
    version = 2;
    act(() => app.push('bookChanged', { version: 2, lastSeq: '2', reset: false, upserted: 0, removed: 2, ids: [2, 3], idsTruncated: false }));
    await waitFor(() => expect(screen.getByTestId('book-summary').textContent).toBe('1 listing'));
  });
});

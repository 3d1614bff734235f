// The watchlists screen, buying an alert of a watchlist that only alerts: from the alert's detail, through
// the buy dialog, whose answer stays on screen ("Bought — order N") as it does on the book.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WatchAlertView } from '../../../src/shared/ipc/calls-watch.ts';
import { NULL_LISTING_DETAIL, type FullListing } from '../../../src/shared/api/index.ts';
import type { PurchaseReport } from '../../../src/shared/ipc/calls-market.ts';
import type { Watchlist } from '../../../src/shared/watchlist.ts';
import { commandRegistry } from '../../../src/renderer/shell/commands.ts';
import { NOW, installFakeApp, resetRendererState } from './fake-app.ts';
import { renderWatchlistsScreen } from './render-watchlists.tsx';

// canvas charts do not run in jsdom
vi.mock('lightweight-charts', () => import('./chart-stub.ts'));

afterEach(() => {
  cleanup();
  resetRendererState();
});

const alert: WatchAlertView = {
  id: 1,
  at: NOW,
  watchlistId: 1,
  watchlistName: 'Cheap Redlines',
  listingId: 42,
  appId: 730,
  marketHashName: 'AK-47 | Redline (Field-Tested)',
  price: 900,
  amount: 1,
  seq: '9007199254740993',
  referencePrice: null,
  ceiling: 1_000,
  origin: 'event',
  state: 'new',
  mode: 'off',
  sound: false,
};

const bought: PurchaseReport = {
  status: 'bought',
  orderId: 77,
  title: 'Bought',
  message: '“AK-47 | Redline (Field-Tested)” for $9.00 — order 77. The items go to your backpack.',
  apiCode: null,
  failedListingId: null,
  spent: 900,
  boughtListingIds: [42],
  balance: { balance: 49_100, userName: 'trader', asOf: NOW, problem: null },
};

describe('watchlists screen', () => {
  it('an alert bought through the buy dialog shows the outcome there, as on the book', async () => {
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [alert] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
      getListing: () => ({ listing: null, alive: true, floatRank: null }),
      getSalesHistory: () => ({ sales: [], marketAsOf: NOW, problem: null }),
      buyListings: () => bought,
    });
    const user = userEvent.setup();
    renderWatchlistsScreen();
    await user.click(await screen.findByTestId('open-alert'));
    await user.click(await screen.findByTestId('detail-buy'));
    const dialog = await screen.findByRole('dialog', { name: 'Buy' });
    await user.click(within(dialog).getByTestId('confirm-buy'));
    const outcome = await within(dialog).findByTestId('purchase-outcome');
    expect(outcome.getAttribute('data-status')).toBe('bought');
    expect(outcome.textContent).toContain('order 77');
  });

  it('an alert or purchase of an earlier day says its date, not only a time that reads as today', async () => {
    const today = new Date();
    today.setHours(9, 30, 5, 0);
    const earlier = new Date(2026, 0, 2, 18, 4, 0).toISOString();
    const entry = { id: 1, at: earlier, watchlistId: 1, alertId: 2, listingId: 43, marketHashName: 'AWP | Asiimov (Field-Tested)', maxPrice: 4_000, amount: 1, triggerSeq: '7', mode: 'auto' as const, decision: 'sent' as const, status: 'bought' as const, reason: null, orderId: 9 };
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [{ ...alert, id: 3, at: today.toISOString() }, { ...alert, id: 2, at: earlier }] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [entry] }),
    });
    renderWatchlistsScreen();
    const timeOf = (row: string) => document.querySelector(`tr[${row}] td`)?.textContent;
    await waitFor(() => expect(timeOf('data-log-id="1"')).toBe('2026-01-02 18:04'));
    await waitFor(() => expect(timeOf('data-alert-id="2"')).toBe('2026-01-02 18:04'));
    expect(timeOf('data-alert-id="3"')).toBe('09:30:05');
  });

  it('a commodity alert says how many copies were listed at the price, and each dismiss button names its alert', async () => {
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [{ ...alert, id: 7, amount: 12, marketHashName: 'Revolution Case' }, { ...alert, id: 8 }] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    renderWatchlistsScreen();
    await waitFor(() => expect(document.querySelector('tr[data-alert-id="7"]')).not.toBeNull());
    const stack = document.querySelector('tr[data-alert-id="7"]') as HTMLElement;
    expect(within(stack).getByTestId('alert-amount').textContent).toBe('×12');
    const single = document.querySelector('tr[data-alert-id="8"]') as HTMLElement;
    expect(within(single).queryByTestId('alert-amount')).toBeNull();
    expect(within(stack).getByRole('button', { name: 'Dismiss the alert on Revolution Case' })).toBeTruthy();
    expect(within(single).getByRole('button', { name: 'Dismiss the alert on AK-47 | Redline (Field-Tested)' })).toBeTruthy();
  });

  it("an alert's detail prices the listing's stickers and asks for its phase once the listing is read", async () => {
    const asked: { stickers: string[]; paint_index: number | null }[] = [];
    const sticker = { slot: 0, sticker_id: 1, name: 'Crown (Foil)', image: 'https://cdn.example/c.png', wear: 0, scale: null, rotation: null, tint_id: null, offset_x: null, offset_y: null, offset_z: null, pattern: null };
    const listing = {
      ...NULL_LISTING_DETAIL,
      id: 42,
      app_id: 730,
      market_hash_name: alert.marketHashName,
      price: 900,
      amount: 1,
      commodity: false,
      created_at: NOW,
      steam_asset_id: '420',
      icon_url: 'https://cdn.example/icon.png',
      trade_locked_until: null,
      cs_is_stattrak: false,
      cs_is_souvenir: false,
      cs_inspect_link: null,
      cs_paint_index: 418,
      cs_stickers: [sticker],
      cs_keychains: [],
    } as unknown as FullListing;
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [{ ...alert, id: 5 }] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
      getListing: () => ({ listing, alive: true, floatRank: null }),
      getSalesHistory: () => ({ sales: [], marketAsOf: NOW, problem: null }),
      getPriceContext: ({ stickers, paint_index }) => {
        asked.push({ stickers, paint_index: paint_index ?? null });
        return {
          market_price: 800, recommended_price: null, lowest_listing_price: null, lowest_in_book: 900, lowest_in_book_id: 42, listings_in_book: 1,
          average_30d: null, sales_30d: null, volume_30d: null, time_to_sell: null, pricesAsOf: NOW, averagesAsOf: NOW,
          stickers: stickers.map((name) => ({ name, market_price: 1_000 })), phase: null, problem: null,
        };
      },
    });
    const user = userEvent.setup();
    renderWatchlistsScreen();
    // the feed keeps the alerts of the tests before (its store lives with the module)
    await waitFor(() => expect(document.querySelector('tr[data-alert-id="5"]')).not.toBeNull());
    await user.click(within(document.querySelector('tr[data-alert-id="5"]') as HTMLElement).getByTestId('open-alert'));
    expect((await screen.findByTestId('sticker-worth')).textContent).toBe('$10.00 · SP 10%');
    expect(asked.at(-1)).toEqual({ stickers: ['Crown (Foil)'], paint_index: 418 });
  });

  it('while the pointer is over the feed, a new alert waits above it: no row slides under the Buy being aimed at', async () => {
    const app = installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [{ ...alert, id: 20, mode: 'confirm' }] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    renderWatchlistsScreen();
    await waitFor(() => expect(document.querySelector('tr[data-alert-id="20"]')).not.toBeNull());
    const rowIds = () => [...document.querySelectorAll('tr[data-alert-id]')].map((tr) => Number(tr.getAttribute('data-alert-id')));
    const shownBefore = rowIds();
    const feed = screen.getByTestId('alert-feed');
    fireEvent.pointerEnter(feed);
    act(() => app.push('watchAlerts', { alerts: [{ ...alert, id: 21, mode: 'confirm', marketHashName: 'AWP | Asiimov (Field-Tested)' }], changed: [], omitted: 0 }));
    expect((await screen.findByTestId('alerts-waiting')).textContent).toBe('1 new alert above');
    expect(rowIds()).toEqual(shownBefore);
    fireEvent.pointerLeave(feed);
    await waitFor(() => expect(rowIds()[0]).toBe(21));
    expect(screen.queryByTestId('alerts-waiting')).toBeNull();
  });

  it('heads the alert feed and the auto-buy log with their columns, the ceiling’s going with its column', async () => {
    // an id of its own: the feed's store keeps the alerts of the tests before (resetRendererState leaves it)
    const entry = { id: 31, at: NOW, watchlistId: 1, alertId: 31, listingId: 42, marketHashName: 'AK-47 | Redline (Field-Tested)', maxPrice: 900, amount: 1, triggerSeq: '7', mode: 'auto' as const, decision: 'sent' as const, status: 'bought' as const, reason: null, orderId: 9 };
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [{ ...alert, id: 31 }] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [entry] }),
      getListing: () => ({ listing: null, alive: true, floatRank: null }),
      getSalesHistory: () => ({ sales: [], marketAsOf: NOW, problem: null }),
    });
    const user = userEvent.setup();
    renderWatchlistsScreen();
    const headersOf = (table: HTMLElement) => within(table).getAllByRole('columnheader').map((th) => th.textContent);
    const feed = within(await screen.findByTestId('alert-feed')).getByRole('table');
    expect(headersOf(feed)).toEqual(['Time', 'Item', 'Price', 'Ceiling', 'State', 'Actions']);
    // as many headers as cells in a row, and as many columns as the table sizes
    const row = await waitFor(() => {
      const found = feed.querySelector<HTMLElement>('tr[data-alert-id="31"]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(row.querySelectorAll('td')).toHaveLength(6);
    expect(feed.querySelectorAll('col')).toHaveLength(6);
    const log = await screen.findByTestId('autobuy-log');
    expect(headersOf(log)).toEqual(['Time', 'Mode', 'Item', 'Qty × max', 'State', 'Note']);
    expect(log.querySelector('tr[data-log-id="31"]')?.querySelectorAll('td')).toHaveLength(6);
    // the open detail takes the ceiling's room: its header goes with its cells
    await user.click(within(row).getByTestId('open-alert'));
    await screen.findByTestId('detail-panel');
    expect(headersOf(feed)).toEqual(['Time', 'Item', 'Price', 'State', 'Actions']);
    expect(feed.querySelectorAll('col')).toHaveLength(5);
  });
  it('an alert of a paused watchlist has no Buy, and B does not buy it: pausing stops the buying too', async () => {
    const confirmWatch = (w: Pick<Watchlist, 'id' | 'name' | 'paused'>): Watchlist => ({
      ...w,
      filter: { name: 'AK-47' },
      price: { kind: 'ceiling', max_price: 1_000 },
      alerts: { notify: true, sound: false, webhook: null },
      auto_buy: { mode: 'confirm', copies: 1, guardrails: { max_price: 1_000, total_budget: 10_000, daily_cap: 10_000, max_per_hour: 5, min_balance: 0 } },
      created_at: NOW,
      updated_at: NOW,
    });
    const app = installFakeApp({
      listWatchlists: () => ({ watchlists: [confirmWatch({ id: 4, name: 'Paused AKs', paused: true }), confirmWatch({ id: 5, name: 'Live AKs', paused: false })] }),
      // the newest alert, the one B acts on, is the paused watchlist's (raised before the pause)
      listWatchAlerts: () => ({
        alerts: [
          { ...alert, id: 41, watchlistId: 4, watchlistName: 'Paused AKs', mode: 'confirm' },
          { ...alert, id: 40, watchlistId: 5, watchlistName: 'Live AKs', mode: 'confirm' },
        ],
      }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    renderWatchlistsScreen();
    const rowOf = (id: number) => document.querySelector(`tr[data-alert-id="${id}"]`) as HTMLElement;
    // the watchlists are known (the paused one offers Resume) and the alerts drawn
    await screen.findByRole('switch', { name: 'Resume Paused AKs' });
    await waitFor(() => expect(rowOf(41)).not.toBeNull());
    // the live watchlist's alert keeps its Buy
    expect(within(rowOf(40)).queryByTestId('alert-buy')).not.toBeNull();
    expect(within(rowOf(41)).queryByTestId('alert-buy')).toBeNull();
    // the hotkeys skip a disabled command; the palette shows why
    const buy = commandRegistry.all().find((c) => c.id === 'watch.buy');
    expect(buy).toMatchObject({ enabled: false, disabledReason: 'Watchlist “Paused AKs” is paused — resume it to buy' });
    act(() => buy!.run());
    expect(app.calls.filter((c) => c.name === 'confirmWatchAlert')).toEqual([]);
  });
  it('a ceiling of $100,000.00 stays on one line: its row keeps its height, and the rows below stay put', async () => {
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [{ ...alert, id: 50, price: 9_999_999, ceiling: 10_000_000 }] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    renderWatchlistsScreen();
    const table = within(await screen.findByTestId('alert-feed')).getByRole('table');
    const at = within(table).getAllByRole('columnheader').findIndex((th) => th.textContent === 'Ceiling');
    const ceiling = await waitFor(() => {
      const found = table.querySelector<HTMLElement>(`tr[data-alert-id="50"] td:nth-child(${at + 1})`);
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(ceiling.textContent).toBe('≤ $100,000.00');
    expect(ceiling.style.whiteSpace).toBe('nowrap');
    // jsdom lays nothing out: the column must hold the text at a monospace advance of 0.6 em (DejaVu Sans
    // Mono, Menlo, JetBrains Mono; Consolas is narrower) in the table's 12 px, plus the cell's padding
    const column = table.querySelectorAll('col')[at] as HTMLElement;
    const needed = ceiling.textContent.length * 0.6 * Number.parseFloat(table.style.fontSize) + Number.parseFloat(ceiling.style.paddingLeft) * 2;
    expect(Number.parseFloat(column.style.width)).toBeGreaterThanOrEqual(needed);
  });
});

// The watchlists screen, buying an alert of a watchlist that only alerts: from the alert's detail, through
// the buy dialog, whose answer stays on screen ("Bought — order N") as it does on the book.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchlistsScreen } from '../../../src/renderer/screens/watchlists/WatchlistsScreen.tsx';
import { syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { theme } from '../../../src/renderer/theme.ts';
import type { WatchAlertView } from '../../../src/shared/ipc/calls-watch.ts';
import type { PurchaseReport } from '../../../src/shared/ipc/calls-market.ts';
import { NOW, installFakeApp, resetRendererState, status } from './fake-app.ts';

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
    syncStatusStore.set(status());
    const user = userEvent.setup();
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <WatchlistsScreen />
      </MantineProvider>,
    );
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
    syncStatusStore.set(status());
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <WatchlistsScreen />
      </MantineProvider>,
    );
    const timeOf = (row: string) => document.querySelector(`tr[${row}] td`)?.textContent;
    await waitFor(() => expect(timeOf('data-log-id="1"')).toBe('2026-01-02 18:04'));
    await waitFor(() => expect(timeOf('data-alert-id="2"')).toBe('2026-01-02 18:04'));
    expect(timeOf('data-alert-id="3"')).toBe('09:30:05');
  });
});

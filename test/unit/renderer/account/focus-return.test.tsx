// A dialog shown by mounting it open and closed by removing it gives the focus back to the button that
// opened it, so a keyboard user keeps their place. Mantine does this only for a dialog whose `opened`
// turns false: Sell, List, Withdraw and New watchlist left the focus on the page's body as they closed.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { InventoryScreen } from '../../../../src/renderer/screens/account/inventory/InventoryScreen.tsx';
import { WatchlistsScreen } from '../../../../src/renderer/screens/watchlists/WatchlistsScreen.tsx';
import { theme } from '../../../../src/renderer/theme.ts';
import { installFakeApp, resetRendererState } from '../fake-app.ts';
import { NOW_ISO, backpackStack, freshness, installFakeBridge, renderWithTheme, skinRow } from './fake-bridge.tsx';

// canvas charts do not run in jsdom
vi.mock('lightweight-charts', () => import('../chart-stub.ts'));

afterEach(() => {
  cleanup();
  resetRendererState();
});

/** Opens a dialog with the button (which takes the focus, as a click or Tab and Enter gives it) and waits for it. */
async function openWith(user: ReturnType<typeof userEvent.setup>, button: HTMLElement): Promise<HTMLElement> {
  await user.click(button);
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  return dialog;
}

async function expectFocusBackOn(button: HTMLElement): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await waitFor(() => expect(document.activeElement).toBe(button));
}

describe('focus after a dialog closes', () => {
  it('Sell: Cancel and Escape give the focus back to Sell…', async () => {
    const fetched = Date.now();
    installFakeBridge({
      getInventory: ({ appId }) => ({
        appId,
        items: [skinRow()],
        freshness: { fetchedAt: new Date(fetched).toISOString(), fromCache: false, problem: null },
        tokensExpireAt: new Date(fetched + 30 * 60_000).toISOString(),
        expired: false,
        tradesInFlight: 0,
      }),
      sellItems: () => ({ check: { ok: true, problems: [] }, depositIds: [] }),
    });
    const user = userEvent.setup();
    renderWithTheme(<InventoryScreen />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select Skin 1' }));
    const sell = screen.getByTestId('sell-open');

    let dialog = await openWith(user, sell);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expectFocusBackOn(sell);

    dialog = await openWith(user, sell);
    await user.keyboard('{Escape}');
    await expectFocusBackOn(sell);
  });

  it('Backpack: Withdraw’s Cancel gives the focus back to Withdraw…; List’s Close after listing, to the rows', async () => {
    const row = backpackStack(9);
    let listed = false;
    installFakeBridge({
      getBackpack: () => ({
        items: listed ? [] : [row],
        metadata: { total_pages: 1, total_items: listed ? 0 : 1, current_page: 1, current_limit: 50 },
        freshness,
      }),
      withdrawItems: () => ({ withdrawIds: [] }),
      listItems: ({ dryRun }) => {
        if (!dryRun) listed = true;
        return {
          check: { ok: true, problems: [] },
          listings: dryRun
            ? []
            : [
                {
                  id: 70,
                  app_id: 730,
                  market_hash_name: row.market_hash_name,
                  price: 120,
                  amount: 10,
                  commodity: true,
                  created_at: NOW_ISO,
                },
              ],
        };
      },
    });
    const user = userEvent.setup();
    renderWithTheme(<BackpackScreen />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select Sticker | X' }));

    const withdraw = screen.getByTestId('withdraw-open');
    let dialog = await openWith(user, withdraw);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expectFocusBackOn(withdraw);

    const list = screen.getByTestId('list-open');
    dialog = await openWith(user, list);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expectFocusBackOn(list);

    // listed: the selection is cleared and List… is off, so the focus goes to what follows it, not the body
    dialog = await openWith(user, list);
    await waitFor(() =>
      expect(within(dialog).getByTestId('confirm-button').hasAttribute('disabled')).toBe(false),
    );
    await user.click(within(dialog).getByTestId('confirm-button'));
    await user.click(await within(dialog).findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    expect(list.hasAttribute('disabled')).toBe(true);
    expect(
      list.compareDocumentPosition(document.activeElement as Node) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('New watchlist: Escape gives the focus back to New', async () => {
    installFakeApp({
      listWatchlists: () => ({ watchlists: [] }),
      listWatchAlerts: () => ({ alerts: [] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    const user = userEvent.setup();
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <WatchlistsScreen />
      </MantineProvider>,
    );
    const add = await screen.findByTestId('new-watchlist');
    await openWith(user, add);
    await user.keyboard('{Escape}');
    await expectFocusBackOn(add);
  });
});

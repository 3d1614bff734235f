// The watchlists screen before any alert: the empty feed says what will bring alerts, and does not promise
// them while every watchlist is paused; each watchlist says what it watches. (Its own file: the alert
// feed's store lives with the module.)
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Watchlist } from '../../../src/shared/watchlist.ts';
import { installFakeApp, resetRendererState } from './fake-app.ts';
import { renderWatchlistsScreen } from './render-watchlists.tsx';

afterEach(() => {
  cleanup();
  resetRendererState();
});

const watchlist = (id: number, paused: boolean): Watchlist => ({
  id,
  name: `Cheap ${id}`,
  filter: { price: { max: 500 } },
  price: { kind: 'ceiling', max_price: 400 },
  paused,
  alerts: { notify: true, sound: false, webhook: null },
  auto_buy: { mode: 'off' },
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
});

describe('watchlists screen, no alert yet', () => {
  it('with every watchlist paused, says none will come instead of promising them', async () => {
    installFakeApp({
      listWatchlists: () => ({ watchlists: [watchlist(1, true), watchlist(2, true)] }),
      listWatchAlerts: () => ({ alerts: [] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    renderWatchlistsScreen();
    expect((await screen.findByText(/none will come/)).textContent).toBe(
      'No alert yet, and none will come while all 2 watchlists are paused.',
    );
  });

  it('a watchlist of one game says so, not "whole book"', async () => {
    installFakeApp({
      listWatchlists: () => ({ watchlists: [{ ...watchlist(3, false), filter: { app_id: 730 } }] }),
      listWatchAlerts: () => ({ alerts: [] }),
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    });
    renderWatchlistsScreen();
    expect(await screen.findByText('at most $4.00 · CS2')).toBeTruthy();
  });
});

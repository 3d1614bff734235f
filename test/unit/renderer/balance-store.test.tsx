// The balance the status bar, the buy dialog and the cart show: the cached one at once, then the
// market's own — at start, whenever the book turns live (a reconnect, another market), after an
// automatic purchase, and every half minute — never the one cached by an earlier run for as long as the
// window stays open.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BalanceValue } from '../../../src/renderer/shell/StatusBar.tsx';
import { balanceStore } from '../../../src/renderer/shell/app-state.ts';
import type { BalanceView } from '../../../src/shared/ipc/calls-market.ts';
import { type FakeApp, installFakeApp, NOW, resetRendererState, status } from './fake-app.ts';

const YESTERDAY = '2025-12-31T09:00:00.000Z';

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

/** An app whose cache holds yesterday's balance and whose market now says `market.balance`. */
function app(initialState: 'live' | 'offline' = 'live') {
  const market = { balance: 480_000 };
  const views: BalanceView[] = [];
  let current = status({ state: initialState });
  const fake: FakeApp = installFakeApp({
    getStatus: () => current,
    getBalance: ({ refresh }) => {
      const view = refresh
        ? { balance: market.balance, userName: 'trader', asOf: NOW, problem: null }
        : { balance: 500_000, userName: 'trader', asOf: YESTERDAY, problem: null };
      views.push(view);
      return view;
    },
  });
  const setStatus = (next: Parameters<typeof status>[0]) => {
    current = status(next);
    act(() => fake.push('syncStatus', current));
  };
  return { fake, market, views, setStatus };
}

function renderBalance() {
  return render(
    <MantineProvider forceColorScheme="dark">
      <BalanceValue />
    </MantineProvider>,
  );
}

describe('the balance', () => {
  it('is read from the market at start, not left at the one an earlier run cached', async () => {
    app();
    renderBalance();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$4,800.00'));
  });

  it('is read again when the book turns live after an offline start, and after an automatic purchase', async () => {
    const { fake, market, views, setStatus } = app('offline');
    renderBalance();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$5,000.00'));
    // offline: no read that could only fail
    expect(views.filter((v) => v.asOf === NOW)).toHaveLength(0);
    setStatus({ state: 'live' });
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$4,800.00'));
    market.balance = 470_000;
    act(() =>
      fake.push('autoBuyChanged', {
        killSwitch: false,
        live: true,
        entries: [
          {
            id: 1,
            at: NOW,
            watchlistId: 1,
            alertId: null,
            listingId: 7,
            marketHashName: 'AK-47 | Redline (Field-Tested)',
            maxPrice: 10_000,
            amount: 1,
            triggerSeq: '42',
            mode: 'auto',
            decision: 'sent',
            status: 'bought',
            reason: null,
            orderId: 5,
          },
        ],
      }),
    );
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$4,700.00'));
  });

  it('is read again every half minute while live', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { market } = app();
    renderBalance();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$4,800.00'));
    market.balance = 490_000; // a listing of yours sold
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$4,900.00'));
    expect(balanceStore.get()?.balance).toBe(490_000);
  });

  it('keeps a purchase’s balance over a read that was already on its way', async () => {
    let answer: (view: BalanceView) => void = () => undefined;
    installFakeApp({
      getStatus: () => status(),
      getBalance: ({ refresh }) =>
        refresh
          ? new Promise<BalanceView>((resolve) => (answer = resolve))
          : { balance: 500_000, userName: 'trader', asOf: YESTERDAY, problem: null },
    });
    renderBalance();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$5,000.00'));
    await waitFor(() => expect(answer).not.toBe(undefined));
    const bought = { balance: 450_000, userName: 'trader', asOf: NOW, problem: null };
    act(() => balanceStore.set(bought));
    await act(async () => answer({ balance: 480_000, userName: 'trader', asOf: NOW, problem: null }));
    expect(screen.getByTestId('balance').textContent).toBe('$4,500.00');
  });

  it('shows the market’s answer, not the cached one, whichever comes back first', async () => {
    const answers: Record<'cached' | 'fresh', (view: BalanceView) => void> = {
      cached: () => undefined,
      fresh: () => undefined,
    };
    const asked: string[] = [];
    installFakeApp({
      getStatus: () => status(),
      getBalance: ({ refresh }) =>
        new Promise<BalanceView>((resolve) => {
          const which = refresh ? 'fresh' : 'cached';
          asked.push(which);
          answers[which] = resolve;
        }),
    });
    renderBalance();
    await waitFor(() => expect(asked).toEqual(['cached', 'fresh']));
    await act(async () => answers.fresh({ balance: 480_000, userName: 'trader', asOf: NOW, problem: null }));
    await act(async () =>
      answers.cached({ balance: 500_000, userName: 'trader', asOf: YESTERDAY, problem: null }),
    );
    expect(screen.getByTestId('balance').textContent).toBe('$4,800.00');
  });

  it('on a switch to a market that cannot be reached, shows that market’s balance (none yet), not the demo’s', async () => {
    const real = { mode: 'real' as const, baseUrl: 'https://market.example/public/v1', demoReason: null };
    let current = status();
    const fake = installFakeApp({
      getStatus: () => current,
      getBalance: ({ refresh }) =>
        current.market.mode === 'real'
          ? { balance: null, userName: null, asOf: null, problem: 'Not connected to the marketplace yet.' }
          : { balance: refresh ? 480_000 : 500_000, userName: 'trader', asOf: NOW, problem: null },
    });
    renderBalance();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('$4,800.00'));
    current = status({ market: real, state: 'offline' });
    act(() => fake.push('syncStatus', current));
    await waitFor(() => expect(screen.getByTestId('balance').textContent).not.toContain('4,800'));
    expect(balanceStore.get()?.balance ?? null).toBeNull();
  });
});

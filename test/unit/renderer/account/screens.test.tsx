// Account screens against a fake bridge: the Steam inventory's token clock and locked rows, a stored
// copy shown offline with the reason, live trades reloading on a push, and the wallet asking for the
// two-factor code when the marketplace says so, and holding new withdrawals while an earlier one's
// outcome is unknown (settled by a check or by the trader's word).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { InventoryScreen } from '../../../../src/renderer/screens/account/inventory/InventoryScreen.tsx';
import { PortfolioScreen } from '../../../../src/renderer/screens/account/portfolio/PortfolioScreen.tsx';
import { currentScreenStore } from '../../../../src/renderer/shell/navigation.ts';
import { TradesScreen } from '../../../../src/renderer/screens/account/trades/TradesScreen.tsx';
import { TradeFollow } from '../../../../src/renderer/screens/account/ui/TradeFollow.tsx';
import { TransactionsScreen } from '../../../../src/renderer/screens/account/history/TransactionsScreen.tsx';
import { WalletScreen } from '../../../../src/renderer/screens/account/wallet/WalletScreen.tsx';
import type { Trade } from '../../../../src/shared/api/index.ts';
import { type IpcOutput, SkindeskError } from '../../../../src/shared/ipc/index.ts';
import { NOW_ISO, freshness, installFakeBridge, renderWithTheme, trackedTrade } from './fake-bridge.tsx';
import { resetRendererState, status } from '../fake-app.ts';

type PnlItem = IpcOutput<'getTradingPnl'>['items'][number];
/** A Kilowatt Case line of the trading results: nothing traded, but what a test sets. */
const pnlItem = (traded: Partial<PnlItem>): PnlItem => ({
  app_id: 730,
  market_hash_name: 'Kilowatt Case',
  bought: 0,
  paid: 0,
  sold: 0,
  received: 0,
  fees: 0,
  avgPaid: null,
  avgReceived: null,
  matched: 0,
  realized: null,
  unsettledMatched: 0,
  unsettledRealized: null,
  unsold: 0,
  unsoldCost: 0,
  lastTradeAt: NOW_ISO,
  ...traded,
});

const inventoryRow = (assetId: string, tradable: boolean) => ({
  assetId,
  appId: 730 as const,
  name: `Skin ${assetId}`,
  amount: 1,
  commodity: false,
  tradable,
  marketPrice: 500,
  recommendedPrice: 485,
  iconUrl: '',
  inOffer: null,
});

describe('InventoryScreen', () => {
  it('shows the tokens’ remaining lifetime, and locked items cannot be selected', async () => {
    const fetched = Date.now();
    installFakeBridge({
      getInventory: ({ appId }) => ({
        appId,
        items: [inventoryRow('1', true), inventoryRow('2', false)],
        freshness: { fetchedAt: new Date(fetched).toISOString(), fromCache: false, problem: null },
        tokensExpireAt: new Date(fetched + 30 * 60_000).toISOString(),
        expired: false,
        tradesInFlight: 3,
      }),
    });
    renderWithTheme(<InventoryScreen />);
    const clock = await screen.findByTestId('token-clock');
    expect(clock.textContent).toMatch(/^tokens valid 2[89]:\d\d$/);
    expect(screen.getByText('trades in flight 3/15')).toBeTruthy();
    const locked = screen.getByRole('checkbox', { name: 'Select Skin 2' }) as HTMLInputElement;
    expect(locked.disabled).toBe(true);
    expect((screen.getByTestId('sell-open') as HTMLButtonElement).disabled).toBe(true);
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Select Skin 1' }));
    expect((screen.getByTestId('sell-open') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a row whose sell or deposit answer was lost as maybe in an offer, and keeps it unselectable', async () => {
    const fetched = Date.now();
    installFakeBridge({
      getInventory: ({ appId }) => ({
        appId,
        items: [{ ...inventoryRow('3', true), inOffer: 'unknown' as const }, { ...inventoryRow('4', true), inOffer: 77 }],
        freshness: { fetchedAt: new Date(fetched).toISOString(), fromCache: true, problem: null },
        tokensExpireAt: new Date(fetched + 30 * 60_000).toISOString(),
        expired: false,
        tradesInFlight: 1,
      }),
    });
    renderWithTheme(<InventoryScreen />);
    expect(await screen.findByText('in an offer?')).toBeTruthy();
    expect(screen.getByText('in offer · deposit 77')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Select Skin 3' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('says the tokens expired when the stored read is too old', async () => {
    const fetched = Date.now() - 31 * 60_000;
    installFakeBridge({
      getInventory: ({ appId }) => ({
        appId,
        items: [inventoryRow('1', true)],
        freshness: { fetchedAt: new Date(fetched).toISOString(), fromCache: true, problem: 'The marketplace could not be reached. Showing what was stored.' },
        tokensExpireAt: new Date(fetched + 30 * 60_000).toISOString(),
        expired: true,
        tradesInFlight: 0,
      }),
    });
    renderWithTheme(<InventoryScreen />);
    expect((await screen.findByTestId('token-clock')).textContent).toBe('tokens expired');
    // the time alone, or with the date when 31 minutes ago was yesterday (just after midnight)
    expect(screen.getByTestId('freshness-offline').textContent).toMatch(/^offline · as of (\d\d:\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d)$/);
  });
});

/** Trading results never read: the portfolio tests that are not about them. */
const NO_TRADING_RESULTS = {
  items: [],
  totals: { paid: 0, received: 0, unsettled: 0, fees: 0, realized: 0, matched: 0, unsettledRealized: 0, unsettledMatched: 0, rows: 0 },
  computedAt: null,
  problem: null,
};

/**
 * The bridge answering the portfolio with these parts (no user record, no history), and these trading
 * results (by default never read).
 */
function installPortfolio(
  parts: Pick<IpcOutput<'getPortfolio'>, 'listed' | 'backpack' | 'inventory' | 'positions' | 'total'>,
  tradingResults: IpcOutput<'getTradingPnl'> = NO_TRADING_RESULTS,
) {
  installFakeBridge({
    getStatus: () => status(),
    getPortfolio: () => ({ user: null, ...parts, positionCount: parts.positions.length, history: [], freshness: null }),
    getTradingPnl: () => tradingResults,
  });
}

/** Trading results read now: these lines, and totals of nothing but what a test sets. */
function tradingResults(items: PnlItem[], totals: Partial<IpcOutput<'getTradingPnl'>['totals']>): IpcOutput<'getTradingPnl'> {
  return { items, totals: { ...NO_TRADING_RESULTS.totals, ...totals }, computedAt: NOW_ISO, problem: null };
}

/** The portfolio screen on an empty portfolio, with these trading results read. */
function showTradingResults(items: PnlItem[], totals: Partial<IpcOutput<'getTradingPnl'>['totals']>): void {
  resetRendererState();
  installPortfolio({ listed: null, backpack: null, inventory: { value: 0, games: [] }, positions: [], total: 0 }, tradingResults(items, totals));
  renderWithTheme(<PortfolioScreen />);
}

describe('PortfolioScreen', () => {
  it('says the listed value counts disabled and private listings too, and leads to My listings', async () => {
    resetRendererState();
    const user = userEvent.setup();
    installPortfolio({
      // my-listings/value: 2 disabled and 2 private listings, none active
      listed: { listingCount: 4, itemCount: 9, value: 74 },
      backpack: null,
      inventory: { value: 0, games: [] },
      positions: [],
      total: 74,
    });
    renderWithTheme(<PortfolioScreen />);
    const listed = await screen.findByTestId('portfolio-listed');
    await waitFor(() => expect(listed.textContent).toContain('4 listings · 9 items at asking prices'));
    const link = screen.getByTestId('portfolio-listed-link');
    expect(link.textContent).toBe('incl. disabled and private →');
    await user.click(link);
    expect(currentScreenStore.get()).toBe('my-listings');
  });
});

describe('PortfolioScreen Steam inventory', () => {
  it('says how old the inventory reads are: they are kept between sessions and used until read again', async () => {
    resetRendererState();
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    installPortfolio({
      listed: null,
      backpack: null,
      inventory: {
        value: 1500,
        games: [
          { appId: 730, value: 1000, items: 2, fetchedAt: hoursAgo(1) },
          { appId: 440, value: 500, items: 3, fetchedAt: hoursAgo(72) },
        ],
      },
      positions: [],
      total: 1500,
    });
    renderWithTheme(<PortfolioScreen />);
    const tile = await screen.findByTestId('portfolio-inventory');
    // the oldest read tells: a value three days old is not today's
    await waitFor(() => expect(tile.textContent).toContain('(2 of 4 games read) · read 3d ago'));
  });
});

describe('PortfolioScreen backpack', () => {
  it('says when the backpack value may lack lots (a page failed, or the backpack changed while read)', async () => {
    resetRendererState();
    installPortfolio({
      listed: null,
      backpack: { value: 1_000, rows: 37, copies: 211, complete: false },
      inventory: { value: 0, games: [] },
      positions: [],
      total: 1_000,
    });
    renderWithTheme(<PortfolioScreen />);
    const tile = await screen.findByTestId('portfolio-backpack');
    await waitFor(() => expect(tile.textContent).toContain('37 rows · 211 copies at Steam-derived market prices · may be incomplete: a page failed or the backpack changed while read'));
  });
});

describe('PortfolioScreen total', () => {
  it('names the parts it lacks: a part not read counts as nothing in it', async () => {
    resetRendererState();
    installPortfolio({
      listed: { listingCount: 1, itemCount: 1, value: 500 },
      backpack: { value: 200, rows: 1, copies: 1, complete: true },
      inventory: { value: 300, games: [{ appId: 730, value: 300, items: 1, fetchedAt: NOW_ISO }] },
      positions: [],
      total: 1_000,
    });
    renderWithTheme(<PortfolioScreen />);
    const total = await screen.findByTestId('portfolio-total');
    await waitFor(() =>
      expect(total.textContent).toContain('balance + listed + held, without the balance, 3 of 4 Steam inventories (not read)'),
    );
  });
});

describe('PortfolioScreen vs paid', () => {
  it('compares a held copy with what the unsold copies cost, not with the average of every purchase', async () => {
    resetRendererState();
    const kilowatt = { app_id: 730 as const, market_hash_name: 'Kilowatt Case' };
    installPortfolio(
      {
        listed: null,
        backpack: { value: 200, rows: 1, copies: 1, complete: true },
        inventory: { value: 0, games: [] },
        positions: [{ ...kilowatt, inBackpack: 1, inInventory: 0, marketPrice: 200, value: 200 }],
        total: 200,
      },
      // bought one at $1.00 and sold it, then bought the one held at $2.00
      tradingResults(
        [
          pnlItem({
            ...kilowatt,
            bought: 2,
            paid: 300,
            sold: 1,
            received: 150,
            avgPaid: 150,
            avgReceived: 150,
            matched: 1,
            realized: 50,
            unsold: 1,
            unsoldCost: 200,
          }),
        ],
        { paid: 300, received: 150, realized: 50, matched: 1, rows: 3 },
      ),
    );
    renderWithTheme(<PortfolioScreen />);
    // the average of both purchases (150) would say +33.3 %
    await waitFor(() => expect(screen.getByTestId('versus-paid').textContent).toBe('±0.0%'));
  });

  it('says how much of what sales brought is not settled yet', async () => {
    showTradingResults([], { received: 2_850, unsettled: 1_900, fees: 150, rows: 2 });
    const received = await screen.findByTestId('pnl-received');
    expect(received.textContent).toContain('$28.50');
    expect(received.textContent).toContain('for everything sold, after fees · $19.00 of it not settled yet');
  });

  it('tells the profit of settled sales, with that of sales not settled yet beside it, not in it', async () => {
    // bought 4 at $1.00; sold 2 settled (+$0.40 in all) and 2 not settled yet (+$0.60)
    showTradingResults(
      [
        pnlItem({
          bought: 4,
          paid: 400,
          sold: 4,
          received: 500,
          avgPaid: 100,
          avgReceived: 125,
          matched: 2,
          realized: 40,
          unsettledMatched: 2,
          unsettledRealized: 60,
        }),
      ],
      { paid: 400, received: 500, unsettled: 260, realized: 40, matched: 2, unsettledRealized: 60, unsettledMatched: 2, rows: 5 },
    );
    const realized = await screen.findByTestId('pnl-realized');
    expect(realized.textContent).toContain('+$0.40');
    expect(realized.textContent).toContain('on 2 copies bought and then sold here (settled sales), at average cost');
    expect(realized.textContent).toContain('+$0.60 more on 2 copies whose sale is not settled yet');
    expect(screen.getByTestId('pnl-row-unsettled').textContent).toBe('+$0.60 not settled');
  });

  it('says the items are in the order of the money traded, above the table and below it when cut', async () => {
    const items = Array.from({ length: 51 }, (_, i) => pnlItem({ market_hash_name: `Case ${i}`, bought: 1, paid: 10_000 - i }));
    showTradingResults(items, { paid: items.reduce((s, p) => s + p.paid, 0), rows: 51 });
    const table = await screen.findByTestId('pnl-table');
    expect(table.querySelector('caption')?.textContent).toBe('Item by item, most money traded first (paid and received together)');
    expect(screen.getAllByTestId('pnl-row')).toHaveLength(50);
    expect(screen.getByText(/the order export has them all/).textContent).toBe(
      'The 50 items with the most money traded, of 51; the order export has them all.',
    );
  });
});

describe('TransactionsScreen', () => {
  it('shows the running balance and a stored copy as offline', async () => {
    installFakeBridge({
      getTransactions: () => ({
        transactions: [
          { id: 2, type: 'CRYPTO_REFUND', amount: 3000, balance: 10000, description: 'Refund of failed withdrawal 9', reference_id: 9, created_at: NOW_ISO },
          { id: 1, type: 'CRYPTO_WITHDRAWAL', amount: -3000, balance: 7000, description: 'Withdrawal to ETH', reference_id: 9, created_at: NOW_ISO },
        ],
        metadata: { total_pages: 1, total_items: 2, current_page: 1, current_limit: 50 },
        freshness: { ...freshness, fromCache: true, problem: 'The marketplace could not be reached. Showing what was stored.' },
      }),
    });
    renderWithTheme(<TransactionsScreen />);
    const rows = await screen.findAllByTestId('ledger-row');
    expect(rows[0]!.textContent).toContain('+$30.00');
    expect(rows[0]!.textContent).toContain('$100.00');
    expect(rows[1]!.textContent).toContain('−$30.00');
    expect(screen.getByTestId('freshness-offline')).toBeTruthy();
  });
});

describe('TradesScreen', () => {
  it('reloads on a tradesUpdated push and shows the timeline with the feed that saw each status', async () => {
    const trade = (status: Trade['status']): Trade => ({
      id: 70,
      type: 'SELL',
      status,
      deposit_id: 400,
      withdraw_id: null,
      steam_offer_id: '123',
      value: 1500,
      error: null,
      created_at: NOW_ISO,
      updated_at: NOW_ISO,
      items: [{ app_id: 730, market_hash_name: 'AWP | Asiimov (Field-Tested)', steam_asset_id: '9', amount: 1, value: 1500 }],
    });
    let current = trade('Active');
    const bridge = installFakeBridge({
      getTrades: () => ({
        trades: [
          {
            trade: current,
            timeline: [
              { status: 'Active', at: NOW_ISO, source: 'poll' },
              ...(current.status === 'Accepted' ? [{ status: 'Accepted' as const, at: '2026-01-02T10:00:05.000Z', source: 'webhook' as const }] : []),
            ],
            words: current.status === 'Accepted' ? 'the trade was accepted.' : 'the trade offer is waiting for you to accept it on the platform.',
            inFlight: current.status === 'Active',
          },
        ],
        inFlight: current.status === 'Active' ? 1 : 0,
        total: 1,
        metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 },
      }),
      getTradeFeeds: () => ({
        settings: { notifyOnStatusChange: true, webhook: { enabled: true, port: 8931, headerPrefix: 'X-Service-' } },
        secretSet: true,
        receiver: { state: 'listening', localUrl: 'http://127.0.0.1:8931/webhook', problem: null, accepted: 1, rejected: 0 },
        poller: { running: true, lastPollAt: NOW_ISO, nextPollAt: null, lastError: null, failingSince: null },
        demo: false,
      }),
    });
    renderWithTheme(<TradesScreen />);
    expect((await screen.findByTestId('trade-status')).textContent).toBe('Active');
    expect(screen.getByTestId('trades-in-flight').textContent).toBe('in flight 1/15');
    current = trade('Accepted');
    bridge.push('tradesUpdated', { trades: [current] });
    await waitFor(() => expect(screen.getByTestId('trade-status').textContent).toBe('Accepted'));
    const timeline = screen.getByTestId('trade-timeline').textContent ?? '';
    expect(timeline).toContain('seen by poll');
    expect(timeline).toContain('seen by webhook');
    expect(screen.getByText('webhooks on')).toBeTruthy();
  });
});

describe('TradesScreen from the keyboard', () => {
  it('opens another trade’s timeline with Tab and Enter (or Space), not only with a click', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getTrades: () => ({
        trades: [trackedTrade(2, 'Accepted'), trackedTrade(1, 'Accepted')],
        inFlight: 0,
        total: 2,
        metadata: { total_pages: 1, total_items: 2, current_page: 1, current_limit: 100 },
      }),
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(2));
    expect(screen.getByTestId('trade-detail').textContent).toContain('Trade #2');
    const [first, second] = screen.getAllByTestId('trade-row');
    first!.focus();
    await user.tab();
    expect(document.activeElement).toBe(second);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('trade-detail').textContent).toContain('Trade #1'));
    expect(second!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await user.keyboard(' ');
    await waitFor(() => expect(screen.getByTestId('trade-detail').textContent).toContain('Trade #2'));
  });
});

describe('TradesScreen status words', () => {
  it('splits the spec’s run-together statuses into words on the badge and the timeline', async () => {
    const waiting = trackedTrade(3, 'Active', { status: 'CreatedNeedsConfirmation' });
    installFakeBridge({
      getTrades: () => ({
        trades: [{ ...waiting, timeline: [{ status: 'CreatedNeedsConfirmation', at: NOW_ISO, source: 'poll' }, { status: 'InEscrow', at: NOW_ISO, source: 'webhook' }] }],
        inFlight: 1,
        total: 1,
        metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 },
      }),
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    const badge = await screen.findByTestId('trade-status');
    expect(badge.textContent).toBe('Needs confirmation');
    expect(badge.getAttribute('data-status')).toBe('CreatedNeedsConfirmation');
    const timeline = screen.getByTestId('trade-timeline').textContent ?? '';
    expect(timeline).toContain('Needs confirmation');
    expect(timeline).toContain('In escrow');
    expect(timeline).not.toContain('InEscrow');
  });
});

/** Trade feeds as a real market without webhooks has them: the poller alone. */
const POLLING_ONLY = {
  settings: { notifyOnStatusChange: true, webhook: { enabled: false, port: 8931, headerPrefix: 'X-Service-' } },
  secretSet: false,
  receiver: { state: 'off', localUrl: null, problem: null, accepted: 0, rejected: 0 },
  poller: { running: true, lastPollAt: NOW_ISO, nextPollAt: null, lastError: null, failingSince: null },
  demo: false,
} as const;

describe('TradesScreen while polls fail', () => {
  it('says in words since when and why polls fail, in the header line, and drops it after the next good poll', async () => {
    const since = new Date(Date.now() - 2 * 60_000 - 5_000).toISOString();
    let poller: IpcOutput<'getTradeFeeds'>['poller'] = {
      running: true,
      lastPollAt: new Date(Date.now() - 10 * 60_000).toISOString(),
      nextPollAt: null,
      lastError: 'The marketplace is failing on its side (a server error).',
      failingSince: since,
    };
    const bridge = installFakeBridge({
      getTrades: () => ({ trades: [trackedTrade(1, 'Accepted')], inFlight: 0, total: 1, metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 } }),
      getTradeFeeds: () => ({ ...POLLING_ONLY, poller }),
    });
    renderWithTheme(<TradesScreen />);
    const line = await screen.findByTestId('trades-poll-failing');
    expect(line.textContent).toBe('Trades could not be polled for 2m: the marketplace is failing on its side (a server error); retrying');
    // beside the title, not above the table: the table does not move when it comes or goes
    const title = screen.getByRole('heading', { name: 'Trades' });
    expect(title.parentElement!.contains(line)).toBe(true);
    expect(screen.getByTestId('trades-table').contains(line)).toBe(false);

    poller = { ...poller, lastPollAt: new Date().toISOString(), lastError: null, failingSince: null };
    bridge.push('tradePollChanged', poller);
    await waitFor(() => expect(screen.queryByTestId('trades-poll-failing')).toBeNull());
    expect(title.parentElement!.textContent).toContain('polled 0s ago');
  });
});

describe('TradesScreen updated time', () => {
  it('tells the instant a trade was last updated, on UTC, on hover over its "… ago"', async () => {
    installFakeBridge({
      getTrades: () => ({
        trades: [trackedTrade(1, 'Accepted', { updated_at: '2025-12-04T09:41:27.000Z' })],
        inFlight: 0,
        total: 1,
        metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 },
      }),
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    const updated = await screen.findByTestId('trade-updated');
    expect(updated.textContent).toMatch(/ago$/);
    expect(updated.getAttribute('title')).toBe('2025-12-04 09:41 UTC');
  });
});

describe('TradesScreen values', () => {
  it('writes each trade’s value in the figures’ face, so the column lines up digit under digit', async () => {
    installFakeBridge({
      getTrades: () => ({
        trades: [trackedTrade(2, 'Accepted', { value: 3750 }), trackedTrade(1, 'Accepted', { value: 16 })],
        inFlight: 0,
        total: 2,
        metadata: { total_pages: 1, total_items: 2, current_page: 1, current_limit: 100 },
      }),
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(2));
    for (const [row, value] of screen.getAllByTestId('trade-row').map((r, i) => [r, ['$37.50', '$0.16'][i]!] as const)) {
      const cell = [...row.querySelectorAll('td')].find((td) => td.textContent === value);
      expect(cell, value).toBeTruthy();
      expect(cell!.querySelector('.sd-num')?.textContent, value).toBe(value);
    }
  });
});

describe('TradesScreen detail', () => {
  it('says an offer is not sent yet only while the trade can still move; a finished one never had one', async () => {
    const finished = trackedTrade(5, 'Accepted', { status: 'Declined', steam_offer_id: null });
    const waiting = trackedTrade(6, 'Active', { status: 'CreatedNeedsConfirmation', steam_offer_id: null });
    let shown = finished;
    const bridge = installFakeBridge({
      getTrades: () => ({
        trades: [shown],
        inFlight: shown.inFlight ? 1 : 0,
        total: 1,
        metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 },
      }),
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getByTestId('trade-detail').textContent).toContain('offer – (none sent)'));
    expect(screen.getByTestId('trade-detail').textContent).not.toContain('not sent yet');
    shown = waiting;
    bridge.push('tradesUpdated', { trades: [waiting.trade] });
    await waitFor(() => expect(screen.getByTestId('trade-detail').textContent).toContain('offer – (not sent yet)'));
  });
});

describe('TradesScreen empty', () => {
  it('says which trades there are none of: a filter that shows nothing is not an account without trades', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getTrades: ({ inFlight }) => {
        const trades = inFlight === true ? [] : [trackedTrade(1, 'Accepted')];
        return { trades, inFlight: 0, total: 1, metadata: { total_pages: trades.length, total_items: trades.length, current_page: 1, current_limit: 100 } };
      },
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(1));
    await user.click(screen.getByText('In flight'));
    expect((await screen.findByTestId('trades-table-empty')).textContent).toBe('No trade is in flight.');
  });
});

describe('TradesScreen poll failure', () => {
  it('tells a failed "Poll now" in the header line, not in a box that pushes the table down, titled as a poll that failed', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      getTrades: () => ({ trades: [trackedTrade(1, 'Accepted')], inFlight: 0, total: 1, metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 } }),
      getTradeFeeds: () => POLLING_ONLY,
      refreshTrades: () => {
        throw new SkindeskError({ code: 'MARKET', message: 'The marketplace had an internal error.', apiCode: 'INTERNAL_ERROR' });
      },
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Poll now' }));
    const line = await screen.findByTestId('trades-poll-now-failed');
    expect(line.textContent).toBe('The trades could not be polled: the marketplace had an internal error');
    expect(line.textContent).not.toContain('did not do it');
    // beside the title, in place of "polled … ago": nothing comes between the tools and the table
    expect(screen.getByRole('heading', { name: 'Trades' }).parentElement!.contains(line)).toBe(true);
    expect(screen.queryByTestId('error-note')).toBeNull();

    // a good poll since makes the failure old news
    bridge.push('tradePollChanged', { ...POLLING_ONLY.poller, lastPollAt: new Date().toISOString() });
    await waitFor(() => expect(screen.queryByTestId('trades-poll-now-failed')).toBeNull());
  });
});

describe('TradesScreen paging', () => {
  it('reaches trades past the first page and says how many there are', async () => {
    const user = userEvent.setup();
    const tracked = (id: number) => trackedTrade(id, 'Accepted');
    const TOTAL = 1_203;
    const bridge = installFakeBridge({
      getTrades: ({ page, limit }) => {
        const ids = Array.from({ length: TOTAL }, (_, i) => TOTAL - i).slice((page - 1) * limit, page * limit);
        return {
          trades: ids.map(tracked),
          inFlight: 0,
          total: TOTAL,
          metadata: { total_pages: Math.ceil(TOTAL / limit), total_items: TOTAL, current_page: page, current_limit: limit },
        };
      },
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(100));
    expect(screen.getByTestId('pager-count').textContent).toBe('1,203 trades');
    // the last page holds the oldest trades
    await user.click(screen.getByRole('button', { name: '13' }));
    await waitFor(() => expect(screen.getAllByTestId('trade-row').map((r) => r.getAttribute('data-trade-id'))).toEqual(['3', '2', '1']));
    expect(bridge.calls.filter((c) => c.name === 'getTrades').at(-1)?.input).toMatchObject({ page: 13, limit: 100 });
  });
});

describe('TradeFollow', () => {
  it('asks for the trades of its own withdraw ids, whatever else the tracker follows', async () => {
    const bridge = installFakeBridge({
      getTrades: ({ withdrawIds }) => {
        const trades = (withdrawIds ?? []).includes(77)
          ? [trackedTrade(9, 'Active', { type: 'WITHDRAW', deposit_id: null, withdraw_id: 77, value: 450 })]
          : [];
        return { trades, inFlight: trades.length, total: 5_000, metadata: { total_pages: 1, total_items: trades.length, current_page: 1, current_limit: 1000 } };
      },
    });
    renderWithTheme(<TradeFollow ids={[77]} by="withdraw" />);
    expect((await screen.findByTestId('follow-withdraw-77')).textContent).toContain('trade #9');
    expect(bridge.calls.find((c) => c.name === 'getTrades')?.input).toMatchObject({ withdrawIds: [77] });
  });
});

describe('WalletScreen', () => {
  it.each([
    ['real', true],
    ['demo', false],
  ] as const)('on a %s market, says whether a fee level other than LOW is among the published values', async (mode, flagged) => {
    resetRendererState();
    const user = userEvent.setup();
    installFakeBridge({
      getStatus: () => status({ market: { mode, baseUrl: 'https://market.example', demoReason: mode === 'demo' ? 'no_api_key' : null } }),
      getWithdrawals: () => ({ withdrawals: [], unsettled: [] }),
      getBalance: () => ({ balance: 100_000, userName: 'Trader', asOf: NOW_ISO, problem: null }),
    });
    renderWithTheme(<WalletScreen />);
    const words = screen.getByTestId('wallet-fee-words');
    expect(words.textContent).toBe('slowest, cheapest network fee');
    await user.click(screen.getByText('MEDIUM'));
    await waitFor(() => expect(words.textContent?.startsWith('faster, higher network fee')).toBe(true));
    await waitFor(() => expect(words.textContent?.includes('not among the marketplace’s published values')).toBe(flagged));
  });

  it('shows a withdrawal whose answer was lost, holds new ones, and settles it by check or by the trader’s word', async () => {
    const user = userEvent.setup();
    const unknown = {
      id: '0b0e8f7e-4f43-4c55-9a55-5f1c2f7e9d10',
      at: NOW_ISO,
      amount: 2_500,
      ticker: 'ETH' as const,
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      state: 'unknown' as const,
      withdrawalId: null,
      settledBy: null,
      words: 'The withdrawal of $25.00 in ETH to 0x5290…9EE7, asked at 2026-01-02 10:00 UTC, got no clear answer (the marketplace did not answer in time): it may have been sent.',
      lastCheck: null as { at: string; note: string } | null,
    };
    let open = true;
    const bridge = installFakeBridge({
      getWithdrawals: () => ({ withdrawals: [], unsettled: open ? [unknown] : [] }),
      getBalance: () => ({ balance: 100_000, userName: 'Trader', asOf: NOW_ISO, problem: null }),
      checkWithdrawal: ({ amount }) => ({ minimum: null, platformFee: null, converted: null, feeBps: null, balance: 100_000, check: { ok: amount > 0, problems: [] } }),
      settleWithdrawal: ({ answer }) => {
        if (answer === 'check') {
          unknown.lastCheck = { at: NOW_ISO, note: 'Checked: the ledger could not be read; the balance moved by other amounts too.' };
          return unknown;
        }
        open = false;
        return { ...unknown, state: answer, settledBy: 'trader' as const };
      },
    });
    renderWithTheme(<WalletScreen />);
    const card = await screen.findByTestId('withdrawal-unsettled');
    expect(screen.getByTestId('unsettled-words').textContent).toContain('$25.00 in ETH to 0x5290…9EE7');
    expect(card.textContent).toContain('outcome unknown');
    await user.type(screen.getByTestId('wallet-address'), '0x52908400098527886E0F7030069857D2E4169EE7');
    await user.type(screen.getByTestId('wallet-amount'), '25');
    // held: the form cannot be sent while the earlier one is unknown
    await waitFor(() => expect(screen.getByText(/^Held: an earlier withdrawal may have been sent/)).toBeTruthy());
    expect((screen.getByTestId('wallet-review') as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByTestId('unsettled-check'));
    expect((await screen.findByTestId('unsettled-last-check')).textContent).toContain('the ledger could not be read');
    expect(screen.getByTestId('withdrawal-unsettled')).toBeTruthy();

    await user.click(screen.getByTestId('unsettled-not-sent'));
    await waitFor(() => expect(screen.queryByTestId('withdrawal-unsettled')).toBeNull());
    await waitFor(() => expect((screen.getByTestId('wallet-review') as HTMLButtonElement).disabled).toBe(false));
    expect(bridge.calls.filter((c) => c.name === 'settleWithdrawal').map((c) => c.input)).toEqual([
      { id: unknown.id, answer: 'check' },
      { id: unknown.id, answer: 'not_sent' },
    ]);
  });

  it('shows the balance the status bar shows, not the one the last cost check read', async () => {
    resetRendererState();
    const user = userEvent.setup();
    installFakeBridge({
      getWithdrawals: () => ({ withdrawals: [], unsettled: [] }),
      getBalance: () => ({ balance: 486_954, userName: 'Trader', asOf: NOW_ISO, problem: null }),
      checkWithdrawal: ({ amount }) => ({ minimum: null, platformFee: null, converted: null, feeBps: null, balance: 488_188, check: { ok: amount > 0, problems: [] } }),
    });
    renderWithTheme(<WalletScreen />);
    await user.type(screen.getByTestId('wallet-amount'), '12');
    await waitFor(() => expect(screen.getByTestId('screen-wallet').textContent).toContain('balance $4,869.54'));
    expect(screen.getByTestId('screen-wallet').textContent).not.toContain('$4,881.88');
  });

  it('asks for the two-factor code when the marketplace answers TWO_FACTOR_REQUIRED', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getWithdrawals: () => ({ withdrawals: [], unsettled: [] }),
      getBalance: () => ({ balance: 100_000, userName: 'Demo Trader', asOf: NOW_ISO, problem: null }),
      checkWithdrawal: ({ amount }) => ({ minimum: 1000, platformFee: Math.round(amount / 100), converted: amount - Math.round(amount / 100), feeBps: 100, balance: 100_000, check: { ok: true, problems: [] } }),
      createWithdrawal: () => {
        throw new SkindeskError({ code: 'MARKET', message: 'This withdrawal needs your two-factor code.', apiCode: 'TWO_FACTOR_REQUIRED' });
      },
    });
    renderWithTheme(<WalletScreen />);
    await user.type(screen.getByTestId('wallet-address'), 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await user.type(screen.getByTestId('wallet-amount'), '50');
    await waitFor(() => expect((screen.getByTestId('wallet-review') as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByTestId('wallet-quote').textContent).toContain('$0.50');
    await user.click(screen.getByTestId('wallet-review'));
    await user.click(screen.getByTestId('confirm-button'));
    expect((await screen.findByTestId('error-note')).textContent).toContain('TWO_FACTOR_REQUIRED');
    expect(screen.getByText('This account needs the two-factor code (or the code was wrong)')).toBeTruthy();
  });

  it('names the demo market\'s fee and minimum as its own, and states none for a market that does not publish them', async () => {
    const user = userEvent.setup();
    let known = true;
    installFakeBridge({
      getWithdrawals: () => ({ withdrawals: [], unsettled: [] }),
      getBalance: () => ({ balance: 100_000, userName: 'Trader', asOf: NOW_ISO, problem: null }),
      checkWithdrawal: ({ amount }) =>
        known
          ? { minimum: 2000, platformFee: Math.round(amount / 100), converted: amount - Math.round(amount / 100), feeBps: 100, balance: 100_000, check: { ok: true, problems: [] } }
          : { minimum: null, platformFee: null, converted: null, feeBps: null, balance: 100_000, check: { ok: true, problems: [] } },
    });
    const view = renderWithTheme(<WalletScreen />);
    await user.type(screen.getByTestId('wallet-address'), 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await user.type(screen.getByTestId('wallet-amount'), '5');
    await waitFor(() => expect((screen.getByTestId('wallet-review') as HTMLButtonElement).disabled).toBe(false));
    const demo = screen.getByTestId('wallet-quote').textContent ?? '';
    expect(demo).toContain("The demo market's platform fee of 1.00%");
    expect(demo).toContain("The demo market's minimum for BTC: $20.00");
    view.unmount();

    known = false;
    renderWithTheme(<WalletScreen />);
    await user.type(screen.getByTestId('wallet-address'), 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await user.type(screen.getByTestId('wallet-amount'), '5');
    await waitFor(() => expect((screen.getByTestId('wallet-review') as HTMLButtonElement).disabled).toBe(false));
    const real = screen.getByTestId('wallet-quote').textContent ?? '';
    expect(real).toContain('does not publish how much');
    expect(real).not.toMatch(/\d\.\d\d%/);
    expect(real).not.toContain('Minimum for');
    await user.click(screen.getByTestId('wallet-review'));
    expect((await screen.findByRole('dialog')).textContent).toContain('what is left of it after the platform fee');
  });

  it('speaks of "the amount" before one is typed, not of $0.00', async () => {
    installFakeBridge({
      getWithdrawals: () => ({ withdrawals: [], unsettled: [] }),
      getBalance: () => ({ balance: 100_000, userName: 'Trader', asOf: NOW_ISO, problem: null }),
      checkWithdrawal: ({ amount }) => ({
        minimum: 2000,
        platformFee: Math.round(amount / 100),
        converted: amount - Math.round(amount / 100),
        feeBps: 100,
        balance: 100_000,
        check: { ok: true, problems: [] },
      }),
    });
    renderWithTheme(<WalletScreen />);
    const words = (await screen.findByTestId('wallet-quote')).textContent ?? '';
    expect(words).toContain('The whole amount leaves your balance at once');
    expect(words).toContain("The demo market's platform fee of 1.00% comes off it; the rest is converted to BTC");
    expect(words).not.toContain('$0.00');
  });
});

describe('WalletScreen cost box', () => {
  it('holds the place of "What it costs" until the first check answers, so the Review button does not move', async () => {
    let answer: (() => void) | null = null;
    installFakeBridge({
      getWithdrawals: () => ({ withdrawals: [], unsettled: [] }),
      getBalance: () => ({ balance: 100_000, userName: 'Trader', asOf: NOW_ISO, problem: null }),
      checkWithdrawal: () =>
        new Promise((resolve) => {
          answer = () => resolve({ minimum: null, platformFee: null, converted: null, feeBps: null, balance: 100_000, check: { ok: false, problems: [] } });
        }),
    });
    renderWithTheme(<WalletScreen />);
    await waitFor(() => expect(answer).not.toBeNull());
    const held = screen.getByTestId('wallet-quote-placeholder');
    expect(held.style.visibility).toBe('hidden');
    expect(held.getAttribute('aria-hidden')).toBe('true');
    // before the Review button, where the box comes
    expect(held.compareDocumentPosition(screen.getByTestId('wallet-review')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    answer!();
    await screen.findByTestId('wallet-quote');
    expect(screen.queryByTestId('wallet-quote-placeholder')).toBeNull();
  });
});

describe('TradesScreen paging as trades settle', () => {
  it('goes back to the last page there is when the page shown empties (trades left the in-flight filter)', async () => {
    const user = userEvent.setup();
    let inFlightIds = Array.from({ length: 150 }, (_, i) => 150 - i);
    const tracked = (id: number) => trackedTrade(id, 'Active');
    const bridge = installFakeBridge({
      getTrades: ({ page, limit }) => ({
        trades: inFlightIds.slice((page - 1) * limit, page * limit).map(tracked),
        inFlight: inFlightIds.length,
        total: 150,
        metadata: { total_pages: Math.max(1, Math.ceil(inFlightIds.length / limit)), total_items: inFlightIds.length, current_page: page, current_limit: limit },
      }),
      getTradeFeeds: () => POLLING_ONLY,
    });
    renderWithTheme(<TradesScreen />);
    await user.click(await screen.findByText('In flight'));
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(100));
    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(screen.getAllByTestId('trade-row')).toHaveLength(50));
    // 120 of them are accepted: 30 in flight, one page
    inFlightIds = inFlightIds.slice(120);
    bridge.push('tradesUpdated', { trades: [] });
    await waitFor(() => expect(screen.queryAllByTestId('trade-row')).toHaveLength(30));
  });
});

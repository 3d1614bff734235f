/**
 * Trades with live status: what the one tracker holds (fed by webhooks and by polling), each trade
 * with its status timeline; a poll on demand; the feed settings (notifications, webhook receiver).
 */
import { IN_FLIGHT_TRADE_STATUSES } from '../../../shared/api/index.ts';
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { statusSentences } from '../../trades/status-words.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AccountRuntime } from './account-runtime.ts';

export function tradesHandlers(
  runtime: AccountRuntime,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getTrades' | 'refreshTrades' | 'getTradeFeeds' | 'setTradeFeeds'>> {
  return {
    getTrades: ({ limit, status, depositIds }) => {
      const { tracker } = runtime.account().feeds;
      const wanted = depositIds ? new Set(depositIds) : null;
      const all = tracker.list();
      const trades = all
        .filter((t) => (status === null || t.status === status) && (wanted === null || (t.deposit_id !== null && wanted.has(t.deposit_id))))
        .slice(0, limit)
        .map((trade) => ({
          trade,
          timeline: tracker.timeline(trade.id).map((step) => ({ status: step.status, at: step.at, source: step.source })),
          words: statusSentences(trade),
          inFlight: IN_FLIGHT_TRADE_STATUSES.includes(trade.status),
        }));
      return { trades, inFlight: tracker.inFlightCount(), total: all.length };
    },

    refreshTrades: async () => {
      const account = runtime.account();
      // refuses in plain words while not connected, instead of a poll failing on the network
      account.client();
      const report = await account.feeds.poller.pollNow();
      return { applied: report.applied, inFlight: report.inFlightAfter };
    },

    getTradeFeeds: () => runtime.view(),

    setTradeFeeds: (settings) => runtime.updateSettings(settings),
  };
}

/**
 * Trades with live status: what the one tracker holds (fed by webhooks and by polling), a page at a
 * time, each trade with its status timeline; a poll on demand; the feed settings (notifications, webhook receiver).
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
    getTrades: ({ page, limit, status, inFlight, depositIds, withdrawIds }) => {
      const account = runtime.account();
      const { tracker } = account.feeds;
      const deposits = depositIds ? new Set(depositIds) : null;
      const withdrawals = withdrawIds ? new Set(withdrawIds) : null;
      const all = account.tradesOfKey();
      const matched = all.filter(
        (t) =>
          (status === null || t.status === status) &&
          (inFlight === null || IN_FLIGHT_TRADE_STATUSES.includes(t.status) === inFlight) &&
          (deposits === null || (t.deposit_id !== null && deposits.has(t.deposit_id))) &&
          (withdrawals === null || (t.withdraw_id !== null && withdrawals.has(t.withdraw_id))),
      );
      const totalPages = Math.max(1, Math.ceil(matched.length / limit));
      const trades = matched
        .slice((page - 1) * limit, page * limit)
        .map((trade) => ({
          trade,
          timeline: tracker.timeline(trade.id).map((step) => ({ status: step.status, at: step.at, source: step.source })),
          words: statusSentences(trade),
          inFlight: IN_FLIGHT_TRADE_STATUSES.includes(trade.status),
        }));
      return {
        trades,
        inFlight: account.tradesInFlight(),
        total: all.length,
        metadata: { total_pages: totalPages, total_items: matched.length, current_page: page, current_limit: limit },
      };
    },

    refreshTrades: async () => {
      const account = runtime.account();
      // refuses in plain words while not connected, instead of a poll failing on the network
      account.client();
      // a poll now would mix this key's trades with the previous key's account's the tracker holds
      account.requireKnownAccount();
      const report = await account.feeds.poller.pollNow();
      return { applied: report.applied, inFlight: report.inFlightAfter };
    },

    getTradeFeeds: () => runtime.view(),

    setTradeFeeds: (settings) => runtime.updateSettings(settings),
  };
}

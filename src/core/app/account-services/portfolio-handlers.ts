/**
 * The portfolio: balance and user, value listed at asking prices, what is held (backpack and Steam
 * inventory at market prices, also item by item), the value over time from what this app has seen, and
 * the trading results from the whole order history.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { APP_IDS, type AppId, type BackpackItem, LIMITS, type OrderExportRow, type Trade, orderExportRow } from '../../../shared/api/index.ts';
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import type { CachedRead } from '../../account/account-reads.ts';
import { heldPositions, inventoryValue, withoutMovedOut } from '../../account/portfolio.ts';
import { type TradingPnl, tradingPnl } from '../../account/trading-pnl.ts';
import { ApiError } from '../../api/errors.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AccountRuntime } from './account-runtime.ts';
import type { AccountSession } from './account-session.ts';
import { freshnessOf, iso, refreshProblem } from './views.ts';

/**
 * How old a stored backpack page may be and still be used (unless this app moved items since): the
 * screen is read again on every trade, balance and withdrawal change, and the route's budget is shared.
 */
const BACKPACK_PAGE_MAX_AGE_MS = 60_000;
/** How far back the chart reaches. */
const HISTORY_MS = 180 * 24 * 60 * 60_000;
/** Backpack pages read for its value (100 rows each); the rest of a huge backpack is not counted. */
const BACKPACK_VALUE_PAGES = 10;
/** How old an inventory read may be to go into a point of history: the app reads it again after this. */
const INVENTORY_POINT_MAX_AGE_MS = LIMITS.inventoryTokenLifetimeMs;
/**
 * A game read this recently is not read again when the trader asks for every game anew: its answer is
 * a minute old at most, and the route allows 5 reads a minute (four games take four of them).
 */
const READ_AGAIN_MIN_AGE_MS = 60_000;
/** Rows of the held-positions table: the largest by value. */
const HELD_POSITIONS = 100;

/** A read that may fail: the failure is kept for the freshness note instead of failing the screen. */
async function attempt<T>(read: () => Promise<CachedRead<T>>): Promise<CachedRead<T> | Error> {
  try {
    return await read();
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * The backpack's rows (up to its first pages), or null when not even the first page could be read.
 * Pages are read newest first while the backpack may change: a lot that arrives pushes a row read on
 * one page onto the next (counted once, by its id); one that leaves pulls a row up past the reader
 * (missed, and the row that left may have been counted). `complete` is true only when every page was
 * read, every page gave the same count of rows and the rows read add up to it, so a value that may lack
 * lots (or count one twice) is said to, and draws no point of history.
 */
async function backpackRows(
  account: AccountSession,
  maxAgeMs: number,
): Promise<{ rows: BackpackItem[]; complete: boolean; oldestPageAt: number } | null> {
  const byId = new Map<number, BackpackItem>();
  const counts = new Set<number>();
  let oldestPageAt = Infinity;
  const partial = () => ({ rows: [...byId.values()], complete: false, oldestPageAt });
  for (let page = 1; page <= BACKPACK_VALUE_PAGES; page++) {
    const read = await attempt(() => account.reads.backpack({ page: String(page), limit: '100' }, { maxAgeMs }));
    if (read instanceof Error) return page === 1 ? null : partial();
    account.rememberBackpack(read.data.items);
    for (const row of read.data.items) byId.set(row.id, row);
    counts.add(read.data.metadata.total_items);
    oldestPageAt = Math.min(oldestPageAt, read.fetchedAt);
    if (page >= read.data.metadata.total_pages) {
      return { rows: [...byId.values()], complete: counts.size === 1 && byId.size === read.data.metadata.total_items, oldestPageAt };
    }
  }
  return partial();
}

/**
 * The backpack's value with both of its counts: its rows (lots, what the spec's `total_items` counts) and
 * the copies in them (a commodity row holds many), so the tile never calls one by the other's name.
 */
function summarize(read: { rows: readonly BackpackItem[]; complete: boolean }): { value: number; rows: number; copies: number; complete: boolean } {
  return {
    value: inventoryValue(read.rows),
    rows: read.rows.length,
    copies: read.rows.reduce((s, r) => s + r.amount, 0),
    complete: read.complete,
  };
}

/** The whole order history, read through a temporary JSON export (streamed and checked row by row). */
async function readOrderHistory(account: AccountSession): Promise<OrderExportRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'skindesk-orders-'));
  try {
    const file = join(dir, 'orders.json');
    await account.client().exportOrders(file, { format: 'json' }, undefined, { priority: 'interactive' });
    const body = JSON.parse(await readFile(file, 'utf8')) as { orders: unknown };
    return z.array(orderExportRow).parse(body.orders);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Trades seen to be accepted (by this app's clock, as the reads' times are), with when, and when first seen. */
function acceptedTrades(account: AccountSession): { trade: Trade; at: number; firstSeen: number }[] {
  const { tracker } = account.feeds;
  return account.tradesOfKey().flatMap((trade) => {
    if (trade.status !== 'Accepted') return [];
    const timeline = tracker.timeline(trade.id);
    const step = timeline.find((s) => s.status === 'Accepted');
    return step ? [{ trade, at: step.observedAt, firstSeen: Math.min(...timeline.map((s) => s.observedAt)) }] : [];
  });
}

/** The accepted trades that moved items of `appId` in or out of the Steam inventory after `readAt`. */
function movedSince(accepted: readonly { trade: Trade; at: number }[], appId: AppId, readAt: number): Trade[] {
  return accepted.filter((a) => a.at > readAt && a.trade.items.some((it) => it.app_id === appId)).map((a) => a.trade);
}

export function portfolioHandlers(runtime: AccountRuntime): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getPortfolio' | 'getTradingPnl'>> {
  return {
    getTradingPnl: async ({ refresh }) => {
      const account = runtime.account();
      // a new key's account not met yet: the stored result is the previous key's account's
      const stored = account.awaitingAccount ? null : account.tradingPnl.latest();
      const answer = (pnl: TradingPnl, computedAt: number | null, problem: string | null) => ({
        ...pnl,
        computedAt: computedAt === null ? null : iso(computedAt),
        problem,
      });
      if (refresh) {
        try {
          const pnl = tradingPnl(await readOrderHistory(account));
          const at = account.clock.now();
          account.tradingPnl.save(pnl, at);
          return answer(pnl, at, null);
        } catch (err) {
          // older results are better than none; with none, the screen shows the error itself
          if (!stored || !(err instanceof ApiError)) throw err;
          return answer(stored.pnl, stored.computedAt, refreshProblem(err));
        }
      }
      return stored ? answer(stored.pnl, stored.computedAt, null) : answer(tradingPnl([]), null, null);
    },

    getPortfolio: async ({ readInventories, readInventoriesAgain, refresh }) => {
      const account = runtime.account();
      const [userRead, valueRead] = await Promise.all([
        attempt(() => account.reads.user()),
        attempt(() => account.reads.listingsValue()),
      ]);
      const backpackRead = await backpackRows(account, refresh ? 0 : BACKPACK_PAGE_MAX_AGE_MS);
      const backpack = backpackRead && summarize(backpackRead);
      const accepted = acceptedTrades(account);
      const firstSeen = new Map(accepted.map((a) => [a.trade.id, a.firstSeen]));
      if (readInventories || readInventoriesAgain) {
        // One game at a time: the route allows 5 reads a minute and the governor spaces them. A stored
        // read that items have left or entered since (an accepted trade) is read again, however young;
        // so is every one a minute old or more when the trader asked for all of them anew.
        for (const appId of APP_IDS) {
          const stored = account.reads.cachedInventory(appId);
          const stale = stored !== null && movedSince(accepted, appId, stored.fetchedAt).length > 0;
          const askedAgain = readInventoriesAgain && stored !== null && account.clock.now() - stored.fetchedAt >= READ_AGAIN_MIN_AGE_MS;
          await attempt(async () => (await account.reads.inventory(appId, stale || askedAgain ? { maxAgeMs: 0 } : {})) as CachedRead<unknown>);
        }
      }
      // Items that left the inventory since a read are listed or in the backpack now: not counted twice.
      // Items that came in (a withdrawal) are not in the read: no point of history is drawn from it.
      let missesArrivals = false;
      const inventories = APP_IDS.flatMap((appId) => {
        const read = account.reads.cachedInventory(appId);
        if (!read) return [];
        const moved = movedSince(accepted, appId, read.fetchedAt);
        if (moved.some((t) => t.deposit_id === null)) missesArrivals = true;
        // an offer first seen after the read may have split its copies off a stack the read holds whole
        const splitAfterRead = (trade: Pick<Trade, 'id'>) => (firstSeen.get(trade.id) ?? 0) > read.fetchedAt;
        return [{ appId, items: withoutMovedOut(read.data.map((r) => r.item), moved, splitAfterRead), fetchedAt: read.fetchedAt }];
      });
      const games = inventories.map(({ appId, items, fetchedAt }) => ({
        appId,
        value: inventoryValue(items),
        items: items.reduce((s, it) => s + it.amount, 0),
        fetchedAt: iso(fetchedAt),
      }));
      if (userRead instanceof Error && valueRead instanceof Error && backpack === null) throw userRead;

      const user = userRead instanceof Error ? null : userRead.data;
      const listed = valueRead instanceof Error ? null : valueRead.data;
      const inventoryTotal = games.reduce((s, g) => s + g.value, 0);
      const held = (backpack?.value ?? 0) + inventoryTotal;
      const now = account.clock.now();
      const positions = heldPositions(backpackRead?.rows ?? [], inventories.flatMap((g) => g.items));
      // A point only from fresh and complete numbers: cached values would draw flat lines that never
      // happened, and a total without some game's inventory (or without what a withdrawal brought into
      // it since it was read, or without backpack lots not read) would draw a drop that never happened.
      // inventory reads are kept across sessions; one older than the app's own re-read interval (the
      // tokens' lifetime) holds market prices of another hour, not of this point's
      const inventoriesFresh = inventories.every((g) => now - g.fetchedAt <= INVENTORY_POINT_MAX_AGE_MS);
      // a backpack page or listed value read before a list, withdraw or edit made here (a stored copy
      // served offline, say) counts the items moved where they were: once too often, or not at all
      const beforeLastMove =
        (backpackRead !== null && account.reads.outdated('backpack', backpackRead.oldestPageAt)) ||
        (!(valueRead instanceof Error) && account.reads.outdated('myListingsValue', valueRead.fetchedAt));
      const complete =
        games.length === APP_IDS.length && !missesArrivals && inventoriesFresh && backpack?.complete === true && !beforeLastMove;
      // a new key's account not met yet: its point would join the previous key's account's series
      const ownSeries = !account.awaitingAccount;
      if (ownSeries && user && listed && backpack && complete && !(userRead instanceof Error) && !userRead.fromCache) {
        account.portfolio.record({ at: now, balance: user.balance, listedValue: listed.total_value, inventoryValue: held });
      }
      return {
        user,
        listed: listed ? { listingCount: listed.listing_count, itemCount: listed.item_count, value: listed.total_value } : null,
        backpack,
        inventory: { value: inventoryTotal, games },
        positions: positions.slice(0, HELD_POSITIONS),
        positionCount: positions.length,
        total: (user?.balance ?? 0) + (listed?.total_value ?? 0) + held,
        history: (ownSeries ? account.portfolio.series(now - HISTORY_MS) : []).map((p) => ({
          at: iso(p.at),
          total: Math.max(0, p.balance + p.listedValue + p.inventoryValue),
          balance: p.balance,
          listed: p.listedValue,
          held: p.inventoryValue,
        })),
        freshness: userRead instanceof Error ? (valueRead instanceof Error ? null : freshnessOf(valueRead)) : freshnessOf(userRead),
      };
    },
  };
}

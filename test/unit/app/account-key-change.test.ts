/**
 * A key replaced while the marketplace does not say whose it is (GET /user fails at connecting): the
 * account is asked again until it answers, and meanwhile the previous key's account's trades, in-flight
 * count and undercut guards are neither shown nor acted on. The same key offline keeps its stored data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Trade } from '../../../src/shared/api/index.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { accountKey } from '../../../src/core/api/purchase-journal.ts';
import { apiKeyId } from '../../../src/core/api/release-ledger.ts';
import { AccountRuntime, type AttachableMarket } from '../../../src/core/app/account-services/account-runtime.ts';
import { listingsHandlers } from '../../../src/core/app/account-services/listings-handlers.ts';
import { USER_CACHE_KEY, readBalance } from '../../../src/core/app/market-buying/balance.ts';
import type { MarketSession } from '../../../src/core/app/session.ts';
import { Caches } from '../../../src/core/store/index.ts';
import { tradesHandlers } from '../../../src/core/app/account-services/trades-handlers.ts';
import { RecordingPlatform } from '../../../src/core/app/platform.ts';
import { ACCOUNT_CALLS } from '../../../src/shared/ipc/calls-account.ts';
import { until } from '../../integration/app/until.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';
import { makeTrade } from '../trades/fixtures.ts';

const MARKET = 'http://market.test';
const NAME = 'AK-47 | Redline (Field-Tested)';
let store: TestStore | null = null;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  store?.close();
  store = null;
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** What the fake marketplace answers for one key: its account, its trades, and whether GET /user (or GET /trades) fails. */
interface FakeAccount {
  userId: number;
  trades: Trade[];
  userDown: boolean;
  tradesDown?: boolean;
}

/** A session on the fake market with `apiKey`; the paths it requested, in order, in `requests`. */
function marketWith(db: TestStore['db'], apiKey: string, account: FakeAccount, requests: string[] = []): AttachableMarket {
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    requests.push(url.pathname);
    if (url.pathname === '/public/v1/user') {
      if (account.userDown) return json(503, {});
      return json(200, { id: account.userId, steam_id: '7656', name: `Trader ${account.userId}`, balance: 5_000 });
    }
    if (url.pathname === '/public/v1/trades') {
      if (account.tradesDown) return json(503, {});
      const { trades } = account;
      return json(200, { trades, metadata: { total_pages: 1, total_items: trades.length, current_page: 1, current_limit: 500 } });
    }
    if (url.pathname === '/public/v1/my-listings')
      return json(200, { listings: [], metadata: { total_pages: 1, total_items: 0, current_page: 1, current_limit: 100 } });
    return json(404, { error: { code: 'NOT_FOUND', message: 'no fake' } });
  }) as typeof globalThis.fetch;
  const client = new ApiClient({ baseUrl: MARKET, apiKey, fetch });
  return { db, client, keyId: apiKeyId(apiKey), choice: { mode: 'real' }, demo: null, status: () => ({ state: 'live' }) };
}

/** An account runtime whose notices are kept by title; it asks again for the key's account every 20 ms. */
function runtimeFor(market: AttachableMarket): { runtime: AccountRuntime; notices: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-key-change-'));
  const notices: string[] = [];
  const runtime = new AccountRuntime({
    dataDir,
    platform: new RecordingPlatform(),
    publish: () => {},
    notify: (_level, title) => notices.push(title),
    log: { info: () => {}, warn: () => {}, error: () => {} },
    webhookSecret: () => null,
    timings: { poller: { activeIntervalMs: 50, idleIntervalMs: 50 }, meetRetryMs: [20] },
  });
  cleanups.push(async () => {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  runtime.attach(market, false);
  return { runtime, notices };
}

async function tradesShown(runtime: AccountRuntime): Promise<{ ids: number[]; inFlight: number }> {
  const view = await tradesHandlers(runtime).getTrades(ACCOUNT_CALLS.getTrades.input.parse({ page: 1, limit: 100 }));
  return { ids: view.trades.map((t) => t.trade.id).sort((a, b) => a - b), inFlight: view.inFlight };
}

async function guardsShown(runtime: AccountRuntime): Promise<number[]> {
  const view = await listingsHandlers(runtime).getMyListings(
    ACCOUNT_CALLS.getMyListings.input.parse({ status: 'ACTIVE', page: 1, limit: 100 }),
  );
  return view.guards.map((g) => g.listingId);
}

/** Account 7, met with key_7, with trade 70 in flight and an undercut guard on its listing 700; then the session ends. */
async function accountSevenWasHere(db: TestStore['db']): Promise<void> {
  const market = marketWith(db, 'key_7', { userId: 7, trades: [makeTrade(70, 'Active', Date.now())], userDown: false });
  const { runtime } = runtimeFor(market);
  await runtime.connected(market);
  await runtime.account().feeds.poller.pollNow();
  runtime.account().undercut.set({ listingId: 700, appId: 730, marketHashName: NAME, floor: 100, step: 1, ceiling: null });
  expect(await tradesShown(runtime)).toEqual({ ids: [70], inFlight: 1 });
  await runtime.detach(market);
}

describe("a new key whose account the market does not say at connecting", () => {
  it("holds the previous account's trades and guards until the key's account is met, then shows only its own", async () => {
    store = openTestStore();
    await accountSevenWasHere(store.db);

    // the key of account 8 (trade 80 done, 81 in flight); GET /user fails at connecting and for a while after
    const eight: FakeAccount = { userId: 8, trades: [makeTrade(80, 'Accepted', Date.now()), makeTrade(81, 'Active', Date.now())], userDown: true };
    const requests: string[] = [];
    const market = marketWith(store.db, 'key_8', eight, requests);
    const { runtime, notices } = runtimeFor(market);
    // the status bar's copy of the user record, read with account 7's key
    new Caches(store.db).put(USER_CACHE_KEY, { id: 7, steam_id: '7656', name: 'Trader 7', balance: 9_999 }, null, Date.now());
    await runtime.connected(market);
    await until('asked again for the account', () => requests.filter((p) => p === '/public/v1/user').length >= 3);
    // the balance is not account 7's either (GET /user fails: none shown)
    expect(runtime.awaitingAccountOf(market)).toBe(true);
    const balance = await readBalance(market as unknown as MarketSession, false, !runtime.awaitingAccountOf(market));
    expect(balance).toMatchObject({ balance: null, userName: null });

    // while unknown: nothing of account 7 shown, counted or run; its trades are not polled with this key
    expect(runtime.account().account).toBeNull();
    expect(await tradesShown(runtime)).toEqual({ ids: [], inFlight: 0 });
    expect(runtime.account().tradesInFlight()).toBe(0);
    expect(await guardsShown(runtime)).toEqual([]);
    expect(runtime.account().feeds.poller.running).toBe(false);
    expect(requests).not.toContain('/public/v1/trades');
    await expect(tradesHandlers(runtime).refreshTrades({})).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(notices).toEqual(['Account not known yet']);

    // the market answers again: account 8 is met, account 7's data is forgotten, account 8's followed
    eight.userDown = false;
    await until('account 8 met', () => runtime.account().account === accountKey(MARKET, 8));
    const shown = await until('account 8’s trades shown', async () => {
      const view = await tradesShown(runtime);
      return view.ids.length === 2 ? view : null;
    });
    expect(shown).toEqual({ ids: [80, 81], inFlight: 1 });
    expect(runtime.awaitingAccountOf(market)).toBe(false);
    expect(runtime.account().undercut.list()).toEqual([]);
    expect(await guardsShown(runtime)).toEqual([]);
    expect(notices).toEqual(['Account not known yet', 'Another account']);
  });

  it("shows the stored account's data again when the new key turns out to be the same account's", async () => {
    store = openTestStore();
    await accountSevenWasHere(store.db);

    // a re-rolled key of account 7, met only once the market answers
    const seven: FakeAccount = { userId: 7, trades: [makeTrade(70, 'Active', Date.now())], userDown: true };
    const market = marketWith(store.db, 'key_7_rerolled', seven);
    const { runtime, notices } = runtimeFor(market);
    await runtime.connected(market);
    expect(await tradesShown(runtime)).toEqual({ ids: [], inFlight: 0 });

    seven.userDown = false;
    await until('account 7 met', () => runtime.account().account === accountKey(MARKET, 7));
    expect(await tradesShown(runtime)).toEqual({ ids: [70], inFlight: 1 });
    expect(await guardsShown(runtime)).toEqual([700]);
    expect(notices).toEqual(['Account not known yet', 'Account']);
  });

  it("keeps serving the stored account's data offline with the same key, and meets it once the market answers", async () => {
    store = openTestStore();
    await accountSevenWasHere(store.db);

    const seven: FakeAccount = { userId: 7, trades: [makeTrade(70, 'Active', Date.now())], userDown: true, tradesDown: true };
    const market = marketWith(store.db, 'key_7', seven);
    const { runtime, notices } = runtimeFor(market);
    await runtime.connected(market);
    expect(runtime.account().account).toBeNull();
    expect(await tradesShown(runtime)).toEqual({ ids: [70], inFlight: 1 });
    expect(await guardsShown(runtime)).toEqual([700]);

    seven.userDown = false;
    await until('account 7 met', () => runtime.account().account === accountKey(MARKET, 7));
    expect(await tradesShown(runtime)).toEqual({ ids: [70], inFlight: 1 });
    expect(notices).toEqual([]);
  });
});

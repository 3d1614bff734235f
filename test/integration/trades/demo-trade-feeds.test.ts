/**
 * The demo market's real signed webhooks and the GET /trades poller feed one tracker while trades move
 * through their statuses on the market's timers; at the end the tracker holds exactly the server's trades.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountReads } from '../../../src/core/account/account-reads.ts';
import { checkDeposit, checkSell } from '../../../src/core/account/presend-checks.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { TradeFeeds } from '../../../src/core/trades/trade-feeds.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { FINAL_TRADE_STATUSES, type Trade } from '../../../src/shared/api/index.ts';

let demo: DemoMarket;
let client: ApiClient;
let feeds: TradeFeeds;

beforeAll(async () => {
  // timeScale 20: a trade's 20 s answer takes 1 s, escrow 2.25 s; no background activity needed.
  demo = await startDemoMarket({ port: 0, listings: 500, rate: 0, timeScale: 20, seed: 11 });
  client = new ApiClient({ baseUrl: demo.baseUrl, apiKey: demo.apiKey });
  feeds = new TradeFeeds({
    db: new Database(':memory:'),
    source: client,
    webhook: { secret: demo.webhookSecret },
    poller: { activeIntervalMs: 1_000, idleIntervalMs: 3_000 },
  });
});

afterAll(async () => {
  await feeds?.stop();
  await demo?.close();
});

async function serverTrades(): Promise<Trade[]> {
  const out: Trade[] = [];
  for (let page = 1; page <= 10; page++) {
    const res = await client.call('trades', { query: { page: String(page), limit: '500' } }, { priority: 'background' });
    out.push(...res.trades);
    if (page >= res.metadata.total_pages) break;
  }
  return out.sort((a, b) => a.id - b.id);
}

const byId = (trades: Trade[]) => [...trades].sort((a, b) => a.id - b.id);
const settled = (trades: Trade[]) => trades.every((t) => FINAL_TRADE_STATUSES.includes(t.status));

/** Bounded wait: every trade settled on the server and the tracker caught up with all of them. */
async function untilTrackerEqualsSettledServer(timeoutMs = 30_000): Promise<Trade[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const server = await serverTrades();
    if (settled(server) && JSON.stringify(byId(feeds.tracker.list())) === JSON.stringify(server)) return server;
    if (Date.now() > deadline) return server;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('trade feeds against the demo market', () => {
  it('ends with the tracker equal to the server, fed by webhooks and polls', async () => {
    const { webhookUrl } = await feeds.start();
    await demo.setWebhookUrl(webhookUrl);

    // Start trades the way the sell and deposit screens will: read, check, send, follow.
    const db = new Database(':memory:');
    const reads = new AccountReads({ api: client, db });
    const inventory = await reads.inventory(730);
    const tradable = inventory.data.filter((r) => r.item.tradable && !r.item.commodity);
    const commodity = inventory.data.find((r) => r.item.tradable && r.item.commodity);
    expect(tradable.length).toBeGreaterThanOrEqual(3);
    expect(commodity).toBeDefined();

    const depositIds: number[] = [];
    for (const row of tradable.slice(0, 3)) {
      const body = { listings: [{ items: [{ token: row.item.token, amount: 1 }], price: row.item.recommended_price + 1 }] };
      const check = checkSell(body, { inventory: inventory.data, tradesInFlight: feeds.tracker.inFlightCount(), now: Date.now() });
      expect(check.problems).toEqual([]);
      depositIds.push(...(await client.call('sell', { body })).deposit_ids);
      feeds.poller.nudge();
    }
    const deposit = { items: [{ token: commodity!.item.token, amount: commodity!.item.amount }] };
    expect(checkDeposit(deposit, { inventory: inventory.data, tradesInFlight: feeds.tracker.inFlightCount(), now: Date.now() }).ok).toBe(true);
    depositIds.push(...(await client.call('deposit', { body: deposit })).deposit_ids);
    feeds.poller.nudge();
    expect(depositIds).toHaveLength(4);

    let server = await untilTrackerEqualsSettledServer();
    expect(settled(server)).toBe(true);
    expect(byId(feeds.tracker.list())).toEqual(server);

    // The trades we started are found by their deposit ids, each with its status timeline.
    for (const id of depositIds) {
      const [trade] = feeds.tracker.byDepositId(id);
      expect(trade).toBeDefined();
      const timeline = feeds.tracker.timeline(trade!.id).map((e) => e.status);
      expect(timeline.at(-1)).toBe(trade!.status);
      expect(timeline.length).toBeGreaterThanOrEqual(2);
    }

    // Both sources contributed; nothing the demo sent was rejected.
    const stats = feeds.stats();
    expect(stats.tracker.appliedBySource.webhook).toBeGreaterThan(0);
    expect(stats.tracker.appliedBySource.poll).toBeGreaterThan(0);
    expect(stats.webhooks).toMatchObject({ rejected: { forged: 0, stale: 0, malformed: 0, unknown_event: 0, too_large: 0 } });
    expect(stats.webhooks!.accepted).toBeGreaterThanOrEqual(depositIds.length * 2);
    expect(demo.webhookLog.every((a) => a.ok)).toBe(true);

    // Webhooks off (the service dropped the URL, say): the poller alone follows a new trade to its end.
    await demo.setWebhookUrl(null);
    const last = tradable[3] ?? tradable[0]!;
    const fresh = await reads.inventory(730, { maxAgeMs: 0 });
    const row = fresh.data.find((r) => r.item.steam_asset_id === last.item.steam_asset_id) ?? fresh.data.find((r) => r.item.tradable && !r.item.commodity);
    const body = { listings: [{ items: [{ token: row!.item.token, amount: 1 }], price: 999 }] };
    const [depositId] = (await client.call('sell', { body })).deposit_ids;
    feeds.poller.nudge();
    server = await untilTrackerEqualsSettledServer();
    expect(byId(feeds.tracker.list())).toEqual(server);
    const [polled] = feeds.tracker.byDepositId(depositId!);
    expect(FINAL_TRADE_STATUSES).toContain(polled!.status);
    expect(new Set(feeds.tracker.timeline(polled!.id).map((e) => e.source))).toEqual(new Set(['poll']));
    expect(feeds.stats().webhooks!.accepted).toBe(stats.webhooks!.accepted);
  });
});

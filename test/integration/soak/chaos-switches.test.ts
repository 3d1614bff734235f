/**
 * The demo market's chaos switches, one by one, over real HTTP, WebSocket and webhook traffic: each
 * fault happens when switched on, is counted, and stops when switched off; the rate limiter counts
 * requests beyond a limit and requests that ignored a Retry-After. The soak suite (soak.test.ts) then
 * runs the real client against all of them at once.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TradeFeeds } from '../../../src/core/trades/trade-feeds.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { CHAOS_LEVELS, chaosLevel, type DemoMarket } from '../../../src/demo/index.ts';
import { api, connectSocket, eventually, expectError, expectOk, startTestMarket } from '../demo/helpers.ts';

let market: DemoMarket;

beforeAll(async () => {
  market = await startTestMarket({ seed: 91, listings: 500, timeScale: 50 });
});

afterAll(async () => {
  await market?.close();
});

afterEach(() => {
  market.chaos.calm();
});

const elapsed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

/** A request whose connection is dropped rejects; returns the error's cause code. */
async function dropped(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return cause?.code ?? (err as Error).message;
  }
  throw new Error('the request was answered');
}

describe('settings', () => {
  it('are all off by default and checked when changed', () => {
    const off = chaosLevel(0).settings;
    expect(market.chaos.settings).toEqual(off);
    expect(Object.values(off.rest).filter((v, i) => Object.keys(off.rest)[i]!.endsWith('Rate') && v !== 0)).toEqual([]);
    expect(() => market.chaos.set({ rest: { errorRate: 2 } })).toThrow(/errorRate must be a probability/);
    expect(() => chaosLevel(3)).toThrow(RangeError);
    expect(CHAOS_LEVELS[2]!.settings.rest.errorRate).toBeGreaterThan(CHAOS_LEVELS[1]!.settings.rest.errorRate);
  });
});

describe('REST faults', () => {
  it('injects 500s before the route runs, and stops when switched off', async () => {
    market.chaos.set({ rest: { errorRate: 1 } });
    expectError(await api(market).get('/public/v1/user'), 'INTERNAL_ERROR', 500);
    // the info route is never faulted: clients discover the service through it
    expectOk(await api(market).get('/public/v1'));
    market.chaos.calm();
    expectOk(await api(market).get('/public/v1/user'));
    expect(market.chaos.stats.rest.errors).toBeGreaterThanOrEqual(1);
  });

  it('holds a request without an answer, then drops it, applying nothing', async () => {
    const listing = market.createListing({ price: 50 });
    const before = market.state.orders().length;
    market.chaos.set({ rest: { timeoutRate: 1, hangMs: 300 } });
    let code = '';
    const took = await elapsed(async () => {
      code = await dropped(() => api(market).post('/public/v1/purchase', { items: [{ listing_id: listing.listing.id, amount: 1, max_price: 50 }] }));
    });
    expect(code).toMatch(/ECONNRESET|UND_ERR_SOCKET|socket/i);
    expect(took).toBeGreaterThanOrEqual(280);
    expect(market.state.orders().length).toBe(before);
    expect(market.state.listing(listing.listing.id)!.status).toBe('ACTIVE');
  });

  it('applies a purchase and loses its answer', async () => {
    const listing = market.createListing({ price: 60 });
    const before = market.state.orders().length;
    market.chaos.set({ rest: { purchaseLostRate: 1, hangMs: 100 } });
    await dropped(() => api(market).post('/public/v1/purchase', { items: [{ listing_id: listing.listing.id, amount: 1, max_price: 60 }] }));
    expect(market.state.orders().length).toBe(before + 1);
    expect(market.state.orders().at(-1)).toMatchObject({ side: 'bought', price: 60 });
    expect(market.chaos.stats.rest.purchasesLost).toBe(1);
  });

  it('applies a crypto withdrawal and loses its answer', async () => {
    const account = market.state.account(1)!;
    const before = { count: account.withdrawals.size, balance: account.balance };
    market.chaos.set({ rest: { withdrawalLostRate: 1, hangMs: 100 } });
    await dropped(() =>
      api(market).post('/public/v1/crypto-withdraw', { amount: 2_000, ticker: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', fee_level: 'LOW' }),
    );
    expect(account.withdrawals.size).toBe(before.count + 1);
    expect(account.balance).toBe(before.balance - 2_000);
    expect(market.chaos.stats.rest.withdrawalsLost).toBe(1);
  });

  it('applies an item move (withdraw from the backpack) and loses its answer', async () => {
    const account = market.state.account(1)!;
    const row = [...account.backpack.values()].find((r) => r.tradeLockedUntil === null)!;
    const before = row.amount;
    market.chaos.set({ rest: { itemMoveLostRate: 1, hangMs: 100 } });
    await dropped(() => api(market).post('/public/v1/withdraw', { items: [{ id: row.id, amount: 1 }] }));
    expect(account.backpack.get(row.id)?.amount ?? 0).toBe(before - 1);
    expect(market.chaos.stats.rest.itemMovesLost).toBe(1);
  });

  it('delays answers, /book by its own extra delay after the snapshot was taken', async () => {
    market.chaos.set({ rest: { latencyMs: 120 } });
    expect(await elapsed(() => api(market).get('/public/v1/user'))).toBeGreaterThanOrEqual(110);
    market.chaos.set({ rest: { latencyMs: 0, bookDelayMs: 400 } });
    const seqBefore = market.state.seq();
    let res: Awaited<ReturnType<ReturnType<typeof api>['get']>> | undefined;
    const took = await elapsed(async () => {
      const pending = api(market).get('/public/v1/book', undefined, { 'cache-control': 'no-cache' });
      await new Promise((r) => setTimeout(r, 100));
      market.runActivity(5); // the feed moves on while the snapshot is on its way
      res = await pending;
    });
    expect(took).toBeGreaterThanOrEqual(390);
    const body = expectOk(res!) as { seq: bigint };
    expect(body.seq).toBeLessThanOrEqual(seqBefore);
    expect(market.state.seq()).toBeGreaterThan(body.seq);
  });
});

describe('rate limits', () => {
  it('counts requests beyond a limit, and retries that ignore Retry-After', async () => {
    const limited = await startTestMarket({ seed: 92, listings: 100, rateLimits: true });
    try {
      const client = api(limited);
      // GET /trades allows 1 per second
      expectOk(await client.get('/public/v1/trades', { page: 1, limit: 500 }));
      const refused = await client.get('/public/v1/trades', { page: 1, limit: 500 });
      expectError(refused, 'RATE_LIMITED', 429);
      expect(limited.rateAudit()).toMatchObject({ refused: 1, earlyRetries: 0 });
      // coming back before Retry-After ran out is counted; waiting for it is not
      await new Promise((r) => setTimeout(r, 300));
      await client.get('/public/v1/trades', { page: 1, limit: 500 });
      expect(limited.rateAudit().earlyRetries).toBe(1);
      await new Promise((r) => setTimeout(r, Number(refused.headers.get('retry-after')) * 1000 + 50));
      expectOk(await client.get('/public/v1/trades', { page: 1, limit: 500 }));
      expect(limited.rateAudit().earlyRetries).toBe(1);
      // counted per key (a digest of it: the audit lands in soak reports), under the key's account
      const keys = Object.keys(limited.rateAudit().keys);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^account:1 key:[0-9a-f]{12} GET \/public\/v1\/trades$/);
      expect(keys[0]).not.toContain(limited.apiKey);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 to every limited route during a storm, though no limit was reached', async () => {
    market.chaos.storm(1, 1);
    const res = await api(market).get('/public/v1/user');
    expectError(res, 'RATE_LIMITED', 429);
    expect(res.headers.get('retry-after')).toBe('1');
    expectOk(await api(market).get('/public/v1'));
    expect(market.rateAudit().refused).toBe(0);
    await new Promise((r) => setTimeout(r, 1_100));
    expectOk(await api(market).get('/public/v1/user'));
    expect(market.chaos.stats.rest).toMatchObject({ storms: 1, storm429: 1 });
  });

  it("gives a storm's 429 the rate-limit headers of a refusal: nothing remaining, the reset when its Retry-After runs out", async () => {
    market.chaos.storm(1, 3);
    const sent = Date.now();
    // a route this file does not otherwise call, well inside its 30 a minute
    const res = await api(market).get('/public/v1/orders', { page: 1, limit: 5 });
    const answered = Date.now();
    expectError(res, 'RATE_LIMITED', 429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    // a client that waits until Reset honours the Retry-After, and Reset asks for no longer a wait
    const resetMs = Number(res.headers.get('x-ratelimit-reset')) * 1000;
    expect(resetMs).toBeGreaterThanOrEqual(sent + 3_000);
    expect(resetMs).toBeLessThanOrEqual(Math.ceil((answered + 3_000) / 1000) * 1000);
  });
});

describe('WebSocket faults', () => {
  it('delays frames without reordering them', async () => {
    market.chaos.set({ websocket: { latencyMs: 30, jitterMs: 60 } });
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f['event'] === 'connected');
    const first = socket.texts.length;
    market.runActivity(40);
    market.flushFeed();
    await eventually(() => (socket.texts.length - first >= 40 ? true : undefined), 5_000, '40 events');
    const seqs = socket.texts.slice(first).map((t) => BigInt(/"seq":(\d+)/.exec(t)![1]!));
    // the feed's own reorder switch is off in this market: frames arrive in seq order despite jitter
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
    expect(market.chaos.stats.websocket.delayedFrames).toBeGreaterThanOrEqual(40);
    await socket.close();
  });

  it('drops connections cleanly with 1012', async () => {
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f['event'] === 'connected');
    expect(market.chaos.dropWebSockets('clean')).toBe(1);
    expect((await socket.closed).code).toBe(1012);
  });

  it('leaves a connection half-open: no frames, no pongs, never closed by the server', async () => {
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f['event'] === 'connected');
    expect(market.chaos.dropWebSockets('half-open')).toBe(1);
    const frames = socket.texts.length;
    let pongs = 0;
    socket.ws.on('pong', () => pongs++);
    socket.ws.ping();
    market.runActivity(10);
    market.flushFeed();
    await new Promise((r) => setTimeout(r, 400));
    expect(socket.texts.length).toBe(frames);
    expect(pongs).toBe(0);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    // only the client can end it, as a liveness check would
    socket.ws.terminate();
    await socket.closed;
    await eventually(() => (market.chaos.stats.websocket.halfOpenClosedByClient === 1 ? true : undefined), 2_000, 'the server to notice');
  });
});

describe('server restart', () => {
  it('cuts every connection, refuses while down, and comes back on the same port with the same state', async () => {
    const socket = connectSocket(market.wsUrl, { key: market.apiKey });
    await socket.waitFor((f) => f['event'] === 'connected');
    const listing = market.createListing({ price: 70 });
    const restart = market.chaos.restart(300);
    expect((await socket.closed).code).toBe(1006);
    expect(await dropped(() => api(market).get('/public/v1/user'))).toBe('ECONNREFUSED');
    await restart;
    expectOk(await api(market).get(`/public/v1/listings/${listing.listing.id}`));
    expect(market.chaos.stats.restarts).toBe(1);
  });
});

describe('webhook faults and injected deliveries', () => {
  let feeds: TradeFeeds;

  beforeAll(async () => {
    feeds = new TradeFeeds({
      db: new Database(':memory:'),
      source: new ApiClient({ baseUrl: market.baseUrl, apiKey: market.apiKey }),
      webhook: { secret: market.webhookSecret },
      poller: { activeIntervalMs: 60_000, idleIntervalMs: 60_000 },
    });
    const { webhookUrl } = await feeds.start();
    await market.setWebhookUrl(webhookUrl);
  });

  afterAll(async () => {
    await market.setWebhookUrl(null);
    await feeds?.stop();
  });

  const trade = () => market.state.trades().at(-1)!;

  it('fails, duplicates and loses answers, and the receiver still applies each change once', async () => {
    market.holdTrades(true);
    market.chaos.set({ webhooks: { failRate: 0.3, duplicateRate: 0.5, lostAnswerRate: 0.3 } });
    const assetId = market.giveInventory(1, 'AK-47 | Redline (Field-Tested)');
    expect(assetId).toBeGreaterThan(0);
    const client = api(market);
    const inventory = expectOk(await client.get('/public/v1/steam-inventory', { app_id: 730 })) as { items: { token: string; steam_asset_id: string }[] };
    const row = inventory.items.find((i) => i.steam_asset_id === String(assetId))!;
    expectOk(await client.post('/public/v1/deposit', { items: [{ token: row.token, amount: 1 }] }));
    const id = trade().id;
    for (const status of ['Active', 'Accepted'] as const) market.moveTrade(id, status);
    await eventually(() => (market.pendingWebhooks === 0 ? true : undefined), 10_000, 'every delivery to finish');
    await feeds.receiver!.drain();
    expect(feeds.tracker.get(id)).toEqual(market.state.trades().find((t) => t.id === id));
    const stats = market.chaos.stats.webhooks;
    expect(stats.failed + stats.duplicated + stats.lostAnswers).toBeGreaterThan(0);
    // every change accepted once, whatever was repeated
    expect(feeds.receiver!.stats().accepted).toBe(new Set(market.webhookLog.filter((a) => a.tradeId === id && a.status === 200).map((a) => a.deliveryId)).size);
    market.holdTrades(false);
  });

  it('sends forged, tampered, stale and replayed deliveries, and the receiver refuses them all', async () => {
    const kinds = ['forged', 'tampered', 'stale', 'replayed'] as const;
    for (const kind of kinds) {
      const record = await market.chaos.injectWebhook(kind);
      expect(record, kind).not.toBeNull();
      if (kind === 'replayed') {
        expect(record!.status).toBe(200);
        expect(JSON.parse(record!.answer)).toEqual({ status: 'duplicate' });
      } else {
        expect(record!.status, kind).toBe(401);
        expect(record!.accepted).toBe(false);
      }
    }
    const rejected = feeds.receiver!.stats().rejected;
    expect(rejected.forged).toBe(2); // forged and tampered
    expect(rejected.stale).toBe(1);
    expect(rejected.replayed).toBeGreaterThanOrEqual(1);
    expect(market.chaos.stats.webhooks.injectedAccepted).toBe(0);
    expect(feeds.tracker.list().some((t) => t.status === 'Reversed')).toBe(false);
  });
});

/**
 * The demo marketplace: the whole spec (../shared/spec/marketplace-api.md) as a local HTTP + WebSocket
 * server with a live simulated market. `startDemoMarket` is what `skindesk demo`, `npm start` without an
 * API key, and every integration test use. It shares only src/shared with the client (src/core).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WS_PATH } from '../shared/api/index.ts';
import { Clock } from './clock.ts';
import { DemoHarness, type DemoParts } from './harness.ts';
import { ActivityEngine } from './market/activity.ts';
import { Market } from './market/market.ts';
import { populate } from './market/population.ts';
import { TradeEngine } from './market/trades.ts';
import { WithdrawalEngine } from './market/withdrawals.ts';
import { resolveOptions, type DemoMarketOptions, type ResolvedDemoOptions } from './options.ts';
import { createRequestHandler } from './server/http-server.ts';
import { RateLimiter } from './server/rate-limiter.ts';
import { accountRoutes } from './server/routes-account.ts';
import { marketDataRoutes } from './server/routes-market.ts';
import { tradingRoutes } from './server/routes-trading.ts';
import { MarketSnapshots } from './server/snapshots.ts';
import { WebSocketFeed } from './server/ws-feed.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';

export { DEMO_DEFAULTS, type DemoMarketOptions } from './options.ts';
export type { CreateListingOptions, DemoAccountInfo, ListingTruth } from './harness.ts';
export { DemoHarness } from './harness.ts';
export { MarketError } from './market/errors.ts';
export { signWebhook, backoffMs, type DeliveryAttempt } from './webhooks/dispatcher.ts';
export { checkWebhookUrl, isPublicAddress } from './webhooks/url-policy.ts';

export class DemoMarket extends DemoHarness {
  /** REST base address; routes are `${baseUrl}/public/v1/...`. */
  readonly baseUrl: string;
  /** The WebSocket feed's full address (`ws://host:port/public/v1/ws`). */
  readonly wsUrl: string;
  readonly port: number;
  readonly host: string;
  /** Milliseconds from the start call until the server listened (catalog, book, accounts). */
  readonly startupMs: number;
  readonly options: ResolvedDemoOptions;
  private readonly server: Server;
  private closing: Promise<void> | null = null;

  constructor(parts: DemoParts, server: Server, options: ResolvedDemoOptions, startupMs: number) {
    super(parts);
    this.server = server;
    this.options = options;
    this.startupMs = startupMs;
    const address = server.address() as AddressInfo;
    this.port = address.port;
    this.host = options.host;
    const wildcard = ['0.0.0.0', '::', ''].includes(options.host);
    const host = wildcard ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
    this.baseUrl = `http://${host}:${this.port}`;
    this.wsUrl = `ws://${host}:${this.port}${WS_PATH}`;
  }

  /** The demo user's API key. */
  get apiKey(): string {
    return this.parts.market.accounts[0]!.apiKey;
  }

  /** The demo user's webhook signing secret. */
  get webhookSecret(): string {
    return this.parts.market.accounts[0]!.webhookSecret!;
  }

  /** Stops the simulation, every timer and connection, then the server. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const { activity, feed, webhooks, trades, withdrawals, clock } = this.parts;
      activity.stop();
      feed.close();
      webhooks.close();
      trades.close();
      withdrawals.close();
      clock.close();
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.server.closeAllConnections();
      await closed;
    })();
    return this.closing;
  }
}

export async function startDemoMarket(options: DemoMarketOptions = {}): Promise<DemoMarket> {
  const started = performance.now();
  const o = resolveOptions(options);
  const clock = new Clock(o.timeScale);
  const market = new Market({ seed: o.seed, seqStart: o.seqStart, clock });
  const trades = new TradeEngine(market);
  const withdrawals = new WithdrawalEngine(market);
  const { demoUser, traders } = populate(market, trades, o.listings);
  const snapshots = new MarketSnapshots(market);
  // Encoding the book's rows once now makes the first GET /book as quick as later ones.
  snapshots.warmBook();
  const services = { market, trades, withdrawals, snapshots };
  const routes = { ...marketDataRoutes(services), ...tradingRoutes(services), ...accountRoutes(services) };
  const server = createServer(createRequestHandler(market, routes, new RateLimiter(o.rateLimitScale, o.rateLimits)));
  const feed = new WebSocketFeed(market, server, { reorder: o.reorder, duplicate: o.duplicate });
  const webhooks = new WebhookDispatcher(
    market,
    { allowLoopback: !o.strictWebhookUrls, ...(o.webhookLookup ? { lookup: o.webhookLookup } : {}) },
    (trade) => trades.view(trade),
  );
  const activity = new ActivityEngine(market, { rate: o.rate, targetListings: o.listings, traders });
  const parts: DemoParts = { market, clock, trades, withdrawals, activity, feed, webhooks, snapshots };
  const shutdown = () => {
    activity.stop();
    feed.close();
    webhooks.close();
    trades.close();
    withdrawals.close();
    clock.close();
  };
  try {
    if (o.webhookUrl) await webhooks.setUrl(demoUser, o.webhookUrl);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    shutdown();
    server.close();
    throw err;
  }
  activity.start();
  return new DemoMarket(parts, server, o, performance.now() - started);
}

/**
 * The demo marketplace: the whole spec (../shared/spec/marketplace-api.md) as a local HTTP + WebSocket
 * server with a live simulated market. `startDemoMarket` is what `skindesk demo`, `npm start` without an
 * API key, and every integration test use. It shares only src/shared with the client (src/core).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WS_PATH } from '../shared/api/index.ts';
import type { RunningDemoMarket } from '../shared/demo-market.ts';
import { ChaosController } from './chaos/controller.ts';
import { DemoChaos } from './chaos/index.ts';
import { WebhookInjector } from './chaos/webhook-injector.ts';
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
export { startDemoMarketThread, type DemoMarketThread, type DemoThreadOptions } from './worker/host.ts';
export { MarketError } from './market/errors.ts';
export { MAX_SEQ_START } from './market/feed.ts';
export { signWebhook, backoffMs, type DeliveryAttempt } from './webhooks/dispatcher.ts';
export { checkWebhookUrl, isPublicAddress } from './webhooks/url-policy.ts';
export {
  CHAOS_LEVELS,
  INJECTION_KINDS,
  chaosLevel,
  type ChaosChange,
  type ChaosLevel,
  type ChaosSettings,
  type ChaosStats,
  DemoChaos,
  type InjectionKind,
  type InjectionRecord,
} from './chaos/index.ts';
export type { RateAudit, RateAuditEntry, RateAuditEvent } from './server/rate-limiter.ts';

export class DemoMarket extends DemoHarness implements RunningDemoMarket {
  /** REST base address; routes are `${baseUrl}/public/v1/...`. */
  readonly baseUrl: string;
  /** The WebSocket feed's full address (`ws://host:port/public/v1/ws`). */
  readonly wsUrl: string;
  readonly port: number;
  readonly host: string;
  /** Milliseconds from the start call until the server listened (catalog, book, accounts). */
  readonly startupMs: number;
  readonly options: ResolvedDemoOptions;
  /** Fault injection (all off unless `options.chaos` or `chaos.set` turns some on). */
  readonly chaos: DemoChaos;
  private readonly server: Server;
  private readonly limiter: RateLimiter;
  private closing: Promise<void> | null = null;
  private restarting: Promise<void> | null = null;
  private readonly markStopped: () => void;
  /** Settles when close() has stopped everything (in this thread, nothing else stops the market). */
  readonly stopped: Promise<void>;

  constructor(parts: DemoParts, server: Server, options: ResolvedDemoOptions, startupMs: number, limiter: RateLimiter, controller: ChaosController) {
    super(parts);
    const { promise, resolve } = Promise.withResolvers<void>();
    this.stopped = promise;
    this.markStopped = resolve;
    this.server = server;
    this.options = options;
    this.startupMs = startupMs;
    this.limiter = limiter;
    const injector = new WebhookInjector({
      market: parts.market,
      dispatcher: parts.webhooks,
      chaos: controller,
      viewTrade: (accountId, tradeId) => {
        const trade = parts.market.account(accountId)?.trades.find((t) => t.id === tradeId);
        return trade ? parts.trades.view(trade) : null;
      },
    });
    this.chaos = new DemoChaos({
      controller,
      injector,
      account: (id) => {
        const account = parts.market.account(id);
        if (!account) throw new RangeError(`no account ${id}`);
        return account;
      },
      dropWebSockets: (mode, account) => parts.feed.drop(mode, account),
      restartServer: (downMs) => this.restartServer(downMs, controller),
    });
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

  /**
   * What the rate limiter saw of one account (default: the demo user): requests refused because they
   * exceeded a limit, and requests that came back before a Retry-After they had been given ran out.
   */
  rateAudit(accountId = 1) {
    return this.limiter.audit(`account:${accountId} `);
  }

  private restartServer(downMs: number, controller: ChaosController): Promise<void> {
    if (this.closing) return Promise.resolve();
    this.restarting ??= (async () => {
      controller.stats.restarts++;
      this.parts.feed.terminateAll();
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.server.closeAllConnections();
      await closed;
      await controller.sleep(downMs);
      if (this.closing) return;
      await new Promise<void>((resolve, reject) => {
        this.server.once('error', reject);
        this.server.listen(this.port, this.options.host, () => {
          this.server.off('error', reject);
          resolve();
        });
      });
    })().finally(() => {
      this.restarting = null;
    });
    return this.restarting;
  }

  /** Stops the simulation, every timer and connection, then the server. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        // chaos first, so it schedules no new restart while one in progress is awaited
        this.parts.chaos.close();
        await this.restarting?.catch(() => {});
        stopParts(this.parts);
        if (this.server.listening) {
          const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
          this.server.closeAllConnections();
          await closed;
        }
      } finally {
        this.markStopped();
      }
    })();
    return this.closing;
  }
}

/** Stops the simulation and every timer and connection of the parts (the HTTP server is the caller's). */
function stopParts({ chaos, activity, feed, webhooks, trades, withdrawals, clock }: DemoParts): void {
  chaos.close();
  activity.stop();
  feed.close();
  webhooks.close();
  trades.close();
  withdrawals.close();
  clock.close();
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
  const chaos = new ChaosController(o.seed, o.chaos);
  const limiter = new RateLimiter(o.rateLimitScale, o.rateLimits);
  const server = createServer(createRequestHandler(market, routes, limiter, chaos));
  const feed = new WebSocketFeed(market, server, { reorder: o.reorder, duplicate: o.duplicate, chaos });
  const webhooks = new WebhookDispatcher(
    market,
    { allowLoopback: !o.strictWebhookUrls, ...(o.webhookLookup ? { lookup: o.webhookLookup } : {}) },
    (trade) => trades.view(trade),
    chaos,
  );
  const activity = new ActivityEngine(market, { rate: o.rate, targetListings: o.listings, traders });
  const parts: DemoParts = { market, clock, trades, withdrawals, activity, feed, webhooks, snapshots, chaos };
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
    stopParts(parts);
    server.close();
    throw err;
  }
  activity.start();
  return new DemoMarket(parts, server, o, performance.now() - started, limiter, chaos);
}

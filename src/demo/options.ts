/**
 * Options of the demo market, shared by `startDemoMarket` and `skindesk demo` (whose flags mirror the
 * first group one to one). The second group exists for tests and embedding only.
 */
import { type ChaosChange, mergeSettings, calmSettings } from './chaos/settings.ts';
import { MAX_SEQ_START } from './market/feed.ts';
import type { AddressLookup } from './webhooks/url-policy.ts';

export interface DemoMarketOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  host?: string;
  /** Listings on the book at startup (the simulation keeps the book near this size). */
  listings?: number;
  /** Simulated market events per second; 0 turns the background activity off. */
  rate?: number;
  /** Probability that an event is overtaken by a later event of the same listing on the WebSocket. */
  reorder?: number;
  /** Probability that an event is delivered twice on the WebSocket. */
  duplicate?: number;
  /** The seq of the opening book; events count up from here (may exceed 2^53). */
  seqStart?: bigint;
  /** Divides every timer (trades, withdrawals, webhook back-off and time-out). */
  timeScale?: number;
  /** Same seed, same catalog prices, book, accounts and activity. */
  seed?: number;
  /** Webhook URL of the demo user. */
  webhookUrl?: string | null;
  /** Chaos switches on from the start (src/demo/chaos; all off by default). */
  chaos?: ChaosChange;

  /** Divides every rate-limit window (tests only; the CLI always runs the spec's limits). */
  rateLimitScale?: number;
  /** false: never answer 429 (headers are still sent). For tests that are not about rate limits. */
  rateLimits?: boolean;
  /** Apply the production webhook URL rule (https, public addresses only) instead of demo mode. */
  strictWebhookUrls?: boolean;
  /** Name resolution for webhook URLs (tests). */
  webhookLookup?: AddressLookup;
}

export const DEMO_DEFAULTS = {
  port: 8730,
  host: '127.0.0.1',
  listings: 100_000,
  rate: 4,
  reorder: 0.02,
  duplicate: 0.01,
  // Above 2^53 by default: every client is made to prove its int64 handling from the first frame.
  seqStart: 2n ** 53n + 1n,
  timeScale: 1,
  seed: 1,
} as const;

export const MAX_LISTINGS = 5_000_000;

export type ResolvedDemoOptions = Required<Omit<DemoMarketOptions, 'webhookLookup' | 'webhookUrl'>> &
  Pick<DemoMarketOptions, 'webhookLookup'> & { webhookUrl: string | null };

/** Fills defaults (programmatic default port is 0: tests and embedding want a free port) and checks ranges. */
export function resolveOptions(options: DemoMarketOptions): ResolvedDemoOptions {
  const o: ResolvedDemoOptions = {
    port: options.port ?? 0,
    host: options.host ?? DEMO_DEFAULTS.host,
    listings: options.listings ?? DEMO_DEFAULTS.listings,
    rate: options.rate ?? DEMO_DEFAULTS.rate,
    reorder: options.reorder ?? DEMO_DEFAULTS.reorder,
    duplicate: options.duplicate ?? DEMO_DEFAULTS.duplicate,
    seqStart: options.seqStart ?? DEMO_DEFAULTS.seqStart,
    timeScale: options.timeScale ?? DEMO_DEFAULTS.timeScale,
    seed: options.seed ?? DEMO_DEFAULTS.seed,
    webhookUrl: options.webhookUrl ?? null,
    chaos: options.chaos ?? {},
    rateLimitScale: options.rateLimitScale ?? 1,
    rateLimits: options.rateLimits ?? true,
    strictWebhookUrls: options.strictWebhookUrls ?? false,
    webhookLookup: options.webhookLookup,
  };
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new RangeError(message);
  };
  check(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65_535, 'port must be an integer from 0 to 65535');
  check(Number.isInteger(o.listings) && o.listings >= 0 && o.listings <= MAX_LISTINGS, `listings must be an integer from 0 to ${MAX_LISTINGS}`);
  check(Number.isFinite(o.rate) && o.rate >= 0 && o.rate <= 1_000_000, 'rate must be a number of events per second from 0 to 1000000');
  check(o.reorder >= 0 && o.reorder <= 1, 'reorder must be a probability from 0 to 1');
  check(o.duplicate >= 0 && o.duplicate <= 1, 'duplicate must be a probability from 0 to 1');
  check(o.seqStart >= 0n && o.seqStart <= MAX_SEQ_START, `seq start must be from 0 to ${MAX_SEQ_START}`);
  check(Number.isFinite(o.timeScale) && o.timeScale > 0, 'time scale must be a positive number');
  check(Number.isInteger(o.seed) && o.seed >= 0 && o.seed <= 0xffffffff, 'seed must be an integer from 0 to 4294967295');
  check(Number.isFinite(o.rateLimitScale) && o.rateLimitScale > 0, 'rateLimitScale must be a positive number');
  mergeSettings(calmSettings(), o.chaos); // throws RangeError naming a bad switch
  return o;
}

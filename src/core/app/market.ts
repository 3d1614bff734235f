/**
 * Which marketplace the app talks to. Startup rule: no API key (none saved, or the keychain could not be
 * read), no marketplace URL, or the user chose it in Settings → the embedded demo market, started by the
 * composition root (src/main, src/web-host: core may not import src/demo) on a random loopback port;
 * otherwise the configured base URL.
 */
import type { RunningDemoMarket } from '../../shared/demo-market.ts';
import type { DEMO_REASONS } from '../../shared/ipc/index.ts';
import type { AppSettings } from './settings.ts';

export type DemoReason = (typeof DEMO_REASONS)[number];

/** What core needs of a running demo market. */
export interface DemoMarketHandle {
  readonly baseUrl: string;
  readonly wsUrl: string;
  /** The demo account's key: the app uses it instead of the user's. */
  readonly apiKey: string;
  /**
   * The demo account's webhook side, when the host offers it: the app registers its local receiver
   * here (what a user does on the website for the real market) and signs with this secret.
   */
  readonly webhooks?: { readonly secret: string; setUrl(url: string | null): Promise<void> };
  /** Settles when the market has stopped, asked to or not, when the host can tell. */
  readonly stopped?: Promise<void>;
  close(): Promise<void>;
}

/** The handle core needs, from a running demo market; `onClose` runs before it closes. */
export function demoHandleOf(demo: RunningDemoMarket, onClose?: () => void): DemoMarketHandle {
  return {
    baseUrl: demo.baseUrl,
    wsUrl: demo.wsUrl,
    apiKey: demo.apiKey,
    webhooks: { secret: demo.webhookSecret, setUrl: (url) => demo.setWebhookUrl(url) },
    stopped: demo.stopped,
    close: () => {
      onClose?.();
      return demo.close();
    },
  };
}

/** Starts the embedded demo market (given by the composition root). */
export type StartDemoMarket = (options: { seqStart: bigint }) => Promise<DemoMarketHandle>;

export type MarketChoice = { mode: 'real'; baseUrl: string } | { mode: 'demo'; reason: DemoReason };

/** `keychainUnreadable`: the key could not be looked for, so there may well be one saved. */
export function chooseMarket(settings: AppSettings, apiKeySet: boolean, keychainUnreadable = false): MarketChoice {
  if (settings.market.useDemo) return { mode: 'demo', reason: 'chosen_in_settings' };
  if (!apiKeySet) return { mode: 'demo', reason: keychainUnreadable ? 'keychain_unavailable' : 'no_api_key' };
  if (!settings.market.baseUrl) return { mode: 'demo', reason: 'no_market_url' };
  return { mode: 'real', baseUrl: settings.market.baseUrl };
}

export function sameChoice(a: MarketChoice, b: MarketChoice): boolean {
  return a.mode === 'real' && b.mode === 'real' ? a.baseUrl === b.baseUrl : a.mode === b.mode;
}

/**
 * The demo mirror persists between runs, but each run starts a new demo market, and the mirror's seq
 * guard rejects anything not above what it already applied. So each demo run starts its seqs above any
 * earlier run's: 2^53 (so int64 handling is exercised from the first frame) plus 1,000 per millisecond of
 * wall time — more events per millisecond than the demo ever produces.
 */
export function demoSeqStart(nowMs: number = Date.now()): bigint {
  return 2n ** 53n + 1n + BigInt(Math.floor(nowMs)) * 1000n;
}

export const DEMO_DATABASE_FILE_NAME = 'demo-market.db';
/** What the demo's book file records as its source: the demo market, whichever port it listens on. */
export const DEMO_MIRROR_SOURCE = 'the demo market';

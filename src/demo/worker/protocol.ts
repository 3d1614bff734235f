/** Messages between the demo market's worker thread (./thread.ts) and its host (./host.ts). */
import type { DemoMarketOptions } from '../options.ts';

export interface DemoThreadData {
  /** Plain data only (it crosses a thread): no webhook lookup function. */
  options: Omit<DemoMarketOptions, 'webhookLookup'>;
}

export type DemoThreadRequest = { type: 'setWebhookUrl'; requestId: number; url: string | null } | { type: 'close' };

export type DemoThreadMessage =
  | { type: 'ready'; baseUrl: string; wsUrl: string; apiKey: string; webhookSecret: string }
  | { type: 'failed'; message: string }
  | { type: 'answer'; requestId: number; error: string | null }
  | { type: 'closed' };

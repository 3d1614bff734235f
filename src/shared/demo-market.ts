/**
 * A running demo market as its host sees it, whether it runs in the host's thread (DemoMarket) or in a
 * thread of its own (startDemoMarketThread): the one shape src/demo offers and src/core's composition
 * roots hand over (core/app/market.ts demoHandleOf), declared here because neither may import the other.
 */
export interface RunningDemoMarket {
  readonly baseUrl: string;
  readonly wsUrl: string;
  /** The demo account's key. */
  readonly apiKey: string;
  /** The demo account's webhook signing secret. */
  readonly webhookSecret: string;
  /** Registers the demo account's webhook receiver (null removes it). */
  setWebhookUrl(url: string | null): Promise<void>;
  /** Settles when the market has stopped: closed, or its thread ended on its own. */
  readonly stopped: Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded demo market outlives the sessions that use it. A session started again (after a failure,
 * or a damaged book set aside) meets the same market: the demo account keeps what the user bought, listed
 * and traded, and no trade notice is told twice. The market stops when the app leaves the demo or
 * closes; one that stops on its own (its thread died) is reported, and the next session starts another.
 */
import type { DemoMarketHandle, StartDemoMarket } from './market.ts';

export interface DemoMarketKeeperEvents {
  warn(message: string): void;
  /** The running market stopped without being asked to. */
  lost(): void;
}

export class DemoMarketKeeper {
  readonly #start: StartDemoMarket;
  readonly #events: DemoMarketKeeperEvents;
  #running: Promise<DemoMarketHandle> | null = null;
  /** The starts that have ended with a market. */
  readonly #started = new WeakSet<Promise<DemoMarketHandle>>();

  constructor(start: StartDemoMarket, events: DemoMarketKeeperEvents) {
    this.#start = start;
    this.#events = events;
  }

  /** Whether a market is running or starting (the next session meets it). */
  get running(): boolean {
    return this.#running !== null;
  }

  /**
   * What each session is given in place of the host's start: the running market, started on first use.
   * The handle it lends does not stop the market when the session closes.
   */
  readonly lend: StartDemoMarket = async (options) => {
    const running = (this.#running ??= this.#startOne(options));
    let market: DemoMarketHandle;
    try {
      market = await running;
    } catch (err) {
      // a start that failed is not kept: the next session tries again
      if (this.#running === running) this.#running = null;
      throw err;
    }
    return {
      baseUrl: market.baseUrl,
      wsUrl: market.wsUrl,
      apiKey: market.apiKey,
      ...(market.webhooks ? { webhooks: market.webhooks } : {}),
      close: () => Promise.resolve(),
    };
  };

  #startOne(options: { seqStart: bigint }): Promise<DemoMarketHandle> {
    const starting = this.#start(options);
    void starting.then(
      (market) => {
        this.#started.add(starting);
        void market.stopped?.then(() => {
          if (this.#running !== starting) return;
          this.#running = null;
          this.#events.lost();
        });
      },
      () => undefined,
    );
    return starting;
  }

  /**
   * Stops the running market, if any; the next session that asks starts a new one. A market still
   * starting is not waited for (a start may never end): it stops as soon as it has started.
   */
  async stop(): Promise<void> {
    const running = this.#running;
    this.#running = null;
    if (!running) return;
    const stopped = running
      .then(
        (market) => market.close(),
        () => undefined,
      )
      .catch((err: unknown) => this.#events.warn(`the demo market did not stop cleanly: ${String(err)}`));
    if (this.#started.has(running)) await stopped;
  }
}

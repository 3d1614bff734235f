/**
 * The balance the auto-buyer may spend, known without a request at decision time: the last balance read
 * from GET /user, minus every purchase the session's purchaser was handed since — the watchlists', and the
 * book's, the cart's and a private link's alike (pending ones at their ceiling, bought ones at what they
 * cost, unknown ones until a read shows them). A purchase that finished before a read was sent is assumed
 * to be in that read; anything later stays subtracted, so the estimate only ever errs low.
 */
import type { ApiClient } from '../api/client.ts';
import type { SpendOutcome, SpendSource } from '../api/purchase-spending.ts';

export interface BalanceOptions {
  client: ApiClient;
  /**
   * The purchaser every purchase of the session goes through: each one is counted from it (and by nobody
   * else, so none counts twice); one bought elsewhere (another process) is seen at the next read only.
   */
  purchases: SpendSource;
  now?: () => number;
  /** Re-read this often while in use (default 60 s; GET /user allows 60 a minute). */
  refreshEveryMs?: number;
  /** A balance older than this is not trusted (default 10 minutes). */
  maxAgeMs?: number;
  onWarning?: (message: string) => void;
}

interface Spend {
  cost: number;
  /** When it stopped being pending (bought or unknown); null while pending. */
  settledAt: number | null;
}

export class BalanceTracker {
  readonly #client: ApiClient;
  readonly #now: () => number;
  readonly #refreshEveryMs: number;
  readonly #maxAgeMs: number;
  readonly #onWarning: (message: string) => void;
  #balance: number | null = null;
  #readAt = 0;
  #spends = new Map<number, Spend>();
  #nextSpend = 1;
  #timer: NodeJS.Timeout | null = null;
  #reading: Promise<void> | null = null;
  #stopped = false;
  readonly #unwatch: () => void;

  constructor(options: BalanceOptions) {
    this.#client = options.client;
    this.#now = options.now ?? Date.now;
    this.#refreshEveryMs = options.refreshEveryMs ?? 60_000;
    this.#maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.#onWarning = options.onWarning ?? (() => {});
    this.#unwatch = options.purchases.watchSpending((ceiling) => {
      const id = this.#reserve(ceiling);
      return (outcome) => this.#settle(id, outcome);
    });
  }

  /** Starts the periodic reads (the first one at once). */
  start(): void {
    if (this.#timer || this.#stopped) return;
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.#refreshEveryMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    this.#unwatch();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Cents that may be spent now, or null when no recent balance is known. */
  available(): number | null {
    if (this.#balance === null || this.#now() - this.#readAt > this.#maxAgeMs) return null;
    let committed = 0;
    for (const s of this.#spends.values()) committed += s.cost;
    return this.#balance - committed;
  }

  /** A purchase is on its way at this ceiling; returns its handle. */
  #reserve(cost: number): number {
    const id = this.#nextSpend++;
    this.#spends.set(id, { cost, settledAt: null });
    return id;
  }

  /** Its outcome: not bought frees the reservation; bought (at its cost) or unknown keep it until a read. */
  #settle(id: number, { status, cost }: SpendOutcome): void {
    const spend = this.#spends.get(id);
    if (!spend) return;
    if (status === 'not_bought') {
      this.#spends.delete(id);
      return;
    }
    spend.settledAt = this.#now();
    if (status === 'bought' && cost !== null) spend.cost = cost;
    void this.refresh();
  }

  /** Reads GET /user; one read at a time. */
  refresh(): Promise<void> {
    this.#reading ??= (async () => {
      const sentAt = this.#now();
      try {
        const user = await this.#client.user({ priority: 'background' });
        this.#balance = user.balance;
        this.#readAt = this.#now();
        for (const [id, s] of this.#spends) if (s.settledAt !== null && s.settledAt < sentAt) this.#spends.delete(id);
      } catch (err) {
        if (!this.#stopped) this.#onWarning(`the balance could not be read (${(err as Error).message})`);
      } finally {
        this.#reading = null;
      }
    })();
    return this.#reading;
  }
}

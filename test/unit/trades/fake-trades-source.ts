/** A `GET /trades` double: the server's trades, served newest created first in offset pages. */
import type { QueryOf, ResponseOf, Trade } from '../../../src/shared/api/index.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import type { TradesSource } from '../../../src/core/trades/poller.ts';

export class FakeTradesSource implements TradesSource {
  readonly trades = new Map<number, Trade>();
  readonly calls: { page: number; at: number }[] = [];
  failNext = 0;
  /** While set, calls wait for it (to observe what happens during a poll). */
  gate: Promise<void> | null = null;
  /** Runs before each page is served: a test changes the history between two page turns. */
  beforePage: ((page: number) => void) | null = null;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  put(...trades: Trade[]): void {
    for (const t of trades) this.trades.set(t.id, t);
  }

  async call(
    _name: 'trades',
    input: { query: QueryOf<'trades'> },
    opts: { signal?: AbortSignal } = {},
  ): Promise<ResponseOf<'trades'>> {
    const page = Number(input.query.page);
    const limit = Number(input.query.limit);
    this.calls.push({ page, at: this.#now() });
    if (this.gate) {
      const signal = opts.signal;
      await Promise.race([
        this.gate,
        new Promise<never>((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]);
    }
    this.beforePage?.(page);
    if (this.failNext > 0) {
      this.failNext--;
      throw new ApiError({ kind: 'server', route: 'GET /public/v1/trades', status: 503, message: 'GET /public/v1/trades: HTTP 503', maybeDelivered: false });
    }
    const all = [...this.trades.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
    const rows = all.slice((page - 1) * limit, page * limit);
    return {
      trades: rows,
      metadata: { total_pages: Math.ceil(all.length / limit), total_items: all.length, current_page: page, current_limit: limit },
    };
  }
}

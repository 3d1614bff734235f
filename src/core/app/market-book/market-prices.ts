/**
 * The grid's "against the market" figure: every row of a book window gets its item's market price from
 * the marketplace's prices/all, held here in memory.
 *
 * Read every few minutes and never written to the book file from here: this thread taking the file's
 * write lock would wait for the sync worker's transactions (a heavy-chaos soak measured 408–424 ms
 * stalls of this thread that way while the worker merged a resync), and rewriting a 26,000-row prices
 * cache cost ~90 ms of this thread's CPU besides. It starts from the prices cache the detail view and
 * the watchlists keep in the book (so it shows offline), and only reads it.
 */
import type { AppId } from '../../../shared/api/index.ts';
import type { ApiClient } from '../../api/client.ts';
import type { QueryRow } from '../../query/index.ts';
import type { Db } from '../../store/index.ts';

export type PricedRow = QueryRow & { market_price: number | null };

/** A market reference moves slowly; the server rebuilds the set each minute, read it each five. */
export const MARKET_PRICES_EVERY_MS = 5 * 60_000;
/** Until the session has a REST client (it connects in the background), look again this often. */
const WAIT_FOR_CLIENT_MS = 2_000;

const key = (appId: number, name: string) => `${appId}\u0000${name}`;

export interface MarketPriceRefresh {
  client: () => ApiClient | null;
  /** The set was read: rows on screen may compare differently now. */
  onChanged: () => void;
  onWarning: (message: string) => void;
  everyMs?: number;
}

export class MarketPriceBoard {
  #prices: Map<string, number>;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(db: Db) {
    const cached = db.prepare('SELECT app_id, market_hash_name, market_price FROM prices').all() as {
      app_id: number;
      market_hash_name: string;
      market_price: number;
    }[];
    this.#prices = new Map(cached.map((p) => [key(p.app_id, p.market_hash_name), p.market_price]));
  }

  priceOf(appId: AppId, name: string): number | null {
    return this.#prices.get(key(appId, name)) ?? null;
  }

  /** The rows with their items' market prices (null: the set does not price the item, or is not read yet). */
  price(rows: readonly QueryRow[]): PricedRow[] {
    return rows.map((row) => ({ ...row, market_price: this.priceOf(row.app_id, row.market_hash_name) }));
  }

  /** Reads prices/all now (as soon as there is a client) and every `everyMs` after, until stopped. */
  start(refresh: MarketPriceRefresh): void {
    const every = refresh.everyMs ?? MARKET_PRICES_EVERY_MS;
    const schedule = (ms: number) => {
      if (this.#stopped) return;
      this.#timer = setTimeout(() => void tick(), ms);
      this.#timer.unref();
    };
    const tick = async () => {
      const client = refresh.client();
      if (!client) return schedule(WAIT_FOR_CLIENT_MS);
      try {
        const answer = await client.pricesAll({}, { priority: 'background' });
        if (this.#stopped) return;
        this.#prices = new Map(answer.prices.map((p) => [key(p.app_id, p.market_hash_name), p.market_price]));
        refresh.onChanged();
      } catch (err) {
        if (this.#stopped) return;
        refresh.onWarning(
          `the market prices could not be read (${(err as Error).message}); showing the last ones`,
        );
      }
      schedule(every);
    };
    void tick();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}

/**
 * The grid's "against the market" figure: every row of a book window gets its item's market price from
 * the marketplace's prices/all, held here in memory.
 *
 * Read every few minutes into memory and never written anywhere: the grid needs only this map, and the
 * prices cache that the detail view and the watchlists keep (in the desk file) would cost a sliced
 * rewrite of 26,000 rows for nothing. It starts from that cache (so it shows offline), and only reads it.
 */
import type { AppId, PriceRow } from '../../../shared/api/index.ts';
import type { ApiClient } from '../../api/client.ts';
import type { QueryRow } from '../../query/index.ts';
import { Caches, type Db } from '../../store/index.ts';
import { itemKey } from '../../../shared/item-key.ts';

export type PricedRow = QueryRow & { market_price: number | null };

/** A market reference moves slowly; the server rebuilds the set each minute, read it each five. */
export const MARKET_PRICES_EVERY_MS = 5 * 60_000;

const byItem = (rows: readonly PriceRow[]) =>
  new Map(rows.map((p) => [itemKey(p.app_id, p.market_hash_name), p.market_price]));

export interface MarketPriceRefresh {
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
    this.#prices = byItem(new Caches(db).prices());
  }

  priceOf(appId: AppId, name: string): number | null {
    return this.#prices.get(itemKey(appId, name)) ?? null;
  }

  /** The rows with their items' market prices (null: the set does not price the item, or is not read yet). */
  price(rows: readonly QueryRow[]): PricedRow[] {
    return rows.map((row) => ({ ...row, market_price: this.priceOf(row.app_id, row.market_hash_name) }));
  }

  /** Reads prices/all through `client` now and every `everyMs` after, until stopped. */
  start(client: ApiClient, refresh: MarketPriceRefresh): void {
    const read = async () => {
      try {
        const answer = await client.pricesAll({}, { priority: 'background' });
        if (this.#stopped) return;
        this.#prices = byItem(answer.prices);
        refresh.onChanged();
      } catch (err) {
        if (this.#stopped) return;
        refresh.onWarning(
          `the market prices could not be read (${(err as Error).message}); showing the last ones`,
        );
      }
      this.#timer = setTimeout(() => void read(), refresh.everyMs ?? MARKET_PRICES_EVERY_MS);
      this.#timer.unref();
    };
    void read();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}

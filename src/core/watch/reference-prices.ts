/**
 * The reference prices of "N % below …" conditions: the 30-day average sale price and the recommended
 * price (from the price caches in the book's database, held in memory so an event costs a map lookup),
 * and the cheapest other live listing of the same name (one indexed query on the mirror) — of a Doppler,
 * the cheapest other of the same name in the same phase: the marketplace's prices are per name only, but
 * "10 % under the cheapest other" must not compare a Ruby with a Phase 3.
 *
 * The refresher keeps the caches current while some watchlist needs them, at background priority and
 * no more often than the server rebuilds them (prices/all every 60 s, averages every 10 minutes).
 */
import type { Statement } from 'better-sqlite3';
import { LIMITS } from '../../shared/api/index.ts';
import { paintIndexesOfPhases, phaseOfPaintIndex } from '../../shared/phases.ts';
import type { PriceReference } from '../../shared/watchlist.ts';
import type { ApiClient } from '../api/client.ts';
import { Caches } from '../store/caches.ts';
import type { Db } from '../store/database.ts';
import { itemKey } from '../../shared/item-key.ts';

export interface ReferenceSubject {
  id: number;
  app_id: number;
  market_hash_name: string;
  /** The listing's details when the mirror has them (a Doppler's phase comes from its paint index). */
  detail?: { paint_index: number | null } | null;
}

export class ReferencePrices {
  readonly #db: Db;
  readonly #cheapestOther: Statement;
  readonly #cheapestOtherOfPhase: Statement;
  #averages = new Map<string, number>();
  #recommended = new Map<string, number>();

  constructor(db: Db) {
    this.#db = db;
    this.#cheapestOther = db
      .prepare(
        `SELECT price FROM listings WHERE name_id = (SELECT name_id FROM item_names WHERE name = ?)
           AND alive = 1 AND id <> ? ORDER BY price LIMIT 1`,
      )
      .pluck();
    this.#cheapestOtherOfPhase = db
      .prepare(
        `SELECT l.price FROM listings l CROSS JOIN listing_attrs a ON a.id = l.id
         WHERE l.name_id = (SELECT name_id FROM item_names WHERE name = ?) AND l.alive = 1 AND l.id <> ?
           AND a.cs_paint_index IN (SELECT value FROM json_each(?)) ORDER BY l.price LIMIT 1`,
      )
      .pluck();
    this.reload();
  }

  /** Re-reads the price caches (after a refresh, by whoever wrote them). */
  reload(): void {
    const caches = new Caches(this.#db);
    this.#averages = new Map(caches.averages().map((r) => [itemKey(r.app_id, r.market_hash_name), r.average_price]));
    this.#recommended = new Map(caches.prices().map((r) => [itemKey(r.app_id, r.market_hash_name), r.recommended_price]));
  }

  /** The reference price of a listing's item, or null when there is none. */
  of(reference: PriceReference, listing: ReferenceSubject): number | null {
    switch (reference) {
      case 'average_30d':
        return this.#averages.get(itemKey(listing.app_id, listing.market_hash_name)) ?? null;
      case 'recommended':
        return this.#recommended.get(itemKey(listing.app_id, listing.market_hash_name)) ?? null;
      case 'cheapest_other': {
        const phase = listing.app_id === 730 ? phaseOfPaintIndex(listing.detail?.paint_index) : null;
        const price =
          phase === null
            ? this.#cheapestOther.get(listing.market_hash_name, listing.id)
            : this.#cheapestOtherOfPhase.get(listing.market_hash_name, listing.id, JSON.stringify(paintIndexesOfPhases([phase])));
        return (price as number | undefined) ?? null;
      }
    }
  }
}

export interface RefresherOptions {
  client: ApiClient;
  db: Db;
  prices: ReferencePrices;
  onWarning: (message: string) => void;
  /** The cache of a reference was replaced (watchlists using it may match listings they did not before). */
  onRefreshed?: (reference: 'average_30d' | 'recommended') => void;
  averagesEveryMs?: number;
  pricesEveryMs?: number;
}

/** Fetches the averages and prices caches while some watchlist depends on them. */
export class ReferenceRefresher {
  readonly #o: Required<Omit<RefresherOptions, 'onRefreshed'>> & Pick<RefresherOptions, 'onRefreshed'>;
  readonly #caches: Caches;
  #needs = { average_30d: false, recommended: false };
  readonly #timers: Partial<Record<'average_30d' | 'recommended', NodeJS.Timeout>> = {};
  readonly #inFlight = new Set<'average_30d' | 'recommended'>();
  #stopped = false;

  constructor(options: RefresherOptions) {
    this.#o = {
      averagesEveryMs: LIMITS.averagesCacheMs,
      pricesEveryMs: LIMITS.pricesAllCacheMs,
      ...options,
    };
    this.#caches = new Caches(options.db);
  }

  /** Which cached references are needed now; starts or stops their refresh. */
  setNeeds(references: ReadonlySet<PriceReference>): void {
    for (const what of ['average_30d', 'recommended'] as const) {
      const needed = references.has(what);
      if (needed && !this.#needs[what] && !this.#timers[what] && !this.#inFlight.has(what)) void this.#refresh(what);
      if (!needed && this.#timers[what]) {
        clearTimeout(this.#timers[what]);
        delete this.#timers[what];
      }
      this.#needs[what] = needed;
    }
  }

  stop(): void {
    this.#stopped = true;
    for (const t of Object.values(this.#timers)) clearTimeout(t);
  }

  async #refresh(what: 'average_30d' | 'recommended'): Promise<void> {
    if (this.#stopped) return;
    delete this.#timers[what];
    this.#inFlight.add(what);
    try {
      if (what === 'average_30d') {
        const answer = await this.#o.client.salesAverages({}, { priority: 'background' });
        if (this.#stopped) return;
        await this.#caches.replaceAverages(answer.averages);
      } else {
        const answer = await this.#o.client.pricesAll({}, { priority: 'background' });
        if (this.#stopped) return;
        await this.#caches.replacePrices(answer.prices);
      }
      if (this.#stopped) return;
      this.#o.prices.reload();
      this.#o.onRefreshed?.(what);
    } catch (err) {
      if (this.#stopped) return;
      const label = what === 'average_30d' ? '30-day averages' : 'recommended prices';
      this.#o.onWarning(`the ${label} could not be refreshed (${(err as Error).message}); using the cached ones`);
    } finally {
      this.#inFlight.delete(what);
    }
    if (this.#stopped || !this.#needs[what]) return;
    const every = what === 'average_30d' ? this.#o.averagesEveryMs : this.#o.pricesEveryMs;
    const timer = setTimeout(() => void this.#refresh(what), every);
    timer.unref();
    this.#timers[what] = timer;
  }
}

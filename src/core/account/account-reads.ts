/**
 * Cached reads for the account screens: user and balance, listed value, my listings, backpack pages,
 * the external inventory, orders and transactions. Every answer is stored in SQLite with the time it
 * was fetched, so a screen opens at once (and offline) with what was last seen, then refreshes.
 *
 * Stored bodies are parsed again with the contract's schema when read back: the cache is a boundary
 * like the network (an older app version may have written it).
 *
 * When a refresh fails because the marketplace cannot be reached (network, timeout, 5xx, rate limit)
 * and a stored copy exists, the stored copy is returned with the error beside it, so the screen can say
 * "offline, as of 10:42" instead of going blank. Refusals by the server (4xx) are thrown: they mean
 * the request is wrong, not that the network is down.
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import {
  type AppId,
  ENDPOINTS,
  type EndpointName,
  LIMITS,
  type QueryOf,
  type ResponseOf,
} from '../../shared/api/index.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { ApiError } from '../api/errors.ts';
import type { Priority } from '../api/governor.ts';
import { TOKEN_SAFETY_MARGIN_MS, isTokenExpired, tokenExpiresAt } from './inventory-tokens.ts';
import type { InventoryRowSeen } from './presend-checks.ts';
import { createDeskTables } from '../store/desk.ts';

/** The routes read through the cache. */
export const CACHED_READS = [
  'user',
  'myListingsValue',
  'myListings',
  'backpack',
  'steamInventory',
  'orders',
  'transactions',
] as const satisfies readonly EndpointName[];
export type CachedReadName = (typeof CACHED_READS)[number];

/** What the reads need of the REST client (`ApiClient` satisfies it). */
export interface AccountApi {
  call<N extends EndpointName>(
    name: N,
    input?: { query?: QueryOf<N>; id?: number },
    opts?: { priority?: Priority; signal?: AbortSignal },
  ): Promise<ResponseOf<N>>;
}

export interface CachedRead<T> {
  data: T;
  /** When this data came from the marketplace (epoch ms). */
  fetchedAt: number;
  /** True when served from SQLite instead of a fresh request. */
  fromCache: boolean;
  /** The refresh that failed, when a stored copy is shown instead. */
  refreshError: Error | null;
}

export interface ReadOptions {
  /** Serve a stored copy younger than this without asking the network (default 0: always refresh). */
  maxAgeMs?: number;
  priority?: Priority;
  signal?: AbortSignal;
}

export interface InventoryRead extends CachedRead<InventoryRowSeen[]> {
  appId: AppId;
  /** When the tokens of this read stop being accepted (fetched + 30 minutes). */
  tokensExpireAt: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS account_cache (
  key TEXT PRIMARY KEY,
  endpoint TEXT NOT NULL,
  body TEXT NOT NULL,
  fetched_at INTEGER NOT NULL
);
`;

/** Failures that mean "could not reach the marketplace", after which a stored copy is better than nothing. */
function isUnreachable(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server' || err.kind === 'rate_limited')
  );
}

/** One key per route and query, independent of the order the query's fields were written in. */
export function cacheKey(name: EndpointName, query: Record<string, string | undefined> | undefined): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(query ?? {}).sort()) {
    const value = query?.[key];
    if (value !== undefined) params.set(key, value);
  }
  const qs = params.toString();
  return qs ? `${name}?${qs}` : name;
}

export class AccountReads {
  readonly #api: AccountApi;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #storedUsable: () => boolean;
  readonly #sql;
  /**
   * By route: when a move made here last made its stored answers untrue, and how many such moves there
   * were (see invalidate). In memory: a move is known to this session only.
   */
  readonly #changed = new Map<CachedReadName, { at: number; count: number }>();

  constructor(options: {
    api: AccountApi;
    db: Database.Database;
    clock?: Pick<Clock, 'now'>;
    /**
     * Whether the stored copies may be served (default: always). Not while they may be another account's
     * (a new key whose account is not known yet): a read then asks the marketplace or fails.
     */
    storedUsable?: () => boolean;
  }) {
    this.#api = options.api;
    this.#clock = options.clock ?? systemClock;
    this.#storedUsable = options.storedUsable ?? (() => true);
    createDeskTables(options.db, SCHEMA);
    this.#sql = {
      get: options.db.prepare<[string], { body: string; fetched_at: number }>('SELECT body, fetched_at FROM account_cache WHERE key = ?'),
      put: options.db.prepare('INSERT OR REPLACE INTO account_cache (key, endpoint, body, fetched_at) VALUES (?, ?, ?, ?)'),
    };
  }

  /** The stored copy of a read, or null (also while stored copies may not be served); never touches the network. */
  cached<N extends CachedReadName>(name: N, query?: QueryOf<N>): CachedRead<ResponseOf<N>> | null {
    if (!this.#storedUsable()) return null;
    const row = this.#sql.get.get(cacheKey(name, query as Record<string, string> | undefined));
    if (!row) return null;
    const parsed = (ENDPOINTS[name].response as z.ZodType).safeParse(JSON.parse(row.body));
    // A stored body the contract no longer accepts is as good as none: the next refresh replaces it.
    if (!parsed.success) return null;
    return { data: parsed.data as ResponseOf<N>, fetchedAt: row.fetched_at, fromCache: true, refreshError: null };
  }

  /**
   * This app just moved items in a way these routes' answers show (a list, a withdraw, an edit, a trade
   * settled): their stored answers say where items were before it, so none is served as fresh by
   * `maxAgeMs` again. They stay stored: offline, an old answer (said to be old) beats none.
   */
  invalidate(...names: CachedReadName[]): void {
    const at = this.#clock.now();
    for (const name of names) this.#changed.set(name, { at, count: (this.#changed.get(name)?.count ?? 0) + 1 });
  }

  /**
   * Whether an answer of `name` fetched at `fetchedAt` may predate a move made here since (invalidate).
   * An answer fetched in the very millisecond of the move counts as before it: the move's own answer and
   * the read's cannot be told apart then, and a read too many costs less than items counted twice.
   */
  outdated(name: CachedReadName, fetchedAt: number): boolean {
    const changed = this.#changed.get(name);
    return changed !== undefined && fetchedAt <= changed.at;
  }

  /** Refreshes from the marketplace and stores the answer; falls back to the stored copy when unreachable. */
  async read<N extends CachedReadName>(name: N, query?: QueryOf<N>, options: ReadOptions = {}): Promise<CachedRead<ResponseOf<N>>> {
    const stored = this.cached(name, query);
    const maxAge = options.maxAgeMs ?? 0;
    if (stored && maxAge > 0 && this.#clock.now() - stored.fetchedAt < maxAge && !this.outdated(name, stored.fetchedAt)) return stored;
    const movesBefore = this.#changed.get(name)?.count ?? 0;
    try {
      const data = await this.#api.call(name, query === undefined ? {} : { query }, {
        priority: options.priority ?? 'interactive',
        signal: options.signal,
      });
      const fetchedAt = this.#clock.now();
      this.#sql.put.run(cacheKey(name, query as Record<string, string> | undefined), name, JSON.stringify(data), fetchedAt);
      // a move made while the request was out may be missing from this answer, though it came after it
      if ((this.#changed.get(name)?.count ?? 0) !== movesBefore) this.invalidate(name);
      return { data, fetchedAt, fromCache: false, refreshError: null };
    } catch (err) {
      if (stored && isUnreachable(err)) return { ...stored, refreshError: err as Error };
      throw err;
    }
  }

  user(options?: ReadOptions) {
    return this.read('user', undefined, options);
  }

  listingsValue(query: QueryOf<'myListingsValue'> = {}, options?: ReadOptions) {
    return this.read('myListingsValue', query, options);
  }

  myListings(query: QueryOf<'myListings'>, options?: ReadOptions) {
    return this.read('myListings', query, options);
  }

  backpack(query: QueryOf<'backpack'>, options?: ReadOptions) {
    return this.read('backpack', query, options);
  }

  orders(query: QueryOf<'orders'>, options?: ReadOptions) {
    return this.read('orders', query, options);
  }

  transactions(query: QueryOf<'transactions'> = {}, options?: ReadOptions) {
    return this.read('transactions', query, options);
  }

  /**
   * The external inventory of one game with each row's token clock. A stored read whose tokens are
   * still good (with the safety margin) is served without a request, since the route allows only 5
   * reads a minute; an expired one is refreshed. Pass `maxAgeMs: 0` to force a refresh.
   */
  async inventory(appId: AppId, options: ReadOptions = {}): Promise<InventoryRead> {
    const maxAgeMs = options.maxAgeMs ?? LIMITS.inventoryTokenLifetimeMs - TOKEN_SAFETY_MARGIN_MS;
    const read = await this.read('steamInventory', { app_id: String(appId) }, { ...options, maxAgeMs });
    return this.#inventoryRead(appId, read);
  }

  /** The stored inventory of one game, if any, without touching the network. */
  cachedInventory(appId: AppId): InventoryRead | null {
    const read = this.cached('steamInventory', { app_id: String(appId) });
    return read ? this.#inventoryRead(appId, read) : null;
  }

  /** Whether the tokens of an inventory read are expired (or about to be) now. */
  inventoryExpired(read: Pick<InventoryRead, 'fetchedAt'>): boolean {
    return isTokenExpired(read.fetchedAt, this.#clock.now());
  }

  #inventoryRead(appId: AppId, read: CachedRead<ResponseOf<'steamInventory'>>): InventoryRead {
    return {
      ...read,
      appId,
      data: read.data.items.map((item) => ({ item, fetchedAt: read.fetchedAt })),
      tokensExpireAt: tokenExpiresAt(read.fetchedAt),
    };
  }
}

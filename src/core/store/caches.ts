/**
 * Caches that let the app open offline: price rows, 30-day averages, and any other API answer (user
 * record, balance, my listings, orders...) as JSON by key, with the ETag it came with. They live in the
 * desk file when one is attached (desk.ts: the app's thread writes them, and must never wait for the
 * sync worker's hold on the book), else beside the book.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AverageRow, PriceRow, PriceRowWithStock } from '../../shared/api/index.ts';
import type { Db } from './database.ts';
import { createDeskTables } from './desk.ts';
import { otherSourceHeld } from './sync-state.ts';

/**
 * The caches' tables, made here: in the desk when one is attached, else beside the book (tests, tools
 * with no desk). Book files of earlier versions made them in their first migration; attaching the desk
 * moves them over (desk.ts).
 */
const CACHE_SCHEMA = `
CREATE TABLE IF NOT EXISTS prices (
  app_id INTEGER NOT NULL,
  market_hash_name TEXT NOT NULL,
  market_price INTEGER NOT NULL,
  recommended_price INTEGER NOT NULL,
  lowest_listing_price INTEGER,
  stock INTEGER,
  listing_count INTEGER,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (app_id, market_hash_name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sale_averages (
  app_id INTEGER NOT NULL,
  market_hash_name TEXT NOT NULL,
  average_price INTEGER NOT NULL,
  sales INTEGER NOT NULL,
  volume INTEGER NOT NULL,
  PRIMARY KEY (app_id, market_hash_name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cache_entries (
  key TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  etag TEXT,
  fetched_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS cache_market (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  source TEXT NOT NULL
);
`;

/** Connections whose cache tables are known to exist (Caches is made per call; the check is not free). */
const ready = new WeakSet<Db>();

/** The market (source, as the book records it) each session's connection claimed the caches for. */
const claims = new WeakMap<Db, string>();

/** The market the caches hold the answers of, as last claimed (none recorded: undefined). */
function cacheMarket(db: Db): string | undefined {
  return db.prepare<[], string>('SELECT source FROM cache_market WHERE id = 1').pluck().get();
}

/**
 * Makes the caches `source`'s (a market's REST base URL, or the demo's name: as the book records it).
 * They are one market's answers, kept so that it opens offline; another market's prices, averages and
 * answers (its user record and balance, an item's sales) would be shown as this one's until read again,
 * and forever offline. So the caches of another source are forgotten: the one recorded, or for a desk
 * from before it was, `bookSource` (what the book beside it mirrors), or none known (forgotten too:
 * they are only caches). From then on this connection writes them only while they are still its
 * market's: a session of the previous market, closing on a connection of its own, may still be writing
 * an answer it was waiting for.
 */
export function claimCaches(db: Db, source: string, bookSource: string | null): void {
  new Caches(db);
  const held = cacheMarket(db) ?? bookSource;
  db.transaction(() => {
    if (held === null || otherSourceHeld({ source: held }, source) !== null) {
      for (const table of ['prices', 'sale_averages', 'cache_entries']) db.prepare(`DELETE FROM ${table}`).run();
    }
    db.prepare('INSERT OR REPLACE INTO cache_market (id, source) VALUES (1, ?)').run(source);
  })();
  claims.set(db, source);
}

/** Whether `db` may write the caches: it claimed none (tools, tests), or they are still its market's. */
function holdsClaim(db: Db): boolean {
  const claimed = claims.get(db);
  if (claimed === undefined) return true;
  const held = cacheMarket(db);
  return held !== undefined && otherSourceHeld({ source: held }, claimed) === null;
}

/** A table of one row per item, keyed by (app_id, market_hash_name): its columns, the key first. */
interface ItemSetTable {
  name: string;
  columns: readonly string[];
}
const PRICE_SET: ItemSetTable = {
  name: 'prices',
  columns: ['app_id', 'market_hash_name', 'market_price', 'recommended_price', 'lowest_listing_price', 'stock', 'listing_count', 'updated_at'],
};
const AVERAGE_SET: ItemSetTable = {
  name: 'sale_averages',
  columns: ['app_id', 'market_hash_name', 'average_price', 'sales', 'volume'],
};

/** Rows written per transaction when a whole set is replaced: ~2,000 rows hold the event loop ~8 ms. */
const SLICE_ROWS = 2_000;
const replacing = new WeakMap<Db, Promise<void>>();

/**
 * Writes a whole item set (prices/all: ~26,000 rows) over the cached one in slices, each its own short
 * transaction, with a turn of the event loop between them: in one transaction the app's thread was held
 * 70–100 ms (every few minutes, for the watchlists' references and the item view). New rows are upserted
 * first, then the rows the new set no longer has are deleted, so a reader in between sees every item,
 * some at the newer price (it is a cache: each row is a price the server gave). A connection closed
 * meanwhile (the session ended) ends the write: there is nothing left to write into; so do caches another
 * market's session claimed meanwhile (claimCaches).
 */
async function replaceInSlices(db: Db, set: ItemSetTable, values: unknown[][], appId: number | undefined): Promise<void> {
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO ${set.name} (${set.columns.join(', ')}) VALUES (${set.columns.map(() => '?').join(', ')})`,
  );
  const remove = db.prepare(`DELETE FROM ${set.name} WHERE app_id = ? AND market_hash_name = ?`);
  // deferred transactions (never BEGIN IMMEDIATE, which takes the write lock of every attached file, the
  // book's too): the first statement locks only the file it writes
  const upsertSlice = db.transaction((slice: unknown[][]) => {
    for (const row of slice) upsert.run(row);
  });
  const removeSlice = db.transaction((slice: unknown[][]) => {
    for (const key of slice) remove.run(key);
  });
  for (let i = 0; i < values.length; i += SLICE_ROWS) {
    if (!db.open || !holdsClaim(db)) return;
    upsertSlice(values.slice(i, i + SLICE_ROWS));
    await nextTurn();
  }
  // then the held rows the new set lacks, a keyset page at a time
  const fresh = new Map<unknown, Set<unknown>>();
  for (const [app, name] of values) {
    const names = fresh.get(app) ?? new Set<unknown>();
    names.add(name);
    fresh.set(app, names);
  }
  const page = db
    .prepare(
      `SELECT app_id, market_hash_name FROM ${set.name} WHERE (app_id, market_hash_name) > (?, ?)
       ${appId === undefined ? '' : 'AND app_id = ?'} ORDER BY app_id, market_hash_name LIMIT ${SLICE_ROWS}`,
    )
    .raw();
  let after: unknown[] = [-1, ''];
  for (;;) {
    if (!db.open || !holdsClaim(db)) return;
    const held = page.all(...after, ...(appId === undefined ? [] : [appId])) as unknown[][];
    if (held.length === 0) return;
    after = held[held.length - 1]!;
    removeSlice(held.filter(([app, name]) => !fresh.get(app)?.has(name)));
    await nextTurn();
  }
}

export interface CacheEntry<T> {
  value: T;
  etag: string | null;
  fetchedAt: number;
}

export class Caches {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
    if (!ready.has(db) && !db.readonly) {
      createDeskTables(db, CACHE_SCHEMA);
      ready.add(db);
    }
  }

  /**
   * Replaces the cached price rows (of one game, or of every game when appId is undefined). Resolves once
   * the whole set is written; see replaceInSlices for why in slices.
   */
  replacePrices(rows: readonly (PriceRow | PriceRowWithStock)[], appId?: number): Promise<void> {
    const values = rows.map((r) => {
      const withStock = r as Partial<PriceRowWithStock>;
      return [
        r.app_id,
        r.market_hash_name,
        r.market_price,
        r.recommended_price,
        r.lowest_listing_price,
        withStock.stock ?? null,
        withStock.listing_count ?? null,
        r.updated_at,
      ];
    });
    return this.#replaceSet(PRICE_SET, values, appId);
  }

  prices(appId?: number): PriceRowWithStock[] {
    const sql = `SELECT app_id, market_hash_name, market_price, recommended_price, lowest_listing_price, stock,
      listing_count, updated_at FROM prices ${appId === undefined ? '' : 'WHERE app_id = ?'} ORDER BY market_hash_name`;
    const stmt = this.#db.prepare(sql);
    return (appId === undefined ? stmt.all() : stmt.all(appId)) as PriceRowWithStock[];
  }

  replaceAverages(rows: readonly AverageRow[], appId?: number): Promise<void> {
    const values = rows.map((r) => [r.app_id, r.market_hash_name, r.average_price, r.sales, r.volume]);
    return this.#replaceSet(AVERAGE_SET, values, appId);
  }

  averages(appId?: number): AverageRow[] {
    const sql = `SELECT app_id, market_hash_name, average_price, sales, volume FROM sale_averages
      ${appId === undefined ? '' : 'WHERE app_id = ?'} ORDER BY market_hash_name`;
    const stmt = this.#db.prepare(sql);
    return (appId === undefined ? stmt.all() : stmt.all(appId)) as AverageRow[];
  }

  /** One replacement at a time per connection: two interleaved would delete each other's fresh rows. */
  #replaceSet(set: ItemSetTable, values: unknown[][], appId: number | undefined): Promise<void> {
    const db = this.#db;
    const run = (replacing.get(db) ?? Promise.resolve()).then(() => replaceInSlices(db, set, values, appId));
    // the next replacement waits for this one, failed or not; this one's caller gets its error
    replacing.set(
      db,
      run.catch(() => {}),
    );
    return run;
  }

  /** Stores one answer; not when the caches became another market's (claimCaches). */
  put(key: string, value: unknown, etag: string | null = null, fetchedAt = Date.now()): void {
    if (!holdsClaim(this.#db)) return;
    this.#db
      .prepare('INSERT OR REPLACE INTO cache_entries (key, body, etag, fetched_at) VALUES (?, ?, ?, ?)')
      .run(key, JSON.stringify(value), etag, fetchedAt);
  }

  get<T>(key: string): CacheEntry<T> | null {
    const row = this.#db.prepare('SELECT body, etag, fetched_at FROM cache_entries WHERE key = ?').get(key) as
      | { body: string; etag: string | null; fetched_at: number }
      | undefined;
    if (!row) return null;
    return { value: JSON.parse(row.body) as T, etag: row.etag, fetchedAt: row.fetched_at };
  }

  delete(key: string): void {
    this.#db.prepare('DELETE FROM cache_entries WHERE key = ?').run(key);
  }
}

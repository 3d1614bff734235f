/**
 * Caches that let the app open offline: price rows, 30-day averages, and any other API answer (user
 * record, balance, my listings, orders...) as JSON by key, with the ETag it came with. They live in the
 * desk file when one is attached (desk.ts: the app's thread writes them, and must never wait for the
 * sync worker's hold on the book), else beside the book.
 */
import type { AverageRow, PriceRow, PriceRowWithStock } from '../../shared/api/index.ts';
import type { Db } from './database.ts';
import { createDeskTables } from './desk.ts';

/** The same tables as the book's first migration creates (which a connection without a desk uses). */
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
`;

/** Connections whose cache tables are known to exist (Caches is made per call; the check is not free). */
const ready = new WeakSet<Db>();

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
   * Replaces the cached price rows (of one game, or of every game when appId is undefined). A deferred
   * transaction, never BEGIN IMMEDIATE: that takes the write lock of every attached file, the book's too,
   * and would wait for the sync worker; this one locks only the file it writes (its first statement).
   */
  replacePrices(rows: readonly (PriceRow | PriceRowWithStock)[], appId?: number): void {
    const del =
      appId === undefined
        ? this.#db.prepare('DELETE FROM prices')
        : this.#db.prepare('DELETE FROM prices WHERE app_id = ?');
    const ins = this.#db.prepare(
      `INSERT OR REPLACE INTO prices (app_id, market_hash_name, market_price, recommended_price, lowest_listing_price,
         stock, listing_count, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#db
      .transaction(() => {
        if (appId === undefined) del.run();
        else del.run(appId);
        for (const r of rows) {
          const withStock = r as Partial<PriceRowWithStock>;
          ins.run(
            r.app_id,
            r.market_hash_name,
            r.market_price,
            r.recommended_price,
            r.lowest_listing_price,
            withStock.stock ?? null,
            withStock.listing_count ?? null,
            r.updated_at,
          );
        }
      })();
  }

  prices(appId?: number): PriceRowWithStock[] {
    const sql = `SELECT app_id, market_hash_name, market_price, recommended_price, lowest_listing_price, stock,
      listing_count, updated_at FROM prices ${appId === undefined ? '' : 'WHERE app_id = ?'} ORDER BY market_hash_name`;
    const stmt = this.#db.prepare(sql);
    return (appId === undefined ? stmt.all() : stmt.all(appId)) as PriceRowWithStock[];
  }

  replaceAverages(rows: readonly AverageRow[], appId?: number): void {
    const ins = this.#db.prepare(
      'INSERT OR REPLACE INTO sale_averages (app_id, market_hash_name, average_price, sales, volume) VALUES (?, ?, ?, ?, ?)',
    );
    this.#db
      .transaction(() => {
        if (appId === undefined) this.#db.prepare('DELETE FROM sale_averages').run();
        else this.#db.prepare('DELETE FROM sale_averages WHERE app_id = ?').run(appId);
        for (const r of rows) ins.run(r.app_id, r.market_hash_name, r.average_price, r.sales, r.volume);
      })();
  }

  averages(appId?: number): AverageRow[] {
    const sql = `SELECT app_id, market_hash_name, average_price, sales, volume FROM sale_averages
      ${appId === undefined ? '' : 'WHERE app_id = ?'} ORDER BY market_hash_name`;
    const stmt = this.#db.prepare(sql);
    return (appId === undefined ? stmt.all() : stmt.all(appId)) as AverageRow[];
  }

  put(key: string, value: unknown, etag: string | null = null, fetchedAt = Date.now()): void {
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

/**
 * The desk file: everything the app's thread writes lives there, so that a write never waits for the
 * sync worker's hold on the book file; and a book file of an earlier version gives its tables up to it.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PortfolioHistory } from '../../../src/core/account/portfolio.ts';
import { Caches, openDatabase, type Db } from '../../../src/core/store/index.ts';
import { DESK_SCHEMA, TABLES_MOVED_TO_DESK, attachDesk } from '../../../src/core/store/desk.ts';
import { TradeTracker } from '../../../src/core/trades/tracker.ts';
import { T0, makeTrade } from '../trades/fixtures.ts';
import { CACHED_PRICE, tempDir } from './helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function bookFile(): string {
  const t = tempDir('skindesk-desk-');
  cleanups.push(t.remove);
  return join(t.dir, 'skindesk.db');
}

function open(file: string, withDesk: boolean): Db {
  const db = openDatabase(file);
  if (withDesk) attachDesk(db, file);
  cleanups.push(() => db.open && db.close());
  return db;
}

const tablesIn = (db: Db, schema: string): string[] =>
  db
    .prepare<[], string>(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' ORDER BY name`)
    .pluck()
    .all();
const indexesIn = (db: Db, schema: string, table: string): string[] =>
  db
    .prepare<[string], string>(
      `SELECT name FROM ${schema}.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`,
    )
    .pluck()
    .all(table);

const price = CACHED_PRICE;

describe('the desk file', () => {
  it("takes the account's tables and the caches a book file of an earlier version holds, rows and indexes included", async () => {
    const file = bookFile();
    // an earlier version: no desk, so every table is made in the book file
    const old = open(file, false);
    await new Caches(old).replacePrices([price]);
    new Caches(old).put('user', { id: 7 }, '"e1"', 42);
    new TradeTracker({ db: old, clock: { now: () => T0 } }).apply(makeTrade(1, 'Active', T0), 'webhook');
    new PortfolioHistory({ db: old }).record({ at: T0, balance: 100, listedValue: 20, inventoryValue: 30 });
    expect(tablesIn(old, 'main')).toEqual(
      expect.arrayContaining(['prices', 'cache_entries', 'trades', 'portfolio_points']),
    );
    old.close();

    const db = open(file, true);
    expect(db.pragma(`${DESK_SCHEMA}.journal_size_limit`, { simple: true })).toBe(16 * 1024 * 1024);
    for (const table of TABLES_MOVED_TO_DESK) expect(tablesIn(db, 'main')).not.toContain(table);
    expect(tablesIn(db, DESK_SCHEMA)).toEqual(
      expect.arrayContaining(['prices', 'cache_entries', 'trades', 'trade_timeline', 'portfolio_points']),
    );
    expect(indexesIn(db, DESK_SCHEMA, 'trades').sort()).toEqual([
      'trades_created',
      'trades_deposit',
      'trades_status',
      'trades_withdraw',
    ]);
    const caches = new Caches(db);
    expect(caches.prices()).toEqual([{ ...price, stock: null, listing_count: null }]);
    expect(caches.get('user')).toEqual({ value: { id: 7 }, etag: '"e1"', fetchedAt: 42 });
    const tracker = new TradeTracker({ db, clock: { now: () => T0 } });
    expect(tracker.get(1)?.status).toBe('Active');
    expect(tracker.timeline(1)).toHaveLength(1);
    expect(new PortfolioHistory({ db }).latest()).toMatchObject({ balance: 100 });
  });

  it('finishes a move a crash cut short: rows already in the desk are kept, the rest join them', () => {
    const file = bookFile();
    const old = open(file, false);
    new Caches(old).put('a', 1);
    new Caches(old).put('b', 2);
    old.close();
    // the crash: the desk committed its copy of `a` (and a newer `c`), the book's table was not dropped yet
    const desk = open(file.replace(/\.db$/, '.desk.db'), false);
    new Caches(desk).put('a', 1);
    new Caches(desk).put('c', 3);
    desk.close();

    const db = open(file, true);
    expect(tablesIn(db, 'main')).not.toContain('cache_entries');
    const caches = new Caches(db);
    expect(['a', 'b', 'c'].map((k) => caches.get<number>(k)?.value)).toEqual([1, 2, 3]);
  });

  it("lets the app's thread write caches and account records while the sync worker holds the book's write lock", async () => {
    const file = bookFile();
    const app = open(file, true);
    const caches = new Caches(app);
    const tracker = new TradeTracker({ db: app, clock: { now: () => T0 } });
    const portfolio = new PortfolioHistory({ db: app });
    // a waiting write would fail at once instead of blocking for the busy timeout
    app.pragma('busy_timeout = 0');
    const worker = open(file, false);
    worker.prepare('BEGIN IMMEDIATE').run();
    worker.prepare('UPDATE sync_state SET resyncs = resyncs + 1').run();

    await caches.replacePrices([price]);
    await caches.replaceAverages([
      { app_id: 730, market_hash_name: price.market_hash_name, average_price: 1100, sales: 9, volume: 12 },
    ]);
    caches.put('balance', { cents: 5 });
    expect(tracker.apply(makeTrade(2, 'Active', T0), 'webhook')).toBe('applied');
    expect(portfolio.record({ at: T0, balance: 1, listedValue: 2, inventoryValue: 3 })).toBe(true);
    // the same write into the book file is refused while the worker holds it: the test is not vacuous
    expect(() => app.prepare('UPDATE sync_state SET resyncs = 0').run()).toThrow(/locked|busy/i);

    worker.prepare('COMMIT').run();
    expect(caches.prices()).toHaveLength(1);
    expect(caches.averages()).toHaveLength(1);
    expect(tracker.get(2)?.status).toBe('Active');
  });
});

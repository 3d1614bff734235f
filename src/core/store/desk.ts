/**
 * The desk: everything the app's own thread writes — the trader's records (watchlists, their alerts and
 * match memory, the auto-buy log, the purchase journal), the account's data (trades, deliveries,
 * portfolio points, withdrawals, undercut guards, P&L) and the API caches the app opens offline from
 * (prices, 30-day averages, other answers by key) — in a small database file of its own, beside the
 * book's, ATTACHed to the host's connection as schema `desk`: one connection, one database to its
 * readers, two files to SQLite's locks.
 *
 * Why a second file: the book has one writer, the sync worker, whose transactions hold the book's
 * write lock most of the time on a busy feed (a snapshot merge for seconds). SQLite locks per file, so
 * a write of the app's thread (the journal line between a feed frame and its purchase request, a trade
 * from a webhook, a price cache refreshed by the item view) never waits for the book — it would block
 * the event loop for up to the busy timeout — and a busy book never makes one fail with SQLITE_BUSY.
 * Queries still join both.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import { closeOnThrow, type Db } from './database.ts';
import { makeFolderFor } from './folder.ts';

export const DESK_SCHEMA = 'desk';

/** `skindesk.db` → `skindesk.desk.db`, in the same folder; an in-memory book gets an in-memory desk. */
export function deskFileFor(bookFile: string): string {
  if (bookFile === ':memory:' || bookFile === '') return ':memory:';
  const name = basename(bookFile);
  const stem = name.endsWith('.db') ? name.slice(0, -3) : name;
  return join(dirname(bookFile), `${stem}.desk.db`);
}

/**
 * The desk file beside `bookFile` on a connection of its own, created when missing: for a process or a
 * thread that has no host connection to attach it to (`skindesk buy`'s journal, the sync worker's rate
 * ledger). WAL, as the host attaches it, so neither holds the other's readers.
 */
export function openDeskFile(bookFile: string): Db {
  const file = deskFileFor(bookFile);
  if (file !== ':memory:') makeFolderFor(file, 'the desk file');
  const db = new Database(file);
  closeOnThrow(db, () => {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
  });
  return db;
}

/**
 * Attaches the desk file beside `bookFile` (created on first use); a no-op when already attached. A
 * read-only connection attaches it read-only, and only when it exists (nothing to read otherwise).
 */
export function attachDesk(db: Db, bookFile: string): void {
  if (hasDesk(db)) return;
  const file = deskFileFor(bookFile);
  if (db.readonly && (file === ':memory:' || !existsSync(file))) return;
  db.prepare(`ATTACH DATABASE ? AS ${DESK_SCHEMA}`).run(file);
  if (db.readonly) return;
  db.pragma(`${DESK_SCHEMA}.journal_mode = WAL`);
  db.pragma(`${DESK_SCHEMA}.synchronous = NORMAL`);
  // as the book's (database.ts): after a checkpoint the WAL is cut back instead of keeping its peak size
  db.pragma(`${DESK_SCHEMA}.journal_size_limit = 16777216`);
  for (const table of TABLES_MOVED_TO_DESK) moveTableToDesk(db, table);
}

/**
 * Tables that hold one marketplace account's state. A real account keeps them; a demo session starts
 * with them emptied (a demo market is a new market on every start: same ids, different history).
 */
export const ACCOUNT_TABLES = [
  'account_identity',
  'account_cache',
  'trades',
  'trade_timeline',
  'webhook_deliveries',
  'crypto_withdrawals',
  'crypto_withdrawal_statuses',
  'portfolio_points',
  'trading_pnl',
  'undercut_guards',
  'inventory_offer_marks',
] as const;

/**
 * Tables earlier versions kept in the book file, which attaching the desk moves: the API caches and the
 * account's tables.
 */
export const TABLES_MOVED_TO_DESK = ['prices', 'sale_averages', 'cache_entries', ...ACCOUNT_TABLES] as const;

/**
 * Moves one table (its definition, its indexes, its rows) from the book file into the desk. Safe to
 * repeat after a crash halfway: the two files commit separately, so rows already copied are kept
 * (INSERT OR IGNORE) and the book's copy is dropped only after the desk's has committed.
 */
function moveTableToDesk(db: Db, table: string): void {
  const objects = db
    .prepare<[string], { type: string; sql: string }>(
      "SELECT type, sql FROM main.sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'index'",
    )
    .all(table);
  if (objects.length === 0) return;
  db.transaction(() => {
    for (const { sql } of objects) {
      db.exec(sql.replace(/^CREATE (TABLE|INDEX|UNIQUE INDEX) (IF NOT EXISTS )?/i, `CREATE $1 IF NOT EXISTS ${DESK_SCHEMA}.`));
    }
    const deskColumns = new Set(columnsOf(db, DESK_SCHEMA, table));
    const shared = columnsOf(db, 'main', table)
      .filter((c) => deskColumns.has(c))
      .map((c) => `"${c}"`)
      .join(', ');
    db.exec(`INSERT OR IGNORE INTO ${DESK_SCHEMA}."${table}" (${shared}) SELECT ${shared} FROM main."${table}"`);
  })();
  db.exec(`DROP TABLE main."${table}"`);
}

function columnsOf(db: Db, schema: string, table: string): string[] {
  return db.prepare<[string, string], string>('SELECT name FROM pragma_table_info(?, ?)').pluck().all(table, schema);
}

export function hasDesk(db: Db): boolean {
  return (db.pragma('database_list') as { name: string }[]).some((d) => d.name === DESK_SCHEMA);
}

/**
 * Runs a schema script of `CREATE TABLE/INDEX IF NOT EXISTS` statements in the desk when one is attached,
 * else in the main database (tests, and tools that keep everything in one file). Unqualified names in
 * later statements find the tables either way (SQLite looks in main, then in attached schemas).
 */
export function createDeskTables(db: Db, schemaSql: string): void {
  const sql = hasDesk(db)
    ? schemaSql.replace(/CREATE (TABLE|INDEX|UNIQUE INDEX) IF NOT EXISTS /g, `CREATE $1 IF NOT EXISTS ${DESK_SCHEMA}.`)
    : schemaSql;
  db.exec(sql);
}

/**
 * A statement that writes nothing yet begins a write on the file holding `table` (a desk table): run first
 * in a deferred transaction, it takes the desk's write lock, so what the transaction reads next no other
 * process changes before it writes — and nothing of the book's. Not BEGIN IMMEDIATE: that takes the write
 * lock of every attached file, so it waited for the sync worker's batch (seconds behind a snapshot merge).
 */
export function deskWriteLock(db: Db, table: string): Statement<[]> {
  return db.prepare(`DELETE FROM ${table} WHERE 0`);
}

/**
 * Adds a column a later version gave a desk table (`ALTER TABLE … ADD COLUMN`, which CREATE … IF NOT
 * EXISTS cannot do for a file made before it); a no-op when the table has it.
 */
export function addDeskColumn(db: Db, table: string, column: string, definition: string): void {
  const columns = db.prepare<[string], string>('SELECT name FROM pragma_table_info(?)').pluck().all(table);
  if (!columns.includes(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
}

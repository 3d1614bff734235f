/**
 * The desk: the trader's own records (watchlists, their alerts and match memory, the auto-buy log, the
 * purchase journal) in a small database file of their own, beside the book's, ATTACHed to the host's
 * connection as schema `desk`.
 *
 * Why a second file: the book has one writer, the sync worker, whose transactions hold the book's
 * write lock most of the time on a busy feed (a snapshot merge for seconds). SQLite locks per file, so
 * the journal line written between a feed frame and its purchase request never waits for the book, and
 * a busy book never makes a purchase fail with SQLITE_BUSY. Queries still join both (one connection).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Db } from './database.ts';

export const DESK_SCHEMA = 'desk';

/** `skindesk.db` → `skindesk.desk.db`, in the same folder; an in-memory book gets an in-memory desk. */
export function deskFileFor(bookFile: string): string {
  if (bookFile === ':memory:' || bookFile === '') return ':memory:';
  const name = basename(bookFile);
  const stem = name.endsWith('.db') ? name.slice(0, -3) : name;
  return join(dirname(bookFile), `${stem}.desk.db`);
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

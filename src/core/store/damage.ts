/**
 * Database files SQLite cannot read. WAL with synchronous=NORMAL survives crashes and power cuts, but
 * not a disk that lies about flushing, a copy cut short or a file overwritten by something else: then
 * SQLite answers SQLITE_NOTADB (the header is not SQLite's) or SQLITE_CORRUPT (a page is inconsistent),
 * at open or only when a query reaches the bad page.
 *
 * The book is a copy of the market and can be read again; the desk holds the trader's own records (the
 * purchase journal that stops a purchase being sent twice, watchlists, account data) and is never
 * replaced without the trader's say.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { deskFileFor } from './desk.ts';

export function isDamagedDatabaseError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

/**
 * Whether SQLite reads every page of the file without finding damage (`PRAGMA quick_check`): seconds
 * for a big book, so only for a file already suspected.
 */
export function passesQuickCheck(file: string): boolean {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return db.pragma('quick_check(1)', { simple: true }) === 'ok';
  } catch (err) {
    if (isDamagedDatabaseError(err)) return false;
    throw err;
  } finally {
    db?.close();
  }
}

/**
 * Which of a book and its desk SQLite cannot read, after a damage error on a connection that holds both
 * (the desk is attached to the book's): the book first, then the desk; null when neither shows it.
 */
export function damagedFileOf(bookFile: string): { which: 'book' | 'desk'; file: string } | null {
  if (existsSync(bookFile) && !passesQuickCheck(bookFile)) return { which: 'book', file: bookFile };
  const desk = deskFileFor(bookFile);
  if (existsSync(desk) && !passesQuickCheck(desk)) return { which: 'desk', file: desk };
  return null;
}

/**
 * Renames the file, with its WAL and shared-memory files, to `<name>.damaged-<UTC time>` beside it (kept,
 * not deleted: it may still be worth a look). Returns the file's new path.
 */
export function setAsideDamagedFile(file: string, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const aside = join(dirname(file), `${basename(file)}.damaged-${stamp}`);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  }
  renameSync(file, aside);
  return aside;
}

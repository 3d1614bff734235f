/**
 * Opens the Skindesk database: one SQLite file shared by the app and the CLI. WAL so readers (the UI,
 * `skindesk book`) never wait for the writer and never see a half-committed batch; synchronous=NORMAL
 * because WAL keeps the file consistent after a crash (a power cut may lose the last commits, which the
 * next sync re-reads, but never corrupts the book).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { makeFolderFor } from './folder.ts';
import { type MigrateOptions, NotABookError, migrate, refuseForeignDatabase } from './migrations.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** Open without the right to write (readers in another process, `skindesk book`). */
  readonly?: boolean;
  /**
   * WAL pages between automatic checkpoints (default 4 000, ~16 MB). The sync worker raises it: each
   * checkpoint copies pages back and syncs the file, and a busy feed otherwise checkpoints every commit.
   */
  checkpointPages?: number;
  /** SQLite's page cache for this connection, in MB (default 32: see applyReadPragmas). */
  cacheMb?: number;
  /** A writer's upgrade: all of it (default), or only what readers need (MigrateOptions.upTo). */
  upgrade?: MigrateOptions['upTo'];
  /** Told before an upgrade step that takes a while (MigrateOptions.onLengthyStep). */
  onLengthyStep?: MigrateOptions['onLengthyStep'];
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (options.readonly) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
    db.pragma('busy_timeout = 5000');
    closeOnThrow(db, () => refuseForeignDatabase(db, file));
    applyReadPragmas(db, options.cacheMb);
    migrate(db, { readonly: true });
    return db;
  }
  if (file !== ':memory:') makeFolderFor(file, 'the book');
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  // before WAL and the schema: both would change another program's file for good
  closeOnThrow(db, () => refuseForeignDatabase(db, file));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  // Checkpoint in bigger steps than the default 1000 pages: a 1M-row snapshot otherwise pays for
  // hundreds of small checkpoints inside the write path.
  db.pragma(`wal_autocheckpoint = ${Math.max(100, Math.floor(options.checkpointPages ?? 4000))}`);
  // After a checkpoint the WAL file is cut back to this size instead of keeping its peak size on disk.
  db.pragma('journal_size_limit = 67108864');
  applyReadPragmas(db, options.cacheMb);
  migrate(db, { readonly: false, upTo: options.upgrade ?? 'all', onLengthyStep: options.onLengthyStep });
  return db;
}

/** A connection whose setup fails is not left open: the caller never gets it to close. */
export function closeOnThrow(db: Db, check: () => void): void {
  try {
    check();
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * For a process that uses only the desk beside a book (`skindesk buy`): refuses a book path naming
 * another program's database before a desk file is made beside it. A missing book is fine (the desk
 * needs none), and one SQLite cannot read is left to the commands that read the book to report.
 */
export function refuseForeignBookFile(file: string): void {
  if (file === ':memory:' || !existsSync(file)) return;
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    refuseForeignDatabase(db, file);
  } catch (err) {
    if (err instanceof NotABookError) throw err;
  } finally {
    db?.close();
  }
}

/**
 * How much of the book file is read through a memory map: SQLite's compiled maximum (just under 2 GB),
 * the whole file up to several million listings. With 256 MB (until session 33) a 1M-listing book (~0.9
 * GB) was three quarters outside the map, the indexes a migration rebuilds at its end among them: every
 * page of them a read() into the page cache. The 600 random combinations at 1M: p95 23.5 ms against
 * 26-30, median 1.4 against 1.6-2.0; events the same. Mapped pages are the OS's file cache, shared and
 * dropped under pressure: Windows' private working set and macOS's memory footprint leave them out;
 * Linux counts them in RSS as RssFile (the bench reports both).
 */
const MAP_BYTES = 0x7fff0000;

function applyReadPragmas(db: Db, cacheMb = 32): void {
  // The page cache holds what the file's memory map cannot serve: pages newer in the WAL than in the
  // file, and a writer's dirty pages (BookStore raises it for the length of a big event batch). 32 MB,
  // not 64: in the app the cache mostly fills with WAL pages after each resync, memory a long soak saw
  // grow in steps and never come back. Not 16 either: at 1M listings (a 767 MB file) the float-sorted
  // "AK FN not StatTrak" filter took 34–36 ms with 16 MB against 21–26 ms with 32 or 64, its working set
  // lying beyond the map as it then was (256 MB); every other filter ran the same.
  db.pragma(`cache_size = -${Math.max(1, Math.floor(cacheMb)) * 1024}`);
  // in-memory temp b-trees (sorts of filtered result sets)
  db.pragma('temp_store = MEMORY');
  db.pragma(`mmap_size = ${MAP_BYTES}`);
}

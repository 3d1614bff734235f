/**
 * Opening a session's database: the book file with the desk attached (store/desk.ts), and a first read
 * of its status. A damaged book does not stop the app: it is set aside and a new one is read from the
 * market, as on a first start. A damaged desk does stop it, with the file named: it holds the purchase
 * journal, the watchlists and the account's records, which no market can give back.
 */
import { existsSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import { damagedFileOf, isDamagedDatabaseError, setAsideDamagedFile } from '../store/damage.ts';
import { attachDesk, deskFileFor } from '../store/desk.ts';
import {
  openDatabase,
  readStatus,
  readSyncState,
  type Db,
  type MirrorStatus,
  type SyncState,
} from '../store/index.ts';
import { otherSourceHeld } from '../store/sync-state.ts';

export interface SessionMirror {
  db: Db;
  status: MirrorStatus;
  state: SyncState;
  /** What the user must hear about: the damaged book set aside (null when the file opened as it was). */
  notice: string | null;
}

function open(file: string): Omit<SessionMirror, 'notice'> {
  // The upgrades only the writer needs (seconds on a large book) are the sync worker's: run here, they
  // held the app's start with no window to say why.
  const db = openDatabase(file, { upgrade: 'readable' });
  try {
    attachDesk(db, file);
    return { db, status: readStatus(db), state: readSyncState(db) };
  } catch (err) {
    db.close();
    throw err;
  }
}

export function openSessionMirror(file: string): SessionMirror {
  try {
    return { ...open(file), notice: null };
  } catch (err) {
    if (!isDamagedDatabaseError(err)) throw err;
    const reason = (err as Error).message;
    const damaged = damagedFileOf(file);
    if (damaged?.which === 'book') {
      // set aside first: the new book is opened where it was
      const notice = setAsideDamagedBook(file, reason);
      return { ...open(file), notice };
    }
    if (damaged?.which === 'desk') throw new Error(damagedDeskMessage(damaged.file, reason), { cause: err });
    throw err;
  }
}

/**
 * The market a book file mirrors when it is not `source` (null: the same one, none recorded, no file).
 * Read before a session opens the file: opened, another market's rows would be shown as this one's until
 * the sync worker empties them, which it does only once this market answers (and never while it is
 * down). A file this cannot read (damaged, or too old to say) is for the usual open to judge and report.
 */
export function otherMarketOfBook(file: string, source: string): string | null {
  if (!existsSync(file)) return null;
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const held = db.prepare('SELECT source FROM sync_state WHERE id = 1').pluck().get() as string | null | undefined;
    return otherSourceHeld({ source: held ?? null }, source);
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

/**
 * Deletes a book file of another market (nothing may hold it open). It is that market's copy, read
 * again from it when it is chosen again: the sync worker would empty it at connecting anyway. The desk
 * (watchlists, journal, account data) is a file of its own and stays.
 */
export function removeOtherMarketsBook(file: string, formerMarket: string): string {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return `The book file held the book of ${formerMarket}; it was emptied, and this market's book is read afresh.`;
}

/** Renames a damaged book aside (nothing may hold it open) and says so in words for the user. */
export function setAsideDamagedBook(file: string, reason: string): string {
  const aside = setAsideDamagedFile(file);
  return (
    `The book file was damaged (${reason}). It was set aside as ${basename(aside)}, and the book is ` +
    `being read again from the market. Watchlists, purchases and account data are in ` +
    `${basename(deskFileFor(file))} and were kept.`
  );
}

export function damagedDeskMessage(desk: string, reason: string): string {
  return (
    `The desk file ${desk} is damaged (${reason}). It holds the purchase journal, the watchlists and the ` +
    'account data, so Skindesk does not replace it on its own: move it away to start with an empty ' +
    'one (or put back a copy), then start Skindesk again.'
  );
}

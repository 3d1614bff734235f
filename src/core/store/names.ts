/**
 * Interned names. A million listings share some tens of thousands of market hash names, so listings
 * carry a small integer and a name filter searches the short names table (case-insensitively, through
 * `name_lc`) instead of a million strings.
 */
import Database from 'better-sqlite3';
import type { Db } from './database.ts';
import { exactNameOf } from '../../shared/query.ts';

let foldProbe: { add: Database.Statement; term: Database.Statement; clear: Database.Statement } | null = null;
const foldedChars = new Map<string, string>();

/** How SQLite's FTS5 folds one character (`case_sensitive 0`), asked of an FTS5 table once per character. */
function foldOf(ch: string): string {
  if (foldProbe === null) {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE probe USING fts5(text, tokenize='trigram case_sensitive 0');
      CREATE VIRTUAL TABLE probe_terms USING fts5vocab(probe, 'row');`);
    foldProbe = {
      add: db.prepare('INSERT INTO probe (text) VALUES (?)'),
      term: db.prepare('SELECT term FROM probe_terms').pluck(),
      clear: db.prepare('DELETE FROM probe'),
    };
  }
  foldProbe.add.run(ch.repeat(3));
  const term = foldProbe.term.get() as string | undefined;
  foldProbe.clear.run();
  return term === undefined ? ch : String.fromCodePoint(term.codePointAt(0) as number);
}

/**
 * A name or needle case-folded exactly as the trigram index folds it (SQLite's FTS5, one character for
 * one): what `name_lc` holds and what queries look for in it, so a name matches the same way whether it
 * is indexed yet or still scanned. JavaScript's toLowerCase differs on a few characters (İ becomes two,
 * µ ſ ς stay, Cherokee letters are lowered where SQLite keeps them). ASCII, nearly every name, is lowered
 * directly; other characters are asked of SQLite once each.
 */
export function foldName(text: string): string {
  // eslint-disable-next-line no-control-regex -- ASCII is 0-127, control characters included
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) {
      out += ch.toLowerCase();
      continue;
    }
    let folded = foldedChars.get(ch);
    if (folded === undefined) foldedChars.set(ch, (folded = foldOf(ch)));
    out += folded;
  }
  return out;
}

/** Names a needle's test remembers its answer for; past this many it starts afresh (bounded memory). */
const MAX_NAMES_PER_NEEDLE = 200_000;

/**
 * Whether a name holds `needle`, judged as the query engine's `nameMatch` judges it: both folded as the
 * trigram index folds them (foldName), then a substring test (for a quoted needle, equality: exactNameOf). The answer is remembered per name, so a
 * needle tested against many rows of a few names folds each name once.
 */
export function nameTest(needle: string): (name: string) => boolean {
  const exact = exactNameOf(needle);
  const lowered = foldName(exact ?? needle);
  const seen = new Map<string, boolean>();
  return (name) => {
    const memo = seen.get(name);
    if (memo !== undefined) return memo;
    const folded = foldName(name);
    const result = exact === null ? folded.includes(lowered) : folded === lowered;
    if (seen.size >= MAX_NAMES_PER_NEEDLE) seen.clear();
    seen.set(name, result);
    return result;
  };
}

export type NameTableName = 'item_names' | 'sticker_names';

export class NameTable {
  readonly #ids = new Map<string, number>();
  readonly #insert;
  readonly #select;
  readonly #db: Db;
  readonly #table: NameTableName;

  constructor(db: Db, table: NameTableName) {
    this.#db = db;
    this.#table = table;
    this.#insert = db.prepare(`INSERT INTO ${table} (name, name_lc) VALUES (?, ?) ON CONFLICT(name) DO NOTHING`);
    this.#select = db.prepare(`SELECT name_id FROM ${table} WHERE name = ?`).pluck();
    this.reload();
  }

  /** The id of `name`, adding it when new. Call inside the write transaction that uses the id. */
  idOf(name: string): number {
    const known = this.#ids.get(name);
    if (known !== undefined) return known;
    const info = this.#insert.run(name, foldName(name));
    const id = info.changes > 0 ? Number(info.lastInsertRowid) : (this.#select.get(name) as number);
    this.#ids.set(name, id);
    return id;
  }

  /**
   * Re-reads the table. Needed after a rolled-back transaction: ids handed out inside it no longer exist.
   */
  reload(): void {
    this.#ids.clear();
    const rows = this.#db.prepare(`SELECT name, name_id FROM ${this.#table}`).raw().all() as [string, number][];
    for (const [name, id] of rows) this.#ids.set(name, id);
  }
}

/**
 * Adds up to `max` names interned since the last call to the trigram index of `table`, in the caller's
 * transaction. Returns how many remain unindexed (queries scan those directly meanwhile).
 */
export function indexNewNames(db: Db, table: NameTableName, max: number): number {
  const upto = db.prepare('SELECT indexed_upto FROM name_index_state WHERE name_table = ?').pluck().get(table) as number;
  const next = db
    .prepare(`SELECT max(name_id) FROM (SELECT name_id FROM ${table} WHERE name_id > ? ORDER BY name_id LIMIT ?)`)
    .pluck()
    .get(upto, max) as number | null;
  if (next === null) return 0;
  db.prepare(`INSERT INTO ${table}_fts (rowid, name) SELECT name_id, name FROM ${table} WHERE name_id > ? AND name_id <= ?`).run(
    upto,
    next,
  );
  db.prepare('UPDATE name_index_state SET indexed_upto = ? WHERE name_table = ?').run(next, table);
  return db.prepare(`SELECT count(*) FROM ${table} WHERE name_id > ?`).pluck().get(next) as number;
}

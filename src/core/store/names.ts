/**
 * Interned names. A million listings share some tens of thousands of market hash names, so listings
 * carry a small integer and a name filter searches the short names table (case-insensitively, through
 * `name_lc`) instead of a million strings.
 */
import type { Db } from './database.ts';

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
    const info = this.#insert.run(name, name.toLowerCase());
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

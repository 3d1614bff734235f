/** Shared set-up for the store tests: a fresh database file per test and a controllable clock. */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookStore, iterateBook, openDatabase, readStatus, type Db } from '../../../src/core/store/index.ts';
import {
  GAME_PREFIX,
  LISTING_DETAIL_FIELDS,
  parseServerFrame,
  stringifyJson,
  type AppId,
  type FullListing,
  type LeanListing,
  type ListingEvent,
} from '../../../src/shared/api/index.ts';
import { createdEvent } from '../../bench/generate.ts';

export interface TestStore {
  db: Db;
  store: BookStore;
  file: string;
  clock: { t: number; now(): number };
  close(): void;
}

export function tempDir(prefix = 'skindesk-store-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The status of a mirror file that another process may be writing (read-only, the way `skindesk status`
 * reads it); null while the file does not exist yet or cannot be read.
 */
/**
 * Damages a book that connections hold open, as a disk that lied about its writes would: everything is
 * checkpointed into the file (so no page is read from the WAL), then every page after the first (the
 * header and the start of the schema) is overwritten with text. The next page anyone reads is junk.
 */
export function damageBookFile(file: string): void {
  const db = openDatabase(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const junk = Buffer.from('this page was overwritten; '.repeat(300));
  const fd = openSync(file, 'r+');
  try {
    const size = statSync(file).size;
    for (let at = 4096; at < size; at += junk.length) writeSync(fd, junk, 0, Math.min(junk.length, size - at), at);
  } finally {
    closeSync(fd);
  }
}

export function readMirrorStatus(file: string): ReturnType<typeof readStatus> | null {
  try {
    const db = openDatabase(file, { readonly: true });
    try {
      return readStatus(db);
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

export function openTestStore(): TestStore {
  const tmp = tempDir();
  const file = join(tmp.dir, 'book.db');
  const db = openDatabase(file);
  const clock = {
    t: Date.UTC(2026, 0, 1),
    now() {
      return this.t;
    },
  };
  const store = new BookStore(db, clock);
  return {
    db,
    store,
    file,
    clock,
    close() {
      db.close();
      tmp.remove();
    },
  };
}

export function book(db: Db, appId?: number): LeanListing[] {
  return [...iterateBook(db, appId === undefined ? {} : { appId })];
}

export function lean(id: number, over: Partial<LeanListing> = {}): LeanListing {
  return {
    id,
    app_id: 730,
    market_hash_name: `Item ${id}`,
    price: 100 + id,
    amount: 1,
    commodity: false,
    created_at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** One cached price row (prices/all's shape, without stock). */
export const CACHED_PRICE = {
  app_id: 730 as const,
  market_hash_name: 'AK-47 | Redline (Field-Tested)',
  market_price: 1200,
  recommended_price: 1150,
  lowest_listing_price: null,
  updated_at: '2026-01-01T00:00:00.000Z',
};

/** The general detail fields of §2.3, which the spec does not promise in a `listing.created`. */
export const GENERAL_DETAIL_FIELDS: readonly string[] = ['steam_asset_id', 'icon_url', 'trade_locked_until'];
const DETAIL_FIELDS: readonly string[] = LISTING_DETAIL_FIELDS;

/** The `listing.created` of `listing` without the fields `left` picks, as the client takes it off the wire. */
export function creationFrameWithout(listing: FullListing, seq: bigint, left: (field: string) => boolean): ListingEvent {
  const data = Object.fromEntries(Object.entries(createdEvent(listing, seq).data).filter(([field]) => !left(field)));
  const frame = parseServerFrame(stringifyJson({ event: 'listing.created', seq, ts: '2026-11-23T06:00:00Z', data }));
  if (frame.kind !== 'listing') throw new Error(`the frame was not taken as a listing event: ${frame.kind}`);
  return frame.event;
}

/** What a market sending exactly what the spec promises sends: the lean fields and its game's fields. */
export function ownGameOnlyFrame(listing: FullListing, seq: bigint): ListingEvent {
  const own = `${GAME_PREFIX[listing.app_id as AppId]}_`;
  return creationFrameWithout(listing, seq, (field) => DETAIL_FIELDS.includes(field) && !field.startsWith(own));
}

/** A creation with the lean fields alone (the contract takes it: every detail field may be absent). */
export function leanOnlyFrame(listing: FullListing, seq: bigint): ListingEvent {
  return creationFrameWithout(listing, seq, (field) => DETAIL_FIELDS.includes(field));
}

/** Makes a current file look as version `version` left it (what the later migrations add, taken out). */
export function backToVersion(db: Db, version: number): void {
  /** The StatTrak and souvenir indexes with `columns`, as an earlier version built them. */
  const flagIndexesOf = (columns: string) => {
    for (const flag of ['cs_is_stattrak', 'cs_is_souvenir']) {
      db.exec(`DROP INDEX attrs_${flag}; CREATE INDEX attrs_${flag} ON listing_attrs(${columns}) WHERE alive = 1 AND ${flag} = 1;`);
    }
  };
  if (version < 13) {
    db.exec(`DROP INDEX listings_name; CREATE INDEX listings_name ON listings(name_id, app_id, commodity) WHERE alive = 1;
      DROP INDEX listings_price; CREATE INDEX listings_price ON listings(price, id, app_id, name_id) WHERE alive = 1;
      DROP INDEX attrs_sticker_count;
      CREATE INDEX attrs_sticker_count ON listing_attrs(sticker_count) WHERE alive = 1 AND sticker_count IS NOT NULL;`);
    flagIndexesOf('id, price, commodity, cs_paint_wear');
    db.exec('DROP INDEX attrs_cs_wear');
  }
  if (version < 12) {
    db.exec(`DROP INDEX listings_goods; DROP INDEX listings_name; CREATE INDEX listings_name ON listings(name_id) WHERE alive = 1;`);
    flagIndexesOf('id, price');
    const fields = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '%COLLATE NOCASE, commodity)%'").all() as { name: string; sql: string }[];
    for (const index of fields) db.exec(`DROP INDEX ${index.name}; ${index.sql.replace('COLLATE NOCASE, commodity)', 'COLLATE NOCASE)')}`);
    const v11 = { rare: 'cs_is_stattrak, cs_is_souvenir, commodity, sticker_count, price', pattern: 'cs_is_stattrak, cs_is_souvenir, commodity, sticker_count' };
    for (const [columns, shape] of [[['cs_fade_percentage', 'cs_blue_percentage'], v11.rare], [['cs_paint_seed', 'cs_paint_index'], v11.pattern]] as const) {
      for (const column of columns) {
        db.exec(`DROP INDEX attrs_${column};
          CREATE INDEX attrs_${column} ON listing_attrs(${column}, cs_paint_wear, ${shape}) WHERE alive = 1 AND ${column} IS NOT NULL;`);
      }
    }
  }
  if (version < 11) {
    const widened = ['cs_fade_percentage', 'cs_blue_percentage', 'cs_paint_seed', 'cs_paint_index'];
    const flags = ['cs_is_stattrak', 'cs_is_souvenir'];
    db.exec(`DROP TRIGGER listings_price_follows; DROP INDEX attrs_name; DROP INDEX attrs_cs_paint_wear;
      ${[...widened, ...flags].map((column) => `DROP INDEX attrs_${column};`).join(' ')}
      ALTER TABLE listing_attrs DROP COLUMN price;
      CREATE INDEX attrs_name ON listing_attrs(name_id, cs_paint_wear, cs_is_stattrak, cs_is_souvenir) WHERE alive = 1;
      CREATE INDEX attrs_cs_paint_wear ON listing_attrs(cs_paint_wear, cs_is_stattrak, cs_is_souvenir)
        WHERE alive = 1 AND cs_paint_wear IS NOT NULL;
      ${widened.map((column) => `CREATE INDEX attrs_${column} ON listing_attrs(${column}) WHERE alive = 1 AND ${column} IS NOT NULL;`).join('\n')}
      ${flags.map((flag) => `CREATE INDEX attrs_${flag} ON listing_attrs(id) WHERE alive = 1 AND ${flag} = 1;`).join('\n')}`);
  }
  if (version < 10) {
    db.exec(`DROP INDEX attrs_name; CREATE INDEX attrs_name ON listing_attrs(name_id, cs_paint_wear) WHERE alive = 1;
      DROP INDEX attrs_cs_paint_wear;
      CREATE INDEX attrs_cs_paint_wear ON listing_attrs(cs_paint_wear) WHERE alive = 1 AND cs_paint_wear IS NOT NULL;`);
  }
  if (version < 9) db.exec('ALTER TABLE sync_state DROP COLUMN backfill_game_cursors');
  if (version < 8) {
    const nocase = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '%COLLATE NOCASE%'").all() as { name: string; sql: string }[];
    for (const index of nocase) db.exec(`DROP INDEX ${index.name}; ${index.sql.replace(' COLLATE NOCASE', '')}`);
  }
  if (version < 7) db.exec('ALTER TABLE sync_state DROP COLUMN backfill_games');
  if (version < 4) db.exec('ALTER TABLE sync_state DROP COLUMN last_snapshot_etag');
  if (version < 3) for (const column of ['price_seq', 'amount_seq']) db.exec(`ALTER TABLE listings DROP COLUMN ${column}`);
  db.pragma(`user_version = ${version}`);
}

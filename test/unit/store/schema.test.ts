/** Migrations, the detail-column list against the contract, and the offline caches. */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSessionMirror } from '../../../src/core/app/session-mirror.ts';
import { DETAIL_COLUMNS } from '../../../src/core/store/columns.ts';
import { deskFileFor } from '../../../src/core/store/desk.ts';
import { foldName } from '../../../src/core/store/names.ts';
import { compileQuery, queryBook } from '../../../src/core/query/index.ts';
import type { BookFilter } from '../../../src/shared/query.ts';
import {
  BookStore,
  Caches,
  NotABookError,
  SCHEMA_VERSION,
  SchemaVersionError,
  describeLengthyStep,
  iterateBook,
  openDatabase,
  readStatus,
  type Db,
  type LengthyStep,
} from '../../../src/core/store/index.ts';
import { listingDetailShape } from '../../../src/shared/api/index.ts';
import { createRng, createdEvent, leanOf, makeFullListing, priceChangedEvent, removedEvent } from '../../bench/generate.ts';
import { CACHED_PRICE, backToVersion, tempDir } from './helpers.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
/** The CREATE statement of an index, or undefined when the file has no such index. */
function indexSql(db: Db, name: string): string | undefined {
  return db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string | undefined;
}

function hasIndex(db: Db, name: string): boolean {
  return indexSql(db, name) !== undefined;
}

/**
 * Each probe (an index and conditions the query engine asks of it) counted on that index, or where
 * `indexed` names another (null: where SQLite chooses), and whether the index answered it alone.
 */
function countedIn(db: Db, probes: readonly (readonly [string, string])[], indexed: (index: string) => string | null) {
  return probes.map(([index, conds]) => {
    const [table, alive] = index.startsWith('attrs_') ? ['listing_attrs a', 'a.alive = 1'] : ['listings l', 'l.alive = 1'];
    const used = indexed(index);
    const sql = `SELECT count(*) FROM ${table}${used === null ? '' : ` INDEXED BY ${used}`} WHERE ${alive} AND ${conds}`;
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');
    return { covering: used !== null && plan.includes(`COVERING INDEX ${used}`), count: db.prepare(sql).pluck().get() as number };
  });
}

/**
 * Takes the open book back to `version` and upgrades it: each probe `counted` reads rows on the old file
 * and is answered by its index alone on the new one, with the same counts; the query engine gives the
 * same totals for `filters`. Returns the upgraded file, open.
 */
function expectUpgradeCovers(
  book: { file: string; db: Db },
  version: number,
  counted: (d: Db) => { covering: boolean; count: number }[],
  filters: readonly BookFilter[],
  sort: { field: 'id' | 'float'; dir: 'asc' },
): Db {
  const answers = (d: Db) => filters.map((filter) => queryBook(d, { filter, sort, limit: 1000, count: true }).total);
  backToVersion(book.db, version);
  const before = counted(book.db);
  expect(before.every((c) => c.count > 0)).toBe(true);
  expect(before.map((c) => c.covering)).toEqual(before.map(() => false));
  const totals = answers(book.db);
  expect(totals.every((total) => (total ?? 0) > 0)).toBe(true);
  book.db.close();
  const upgraded = openDatabase(book.file);
  const after = counted(upgraded);
  expect(after.map((c) => c.covering)).toEqual(after.map(() => true));
  expect(after.map((c) => c.count)).toEqual(before.map((c) => c.count));
  expect(answers(upgraded)).toEqual(totals);
  return upgraded;
}

/** A book file of 300 detailed listings (created by events), open: what the upgrade tests start from. */
function bookOf300(seed: number): { file: string; db: Db; listings: ReturnType<typeof makeFullListing>[] } {
  const file = dbFile();
  const db = openDatabase(file);
  const rng = createRng(seed);
  const listings = Array.from({ length: 300 }, (_, i) => makeFullListing(rng, i + 1));
  new BookStore(db).applyEvents(listings.map((l, i) => createdEvent(l, BigInt(i + 2))));
  return { file, db, listings };
}

function dbFile(): string {
  const t = tempDir();
  dirs.push(t);
  return join(t.dir, 'nested', 'skindesk.db');
}

describe('migrations', () => {
  it('creates the schema once, in WAL mode, and reopens without re-running', () => {
    const file = dbFile();
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.prepare('UPDATE sync_state SET resyncs = 7').run();
    db.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT resyncs FROM sync_state').pluck().get()).toBe(7);
    again.close();
  });

  it('refuses a database written by a newer schema', () => {
    const file = dbFile();
    const db = openDatabase(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(file)).toThrow(SchemaVersionError);
  });

  it('version 2 names in item_names every item the sold history of a version-1 file holds', () => {
    const file = dbFile();
    const db = openDatabase(file);
    const sale = db.prepare(
      `INSERT INTO sold_history (listing_id, seq, app_id, market_hash_name, price, amount, listed_at, sold_at, sold_ms)
       VALUES (?, ?, 730, ?, 100, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 1)`,
    );
    sale.run(1, 1, 'StatTrak™ AK-47 | Redline (Field-Tested)');
    sale.run(2, 2, 'StatTrak™ AK-47 | Redline (Field-Tested)');
    sale.run(3, 3, 'Sticker | ÄÖÜ Team');
    db.prepare("INSERT INTO item_names (name, name_lc) VALUES ('Sticker | ÄÖÜ Team', 'sticker | äöü team')").run();
    backToVersion(db, 1);
    db.close();
    const upgraded = openDatabase(file);
    expect(upgraded.prepare('SELECT name, name_lc FROM item_names ORDER BY name').all()).toEqual([
      { name: 'StatTrak™ AK-47 | Redline (Field-Tested)', name_lc: 'stattrak™ ak-47 | redline (field-tested)' },
      { name: 'Sticker | ÄÖÜ Team', name_lc: 'sticker | äöü team' },
    ]);
    upgraded.close();
  });

  it('version 3 gives every listing a seq per field, rows written before meaning "the row\'s own seq"', () => {
    const file = dbFile();
    const db = openDatabase(file);
    backToVersion(db, 2);
    db.prepare(
      `INSERT INTO listings (id, app_id, price, amount, last_seq, alive, first_seen_at, updated_at)
       VALUES (1, 730, 100, 1, 9007199254740993, 1, 0, 0)`,
    ).run();
    db.close();
    const upgraded = openDatabase(file);
    upgraded.defaultSafeIntegers(true);
    expect(upgraded.prepare('SELECT price, last_seq, price_seq, amount_seq FROM listings').get()).toEqual({
      price: 100n,
      last_seq: 9007199254740993n,
      price_seq: null,
      amount_seq: null,
    });
    upgraded.close();
  });

  it('version 5 folds name_lc as the trigram index does (foldName), not as toLowerCase did', () => {
    const file = dbFile();
    const db = openDatabase(file);
    const names = ['İstanbul Gloves', 'µ-Tech ſtyle ΣΟΦΟΣ ς', 'Cherokee ᎠᎡᎢ', 'Sticker | ÄÖÜ Team', 'plain ASCII'];
    for (const name of names) {
      db.prepare('INSERT INTO item_names (name, name_lc) VALUES (?, ?)').run(name, name.toLowerCase());
      db.prepare('INSERT INTO sticker_names (name, name_lc) VALUES (?, ?)').run(name, name.toLowerCase());
    }
    backToVersion(db, 4);
    db.close();
    const upgraded = openDatabase(file);
    for (const table of ['item_names', 'sticker_names']) {
      expect(upgraded.prepare(`SELECT name, name_lc FROM ${table} ORDER BY name_id`).all()).toEqual(
        names.map((name) => ({ name, name_lc: foldName(name) })),
      );
    }
    expect(foldName('İstanbul µ-Tech ſtyle ΣΟΦΟΣ ς Cherokee ᎠᎡᎢ ÄÖÜ ASCII')).toBe('İstanbul μ-tech style σοφοσ σ cherokee ᎠᎡᎢ äöü ascii');
    upgraded.close();
  });

  it('version 6 gives a sticker stored without wear (unscraped) wear 0, and leaves keychains alone', () => {
    const file = dbFile();
    const db = openDatabase(file);
    const rng = createRng(8);
    let listing = makeFullListing(rng, 1);
    while (listing.app_id !== 730 || !listing.cs_stickers?.length || !listing.cs_keychains?.length) listing = makeFullListing(rng, 1);
    new BookStore(db).applyEvents([createdEvent(listing, 2n)]);
    db.exec('UPDATE listing_stickers SET wear = NULL');
    backToVersion(db, 5);
    db.close();
    const upgraded = openDatabase(file);
    const wears = upgraded.prepare('SELECT kind, wear FROM listing_stickers ORDER BY kind, position').raw().all();
    expect(wears).toEqual([...listing.cs_stickers.map(() => [0, 0]), ...listing.cs_keychains.map(() => [1, null])]);
    upgraded.close();
  });

  it("version 8 builds the game fields' indexes in NOCASE (any case seeks), with statistics where the file had them", () => {
    const file = dbFile();
    const db = openDatabase(file);
    const rng = createRng(12);
    const listings = Array.from({ length: 200 }, (_, i) => makeFullListing(rng, i + 1));
    new BookStore(db).applyEvents(listings.map((l, i) => createdEvent(l, BigInt(i + 2))));
    const hero = listings.find((l) => l.dota_hero)?.dota_hero as string;
    const heroes = listings.filter((l) => l.dota_hero === hero).map((l) => l.id);
    const byHero = (d: Db) => queryBook(d, { filter: { fields: { dota_hero: hero.toUpperCase() } }, sort: { field: 'id', dir: 'asc' } }).rows.map((r) => r.id);
    backToVersion(db, 7);
    db.exec('ANALYZE');
    db.close();
    // a reader need not wait for the writer: the file before it answers the same, by a scan
    const ro = openDatabase(file, { readonly: true });
    expect(ro.pragma('user_version', { simple: true })).toBe(7);
    expect(byHero(ro)).toEqual(heroes);
    ro.close();
    const upgraded = openDatabase(file);
    // (version 12 adds the commodity after them)
    expect(indexSql(upgraded, 'attrs_dota_hero')).toMatch(/^CREATE INDEX attrs_dota_hero ON listing_attrs\(dota_hero COLLATE NOCASE[,)].* WHERE alive = 1 AND dota_hero IS NOT NULL$/);
    expect(indexSql(upgraded, 'attrs_tf2_effect')).toContain('(tf2_effect COLLATE NOCASE');
    // the fields left unindexed stay so, the figures keep their order
    expect(indexSql(upgraded, 'attrs_dota_type')).toBeUndefined();
    expect(indexSql(upgraded, 'attrs_cs_paint_wear')).not.toContain('NOCASE');
    const stats = upgraded.prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx = 'attrs_dota_hero'").pluck();
    expect(stats.get()).toBe(1);
    expect(byHero(upgraded)).toEqual(heroes);
    upgraded.close();
  });

  it('version 10 puts StatTrak and souvenir inside the name and float indexes, keeping their order and answers', () => {
    const { file, db } = bookOf300(21);
    const filters = [
      { stattrak: true, float: { max: 0.3 } },
      { souvenir: false, float: { min: 0.1, max: 0.5 } },
      { name: 'a', stattrak: false },
    ];
    const answers = (d: Db) =>
      filters.map((filter) => queryBook(d, { filter, sort: { field: 'float', dir: 'asc' }, limit: 1000 }).rows.map((r) => r.id));
    backToVersion(db, 9);
    db.exec('ANALYZE');
    const before = answers(db);
    expect(before.every((ids) => ids.length > 0)).toBe(true);
    db.close();
    const upgraded = openDatabase(file);
    // (version 11 adds more after them)
    expect(indexSql(upgraded, 'attrs_name')).toContain('(name_id, cs_paint_wear, cs_is_stattrak, cs_is_souvenir,');
    expect(indexSql(upgraded, 'attrs_cs_paint_wear')).toContain('(cs_paint_wear, cs_is_stattrak, cs_is_souvenir,');
    const stats = upgraded.prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx IN ('attrs_name', 'attrs_cs_paint_wear')").pluck();
    expect(stats.get()).toBe(2);
    expect(answers(upgraded)).toEqual(before);
    upgraded.close();
  });

  it('version 11 copies each price into the details, keeps the copy on every change, and answers as before', () => {
    const { file, db, listings } = bookOf300(22);
    const filters = [
      { price: { max: 2000 }, float: { max: 0.3 } },
      { price: { min: 500 }, stattrak: false, stickers: { min_count: 1 } },
      { price: { min: 100, max: 5000 }, name: 'a', stickers: { all: [{}] } },
    ];
    // setLimit 0 too: the count SQLite plans, which reads the price from the details' copy from version 11;
    // sorted by price, a page chosen on the details sorts by that copy too
    const sorts = [{ field: 'float', dir: 'asc' }, { field: 'price', dir: 'desc' }] as const;
    const answers = (d: Db) =>
      [undefined, 0].flatMap((setLimit) =>
        sorts.flatMap((sort) =>
          filters.map((filter) => {
            const page = queryBook(d, { filter, sort, limit: 1000, count: true }, { ...(setLimit === undefined ? {} : { setLimit }) });
            return { ids: page.rows.map((r) => r.id), total: page.total };
          }),
        ),
      );
    backToVersion(db, 10);
    // a reader of the older file reads the price from listings
    expect(compileQuery(db, { filter: filters[0] as BookFilter, count: true }, { setLimit: 0 }).countSql).toContain('JOIN listings l');
    const before = answers(db);
    expect(before.every((a) => a.ids.length > 0 && a.total === a.ids.length)).toBe(true);
    db.close();
    const upgraded = openDatabase(file);
    // a price with a float, a flag, a fade or blue figure is checked inside those indexes
    for (const index of ['attrs_name', 'attrs_cs_paint_wear', 'attrs_cs_fade_percentage', 'attrs_cs_blue_percentage']) {
      expect(indexSql(upgraded, index), index).toContain('sticker_count, price');
    }
    expect(indexSql(upgraded, 'attrs_cs_is_stattrak')).toContain('(id, price');
    expect(indexSql(upgraded, 'attrs_cs_paint_seed')).toContain('(cs_paint_seed, cs_paint_wear, cs_is_stattrak, cs_is_souvenir, commodity, sticker_count');
    expect(indexSql(upgraded, 'attrs_cs_paint_seed')).not.toContain('price');
    const copies = upgraded.prepare('SELECT count(*) FROM listing_attrs a JOIN listings l ON l.id = a.id WHERE a.price IS l.price').pluck();
    expect(copies.get()).toBe(300);
    expect(answers(upgraded)).toEqual(before);
    // a price event, a snapshot row with a new price, a removal and a creation again at another price
    const upgradedStore = new BookStore(upgraded);
    const [first, second, third] = listings as [(typeof listings)[number], (typeof listings)[number], (typeof listings)[number]];
    upgradedStore.applyEvents([
      priceChangedEvent(first.id, first.app_id, first.price, first.price + 7, 1000n),
      removedEvent(third.id, third.app_id, 1001n),
      createdEvent({ ...third, price: third.price + 11 }, 1002n),
    ]);
    upgraded.transaction(() => upgradedStore.upsertSnapshotRow({ ...leanOf(second), price: second.price + 5 }, 1003n, Date.now()))();
    const priceOf = upgraded.prepare('SELECT price FROM listing_attrs WHERE id = ?').pluck();
    expect([first, second, third].map((l) => priceOf.get(l.id))).toEqual([first.price + 7, second.price + 5, third.price + 11]);
    expect(copies.get()).toBe(300);
    upgraded.close();
  });

  it('version 12 covers a name, a game, a commodity and the rare figures in the indexes that are checked for them', () => {
    const { file, db } = bookOf300(23);
    // what the planner checks on these indexes once the name is hidden from it (nameIndexCostsMore)
    const probes = [
      ['attrs_cs_fade_percentage', 'a.cs_fade_percentage IS NOT NULL AND +a.name_id > 0 AND a.cs_blue_percentage IS NULL'],
      ['attrs_cs_blue_percentage', 'a.cs_blue_percentage >= 0 AND +a.name_id > 0 AND a.cs_fade_percentage IS NULL'],
      ['attrs_cs_paint_seed', 'a.cs_paint_seed < 1000 AND a.cs_fade_percentage IS NOT NULL AND +a.name_id > 0'],
      ['attrs_cs_paint_index', 'a.cs_paint_index > 0 AND a.cs_blue_percentage IS NULL'],
      // a flag or an item field with a commodity
      ['attrs_cs_is_souvenir', 'a.cs_is_souvenir = 1 AND a.commodity = 0 AND a.cs_paint_wear IS NOT NULL'],
      ['attrs_cs_rarity', "a.cs_rarity = 'covert' COLLATE NOCASE AND a.commodity = 0"],
      // a name with a game and a commodity; a game's non-commodities
      ['listings_name', 'l.name_id > 0 AND l.app_id = 730 AND l.commodity = 0'],
      ['listings_goods', 'l.app_id = 730 AND l.commodity = 0'],
    ] as const;
    // (listings_goods is new: before it, the game's own index)
    const counted = (d: Db) => countedIn(d, probes, (index) => (index === 'listings_goods' && !hasIndex(d, index) ? 'listings_app' : index));
    const filters: BookFilter[] = [
      { name: 'a', fade: { min: 50 } },
      { paint_seeds: Array.from({ length: 1000 }, (_, i) => i), fade: {} },
      { name: 'a', blue: {} },
      { app_id: 730, name: 'a', commodity: false },
      { app_id: 730, commodity: false },
      { souvenir: true, commodity: false },
      { stattrak: true, float: { max: 0.5 } },
      { fields: { cs_rarity: 'COVERT' }, commodity: false },
    ];
    const upgraded = expectUpgradeCovers({ file, db }, 11, counted, filters, { field: 'id', dir: 'asc' });
    expect(indexSql(upgraded, 'attrs_cs_fade_percentage')).toContain('sticker_count, price, name_id, cs_blue_percentage)');
    expect(indexSql(upgraded, 'attrs_cs_paint_seed')).toContain('sticker_count, name_id, cs_fade_percentage, cs_blue_percentage)');
    upgraded.close();
  });

  it('version 13 covers a name with a price, a price band without commodities, stickers and the exterior with the figures asked beside them', () => {
    const { file, db } = bookOf300(29);
    // each count as the query engine asks it, on the index SQLite had chosen and read rows from
    const probes = [
      ['listings_name', 'l.name_id > 0 AND l.price >= 100 AND l.price <= 5000'],
      ['listings_price', 'l.price >= 100 AND l.commodity = 0'],
      ['attrs_sticker_count', 'a.sticker_count >= 1 AND a.price <= 5000 AND a.cs_paint_wear IS NOT NULL'],
      ['attrs_cs_is_stattrak', 'a.cs_is_stattrak = 1 AND a.sticker_count >= 1 AND +a.name_id > 0'],
      // (new: before it, a scan of the details)
      ['attrs_cs_wear', "a.cs_wear = 'factory new' COLLATE NOCASE AND a.cs_paint_wear <= 0.5 AND a.cs_is_stattrak = 0 AND +a.name_id > 0"],
    ] as const;
    // (attrs_cs_wear is new: before it, SQLite's own choice)
    const counted = (d: Db) => countedIn(d, probes, (index) => (hasIndex(d, index) ? index : null));
    const filters: BookFilter[] = [
      { name: 'a', fields: { cs_rarity: 'Covert' } },
      { fields: { cs_wear: 'factory new' }, stattrak: false },
      { name: 'a', price: { min: 100, max: 5000 } },
      { price: { min: 100 }, commodity: false },
      { price: { max: 5000 }, stickers: { min_count: 1 } },
      { stattrak: true, stickers: { all: [{}] } },
      { stickers: { min_count: 0, max_count: 2 } },
    ];
    const upgraded = expectUpgradeCovers({ file, db }, 12, counted, filters, { field: 'float', dir: 'asc' });
    expect(indexSql(upgraded, 'attrs_sticker_count')).toContain('(sticker_count, cs_paint_wear, cs_is_stattrak, cs_is_souvenir, commodity, price, name_id)');
    // an item field's index ends with its value and commodity: a creation's entry goes at the end of its
    // value's run (behind the newest listing), where a name after them sent it anywhere in the run
    expect(indexSql(upgraded, 'attrs_cs_rarity')).toContain('(cs_rarity COLLATE NOCASE, commodity) WHERE');
    upgraded.close();
  });

  it('maps the whole book file for reading, up to SQLite\'s largest map, on every connection', () => {
    // 256 MB left three quarters of a 1M-listing book (~0.9 GB) to read() and the page cache: the 600
    // random combinations of the bench ran at p95 26-30 ms against 23.5 with the whole file mapped
    const { file, db } = bookOf300(31);
    const readonly = openDatabase(file, { readonly: true });
    for (const d of [db, readonly]) expect(d.pragma('mmap_size', { simple: true })).toBe(0x7fff0000);
    readonly.close();
    db.close();
  });

  it('tells before a lengthy step on a file with a book in it, and says nothing making a new file', () => {
    const file = dbFile();
    const steps: LengthyStep[] = [];
    const db = openDatabase(file, { onLengthyStep: (step) => steps.push(step) });
    expect(steps).toEqual([]);
    new BookStore(db).applyEvents([createdEvent(makeFullListing(createRng(4), 1), 2n)]);
    backToVersion(db, 5);
    db.close();
    openDatabase(file, { onLengthyStep: (step) => steps.push(step) }).close();
    expect(steps.map((s) => s.version)).toEqual([6, 8, 10, 11, 12, 13]);
    expect(describeLengthyStep(steps[1]!)).toBe('upgrading the book file: rebuilding the indexes of the item fields (a few seconds for a large book)');
  });

  it("leaves the writer-only steps to the book's writer when asked to upgrade only as far as readers need", () => {
    const file = dbFile();
    const db = openDatabase(file, { upgrade: 'readable' });
    // a new file is made whole at once
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    new BookStore(db).applyEvents([createdEvent(makeFullListing(createRng(4), 1), 2n)]);
    backToVersion(db, 7);
    db.close();
    const steps: LengthyStep[] = [];
    const host = openDatabase(file, { upgrade: 'readable', onLengthyStep: (step) => steps.push(step) });
    expect(host.pragma('user_version', { simple: true })).toBe(7);
    expect(readStatus(host)).toMatchObject({ listings: 1 });
    const writer = openDatabase(file, { onLengthyStep: (step) => steps.push(step) });
    expect(writer.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(steps.map((s) => s.version)).toEqual([8, 10, 11, 12, 13]);
    writer.close();
    host.close();
  });

  it("refuses another program's database (tables of its own, user_version 0) and leaves it as it was", () => {
    const file = dbFile();
    openDatabase(':memory:').close(); // nothing to refuse in memory
    mkdirSync(dirname(file), { recursive: true });
    const foreign = new Database(file);
    foreign.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada')");
    foreign.close();
    const refusal = `${file} is not a Skindesk book (it holds other tables)`;
    expect(() => openDatabase(file)).toThrow(new NotABookError(file));
    expect(() => openDatabase(file)).toThrow(refusal);
    expect(() => openDatabase(file, { readonly: true })).toThrow(refusal);
    // the app's open path (the book with its desk) is refused the same way, before a desk is made
    expect(() => openSessionMirror(file)).toThrow(refusal);
    expect(existsSync(deskFileFor(file))).toBe(false);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(0);
    expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(after.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual(['customers']);
    after.close();
  });

  it('takes an empty file (0 bytes, or a database without tables) as a new book', () => {
    const headerOnly = (file: string) => {
      const db = new Database(file);
      db.exec('CREATE TABLE gone (x); DROP TABLE gone');
      db.close();
    };
    for (const make of [(file: string) => writeFileSync(file, ''), headerOnly]) {
      const file = dbFile();
      mkdirSync(dirname(file), { recursive: true });
      make(file);
      expect(() => openDatabase(file, { readonly: true })).toThrow('the database is empty: run `skindesk sync` first');
      const db = openDatabase(file);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      db.close();
    }
  });

  it('opens read-only only a database that exists and is migrated', () => {
    const file = dbFile();
    expect(() => openDatabase(file, { readonly: true })).toThrow();
    openDatabase(file).close();
    const ro = openDatabase(file, { readonly: true });
    expect(() => ro.prepare('UPDATE sync_state SET resyncs = 7').run()).toThrow();
    ro.close();
  });

  it('reads a file still before a writer-only migration as is, and refuses one before a migration readers need', () => {
    const file = dbFile();
    const db = openDatabase(file);
    const rng = createRng(3);
    new BookStore(db).applyEvents([
      createdEvent({ ...makeFullListing(rng, 1), price: 250 }, 2n),
      createdEvent({ ...makeFullListing(rng, 2), price: 90 }, 3n),
    ]);
    backToVersion(db, 2);
    db.close();
    // version 3 only adds the guard's columns: the read-only commands need not wait for a sync
    const ro = openDatabase(file, { readonly: true });
    expect(ro.pragma('user_version', { simple: true })).toBe(2);
    expect([...iterateBook(ro, {})].map((l) => [l.id, l.price])).toEqual([[1, 250], [2, 90]]);
    expect(readStatus(ro)).toMatchObject({ listings: 2, last_seq: '3' });
    ro.close();
    // version 2 names sold items for the sales tape: a version-1 file must be upgraded first
    const rw = openDatabase(file);
    backToVersion(rw, 1);
    rw.close();
    expect(() => openDatabase(file, { readonly: true })).toThrow(/schema 1 and needs an upgrade: run `skindesk sync` once/);
  });
});

describe('detail columns', () => {
  it('all exist in a freshly migrated database (a new field needs a new migration)', () => {
    const db = openDatabase(dbFile());
    const have = new Set((db.prepare('PRAGMA table_info(listing_attrs)').all() as { name: string }[]).map((c) => c.name));
    for (const c of DETAIL_COLUMNS) expect(have.has(c.field), c.field).toBe(true);
    db.close();
  });

  it('name real detail fields of the contract with a matching type', () => {
    const kindOf = (schema: z.ZodType): string => {
      const inner = schema instanceof z.ZodNullable ? (schema.unwrap() as z.ZodType) : schema;
      if (inner instanceof z.ZodString) return 'text';
      if (inner instanceof z.ZodBoolean) return 'bool';
      if (inner instanceof z.ZodNumber) return inner.format === 'safeint' || inner.isInt ? 'int' : 'real';
      return 'other';
    };
    for (const c of DETAIL_COLUMNS) {
      const schema = (listingDetailShape as Record<string, z.ZodType>)[c.field];
      expect(schema, c.field).toBeDefined();
      expect(kindOf(schema as z.ZodType), c.field).toBe(c.kind);
    }
  });
});

describe('caches', () => {
  it('keeps prices, averages and other answers for offline use', async () => {
    const db = openDatabase(dbFile());
    const caches = new Caches(db);
    const price = CACHED_PRICE;
    await caches.replacePrices([price, { ...price, app_id: 570 as const, market_hash_name: 'Hook' }]);
    await caches.replacePrices([{ ...price, market_price: 1300, stock: 3, listing_count: 2 }], 730);
    expect(caches.prices()).toEqual([
      { ...price, market_price: 1300, stock: 3, listing_count: 2 },
      { ...price, app_id: 570, market_hash_name: 'Hook', stock: null, listing_count: null },
    ]);
    await caches.replaceAverages([{ app_id: 730, market_hash_name: 'X', average_price: 5, sales: 2, volume: 3 }]);
    expect(caches.averages(730)).toHaveLength(1);
    caches.put('user', { id: 1, name: 'me' }, '"etag1"', 42);
    expect(caches.get('user')).toEqual({ value: { id: 1, name: 'me' }, etag: '"etag1"', fetchedAt: 42 });
    caches.delete('user');
    expect(caches.get('user')).toBeNull();
    db.close();
  });

  it('replaces a whole set in slices, yielding to the event loop, and ends with exactly the new set', async () => {
    const db = openDatabase(dbFile());
    const caches = new Caches(db);
    const row = (app: 730 | 570, i: number, price: number) => ({ ...CACHED_PRICE, app_id: app, market_hash_name: `Item ${i}`, market_price: price });
    // 5,000 CS2 rows (more than one slice) and a Dota 2 row that a CS2-only replacement must keep
    await caches.replacePrices([...Array.from({ length: 5_000 }, (_, i) => row(730, i, 100)), row(570, 0, 7)]);
    // the new CS2 set drops items 0–999 and adds 5000–5499
    const next = Array.from({ length: 4_500 }, (_, i) => row(730, i + 1_000, 200));
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    await caches.replacePrices(next, 730);
    clearInterval(ticking);
    expect(turns).toBeGreaterThan(0);
    const held = caches.prices();
    expect(held).toHaveLength(4_501);
    expect(held.filter((r) => r.app_id === 730).every((r) => r.market_price === 200)).toBe(true);
    expect(held.find((r) => r.market_hash_name === 'Item 999')).toBeUndefined();
    expect(held.find((r) => r.app_id === 570)).toMatchObject({ market_price: 7 });
    db.close();
  });

  it('applies two replacements of the same set one after the other: the later one is what stays', async () => {
    const db = openDatabase(dbFile());
    const caches = new Caches(db);
    const set = (n: number, price: number) =>
      Array.from({ length: n }, (_, i) => ({ app_id: 730 as const, market_hash_name: `Item ${i}`, average_price: price, sales: 1, volume: 1 }));
    await Promise.all([caches.replaceAverages(set(6_000, 1)), new Caches(db).replaceAverages(set(2_500, 2))]);
    const held = caches.averages();
    expect(held).toHaveLength(2_500);
    expect(held.every((r) => r.average_price === 2)).toBe(true);
    db.close();
  });
});

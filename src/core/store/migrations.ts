/**
 * Versioned schema migrations. The version lives in SQLite's `user_version`; each migration runs in its
 * own transaction, so a crash mid-upgrade leaves the previous version intact. Migrations are append-only:
 * a released one is never edited, a change is a new entry. One exception, made when the API caches moved
 * to the desk file: version 1 no longer creates `prices`, `sale_averages` and `cache_entries` (Caches
 * creates them where they belong). Files made before keep them until attachDesk moves them to the desk
 * (desk.ts), so every file ends with the same tables.
 */
import type Database from 'better-sqlite3';
import { foldName } from './names.ts';

interface Migration {
  version: number;
  description: string;
  sql?: string;
  /** A step SQL cannot say (names folded in JavaScript, like NameTable). */
  run?: (db: Database.Database) => void;
  /**
   * Only the writer uses what this migration adds: a read-only open (`skindesk book`, `status`, `search`,
   * `sales`) reads a file still before it correctly, so it need not wait for a sync to upgrade the file.
   */
  writerOnly?: true;
  /**
   * Not instant on a file with a book in it (it rewrites or rebuilds something of every listing): what the
   * user waits for, in plain words. Whoever opens the file says so first (MigrateOptions.onLengthyStep).
   */
  lengthy?: string;
}

/**
 * The detail columns as version 1 created them. Frozen here (not read from columns.ts) because a released
 * migration must never change; a field added to the query shape needs a new migration, and
 * test/unit/store/schema.test.ts fails until it has one.
 */
const V1_NUMERIC = ['cs_paint_wear REAL', 'cs_paint_seed INTEGER', 'cs_paint_index INTEGER', 'cs_fade_percentage REAL', 'cs_blue_percentage REAL'];
const V1_FLAGS = ['cs_is_stattrak', 'cs_is_souvenir', 'cs_is_highlight'];
const V1_STRINGS = ['cs_weapon', 'cs_type', 'cs_wear', 'cs_rarity', 'cs_collection', 'rust_category', 'rust_type',
  'rust_collection', 'dota_rarity', 'dota_hero', 'dota_quality', 'dota_type', 'dota_slot', 'dota_collection',
  'dota_event', 'tf2_quality', 'tf2_effect', 'tf2_wear', 'tf2_warpaint', 'tf2_sheen', 'tf2_collection', 'tf2_grade',
  'tf2_paint_color', 'tf2_type'];
const v1AttrColumns = [...V1_NUMERIC, ...V1_FLAGS.map((f) => `${f} INTEGER`), ...V1_STRINGS.map((f) => `${f} TEXT`)];
/**
 * Every detail index costs each detailed listing a random b-tree insert (a creation event, a backfilled
 * row), so fields every item of a game has and that other filters already narrow are left unindexed:
 * weapon and wear are in the name (and wear in the float), Dota's type and slot have a handful of values.
 */
const V1_UNINDEXED = new Set(['cs_weapon', 'cs_type', 'cs_wear', 'dota_type', 'dota_slot']);
const V1_INDEXED_STRINGS = V1_STRINGS.filter((c) => !V1_UNINDEXED.has(c));
const v1Indexed = [...V1_NUMERIC.map((c) => c.split(' ')[0] as string), ...V1_INDEXED_STRINGS];

/** Whether the file was ever analyzed: a rebuilt index then gets statistics of its own (ANALYZE of it alone). */
function hasStatistics(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined;
}

/** Builds `index` on `table`, in place of the one of that name unless it is new. */
type BuildIndex = (index: string, table: string, columns: string, where: string, isNew?: boolean) => void;

/**
 * Runs `builds`, then gives each index it built statistics of its own when the file had statistics (an
 * index built again has none, and the planner weighs a filter by them).
 */
function rebuildIndexes(db: Database.Database, builds: (build: BuildIndex) => void): void {
  const analyzed = hasStatistics(db);
  const rebuilt: string[] = [];
  builds((index, table, columns, where, isNew = false) => {
    db.exec(`${isNew ? '' : `DROP INDEX ${index}; `}CREATE INDEX ${index} ON ${table}(${columns}) WHERE ${where};`);
    rebuilt.push(index);
  });
  if (analyzed) for (const index of rebuilt) db.exec(`ANALYZE ${index}`);
}

/** The schema from which `listing_attrs` holds a copy of each listing's price (kept by a trigger). */
export const ATTRS_PRICE_VERSION = 11;

/**
 * What the detail indexes hold after their own column and the float: the flags and figures a filter most
 * often adds, so that it is checked (and counted) inside the index, never on the row. The fixed ones
 * never change once a listing is written; the price does, so only some indexes carry it.
 */
const ATTRS_FIXED_FIGURES = 'cs_is_stattrak, cs_is_souvenir, commodity, sticker_count';
const ATTRS_INDEXED_WITH_FLOAT = `${ATTRS_FIXED_FIGURES}, price`;

/** The pattern of an item (its seed, its paint): in most CS listings' details. */
const ITEM_PATTERN_FIGURES = ['cs_paint_seed', 'cs_paint_index'] as const;

/** The flags whose own indexes carry the price (traders ask for them with a price). */
const PRICED_FLAGS = ['cs_is_stattrak', 'cs_is_souvenir'] as const;

/** The figures few listings have (a fade or a blue percentage): their indexes can afford to cover more. */
const RARE_FIGURES = ['cs_fade_percentage', 'cs_blue_percentage'] as const;

/** The copy of the price in `listing_attrs` follows every change of it, whatever statement makes it. */
const ATTRS_PRICE_FOLLOWS = `CREATE TRIGGER listings_price_follows AFTER UPDATE OF price ON listings
  WHEN old.price IS NOT new.price
BEGIN
  UPDATE listing_attrs SET price = new.price WHERE id = new.id;
END;`;

/** The schema from which the exterior (`cs_wear`) has an index of its own. */
const EXTERIOR_INDEX_VERSION = 13;

/** The highest schema version each connection was seen at: a schema never goes back. */
const seenVersion = new WeakMap<Database.Database, number>();

/** Whether the book file is at `version` or later (a reader's file may be older until the writer upgrades it). */
function atLeast(db: Database.Database, version: number): boolean {
  if ((seenVersion.get(db) ?? 0) >= version) return true;
  const current = Number(db.pragma('user_version', { simple: true }));
  seenVersion.set(db, current);
  return current >= version;
}

/** Whether the book file's details carry the price (schema 11 on): a reader of an older file does without. */
export function attrsCarryPrice(db: Database.Database): boolean {
  return atLeast(db, ATTRS_PRICE_VERSION);
}

/** Whether an item field has an index of its own in this book file, which a count can seek. */
export function itemFieldIndexed(db: Database.Database, field: string): boolean {
  return V1_INDEXED_STRINGS.includes(field) || (field === 'cs_wear' && atLeast(db, EXTERIOR_INDEX_VERSION));
}

/** Partial indexes cover live rows only: tombstones never slow a query or a count. */
const LIVE = 'WHERE alive = 1';

const listingsTable = `
CREATE TABLE listings (
  id INTEGER PRIMARY KEY,
  app_id INTEGER NOT NULL,
  -- NULL only on tombstones of listings we never held (a removal that arrived before its creation)
  name_id INTEGER,
  price INTEGER,
  amount INTEGER,
  commodity INTEGER,
  created_at TEXT,
  created_ms INTEGER,
  -- int64 seq of the last event or snapshot applied to this row: the guard compares against it
  last_seq INTEGER NOT NULL,
  alive INTEGER NOT NULL,
  -- 1 removed, 2 sold out (amount 0), 3 missing from a snapshot, 4 outside the mirrored games
  removed_reason INTEGER,
  first_seen_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  removed_at INTEGER,
  detailed_at INTEGER
);`;

// The filterable detail fields live beside the listing, not in it: a snapshot row or a price change never
// pays for their indexes. The listing's immutable fields (game, name, commodity, creation time) are copied
// here so a query on details never has to visit `listings` to filter; `alive` follows listings.alive
// through a trigger, so tombstones stay out of every index below.
const attrsTable = `
CREATE TABLE listing_attrs (
  id INTEGER PRIMARY KEY,
  alive INTEGER NOT NULL,
  app_id INTEGER NOT NULL,
  name_id INTEGER NOT NULL,
  commodity INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  -- stickers on a CS item (0-5); NULL for games without stickers
  sticker_count INTEGER,
${v1AttrColumns.map((c) => `  ${c}`).join(',\n')}
);`;

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'book mirror: listings with tombstones, names, details, stickers, sold history, sync state, caches',
    sql: `
CREATE TABLE item_names (
  name_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  name_lc TEXT NOT NULL
);
CREATE TABLE sticker_names (
  name_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  name_lc TEXT NOT NULL
);
${listingsTable}
${attrsTable}
-- Price sits in as few indexes as possible, because a price change rewrites every index holding it:
-- (price, id, app_id, name_id) serves every price order, keyset page and range, with the game and the
-- name checked inside the index (a name search sorted by price walks it without visiting rows; id comes
-- before them so the order (price, id) needs no sort among equal prices); commodities get their own
-- small one; the game, creation and name indexes never move on a price change.
CREATE INDEX listings_price ON listings(price, id, app_id, name_id) ${LIVE};
CREATE INDEX listings_commodity_price ON listings(app_id, price) WHERE alive = 1 AND commodity = 1;
CREATE INDEX listings_app ON listings(app_id) ${LIVE};
CREATE INDEX listings_created ON listings(created_ms) ${LIVE};
CREATE INDEX listings_name ON listings(name_id) ${LIVE};
CREATE INDEX listings_detailed ON listings(id) WHERE alive = 1 AND detailed_at IS NOT NULL;
CREATE INDEX listings_tombstones ON listings(removed_at) WHERE alive = 0;

CREATE INDEX attrs_name ON listing_attrs(name_id, cs_paint_wear) ${LIVE};
CREATE INDEX attrs_sticker_count ON listing_attrs(sticker_count) WHERE alive = 1 AND sticker_count IS NOT NULL;
${v1Indexed.map((c) => `CREATE INDEX attrs_${c} ON listing_attrs(${c}) WHERE alive = 1 AND ${c} IS NOT NULL;`).join('\n')}
${V1_FLAGS.map((c) => `CREATE INDEX attrs_${c} ON listing_attrs(id) WHERE alive = 1 AND ${c} = 1;`).join('\n')}

-- The full detail fields of §2.3 as JSON (icons, links, sticker objects...): read by the detail view.
CREATE TABLE listing_details (
  id INTEGER PRIMARY KEY,
  detail TEXT NOT NULL
);

-- Stickers (kind 0) and keychains (kind 1) as rows, so a filter by name, slot, wear or pattern is an
-- index lookup instead of a JSON scan of a million rows.
CREATE TABLE listing_stickers (
  listing_id INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  position INTEGER NOT NULL,
  alive INTEGER NOT NULL,
  slot INTEGER NOT NULL,
  name_id INTEGER NOT NULL,
  wear REAL,
  pattern INTEGER,
  PRIMARY KEY (listing_id, kind, position)
) WITHOUT ROWID;
-- covering for the sticker filters (name, slot, wear): no row visits while collecting matching listings
CREATE INDEX listing_stickers_name ON listing_stickers(kind, name_id, listing_id, slot, wear) ${LIVE};
CREATE INDEX listing_stickers_pattern ON listing_stickers(kind, pattern, listing_id) WHERE alive = 1 AND pattern IS NOT NULL;

-- Removing or bringing back a listing takes its details and stickers out of (or back into) the indexes.
CREATE TRIGGER listings_alive_follows AFTER UPDATE OF alive ON listings WHEN old.alive <> new.alive
BEGIN
  UPDATE listing_attrs SET alive = new.alive WHERE id = new.id;
  UPDATE listing_stickers SET alive = new.alive WHERE listing_id = new.id;
END;

-- Substring search over names (case-insensitive trigrams): a few thousand matches out of ~100k names in
-- a millisecond, where scanning every name costs tens. Filled outside the write path (a trigram insert
-- costs ~50 µs, which a million-row snapshot with 100k new names must not pay): names above
-- indexed_upto are not in the index yet, and queries scan just those.
CREATE VIRTUAL TABLE item_names_fts USING fts5(name, content='item_names', content_rowid='name_id', tokenize='trigram case_sensitive 0');
CREATE VIRTUAL TABLE sticker_names_fts USING fts5(name, content='sticker_names', content_rowid='name_id', tokenize='trigram case_sensitive 0');
CREATE TABLE name_index_state (
  name_table TEXT PRIMARY KEY,
  indexed_upto INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO name_index_state VALUES ('item_names', 0), ('sticker_names', 0);

CREATE TABLE sold_history (
  listing_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  app_id INTEGER NOT NULL,
  market_hash_name TEXT NOT NULL,
  price INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  listed_at TEXT NOT NULL,
  sold_at TEXT NOT NULL,
  sold_ms INTEGER NOT NULL,
  paint_wear REAL,
  paint_seed INTEGER,
  paint_index INTEGER,
  stickers TEXT,
  -- 0 until the listing's float/seed/stickers were copied in (see BookStore.enrichSales)
  enriched INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (listing_id, seq)
) WITHOUT ROWID;
CREATE INDEX sold_history_unenriched ON sold_history(listing_id) WHERE enriched = 0;
CREATE INDEX sold_history_name ON sold_history(market_hash_name, sold_ms);
CREATE INDEX sold_history_time ON sold_history(sold_ms);

CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- highest seq applied (events or snapshots); committed with the rows it covers
  last_seq INTEGER,
  -- seq of the last snapshot merged completely: every event at or below it is already in the book
  last_snapshot_seq INTEGER,
  last_snapshot_at INTEGER,
  resyncs INTEGER NOT NULL DEFAULT 0,
  divergence_repaired INTEGER NOT NULL DEFAULT 0,
  -- the REST base URL and the games this book mirrors; a change starts a fresh mirror
  source TEXT,
  scope TEXT,
  backfill_cursor INTEGER,
  backfill_pass_started_at INTEGER,
  backfill_pass_completed_at INTEGER
);
INSERT INTO sync_state (id) VALUES (1);
`,
  },
  {
    version: 2,
    description: 'every sold item named in item_names: the sales tape matches names through it',
    run(db) {
      const unnamed = db
        .prepare('SELECT DISTINCT market_hash_name FROM sold_history WHERE market_hash_name NOT IN (SELECT name FROM item_names)')
        .pluck()
        .all() as string[];
      const insert = db.prepare('INSERT INTO item_names (name, name_lc) VALUES (?, ?) ON CONFLICT(name) DO NOTHING');
      for (const name of unnamed) insert.run(name, name.toLowerCase());
    },
  },
  {
    version: 3,
    description: 'a seq per field: a late price change is not lost behind a newer amount change, and the reverse',
    // NULL means "the seq of the whole row" (last_seq): a snapshot row or a creation sets both fields at
    // once, and only the events that move one field apart from the other need to say so. Existing rows
    // therefore keep their meaning without being rewritten.
    sql: `
ALTER TABLE listings ADD COLUMN price_seq INTEGER;
ALTER TABLE listings ADD COLUMN amount_seq INTEGER;
`,
    // the guard's columns: readers take price and amount as they are
    writerOnly: true,
  },
  {
    version: 4,
    description: "the last merged snapshot's ETag: a stale answer that is the same cached copy is known to expire soon",
    sql: `
ALTER TABLE sync_state ADD COLUMN last_snapshot_etag TEXT;
`,
    // only the sync engine reads it
    writerOnly: true,
  },
  {
    version: 5,
    description: 'name_lc folded as the trigram index folds case (foldName), not by toLowerCase: one answer for a name indexed or not',
    run(db) {
      for (const table of ['item_names', 'sticker_names']) {
        const update = db.prepare(`UPDATE ${table} SET name_lc = ? WHERE name_id = ?`);
        const rows = db.prepare(`SELECT name_id, name, name_lc FROM ${table}`).raw().all() as [number, string, string][];
        for (const [id, name, lc] of rows) {
          const folded = foldName(name);
          if (folded !== lc) update.run(folded, id);
        }
      }
    },
    // Readers need not wait: on a file still before it only names with those rare characters, and only
    // where they are scanned, are judged as before (the way every build before this one judged them).
    writerOnly: true,
  },
  {
    version: 6,
    description: 'a sticker stored without wear is unscraped: wear 0, so a max-wear filter finds it (details.ts stickerWear)',
    sql: `UPDATE listing_stickers SET wear = 0 WHERE kind = 0 AND wear IS NULL;`,
    // Readers need not wait: on a file still before it such stickers only stay out of max-wear filters, as before.
    writerOnly: true,
    // a walk of every sticker row (no index holds a missing wear)
    lengthy: 'giving stickers without wear a wear of 0',
  },
  {
    version: 7,
    description: 'the games the backfill cursor was saved for: a cursor of other games starts the pass over',
    // NULL on a file from before (its cursor's games unknown): such a cursor starts the pass over once,
    // which rereads pages already detailed rather than leave another game's older listings behind it.
    sql: `
ALTER TABLE sync_state ADD COLUMN backfill_games TEXT;
`,
    // only the backfill reads it
    writerOnly: true,
  },
  {
    version: 8,
    description: "the per-game fields' indexes in NOCASE: a field filter matches any ASCII case (\"arcana\" finds \"Arcana\") and still seeks",
    run(db) {
      // The planner weighs a field against the other filters by its index's statistics, which go with the
      // old index: a file analyzed before gets the new index's own (a walk of that index alone).
      const analyzed = hasStatistics(db);
      for (const column of V1_INDEXED_STRINGS) {
        db.exec(`DROP INDEX attrs_${column};
          CREATE INDEX attrs_${column} ON listing_attrs(${column} COLLATE NOCASE) WHERE alive = 1 AND ${column} IS NOT NULL;`);
        if (analyzed) db.exec(`ANALYZE attrs_${column}`);
      }
    },
    // Readers need not wait: on a file still before it a field filter answers the same (COLLATE NOCASE
    // is in the query), only by a scan of the details instead of a seek until the writer upgrades it.
    writerOnly: true,
    // 19 indexes built again: about 5.5 s on a book of a million listings
    lengthy: "rebuilding the indexes of the item fields (a few seconds for a large book)",
  },
  {
    version: 9,
    description: "a backfill of some of the games pages each with its own app_id: each game's place in its pages",
    // NULL but for a pass of 2 or 3 of the 4 games (one game, or every game, keeps backfill_cursor): a
    // JSON object of app id → the cursor of that game's next page, or null once its pages are read to
    // the end; a game not in it starts from its newest page.
    sql: `
ALTER TABLE sync_state ADD COLUMN backfill_game_cursors TEXT;
`,
    // only the backfill reads it
    writerOnly: true,
  },
  {
    version: 10,
    description: 'StatTrak and souvenir inside the name and float indexes: a flag filter is checked in the index, not on each row',
    run(db) {
      // "StatTrak AK-47" walked the name's listings and read every row for its flag (140 ms at 1M
      // listings), StatTrak or souvenir with a float bound every row of the float range (190 and 650 ms);
      // in the index they are ~12, 15 and 22 ms. The flags go after the float, so (name, float) and
      // (float) still give their order: the float rank and the float sort walk them as before.
      const analyzed = hasStatistics(db);
      db.exec(`DROP INDEX attrs_name;
        CREATE INDEX attrs_name ON listing_attrs(name_id, cs_paint_wear, cs_is_stattrak, cs_is_souvenir) ${LIVE};
        DROP INDEX attrs_cs_paint_wear;
        CREATE INDEX attrs_cs_paint_wear ON listing_attrs(cs_paint_wear, cs_is_stattrak, cs_is_souvenir)
          WHERE alive = 1 AND cs_paint_wear IS NOT NULL;`);
      if (analyzed) db.exec('ANALYZE attrs_name; ANALYZE attrs_cs_paint_wear;');
    },
    // Readers need not wait: on a file still before it the same filters answer, only slower.
    writerOnly: true,
    // two indexes built again: about 3 s on a book of a million listings
    lengthy: 'rebuilding the float and name indexes (a few seconds for a large book)',
  },
  {
    version: ATTRS_PRICE_VERSION,
    description: 'the price copied into the details; the name, float, fade, blue, seed, paint, StatTrak and souvenir indexes covering the figures filters add to them',
    run(db) {
      // A filter on a price and a detail (float under 0.07 below $50) read the price from `listings`: one
      // row visit per candidate, 0.1-0.3 s to count the ~100k matches of a broad one at 1M listings, where
      // the float index alone counts them in 5-30 ms once it holds the price. Commodity and the sticker
      // count join the flags in both indexes for the same reason (a float range that is not a commodity,
      // or that has 2+ stickers, read every row of the range: 0.3-0.8 s). The cost: a price change now
      // also rewrites the details row and these index entries (the trigger), ~25 → ~80 µs a reprice at
      // 1M (the bench's events_per_s_by_kind); the event mix as a whole moved within its noise (~20k/s).
      const analyzed = hasStatistics(db);
      db.exec(`DROP INDEX attrs_name;
        DROP INDEX attrs_cs_paint_wear;
        ALTER TABLE listing_attrs ADD COLUMN price INTEGER;
        UPDATE listing_attrs SET price = (SELECT l.price FROM listings l WHERE l.id = listing_attrs.id);
        ${ATTRS_PRICE_FOLLOWS}
        CREATE INDEX attrs_name ON listing_attrs(name_id, cs_paint_wear, ${ATTRS_INDEXED_WITH_FLOAT}) ${LIVE};
        CREATE INDEX attrs_cs_paint_wear ON listing_attrs(cs_paint_wear, ${ATTRS_INDEXED_WITH_FLOAT})
          WHERE alive = 1 AND cs_paint_wear IS NOT NULL;`);
      // Fade and blue: few listings have them (~3% of a book), so their indexes can hold the float and
      // the rest at little cost; fade 90+ under $50, or sorted by blue with a float range, no longer reads
      // a row per candidate (50-60 ms for a count at 1M; a few ms).
      for (const column of RARE_FIGURES) {
        db.exec(`DROP INDEX attrs_${column};
          CREATE INDEX attrs_${column} ON listing_attrs(${column}, cs_paint_wear, ${ATTRS_INDEXED_WITH_FLOAT})
            WHERE alive = 1 AND ${column} IS NOT NULL;`);
      }
      // Seeds and paint index: most CS listings have them, so these take only what never changes after a
      // listing is written (not the price): a seed list with a float range counted by reading each seed's
      // rows (30 seeds: ~18k rows, 35 ms at 1M) is counted in the index. No cost to an event but a creation's.
      for (const column of ITEM_PATTERN_FIGURES) {
        db.exec(`DROP INDEX attrs_${column};
          CREATE INDEX attrs_${column} ON listing_attrs(${column}, cs_paint_wear, ${ATTRS_FIXED_FIGURES})
            WHERE alive = 1 AND ${column} IS NOT NULL;`);
      }
      // StatTrak and souvenir (a tenth of the book): their own indexes hold the price, so "StatTrak under
      // $50" is counted without a row read (67 → 5 ms at 1M); a reprice of such a listing moves one more entry.
      for (const flag of PRICED_FLAGS) {
        db.exec(`DROP INDEX attrs_${flag};
          CREATE INDEX attrs_${flag} ON listing_attrs(id, price) WHERE alive = 1 AND ${flag} = 1;`);
      }
      const rebuilt = ['attrs_name', 'attrs_cs_paint_wear', ...[...RARE_FIGURES, ...ITEM_PATTERN_FIGURES, ...PRICED_FLAGS].map((c) => `attrs_${c}`)];
      if (analyzed) for (const index of rebuilt) db.exec(`ANALYZE ${index}`);
    },
    // Readers need not wait: on a file still before it the query engine reads the price from `listings`
    // (attrsCarryPrice), the same answers, only slower.
    writerOnly: true,
    // a column filled and eight indexes built again: about 7 s on a book of a million listings
    lengthy: 'copying prices into the details and rebuilding eight of their indexes (a few seconds for a large book)',
  },
  {
    version: 12,
    description: 'the name in the detail indexes of rare and pattern figures, the other rare figure beside each, commodity beside the flags and item fields; game and commodity in the name index of listings; an index of the games\' non-commodities',
    run(db) {
      // A name is checked row by row on what a rarer figure yields (nameIndexCostsMore): "stattrak™" sorted
      // by blue read ~15k rows of the blue index for their names (27 ms at 1M listings); 30 seeds with any
      // fade read each seed's ~17k rows for the fade (28 ms, three times: estimate, count, page); a blue
      // figure with a fade one each blue row (25 ms to find none). In the index they are a few ms. Every
      // added column is fixed once a listing is written: no event pays but a creation's wider entries.
      rebuildIndexes(db, (build) => {
        for (const column of RARE_FIGURES) {
          const other = RARE_FIGURES.find((c) => c !== column) as string;
          build(`attrs_${column}`, 'listing_attrs', `${column}, cs_paint_wear, ${ATTRS_INDEXED_WITH_FLOAT}, name_id, ${other}`, `alive = 1 AND ${column} IS NOT NULL`);
        }
        for (const column of ITEM_PATTERN_FIGURES) {
          build(`attrs_${column}`, 'listing_attrs', `${column}, cs_paint_wear, ${ATTRS_FIXED_FIGURES}, name_id, ${RARE_FIGURES.join(', ')}`, `alive = 1 AND ${column} IS NOT NULL`);
        }
        // StatTrak or souvenir, and an item field ("Unusual"), with commodity read each listing's details row
        // for it (Unusual commodities ~20k rows, 22 ms, twice); a flag sorted by float walked the whole float
        // index to count the flag's listings (souvenir non-commodities: 600k entries for 16k, 36 ms).
        for (const flag of PRICED_FLAGS) {
          build(`attrs_${flag}`, 'listing_attrs', 'id, price, commodity, cs_paint_wear', `alive = 1 AND ${flag} = 1`);
        }
        for (const column of V1_INDEXED_STRINGS) {
          build(`attrs_${column}`, 'listing_attrs', `${column} COLLATE NOCASE, commodity`, `alive = 1 AND ${column} IS NOT NULL`);
        }
        // A name with a game or commodity, and a game's non-commodities (commodities have their own index
        // since version 1), were counted by reading each listing row: "knife" in CS2 not a commodity 30k
        // rows, 45 ms; Team Fortress 2 without commodities 70k, 55 ms. A removal leaves one more index.
        build('listings_name', 'listings', 'name_id, app_id, commodity', 'alive = 1');
        build('listings_goods', 'listings', 'app_id', 'alive = 1 AND commodity = 0', true);
      });
    },
    // Readers need not wait: on a file still before it the same filters answer, only slower.
    writerOnly: true,
    // 27 indexes built again or anew, four of them of most listings: about 10 s on a book of a million listings
    lengthy: 'rebuilding the name index and most detail indexes (several seconds for a large book)',
  },
  {
    version: EXTERIOR_INDEX_VERSION,
    description: 'the price in the name index of listings, commodity in their price index; the float, flags, price and name in the sticker count index; the sticker count and name in the StatTrak and souvenir indexes; an index of the exterior (cs_wear)',
    run(db) {
      // Counts that read a row for each candidate because the index that found it lacked one column
      // (~1 µs a row, where an index entry is ~0.03 µs): "AK" in a price band read ~150k listing rows for
      // the price (0.1-0.4 s at 1M listings); a price band without commodities 165k (0.2 s); "any sticker"
      // under a price or sorted by float 100-180k details rows (0.2 s); StatTrak with 3 stickers ~60k
      // (0.1 s). The price makes a reprice rewrite more indexes, the name index of listings and, for a
      // CS listing, the sticker count one (reprices alone ~20 % slower): the name with a price is what
      // traders ask most. The sticker count index keeps every CS listing, not only those with stickers
      // (7 % of a reprice's cost): "no stickers" or "any count" are then a range of it too, where a scan
      // of the name index would take 40 ms.
      // The item fields' indexes keep (field, commodity): with the name after them a creation's entry
      // landed anywhere in its value's run instead of at its end, behind the newest listing (creations
      // alone ~35 % slower in paired runs); a name with a field reads a row for the name instead.
      // The exterior, left unindexed in version 1 as the name and the float hold it, is a filter of the
      // app's own ("Exterior"): "Factory New" scanned every details row (0.13 s) for a count. Its index
      // holds what the float index holds, the price too (a CS reprice rewrites it as well: without the
      // price, "Factory New" with a price read 120k rows, 0.2 s), and its listings in float order, which
      // a float sort walks (query-book.ts).
      rebuildIndexes(db, (build) => {
        build('attrs_cs_wear', 'listing_attrs', `cs_wear COLLATE NOCASE, cs_paint_wear, ${ATTRS_INDEXED_WITH_FLOAT}, name_id`, 'alive = 1 AND cs_wear IS NOT NULL', true);
        build('listings_name', 'listings', 'name_id, app_id, commodity, price', 'alive = 1');
        build('listings_price', 'listings', 'price, id, app_id, name_id, commodity', 'alive = 1');
        build('attrs_sticker_count', 'listing_attrs', 'sticker_count, cs_paint_wear, cs_is_stattrak, cs_is_souvenir, commodity, price, name_id', 'alive = 1 AND sticker_count IS NOT NULL');
        for (const flag of PRICED_FLAGS) {
          build(`attrs_${flag}`, 'listing_attrs', 'id, price, commodity, cs_paint_wear, sticker_count, name_id', `alive = 1 AND ${flag} = 1`);
        }
      });
    },
    // Readers need not wait: on a file still before it the same filters answer, only slower.
    writerOnly: true,
    // 7 indexes built again or anew, two of them of every listing: about 10 s on a book of a million listings
    lengthy: 'rebuilding the name, price and sticker indexes and indexing the exterior (several seconds for a large book)',
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** The oldest schema this build reads as is: every migration after it adds only what the writer uses. */
export const READABLE_SCHEMA_VERSION = MIGRATIONS.reduceRight(
  (oldest, m) => (m.writerOnly && m.version === oldest ? m.version - 1 : oldest),
  SCHEMA_VERSION,
);

export class SchemaVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaVersionError';
  }
}

/** A database file Skindesk did not make: another program's, named by mistake where the book belongs. */
export class NotABookError extends Error {
  constructor(file: string) {
    super(`${file} is not a Skindesk book (it holds other tables)`);
    this.name = 'NotABookError';
  }
}

/**
 * Refuses a database with tables of its own at user_version 0: another program's file (or a desk file,
 * `book.desk.db`), which migrating would fill with the book's schema and switch to WAL. A new file (0
 * bytes, or no tables) stays a new book. Called before anything writes to the file. The version and the
 * tables are read in one statement: a process making the schema this moment commits both together, and a
 * read of one before its commit and the other after would take a new book for a foreign one.
 */
export function refuseForeignDatabase(db: Database.Database, file: string): void {
  const [version, tables] = db
    .prepare(
      "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\')",
    )
    .raw()
    .get() as [number, number];
  if (version === 0 && tables > 0) throw new NotABookError(file);
}

/** A migration that is not instant, about to run on a file with a book in it. */
export interface LengthyStep {
  version: number;
  /** What it does, in plain words ("rebuilding the indexes of the item fields ..."). */
  what: string;
}

export interface MigrateOptions {
  readonly: boolean;
  /**
   * 'readable': only as far as readers need (READABLE_SCHEMA_VERSION), the writer-only migrations left
   * to the book's writer. The app's own connection opens so: the sync worker, the book's only writer,
   * runs the rest off the thread that answers the window, which can show the upgrade meanwhile. A new
   * file is made whole at once (its every step is instant).
   */
  upTo?: 'all' | 'readable';
  /** Told before each lengthy migration runs on a file that holds a book (a new file's are all instant). */
  onLengthyStep?: (step: LengthyStep) => void;
}

/** The words `skindesk sync` and the app's status show while a lengthy step runs. */
export function describeLengthyStep(step: LengthyStep): string {
  return `upgrading the book file: ${step.what}`;
}

/** Whether the file at `version` holds listings: a new one's migrations are instant, said or not. */
function holdsBook(db: Database.Database, version: number): boolean {
  return version > 0 && db.prepare('SELECT EXISTS (SELECT 1 FROM listings)').pluck().get() === 1;
}

export function migrate(db: Database.Database, options: MigrateOptions): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > SCHEMA_VERSION) {
    throw new SchemaVersionError(
      `the database was written by a newer Skindesk (schema ${current}, this build knows ${SCHEMA_VERSION}); update Skindesk or use another --db file`,
    );
  }
  if (current === SCHEMA_VERSION) return;
  if (options.readonly && current >= READABLE_SCHEMA_VERSION && current > 0) return;
  if (options.readonly) {
    throw new SchemaVersionError(
      current === 0
        ? 'the database is empty: run `skindesk sync` first'
        : `the database is at schema ${current} and needs an upgrade: run \`skindesk sync\` once`,
    );
  }
  if (options.upTo === 'readable' && current >= READABLE_SCHEMA_VERSION) return;
  const last = options.upTo === 'readable' && current > 0 ? READABLE_SCHEMA_VERSION : SCHEMA_VERSION;
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > last) continue;
    if (m.lengthy !== undefined && holdsBook(db, current)) options.onLengthyStep?.({ version: m.version, what: m.lengthy });
    db.transaction(() => {
      // Another connection (the app and `skindesk sync` or `watch` opening a new file together) may have
      // run it while this one waited for the write lock: the version read above is stale by then.
      if (Number(db.pragma('user_version', { simple: true })) >= m.version) return;
      if (m.sql !== undefined) db.exec(m.sql);
      m.run?.(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

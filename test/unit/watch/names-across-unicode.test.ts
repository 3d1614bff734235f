/**
 * The watch matcher judges names in JavaScript alone (NameMatcher: both strings folded with foldName,
 * then a substring test), and gives exactly the listings the query engine gives for the same needle (its
 * SQL: the FTS5 trigram index from three characters, a scan of `name_lc` below three and for names not
 * indexed yet), for item and sticker names with characters from across Unicode:
 *
 *  - every character JavaScript gives a case (toLowerCase or toUpperCase changes it): accented letters,
 *    Turkish İ ı, German ß, Greek σ ς Σ, full-width Ａ ａ, Cherokee, Deseret, Adlam...; among them the 459
 *    whose toLowerCase differs from the index's folding;
 *  - U+FFFE and U+FFFF, the other two characters that differ (SQLite reads both as U+FFFD). A scan of
 *    every code point found 461 differing characters in all (Node 24, its bundled SQLite);
 *  - caseless ones: emoji (single, ZWJ sequences, skin tones), ★ ™, CJK, full-width digits, combining
 *    marks, a lone surrogate.
 *
 * A listing is judged as its `listing.created` frame carries it (before the book holds its name: what a
 * listing judged on arrival is) and as the book returns it.
 */
import type { Statement } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryBook } from '../../../src/core/query/index.ts';
import { nameMatch } from '../../../src/core/query/query-book.ts';
import { foldName } from '../../../src/core/store/names.ts';
import {
  ListingReader,
  NameMatcher,
  compileFilter,
  listingFromCreated,
  type WatchedListing,
} from '../../../src/core/watch/matcher.ts';
import type { FullListing, ListingCreatedData } from '../../../src/shared/api/index.ts';
import { exactNameOf, type BookFilter } from '../../../src/shared/query.ts';
import { createRng, createdEvent, makeFullListing, stickerNamed, type Rng } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

/** Every character with a case in JavaScript, and the two noncharacters SQLite reads as U+FFFD. */
function casedCharacters(): string[] {
  const out: string[] = [];
  for (let cp = 0x80; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (ch.toLowerCase() !== ch || ch.toUpperCase() !== ch) out.push(ch);
  }
  return [...out, '\ufffe', '\uffff'];
}

const NAMED = [
  'İstanbul ısırık IŞIK',
  'Straße STRASSE straße ẞ',
  'ΣΟΦΟΣ σοφος σοφός ΌΣΟΣ',
  'ＡＫ－４７ ｜ Ｒｅｄｌｉｎｅ',
  'Émeraude ÉMERAUDE émeraude',
  'Ångström Øre Ærø Œuvre',
  'ǅungla ǆ Ǆ ſtyle',
  'µ-Tech ς Ꭰꭱ ᏸ',
  'Кинжал | Тень ЁЖИК ёжик',
  'ΩMEGA σκιά',
  '★ Karambit | Doppler 🔥',
  'Sticker | 👩‍🚀 crew 👍🏽 ™',
  '龍王 | 刀 １２３',
  'e\u0301clair E\u0301CLAIR',
  'broken \ud83d half',
  'plain ascii',
  'Émeraude Collection',
  'Straße Kämpfer',
  'İstanbul Gloves',
  'ǅungla ſtyle',
  'Кинжал | Тень',
  'µ-Tech ς Ꭰꭱ',
];

/** Needles of the names above written by hand (the rest are cut from the names). */
const WRITTEN = [
  'é',
  'ÉMER',
  'émer',
  'STRASSE',
  'straße',
  'KÄMPF',
  'İst',
  'ist',
  'i̇st',
  'Ω',
  'ωme',
  'ΣΚΙ',
  'σκι',
  'кинж',
  'КИНЖАЛ',
  'ǆung',
  'Ǆung',
  'ſty',
  'sty',
  'İ',
  'µ',
  'μ-t',
  'σ',
  'ς',
  'Ꭰ',
  'ꭰ',
  'ᎠᎡ',
  'ꭰꭱ',
  'ASCII',
  'as',
];

let t: TestStore;
let names: string[] = [];
const listingIds: number[] = [];
/** The names as foldName folds them. */
let folded: string[] = [];
/** Each listing as its creation frame carries it, and as the book returns it. */
let fromFrames: WatchedListing[] = [];
let stored: WatchedListing[] = [];

beforeAll(() => {
  t = openTestStore();
  const chars = casedCharacters();
  // eight characters a name, between ASCII words (trigrams across both kinds)
  for (let at = 0; at < chars.length; at += 8) names.push(`Ab ${chars.slice(at, at + 8).join('')} z${at}`);
  names = [...names, ...NAMED];
  folded = names.map(foldName);
  const rng = createRng(17);
  const events = names.map((name, i) => {
    let base = makeFullListing(rng, i + 1);
    while (base.app_id !== 730) base = makeFullListing(rng, i + 1);
    const listing: FullListing = {
      ...base,
      market_hash_name: name,
      cs_stickers: [stickerNamed(name)],
      cs_keychains: [],
    };
    listingIds.push(listing.id);
    return createdEvent(listing, BigInt(i + 1));
  });
  fromFrames = events.map((e) => listingFromCreated(e.data as ListingCreatedData));
  t.store.applyEvents(events);
  const reader = new ListingReader(t.db);
  stored = listingIds.map((id) => reader.read(id) as WatchedListing);
});
afterAll(() => t.close());

/**
 * Needles cut from the names: every character alone, and pieces of two to five characters (below and
 * from the trigram index's three), each as written, upper-cased, lower-cased and in mixed case.
 */
function needles(rng: Rng): string[] {
  const out = new Set<string>();
  const variants = (s: string) => {
    out.add(s);
    out.add(s.toUpperCase());
    out.add(s.toLowerCase());
    out.add([...s].map((c) => (rng() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join(''));
  };
  for (const name of names) {
    const chars = [...name];
    for (const ch of chars) variants(ch);
    for (let len = 2; len <= 5; len++) {
      for (let at = 0; at + len <= chars.length; at += len === 3 ? 1 : 3)
        variants(chars.slice(at, at + len).join(''));
    }
  }
  // across two names (matches nothing, or something by chance), and pieces of the folded forms
  for (let i = 0; i + 1 < names.length; i += 7)
    variants(
      `${[...(names[i] as string)].slice(-3).join('')}${[...(names[i + 1] as string)].slice(0, 2).join('')}`,
    );
  for (const name of NAMED) variants(foldName(name).slice(0, 6));
  for (const needle of WRITTEN) out.add(needle);
  // quoted: the whole name (exactNameOf), as written and in the other case; a piece quoted matches nothing
  for (const name of NAMED) {
    out.add(`"${name}"`);
    out.add(`"${name.toUpperCase()}"`);
    out.add(`"${[...name].slice(0, 4).join('')}"`);
  }
  return [...out].filter((n) => n.trim().length > 0);
}

/** The listings the query engine returns for a filter (ids in order, joined). */
const engineIds = (filter: BookFilter): string =>
  queryBook(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 1000 })
    .rows.map((r) => r.id)
    .join(',');

const statements = new Map<string, Statement>();

/** The listings whose name the engine's own name condition (`nameMatch`, in every name filter's SQL) selects. */
function engineNameIds(table: 'item_names' | 'sticker_names', needle: string): string {
  const m = nameMatch(t.db, table, needle);
  const sql =
    table === 'item_names'
      ? `SELECT id FROM listings WHERE name_id IN (${m.sql}) ORDER BY id`
      : `SELECT listing_id FROM listing_stickers WHERE name_id IN (${m.sql}) ORDER BY listing_id`;
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = t.db.prepare(sql).pluck()));
  return (statement.all(...m.params) as number[]).join(',');
}

/** What the watch matcher accepts, in JavaScript alone (ids in order, joined). */
function matcherIds(matcher: NameMatcher, filter: BookFilter, listings: readonly WatchedListing[]): string {
  const test = compileFilter(filter, matcher);
  return listings
    .filter((l) => test(l))
    .map((l) => l.id)
    .join(',');
}

/**
 * The matcher's name test, `foldName(name).includes(foldName(needle))` (equality for a quoted needle), with the names folded once: the
 * matcher itself folds every name again for every needle (its memory is per needle), about a microsecond
 * each, too slow to run on all ~29k needles here.
 */
function foldedIds(needle: string): string {
  const exact = exactNameOf(needle);
  const f = foldName(exact ?? needle);
  return folded
    .map((name, i) => ((exact === null ? name.includes(f) : name === f) ? listingIds[i] : null))
    .filter((id) => id !== null)
    .join(',');
}

/**
 * Every needle against the engine's name condition for item and sticker names, judged by the matcher's
 * name test; one in eight through the matcher itself (compileFilter over the listings as their frames
 * carry them and as the book returns them); one in forty also through queryBook (a book query costs
 * about a millisecond here).
 */
function differences(list: readonly string[]): string[] {
  const out: string[] = [];
  list.forEach((needle, i) => {
    const byName: BookFilter = { name: needle };
    const bySticker: BookFilter = { stickers: { all: [{ name: needle }] } };
    const checks: [BookFilter, string, string][] = [
      [byName, 'item_names', engineNameIds('item_names', needle)],
      [bySticker, 'sticker_names', engineNameIds('sticker_names', needle)],
    ];
    if (i % 40 === 0)
      for (const filter of [byName, bySticker]) checks.push([filter, 'queryBook', engineIds(filter)]);
    const expected = foldedIds(needle);
    for (const [filter, engine, ids] of checks)
      if (ids !== expected)
        out.push(`${JSON.stringify(filter)}: ${engine} ${ids || '-'}, name test ${expected || '-'}`);
    if (i % 8 !== 0) return;
    const matcher = new NameMatcher();
    for (const [filter, listings, what] of [
      [byName, fromFrames, 'frames'],
      [bySticker, fromFrames, 'frames'],
      [byName, stored, 'stored listings'],
    ] as const) {
      const judged = matcherIds(matcher, filter, listings);
      if (judged !== expected)
        out.push(`${JSON.stringify(filter)}: matcher on ${what} ${judged || '-'}, engine ${expected || '-'}`);
    }
  });
  return out;
}

describe('name filters across Unicode: the watch matcher agrees with the query engine', () => {
  it('covers the characters whose folding once differed', () => {
    const chars = casedCharacters();
    expect(chars.length).toBeGreaterThan(2_500);
    // the characters JavaScript's toLowerCase folds differently from the index (461 here)
    expect(chars.filter((ch) => foldName(ch) !== ch.toLowerCase()).length).toBeGreaterThan(400);
  });

  // about 8 s on a quiet 2-core machine: give it room when the machine is busy
  it(
    'for names still scanned (not indexed yet) and for names in the trigram index',
    { timeout: 120_000 },
    () => {
      const list = needles(createRng(5));
      expect(list.length).toBeGreaterThan(20_000);
      expect(t.db.prepare('SELECT indexed_upto FROM name_index_state').pluck().all()).toEqual([0, 0]);
      expect(differences(list)).toEqual([]);
      while (t.store.indexNames(1_000) > 0);
      const unindexed = (table: string) =>
        t.db
          .prepare(
            `SELECT count(*) FROM ${table} WHERE name_id > (SELECT indexed_upto FROM name_index_state WHERE name_table = ?)`,
          )
          .pluck()
          .get(table);
      expect([unindexed('item_names'), unindexed('sticker_names')]).toEqual([0, 0]);
      expect(differences(list)).toEqual([]);
      // and the answers are not trivially empty
      const matched = list.filter((n) => engineNameIds('item_names', n) !== '').length;
      expect(matched).toBeGreaterThan(list.length / 2);
    },
  );
});

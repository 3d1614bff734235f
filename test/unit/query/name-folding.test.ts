/**
 * Name search with characters whose case folding differs between SQLite's FTS5 and JavaScript (İ, µ, ſ,
 * ς, Cherokee, some Cyrillic): one answer whether a name is already in the trigram index or still scanned
 * (names above indexed_upto, and every name for needles under three characters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryBook } from '../../../src/core/query/index.ts';
import type { FullListing } from '../../../src/shared/api/index.ts';
import type { BookFilter } from '../../../src/shared/query.ts';
import { createRng, createdEvent, makeFullListing, stickerNamed } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

const NAMES = [
  'İstanbul Gloves',
  'istanbul knife',
  'µ-Tech Scope',
  'μ-tech scope',
  'ſtyle Points',
  'Style points',
  'ΣΟΦΟΣ σοφος σοφός',
  'Cherokee ᎠᎡᎢ Ꮳ',
  'cherokee ꭰꭱꭲ ꮳ',
  'Ԩԩ Ԫԫ Komi',
  'Straße Kämpfer',
  'Émeraude ÉMERAUDE',
  'ǅungla ǆ Ǆ',
  'plain ascii',
];

let t: TestStore;
const ids: number[] = [];

beforeAll(() => {
  t = openTestStore();
  const rng = createRng(11);
  const events = NAMES.map((name, i) => {
    let base = makeFullListing(rng, i + 1);
    while (base.app_id !== 730) base = makeFullListing(rng, i + 1);
    const listing: FullListing = { ...base, market_hash_name: name, cs_stickers: [stickerNamed(name)] };
    ids.push(listing.id);
    return createdEvent(listing, BigInt(i + 1));
  });
  t.store.applyEvents(events);
});
afterAll(() => t.close());

/** Needles: every substring of every name of one to five characters, in its own case, upper and lower. */
function needles(): string[] {
  const out = new Set<string>();
  const rng = createRng(3);
  for (const name of NAMES) {
    const chars = [...name];
    for (let len = 1; len <= 5; len++)
      for (let at = 0; at + len <= chars.length; at++) {
        const s = chars.slice(at, at + len).join('');
        out.add(s);
        out.add(s.toLowerCase());
        out.add(s.toUpperCase());
        out.add([...s].map((c) => (rng() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join(''));
      }
  }
  for (const extra of [
    'i̇st',
    'ist',
    'İST',
    'σοφοσ',
    'ς',
    'µ-t',
    'μ-T',
    'ſty',
    'sty',
    'ꭰꭱꭲ',
    'ᎠᎡᎢ',
    'ԩ',
    'Ԩԩ',
    'ԩԩ ',
  ])
    out.add(extra);
  return [...out].filter((n) => n.trim().length > 0);
}

function answers(): Map<string, string> {
  const out = new Map<string, string>();
  for (const needle of needles()) {
    const filters: BookFilter[] = [{ name: needle }, { stickers: { all: [{ name: needle }] } }];
    for (const filter of filters) {
      const found = queryBook(t.db, { filter, sort: { field: 'id', dir: 'asc' }, limit: 100 }).rows.map(
        (r) => r.id,
      );
      out.set(JSON.stringify(filter), found.join(','));
    }
  }
  return out;
}

describe('name search folds case the same way through the trigram index and the scan of new names', () => {
  it('gives the same listings before and after the names are indexed', () => {
    expect(t.db.prepare('SELECT indexed_upto FROM name_index_state').pluck().all()).toEqual([0, 0]);
    const before = answers();
    while (t.store.indexNames(1_000) > 0);
    expect(t.db.prepare('SELECT indexed_upto FROM name_index_state').pluck().all()).not.toEqual([0, 0]);
    const after = answers();
    const differing = [...before]
      .filter(([k, v]) => after.get(k) !== v)
      .map(([k, v]) => `${k}: ${v} then ${after.get(k)}`);
    expect(differing).toEqual([]);
    // the plain cases still match as before
    expect(before.get(JSON.stringify({ name: 'ASCII' }))).toBe(String(ids[NAMES.indexOf('plain ascii')]));
    expect(before.get(JSON.stringify({ name: 'ÉMER' }))).toBe(
      String(ids[NAMES.indexOf('Émeraude ÉMERAUDE')]),
    );
  });
});

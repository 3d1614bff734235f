/**
 * `skindesk sales` as a user runs it (a child process on a mirror file): the sales the mirror applied,
 * oldest first, the float, seed and stickers of items whose details it knew, the filters, CSV, and
 * flags it refuses.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookStore, mergeSnapshot, openDatabase } from '../../../src/core/store/index.ts';
import type { FullListing, LeanListing } from '../../../src/shared/api/index.ts';
import { BASE_TIME_MS, createRng, createdEvent, dopplerListing, makeFullListing, soldEvent } from '../../bench/generate.ts';
import { lean, tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const HOUR = 3_600_000;
let dir: { dir: string; remove(): void };
let dbFile: string;
let skin: FullListing;
let ruby: FullListing;

const sales = (...args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, 'sales', '--db', dbFile, ...args], { encoding: 'utf8' });
  return {
    code: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    rows: () =>
      run.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
};

beforeAll(async () => {
  dir = tempDir('skindesk-sales-');
  dbFile = join(dir.dir, 'book.db');
  const rng = createRng(5);
  // a CS2 skin with stickers, created by an event (so its details are known when it sells)
  do skin = makeFullListing(rng, 500);
  while (skin.app_id !== 730 || !skin.cs_stickers?.length);
  const db = openDatabase(dbFile);
  const store = new BookStore(db);
  const case1: LeanListing = lean(1, {
    market_hash_name: 'Revolution Case',
    price: 55,
    amount: 10,
    commodity: true,
  });
  const rug: LeanListing = lean(2, { app_id: 252490, market_hash_name: 'Ödland Sunset Rug', price: 62 });
  await mergeSnapshot(store, { seq: 100n, listings: [case1, rug] }, { scope: null, resync: false });
  ruby = { ...dopplerListing(rng, 600, 90_000, 415), cs_paint_wear: 0.0123 };
  store.applyEvents([createdEvent(skin, 101n), createdEvent(ruby, 105n)]);
  store.applyEvents([
    soldEvent(ruby, 1, 106n, BASE_TIME_MS + 4 * HOUR),
    soldEvent(rug, 1, 104n, BASE_TIME_MS + 3 * HOUR),
    soldEvent(case1, 4, 102n, BASE_TIME_MS + 1 * HOUR),
    soldEvent({ ...skin, market_hash_name: skin.market_hash_name }, 1, 103n, BASE_TIME_MS + 2 * HOUR),
  ]);
  db.close();
});

afterAll(() => dir.remove());

describe('skindesk sales', () => {
  it('prints every recorded sale oldest first, with the float, seed and stickers of detailed items', () => {
    const run = sales();
    expect(run.code, run.stderr).toBe(0);
    const rows = run.rows();
    expect(rows.map((r) => r.listing_id)).toEqual([1, 500, 2, 600]);
    expect(rows[0]).toEqual({
      listing_id: 1,
      app_id: 730,
      market_hash_name: 'Revolution Case',
      price: 55,
      amount: 4,
      listed_at: '2026-01-01T00:00:00.000Z',
      sold_at: new Date(BASE_TIME_MS + HOUR).toISOString(),
      paint_wear: null,
      paint_seed: null,
      paint_index: null,
      stickers: null,
    });
    expect(rows[1]).toMatchObject({
      listing_id: 500,
      market_hash_name: skin.market_hash_name,
      paint_wear: skin.cs_paint_wear,
      paint_seed: skin.cs_paint_seed,
      paint_index: skin.cs_paint_index,
      stickers: skin.cs_stickers,
    });
  });

  it('filters by game, by name and by time, and prints CSV with a header', () => {
    expect(
      sales('--app-id', '252490')
        .rows()
        .map((r) => r.listing_id),
    ).toEqual([2]);
    expect(
      sales('--name', 'revolution')
        .rows()
        .map((r) => r.listing_id),
    ).toEqual([1]);
    // a typed % is a character, not a wildcard
    expect(sales('--name', '%').rows()).toEqual([]);
    // case-insensitive beyond ASCII too, as the sales tape and the book's search are
    for (const needle of ['ödland', 'ÖDLAND', 'Ödland sunset'])
      expect(
        sales('--name', needle)
          .rows()
          .map((r) => r.listing_id),
        needle,
      ).toEqual([2]);
    const since = new Date(BASE_TIME_MS + 2 * HOUR).toISOString();
    expect(
      sales('--since', since)
        .rows()
        .map((r) => r.listing_id),
    ).toEqual([500, 2, 600]);
    expect(
      sales('--since', '2026-01-01', '--until', since)
        .rows()
        .map((r) => r.listing_id),
    ).toEqual([1]);

    const csv = sales('--format', 'csv').stdout.trim().split('\n');
    expect(csv[0]).toBe(
      'listing_id,app_id,market_hash_name,price,amount,listed_at,sold_at,paint_wear,paint_seed,paint_index,stickers',
    );
    expect(csv).toHaveLength(5);
    expect(csv[1]).toBe(
      `1,730,Revolution Case,55,4,2026-01-01T00:00:00.000Z,${new Date(BASE_TIME_MS + HOUR).toISOString()},,,,`,
    );
    // stickers as JSON in one quoted field
    expect(csv[2]).toContain(`"${JSON.stringify(skin.cs_stickers).replace(/"/g, '""')}"`);
  });

  it('filters by float and by Doppler phase (sales of items whose details the mirror had)', () => {
    const ids = (...args: string[]) =>
      sales(...args)
        .rows()
        .map((r) => r.listing_id);
    const wear = skin.cs_paint_wear!;
    expect(ids('--float-min', String(wear), '--float-max', String(wear))).toEqual([500]);
    // the case and the rug have no float: never in a float range
    expect(ids('--float-max', '0.07')).toEqual([...(wear <= 0.07 ? [500] : []), 600]);
    expect(ids('--float-min', '0.5')).toEqual(wear >= 0.5 ? [500] : []);
    expect(ids('--phase', 'ruby')).toEqual([600]);
    expect(ids('--phase', 'p2', '--phase', 'Ruby', '--float-max', '0.02')).toEqual([600]);
    expect(ids('--phase', 'p2')).toEqual([]);
  });

  it('refuses bad flags with the reason and exit 2', () => {
    for (const [args, reason] of [
      [['--since', 'yesterday'], /must be a date/],
      [['--since', '2026-02-30'], /not a real date|must be a date/],
      [['--since', '2026-02-01', '--until', '2026-01-01'], /--since must be before --until/],
      [['--app-id', '7'], /must be one of/],
      [['--format', 'xml'], /format/],
      [['--phase', 'p5'], /must be a Doppler phase/],
      [['--float-max', '1.5'], /from 0 to 1/],
      [['--float-min', '0.5', '--float-max', '0.1'], /--float-min must not exceed --float-max/],
    ] as const) {
      const run = sales(...args);
      expect(run.code, run.stdout).toBe(2);
      expect(run.stderr).toMatch(reason);
      expect(run.stdout).toBe('');
    }
  });
});

/**
 * `skindesk watch` end to end, as a separate process against the demo market: the whole-book check of
 * each watchlist prints exactly the listings that `skindesk search` returns for the same filter and price
 * condition (a ceiling, and N % below the 30-day average, the recommended price and the cheapest other
 * listing, with the references read from the same database); a new listing on the market is a match
 * line and, with --auto-buy, a purchase line; SIGTERM stops it with exit code 0.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/store/index.ts';
import { attachDesk } from '../../../src/core/store/desk.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { phaseOfPaintIndex } from '../../../src/shared/phases.ts';
import { type PriceCondition, type WatchlistInput, priceCeiling } from '../../../src/shared/watchlist.ts';
import { damageBookFile } from '../../unit/store/helpers.ts';
import { autoWatchlist, itemNames, startQuietMarket, tempDb, waitFor } from './rig.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/skindesk.mjs');

let demo: DemoMarket;
let tmp: ReturnType<typeof tempDb>;
let child: ChildProcess;
const lines: Record<string, unknown>[] = [];
let stderr = '';
let autoItem: { name: string; price: number };
let blockedItem: { name: string; price: number };

/** The watchlists and the `skindesk search` flags that express the same filter. */
const CASES: { input: WatchlistInput; searchFlags: string[] }[] = [
  { input: { name: 'ceiling, short name', filter: { name: 'ak' }, price: { kind: 'ceiling', max_price: 4_000 } }, searchFlags: ['--name', 'ak'] },
  { input: { name: 'ceiling, long name', filter: { name: 'Case', price: { min: 100 } }, price: { kind: 'ceiling', max_price: 900 } }, searchFlags: ['--name', 'Case', '--min-price', '100'] },
  { input: { name: 'below average', filter: { app_id: 730 }, price: { kind: 'below', reference: 'average_30d', percent: 10 } }, searchFlags: ['--app-id', '730'] },
  { input: { name: 'below recommended', filter: { app_id: 570 }, price: { kind: 'below', reference: 'recommended', percent: 7.5 } }, searchFlags: ['--app-id', '570'] },
  { input: { name: 'below cheapest other', filter: {}, price: { kind: 'below', reference: 'cheapest_other', percent: 12.25 } }, searchFlags: [] },
];

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`skindesk ${args[0]} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}
const jsonl = (text: string) => text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

function spawnWatch(args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, 'watch', '--base-url', demo.baseUrl, ...args], {
    env: { ...process.env, SKINDESK_API_KEY: demo.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  demo = await startQuietMarket({ listings: 2_500, seed: 23 });
  tmp = tempDb();
  [autoItem, blockedItem] = itemNames(demo, 2) as [{ name: string; price: number }, { name: string; price: number }];
  const file = join(tmp.dir, 'watchlists.json');
  writeFileSync(file, JSON.stringify({ watchlists: [...CASES.map((c) => c.input), autoWatchlist('snipe', autoItem.name, 1_000), autoWatchlist('guarded', blockedItem.name, 1_000, { max_price: 500 })] }));
  child = spawnWatch(['--watchlists', file, '--auto-buy', '--db', tmp.file]);
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as Record<string, unknown>);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await waitFor(() => /live/.test(stderr), 30_000, `the watch to go live (stderr: ${stderr})`);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  await demo?.close();
  tmp?.remove();
});

/** The watch's database, read-only, with the desk file beside it (the price caches live there). */
function openMirrorWithDesk() {
  const db = openDatabase(tmp.file, { readonly: true });
  attachDesk(db, tmp.file);
  return db;
}

/** What `skindesk search` returns for a case, narrowed by its price condition (references from the db). */
function expectedIds(c: (typeof CASES)[number]): number[] {
  const rows = jsonl(cli(['search', '--db', tmp.file, ...c.searchFlags, '--sort', 'id', '--limit', '1000000']));
  const condition = c.input.price as PriceCondition;
  const db = openMirrorWithDesk();
  try {
    // every listing with its paint index (search prints it; book prints the lean fields only): a Doppler's
    // cheapest other is the cheapest of its own phase
    const book =
      condition.kind === 'below' && condition.reference === 'cheapest_other'
        ? jsonl(cli(['search', '--db', tmp.file, '--sort', 'id', '--limit', '1000000']))
        : [];
    const reference = (row: Record<string, unknown>): number | null => {
      if (condition.kind === 'ceiling') return null;
      const name = row.market_hash_name as string;
      if (condition.reference === 'average_30d') {
        return (db.prepare('SELECT average_price FROM sale_averages WHERE app_id = ? AND market_hash_name = ?').pluck().get(row.app_id, name) as number | undefined) ?? null;
      }
      if (condition.reference === 'recommended') {
        return (db.prepare('SELECT recommended_price FROM prices WHERE app_id = ? AND market_hash_name = ?').pluck().get(row.app_id, name) as number | undefined) ?? null;
      }
      const phase = row.app_id === 730 ? phaseOfPaintIndex(row.paint_index as number | null) : null;
      const others = book
        .filter((b) => b.market_hash_name === name && b.id !== row.id)
        .filter((b) => phase === null || phaseOfPaintIndex(b.paint_index as number | null) === phase)
        .map((b) => b.price as number);
      return others.length === 0 ? null : Math.min(...others);
    };
    return rows
      .filter((row) => {
        const ceiling = priceCeiling(condition, reference(row));
        return ceiling !== null && (row.price as number) <= ceiling;
      })
      .map((row) => row.id as number);
  } finally {
    db.close();
  }
}

const sweepIds = (name: string) =>
  lines
    .filter((l) => l.type === 'match' && l.origin === 'sweep' && l.watchlist === name)
    .map((l) => l.listing_id as number)
    .sort((a, b) => a - b);

describe('skindesk watch', () => {
  it('checks the whole book: each watchlist matches exactly what skindesk search returns for it', async () => {
    // the reference prices are fetched by the watch itself; wait until both caches are in the database
    await waitFor(() => {
      const db = openMirrorWithDesk();
      try {
        const n = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
        return n('sale_averages') > 0 && n('prices') > 0;
      } finally {
        db.close();
      }
    }, 30_000, 'the price caches');
    for (const c of CASES) {
      const expected = expectedIds(c);
      expect(expected.length, `${c.input.name} should select something`).toBeGreaterThan(0);
      await waitFor(() => sweepIds(c.input.name).join() === expected.join(), 20_000, `${c.input.name}: ${sweepIds(c.input.name).length} of ${expected.length} matches`).catch(() => {});
      expect(sweepIds(c.input.name), c.input.name).toEqual(expected);
    }
    // every line carries the contract's fields
    const sample = lines.find((l) => l.type === 'match');
    expect(Object.keys(sample ?? {}).sort()).toEqual(
      ['type', 'watchlist_id', 'watchlist', 'listing_id', 'app_id', 'market_hash_name', 'price', 'amount', 'seq', 'ceiling', 'reference_price', 'origin'].sort(),
    );
  }, 120_000);

  it('a new matching listing is a match line and, with --auto-buy, a purchase line', async () => {
    const before = lines.length;
    const listing = demo.createListing({ name: autoItem.name, price: 777 });
    await waitFor(() => lines.some((l) => l.type === 'purchase' && l.listing_id === listing.listing.id), 20_000, 'the purchase line');
    const mine = lines.slice(before).filter((l) => l.listing_id === listing.listing.id);
    // (so cheap a listing also matches "below cheapest other", which only alerts)
    const match = mine.find((l) => l.type === 'match' && l.watchlist === 'snipe');
    expect(match).toMatchObject({ origin: 'event', price: 777 });
    const purchases = mine.filter((l) => l.type === 'purchase');
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({ watchlist_id: match!.watchlist_id, status: 'bought', max_price: 777, amount: 1, seq: match!.seq, reason: null, error: null });
    expect(typeof purchases[0]!.order_id).toBe('number');
    expect(demo.state.listing(listing.listing.id)?.status).not.toBe('ACTIVE');
  }, 60_000);

  it('prints the match line first, then the purchase line of what became of it (a guardrail blocked it)', async () => {
    const listing = demo.createListing({ name: blockedItem.name, price: 800 });
    const mine = () => lines.filter((l) => l.listing_id === listing.listing.id);
    await waitFor(() => mine().some((l) => l.type === 'purchase'), 20_000, 'the purchase line');
    await waitFor(() => mine().some((l) => l.type === 'match' && l.watchlist === 'guarded'), 5_000, 'the match line').catch(() => {});
    const ofGuarded = mine().filter((l) => l.watchlist === 'guarded' || l.type === 'purchase');
    expect(ofGuarded.map((l) => l.type)).toEqual(['match', 'purchase']);
    expect(ofGuarded[1]).toMatchObject({ status: 'blocked', seq: ofGuarded[0]!.seq, order_id: null, reason: expect.stringMatching(/^max_price: /) });
    expect(demo.state.listing(listing.listing.id)?.status).toBe('ACTIVE');
  }, 60_000);

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);

  it('ends with exit code 1 and says what to do when its book is damaged under it', async () => {
    const own = tempDb();
    try {
      const file = join(own.dir, 'watchlists.json');
      writeFileSync(file, JSON.stringify({ watchlists: [CASES[0]!.input] }));
      const watch = spawnWatch(['--watchlists', file, '--db', own.file]);
      let err = '';
      watch.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      const exited = new Promise<number | null>((r) => watch.once('exit', (code) => r(code)));
      await waitFor(() => /live/.test(err), 30_000, `the second watch to go live (stderr: ${err})`);
      damageBookFile(own.file);
      demo.runActivity(300);
      demo.flushFeed();
      expect(await exited).toBe(1);
      expect(err).toMatch(
        /skindesk watch: the book file is damaged \(database disk image is malformed\): move it away \(or delete it\), then `skindesk sync` reads the book again\n$/,
      );
    } finally {
      own.remove();
    }
  }, 60_000);
});

/**
 * End to end, as a user runs it: `skindesk sync` (a real child process, its sync worker, the REST client
 * and the WebSocket) against the demo market with reordering and duplicates on; then `skindesk book`
 * must print exactly the server's own book and `skindesk status` its seq.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoMarket, type DemoMarket } from '../../../src/demo/index.ts';
import type { LeanListing } from '../../../src/shared/api/index.ts';
import { readMirrorStatus, tempDir } from '../../unit/store/helpers.ts';
import { eventually } from './fake-market.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

let demo: DemoMarket;
let dir: { dir: string; remove(): void };
let dbFile: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  demo = await startDemoMarket({ port: 0, listings: 4_000, rate: 400, reorder: 0.1, duplicate: 0.1, seed: 11 });
  dir = tempDir('skindesk-e2e-');
  dbFile = join(dir.dir, 'book.db');
});

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await demo.close();
  dir.remove();
});

function cli(args: string[], env: Record<string, string> = {}): ChildProcess & { output: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const output = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return Object.assign(child, { output });
}

/** The mirror's state read by the test itself (read-only, while the sync writes). */
const mirrorStatus = () => readMirrorStatus(dbFile);

/**
 * `skindesk sync` of `market` into the test's file until `mirrored` holds, then stopped with SIGTERM; its
 * output. Until the book is there, not for a fixed time: a busy machine once took more than 2 s to load it.
 */
async function syncUntil(market: DemoMarket, mirrored: () => boolean, what: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const sync = cli(['sync', '--base-url', market.baseUrl, '--db', dbFile], { SKINDESK_API_KEY: market.apiKey });
  await eventually(mirrored, what, 20_000);
  sync.kill('SIGTERM');
  return sync.output;
}

const lean = (l: LeanListing) => ({
  id: l.id,
  app_id: l.app_id,
  market_hash_name: l.market_hash_name,
  price: l.price,
  amount: l.amount,
  commodity: l.commodity,
  created_at: l.created_at,
});

describe('skindesk sync against the demo market', () => {
  it('mirrors the book exactly despite reordered and duplicated events, and stops cleanly on SIGTERM', async () => {
    const sync = cli(['sync', '--base-url', demo.baseUrl, '--db', dbFile], { SKINDESK_API_KEY: demo.apiKey });
    await eventually(() => (mirrorStatus()?.listings ?? 0) > 0, 'the snapshot loaded', 20_000);
    // Let the live feed (with reordering and duplicates) run, then quiesce the market.
    await new Promise((r) => setTimeout(r, 2_000));
    demo.pauseActivity();
    demo.flushFeed();
    const finalSeq = demo.state.seq().toString();
    await eventually(() => mirrorStatus()?.last_seq === finalSeq, 'the mirror caught up with the last seq', 20_000);
    sync.kill('SIGTERM');
    const ran = await sync.output;
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/live/);
    expect(ran.stderr).toMatch(/stopping/);

    const printed = await cli(['book', '--db', dbFile]).output;
    expect(printed.code, printed.stderr).toBe(0);
    const mirrored = printed.stdout.trim().split('\n').map((line) => JSON.parse(line) as LeanListing);
    const truth = demo.state
      .book()
      .listings.map(lean)
      .sort((a, b) => a.id - b.id);
    expect(mirrored.length).toBe(truth.length);
    expect(mirrored).toEqual(truth);
    // toEqual ignores key order; the lines are a contract scripts read, in the spec's field order
    const leanOrder = ['id', 'app_id', 'market_hash_name', 'price', 'amount', 'commodity', 'created_at'];
    expect(new Set(mirrored.map((row) => Object.keys(row).join()))).toEqual(new Set([leanOrder.join()]));

    const status = JSON.parse((await cli(['status', '--db', dbFile]).output).stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ last_seq: finalSeq, listings: truth.length });
    // The last progress line is the run's summary: its counts are the file's, not a count from a while ago.
    const summary = /stopped · ([\d,]+) listings · details ([\d,]+)\/([\d,]+)(?: \(ETA [^)]*\))? · seq (\d+)/.exec(ran.stderr.trim().split('\n').at(-1) ?? '');
    const figure = (text: string | undefined) => Number(text?.replaceAll(',', ''));
    expect(summary, ran.stderr).not.toBeNull();
    expect([figure(summary?.[1]), figure(summary?.[2]), figure(summary?.[3]), summary?.[4]]).toEqual([
      status.listings,
      status.detailed,
      status.listings,
      finalSeq,
    ]);
    expect(Object.keys(status)).toEqual([
      'last_seq',
      'listings',
      'detailed',
      'tombstones',
      'last_snapshot_at',
      'resyncs',
      'divergence_repaired',
    ]);
  });

  it('stops by itself after --duration and exits 0; book prints CSV with a header', async () => {
    // a book in the file first, so what the timed run leaves is a book however long its loading would take
    const loaded = await syncUntil(demo, () => (mirrorStatus()?.listings ?? 0) > 0, 'the book loaded');
    expect(loaded.code, loaded.stderr).toBe(0);
    const started = Date.now();
    const ran = await cli(['sync', '--base-url', demo.baseUrl, '--db', dbFile, '--duration', '3'], {
      SKINDESK_API_KEY: demo.apiKey,
    }).output;
    expect(ran.code, ran.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    const csv = (await cli(['book', '--db', dbFile, '--format', 'csv', '--app-id', '730']).output).stdout.trim().split('\n');
    expect(csv[0]).toBe('id,app_id,market_hash_name,price,amount,commodity,created_at');
    expect(csv.length).toBeGreaterThan(1);
    expect(csv.slice(1).every((line) => line.split(',')[1] === '730')).toBe(true);
  });

  it('a book file synced from another marketplace starts a fresh mirror of the new one', async () => {
    const first = await syncUntil(demo, () => (mirrorStatus()?.listings ?? 0) > 0, 'the first marketplace mirrored');
    expect(first.code, first.stderr).toBe(0);
    // another marketplace: other listings under the same ids, and seqs far below the first one's
    const other = await startDemoMarket({ port: 0, listings: 1_500, rate: 0, seed: 12, seqStart: 1_000n });
    try {
      const otherSeq = other.state.seq().toString();
      const ran = await syncUntil(other, () => mirrorStatus()?.last_seq === otherSeq, 'the second marketplace mirrored');
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toContain(`the book mirrored ${demo.baseUrl}: starting a fresh mirror of ${other.baseUrl}`);
      const printed = await cli(['book', '--db', dbFile]).output;
      const mirrored = printed.stdout.trim().split('\n').map((line) => JSON.parse(line) as LeanListing);
      const truth = other.state.book().listings.map(lean).sort((a, b) => a.id - b.id);
      expect(mirrored).toEqual(truth);
      const status = JSON.parse((await cli(['status', '--db', dbFile]).output).stdout) as Record<string, unknown>;
      expect(status).toMatchObject({ last_seq: other.state.seq().toString(), listings: truth.length, tombstones: 0, resyncs: 0 });
    } finally {
      await other.close();
    }
  });

  it('stops with exit 1 when the marketplace refuses the key', async () => {
    const ran = await cli(['sync', '--base-url', demo.baseUrl, '--db', dbFile, '--duration', '20'], {
      SKINDESK_API_KEY: 'wrong-key-123',
    }).output;
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/API key/);
  });
});

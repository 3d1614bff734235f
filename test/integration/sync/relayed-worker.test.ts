/**
 * The sync worker with its feed relayed through the host (what the app and `skindesk watch` run): the
 * host holds the socket and sees each new listing before the worker applies it, the worker's book ends
 * equal to the market's, and the bundled worker of the Electron build (out/main/sync-worker.js, made by
 * `npm run build`, which npm test runs first) does the same as the source one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { iterateBook, openDatabase } from '../../../src/core/store/index.ts';
import { MirrorWorker, type MirrorWorkerOptions } from '../../../src/core/sync/mirror-worker.ts';
import { damageBookFile } from '../../unit/store/helpers.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import type { ListingEvent } from '../../../src/shared/api/index.ts';
import { waitFor } from '../../shared/wait-for.ts';

const BUNDLED_WORKER = join(import.meta.dirname, '../../../out/main/sync-worker.js');

let demo: DemoMarket | null = null;
let mirror: MirrorWorker | null = null;
let dir: string | null = null;
afterEach(async () => {
  await mirror?.stop();
  await demo?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  mirror = demo = dir = null;
});

async function followDemo(workerFile?: URL, backfill: MirrorWorkerOptions['backfill'] = false) {
  demo = await startDemoMarket({ port: 0, listings: 800, rate: 0, seed: 5, reorder: 0.3, duplicate: 0.3, rateLimits: false });
  dir = mkdtempSync(join(tmpdir(), 'skindesk-relay-'));
  const dbPath = join(dir, 'book.db');
  mirror = new MirrorWorker({
    dbPath,
    baseUrl: demo.baseUrl,
    wsUrl: demo.wsUrl,
    apiKey: demo.apiKey,
    engine: { firstEventWaitMs: 50, pingIntervalMs: 500, livenessTimeoutMs: 5_000 },
    backfill,
    relayFeed: true,
    forwardApplied: true,
    ...(workerFile ? { workerFile } : {}),
  });
  const received: number[] = [];
  const applied: ListingEvent[] = [];
  mirror.on('received', (event) => received.push(event.data.listing_id));
  mirror.on('applied', (events) => applied.push(...events));
  mirror.start();
  await waitFor(() => mirror!.status?.state === 'live', 20_000, 'the book going live');
  return { dbPath, received, applied };
}

function bookOf(dbPath: string): { id: number; price: number; amount: number }[] {
  const db = openDatabase(dbPath, { readonly: true });
  try {
    return [...iterateBook(db, {})].map((l) => ({ id: l.id, price: l.price, amount: l.amount }));
  } finally {
    db.close();
  }
}

const serverBook = () =>
  demo!.state
    .book()
    .listings.map((l) => ({ id: l.id, price: l.price, amount: l.amount }))
    .sort((a, b) => a.id - b.id);

describe('the sync worker with a relayed feed', () => {
  it('hands the host each new listing on arrival, then applies the feed to a book equal to the market', async () => {
    const { dbPath, received, applied } = await followDemo();
    demo!.runActivity(300);
    const fresh = demo!.createListing({ price: 4_321 });
    demo!.flushFeed();
    await waitFor(() => mirror!.status?.lastSeq === String(demo!.state.seq()), 10_000, 'the worker catching up');

    expect(received).toContain(fresh.listing.id);
    // each creation reached the host once per frame, duplicates included, but changed the book once
    expect(applied.filter((e) => e.event === 'listing.created' && e.data.listing_id === fresh.listing.id)).toHaveLength(1);
    await mirror!.stop();
    expect(bookOf(dbPath)).toEqual(serverBook());
  }, 60_000);

  it('runs the same from the bundled worker of the Electron build', async () => {
    expect(existsSync(BUNDLED_WORKER), `${BUNDLED_WORKER} is missing: run \`npm run build\` first`).toBe(true);
    const { dbPath, received } = await followDemo(pathToFileURL(BUNDLED_WORKER));
    const fresh = demo!.createListing({ price: 1_234 });
    demo!.runActivity(100);
    demo!.flushFeed();
    await waitFor(() => mirror!.status?.lastSeq === String(demo!.state.seq()), 10_000, 'the worker catching up');
    expect(received).toContain(fresh.listing.id);
    await mirror!.stop();
    expect(bookOf(dbPath)).toEqual(serverBook());
  }, 60_000);

  it('tells a book damaged under it as damage, with the SQLite code, and still stops cleanly', async () => {
    const { dbPath } = await followDemo();
    const damaged: Error[] = [];
    const errors: Error[] = [];
    mirror!.on('damaged', (error) => damaged.push(error));
    mirror!.on('error', (error) => errors.push(error));
    damageBookFile(dbPath);
    demo!.runActivity(300);
    demo!.flushFeed();
    await waitFor(() => damaged.length > 0, 10_000, 'the damage being told');
    expect(damaged).toHaveLength(1);
    expect(damaged[0]).toMatchObject({ code: expect.stringMatching(/^SQLITE_(CORRUPT|NOTADB)/) });
    await waitFor(() => mirror!.status?.state === 'stopped', 10_000, 'the sync stopping');
    // a host that mends the file hears no failure besides (the status went on being told meanwhile)
    await mirror!.stop();
    expect(errors).toEqual([]);
  }, 60_000);

  it('stops cleanly when the backfill meets the damage first, in its last count of the book', async () => {
    const { dbPath } = await followDemo(undefined, { idleMs: 60_000 });
    await waitFor(() => mirror!.backfill?.state === 'done', 20_000, 'the backfill finishing');
    const damaged: Error[] = [];
    const errors: Error[] = [];
    const warnings: string[] = [];
    mirror!.on('damaged', (error) => damaged.push(error));
    mirror!.on('error', (error) => errors.push(error));
    mirror!.on('warning', (message) => warnings.push(message));
    // no feed activity: the first read of the damaged file is the backfill's recount in stop()
    damageBookFile(dbPath);
    await mirror!.stop();
    expect(damaged).toHaveLength(1);
    expect(damaged[0]).toMatchObject({ code: expect.stringMatching(/^SQLITE_(CORRUPT|NOTADB)/) });
    expect(errors).toEqual([]);
    expect(warnings.filter((w) => /did not stop cleanly/.test(w))).toEqual([]);
  }, 60_000);
});

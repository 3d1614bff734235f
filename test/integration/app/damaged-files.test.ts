// Database files SQLite cannot read: a damaged book is set aside and read again from the market (the app
// starts and says so), a damaged desk stops the start with the file named and nothing replaced, and the
// CLI says what to do instead of SQLite's bare words.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCore, DEMO_DATABASE_FILE_NAME, RecordingPlatform } from '../../../src/core/app/index.ts';
import { openSessionMirror } from '../../../src/core/app/session-mirror.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { BookStore, mergeSnapshot, openDatabase } from '../../../src/core/store/index.ts';
import { deskFileFor } from '../../../src/core/store/desk.ts';
import { startDemoMarket } from '../../../src/demo/index.ts';
import type { IpcPushName, Notification } from '../../../src/shared/ipc/index.ts';
import { damageBookFile, lean, tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function folder(): string {
  const tmp = tempDir('skindesk-damaged-');
  cleanups.push(tmp.remove);
  return tmp.dir;
}

/** A book of `n` listings, checkpointed into the file itself (no WAL left beside it). */
async function writeBook(file: string, n: number): Promise<void> {
  const db = openDatabase(file);
  const listings = Array.from({ length: n }, (_, i) => lean(i + 1, { market_hash_name: `Item ${i % 500}` }));
  await mergeSnapshot(
    new BookStore(db),
    { seq: 100n, listings },
    { scope: null, resync: false, atomic: true },
  );
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const JUNK = Buffer.from('this is not an SQLite file at all; '.repeat(200));

describe('opening a session on damaged files', () => {
  it('sets a book that is not a database aside, keeps it, and starts an empty one', () => {
    const dir = folder();
    const file = join(dir, 'skindesk.db');
    writeFileSync(file, JUNK);
    const opened = openSessionMirror(file);
    cleanups.push(() => void opened.db.close());
    expect(opened.status.listings).toBe(0);
    expect(opened.notice).toMatch(
      /^The book file was damaged \(file is not a database\)\. It was set aside as skindesk\.db\.damaged-\d{8}T\d{6}Z/,
    );
    expect(opened.notice).toMatch(/skindesk\.desk\.db and were kept/);
    const aside = readdirSync(dir).find((f) => f.startsWith('skindesk.db.damaged-'));
    expect(aside).toBeDefined();
    expect(readFileSync(join(dir, aside as string)).equals(JUNK)).toBe(true);
  });

  it('finds damage that shows only when a query reaches it (a file cut short)', async () => {
    const dir = folder();
    const file = join(dir, 'skindesk.db');
    await writeBook(file, 20_000);
    truncateSync(file, Math.floor(statSync(file).size / 3));
    const opened = openSessionMirror(file);
    cleanups.push(() => void opened.db.close());
    expect(opened.notice).toMatch(/^The book file was damaged \(database disk image is malformed\)/);
    expect(opened.status.listings).toBe(0);
  });

  it('opens a sound book as it is', async () => {
    const file = join(folder(), 'skindesk.db');
    await writeBook(file, 300);
    const opened = openSessionMirror(file);
    cleanups.push(() => void opened.db.close());
    expect([opened.status.listings, opened.notice]).toEqual([300, null]);
  });

  it('refuses to start over a damaged desk, names it, and replaces nothing', async () => {
    const dir = folder();
    const file = join(dir, 'skindesk.db');
    await writeBook(file, 300);
    openSessionMirror(file).db.close(); // creates the desk beside the book
    const desk = deskFileFor(file);
    writeFileSync(desk, JUNK);
    expect(() => openSessionMirror(file)).toThrow(
      `The desk file ${desk} is damaged (file is not a database)`,
    );
    expect(readFileSync(desk).equals(JUNK)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('damaged'))).toEqual([]);
    const db = openDatabase(file, { readonly: true });
    cleanups.push(() => void db.close());
    expect(db.prepare('SELECT count(*) FROM listings').pluck().get()).toBe(300);
  });
});

describe('the app and the CLI on a damaged book', () => {
  it('the app starts on a fresh book and tells the first window why', async () => {
    const dir = folder();
    writeFileSync(join(dir, DEMO_DATABASE_FILE_NAME), JUNK);
    const core = await AppCore.start({
      dataDir: dir,
      secrets: new MemorySecretStore(),
      platform: new RecordingPlatform(),
      startDemoMarket: () => new Promise(() => {}),
      version: '0.0.0-test',
    });
    cleanups.push(() => core.close());
    expect(core.status().rows).toBe(0);
    const { notifications } = await core.call('takeStartupNotifications', {});
    expect(notifications).toEqual([
      expect.objectContaining({
        level: 'warning',
        title: 'Book',
        message: expect.stringMatching(/^The book file was damaged/),
      }),
    ]);
    expect(existsSync(join(dir, DEMO_DATABASE_FILE_NAME))).toBe(true);
  });

  it('the running app sets a book damaged under it aside, reads it again and keeps the desk', async () => {
    const dir = folder();
    const markets: { baseUrl: string; close(): Promise<void> }[] = [];
    const core = await AppCore.start({
      dataDir: dir,
      secrets: new MemorySecretStore(),
      platform: new RecordingPlatform(),
      startDemoMarket: async ({ seqStart }) => {
        const demo = await startDemoMarket({ port: 0, listings: 1_500, rate: 200, seed: 3, seqStart, rateLimits: false });
        markets.push(demo);
        return demo;
      },
      version: '0.0.0-test',
      syncOptions: { firstEventWaitMs: 50 },
      progressIntervalMs: 200,
    });
    cleanups.push(() => core.close());
    const pushes: { name: IpcPushName; payload: unknown }[] = [];
    core.subscribe((name, payload) => pushes.push({ name, payload }));
    await core.whenLive(30_000);
    const watchlist = await core.call('createWatchlist', { filter: { name: 'Redline' } });

    damageBookFile(join(dir, DEMO_DATABASE_FILE_NAME));

    const notices = () =>
      pushes.filter((p) => p.name === 'notification').map((p) => p.payload as Notification);
    await vi.waitFor(() => expect(notices().map((n) => n.title)).toContain('Book'), { timeout: 20_000, interval: 100 });
    expect(notices().find((n) => n.title === 'Book')).toMatchObject({
      level: 'warning',
      message: expect.stringMatching(
        /^The book file was damaged \(.+\)\. It was set aside as demo-market\.db\.damaged-\d{8}T\d{6}Z, and the book is being read again/,
      ),
    });
    // one notice, not one per failing read
    expect(notices().filter((n) => n.title === 'Book')).toHaveLength(1);
    expect(notices().filter((n) => n.level === 'error').map((n) => n.message)).toEqual([]);
    expect(readdirSync(dir).filter((f) => /^demo-market\.db\.damaged-\d{8}T\d{6}Z$/.test(f))).toHaveLength(1);

    // a new book read from the same market (the demo account keeps what it holds), live and queryable;
    // the watchlist was in the desk and is still there
    const live = await core.whenLive(30_000);
    expect(live.rows).toBeGreaterThan(1_000);
    expect((await core.call('queryBook', { filter: {}, limit: 5 })).rows).toHaveLength(5);
    expect((await core.call('listWatchlists', {})).watchlists.map((w) => w.id)).toEqual([watchlist.id]);
    expect(markets).toHaveLength(1);
    expect(core.status().market.baseUrl).toBe(markets[0]?.baseUrl);
  }, 60_000);

  it('skindesk status says the book is damaged and how to get it back, with exit 1', () => {
    const file = join(folder(), 'book.db');
    writeFileSync(file, JUNK);
    const ran = spawnSync(process.execPath, [CLI, 'status', '--db', file], { encoding: 'utf8' });
    expect(ran.status).toBe(1);
    expect(ran.stderr.trim()).toBe(
      'skindesk status: the book file is damaged (file is not a database): move it away (or delete it), then `skindesk sync` reads the book again',
    );
    expect(readFileSync(file).equals(JUNK)).toBe(true);
  });
});

/**
 * The governor's record of releases: a restart, or another process with the same key on the same data
 * folder, counts inside the same strict sliding window instead of starting from an empty one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { RateGovernor, type ReleaseLedger } from '../../../src/core/api/governor.ts';
import { SqliteReleaseLedger, apiKeyId, deskRateGovernor } from '../../../src/core/api/release-ledger.ts';
import { openDatabase, type Db } from '../../../src/core/store/index.ts';
import { attachDesk, deskFileFor } from '../../../src/core/store/desk.ts';
import { tempDir } from '../store/helpers.ts';
import { maxInAnyWindow } from './windows.ts';

const BASE_URL = 'https://market.example';
const API_KEY = 'sk_live_Zq8vR2mW7xT4nB6yK1pL9sD3fG5hJ0cA';
const PURCHASE = 'POST /public/v1/purchase';
const LIMIT = { limit: 30, windowMs: 60_000 };

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function bookFile(): string {
  const t = tempDir('skindesk-ledger-');
  cleanups.push(t.remove);
  return join(t.dir, 'skindesk.db');
}

/** A connection as the app and `skindesk watch` hold it: the book, with the desk attached. */
function openDesk(file: string): Db {
  const db = openDatabase(file);
  attachDesk(db, file);
  cleanups.push(() => db.open && db.close());
  return db;
}

/** The governor of the app and `skindesk watch` on `db`, this test's key and market, no jitter margin. */
function governorOnDesk(db: Database.Database, clock: ManualClock, reports?: string[]) {
  return deskRateGovernor({
    db,
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    clock,
    marginMs: 0,
    ...(reports ? { onLedgerError: (message: string) => reports.push(message) } : {}),
  });
}

/** An in-memory record, as the desk would hold it (wall-clock ms per endpoint). */
function arrayLedger(
  rows: Map<string, number[]> = new Map(),
): ReleaseLedger & { rows: Map<string, number[]> } {
  return {
    rows,
    recent: (key, sinceMs) => (rows.get(key) ?? []).filter((t) => t > sinceMs),
    note: (key, atMs) => void rows.set(key, [...(rows.get(key) ?? []), atMs]),
  };
}

function released(promise: Promise<unknown>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

describe('RateGovernor with a record of releases', () => {
  it('counts the releases an earlier run left in the record: no new request until the window allows it', async () => {
    const clock = new ManualClock();
    // the earlier run sent the whole minute's budget over the last 20 s, then stopped
    const t0 = clock.now() - 20_000;
    const ledger = arrayLedger(
      new Map([[PURCHASE, Array.from({ length: LIMIT.limit }, (_, i) => t0 + i * 500)]]),
    );
    const governor = new RateGovernor({ clock, marginMs: 0, ledger });
    governor.define(PURCHASE, LIMIT);
    expect(governor.waitMs(PURCHASE)).toBe(40_000);
    expect(governor.stats().endpoints.find((e) => e.key === PURCHASE)).toMatchObject({
      used: LIMIT.limit,
      headroom: 0,
    });
    const next = governor.acquire(PURCHASE);
    const done = released(next);
    await clock.advance(39_999);
    expect(done()).toBe(false);
    await clock.advance(1);
    expect(done()).toBe(true);
    // the oldest of the earlier run's releases left the window exactly then
    expect((await next).grantedAt).toBe(t0 + 60_000);
    // and this release is in the record for whoever comes next
    expect(ledger.rows.get(PURCHASE)).toHaveLength(LIMIT.limit + 1);
  });

  it("after a restart on the same desk file, the new run waits for the old run's releases to leave the window", async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const first = governorOnDesk(openDesk(file), clock);
    first.define(PURCHASE, LIMIT);
    const start = clock.now();
    for (let i = 0; i < LIMIT.limit; i++) (await first.acquire(PURCHASE)).complete();
    await clock.advance(5_000);
    // the restart: a new governor, a new connection, the same desk
    const second = governorOnDesk(openDesk(file), clock);
    second.define(PURCHASE, LIMIT);
    const next = second.acquire(PURCHASE);
    const done = released(next);
    await clock.advance(54_999);
    expect(done()).toBe(false);
    await clock.advance(1);
    expect((await next).grantedAt).toBe(start + 60_000);
  });

  it('two governors sharing one desk file (two connections) never release more than the limit in any window together', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const limit = { limit: 6, windowMs: 60_000 };
    const governors = [0, 1].map(() => {
      const g = governorOnDesk(openDesk(file), clock);
      g.define('GET /public/v1/book', limit);
      return g;
    });
    const times: number[] = [];
    const pending: Promise<void>[] = [];
    // bursts of concurrent callers on both at once, as the app and `skindesk watch` would make them
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 5; i++) {
        for (const g of governors) {
          pending.push(
            g.acquire('GET /public/v1/book', i % 2 === 0 ? 'interactive' : 'background').then((permit) => {
              times.push(permit.grantedAt);
              clock.setTimer(150, () => permit.complete());
            }),
          );
        }
      }
      await clock.advance(17_000);
    }
    for (let i = 0; i < 200 && times.length < pending.length; i++) await clock.advance(5_000);
    await Promise.all(pending);
    expect(times).toHaveLength(50);
    expect(maxInAnyWindow(times, limit.windowMs)).toBe(limit.limit);
  });

  it('two processes deciding at the same moment cannot both take the last slot of a window', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const options = { baseUrl: BASE_URL, apiKey: API_KEY, now: () => clock.now() };
    const mine = new SqliteReleaseLedger(openDesk(file), options);
    const theirs = new SqliteReleaseLedger(openDesk(file), options);
    const limit = { limit: 2, windowMs: 60_000 };
    let raced = false;
    // the other process takes the last slot between this governor's read of the window and its write
    const racing: ReleaseLedger = {
      recent(key, sinceMs) {
        const rows = mine.recent(key, sinceMs);
        if (rows.length === limit.limit - 1 && !raced) {
          raced = true;
          theirs.note(key, clock.now());
        }
        return rows;
      },
      note: (key, atMs) => mine.note(key, atMs),
      claim: (key, atMs, sinceMs, max) => mine.claim(key, atMs, sinceMs, max),
    };
    const governor = new RateGovernor({ clock, marginMs: 0, ledger: racing });
    governor.define(PURCHASE, limit);
    (await governor.acquire(PURCHASE)).complete();
    const second = governor.acquire(PURCHASE);
    const done = released(second);
    await clock.advance(0);
    expect(raced).toBe(true);
    // the window already holds two releases (ours and theirs): this one waits for the oldest to leave it
    expect(done()).toBe(false);
    await clock.advance(limit.windowMs);
    expect(done()).toBe(true);
    const rows = mine.recent(PURCHASE, clock.now() - 2 * limit.windowMs);
    expect(maxInAnyWindow(rows, limit.windowMs)).toBe(limit.limit);
  });

  it("takes a slot while the book's writer holds the book: the claim locks the desk file only", () => {
    const file = bookFile();
    const ledger = new SqliteReleaseLedger(openDesk(file), { baseUrl: BASE_URL, apiKey: API_KEY, busyWaitMs: 0 });
    // the sync worker in the middle of a batch: the book's write lock held by another connection
    const writer = openDatabase(file);
    cleanups.push(() => writer.open && writer.close());
    writer.exec('BEGIN IMMEDIATE');
    try {
      expect(ledger.claim(PURCHASE, Date.now(), Date.now() - LIMIT.windowMs, LIMIT.limit)).toBe(true);
      expect(ledger.recent(PURCHASE, Date.now() - LIMIT.windowMs)).toHaveLength(1);
    } finally {
      writer.exec('ROLLBACK');
    }
  });

  it('another key or another market has a budget of its own', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const make = (baseUrl: string, apiKey: string) => {
      const g = deskRateGovernor({ db: openDesk(file), baseUrl, apiKey, clock, marginMs: 0 });
      g.define(PURCHASE, { limit: 1, windowMs: 60_000 });
      return g;
    };
    (await make(BASE_URL, API_KEY).acquire(PURCHASE)).complete();
    expect(make(BASE_URL, API_KEY).waitMs(PURCHASE)).toBe(60_000);
    expect(make(`${BASE_URL}/`, API_KEY).waitMs(PURCHASE)).toBe(60_000);
    expect(make(BASE_URL, `${API_KEY}x`).waitMs(PURCHASE)).toBe(0);
    expect(make('https://other.example', API_KEY).waitMs(PURCHASE)).toBe(0);
  });

  it('never writes the API key to the desk: the rows name it by a short one-way hash', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const db = openDesk(file);
    const governor = governorOnDesk(db, clock);
    governor.define(PURCHASE, LIMIT);
    for (let i = 0; i < 5; i++) (await governor.acquire(PURCHASE)).complete();
    const keyIds = db.prepare<[], string>('SELECT DISTINCT key_id FROM rate_releases').pluck().all();
    expect(keyIds).toEqual([apiKeyId(API_KEY)]);
    expect(apiKeyId(API_KEY)).toMatch(/^[0-9a-f]{16}$/);
    const desk = deskFileFor(file);
    // before and after the WAL is folded into the file
    const bytes = () =>
      [desk, `${desk}-wal`]
        .filter(existsSync)
        .map((f) => readFileSync(f).toString('latin1'))
        .join('');
    expect(bytes()).toContain(apiKeyId(API_KEY));
    expect(bytes()).not.toContain(API_KEY);
    expect(bytes()).not.toContain(API_KEY.slice(8, 24));
    db.close();
    expect(bytes()).not.toContain(API_KEY);
  });

  it('drops rows older than the longest window', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const db = openDesk(file);
    const ledger = new SqliteReleaseLedger(db, {
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      retainMs: 60_000,
      now: () => clock.now(),
    });
    ledger.note(PURCHASE, clock.now());
    ledger.note('GET /public/v1/prices', clock.now());
    await clock.advance(61_000);
    ledger.note(PURCHASE, clock.now());
    expect(db.prepare('SELECT count(*) FROM rate_releases').pluck().get()).toBe(1);
    expect(ledger.recent(PURCHASE, clock.now() - 60_000)).toEqual([clock.now()]);
  });
});

describe("the server's own word is shared through the record too", () => {
  const BOOK = 'GET /public/v1/book';
  const BOOK_LIMIT = { limit: 6, windowMs: 60_000 };
  const answered = (status: number, retryAfterMs: number | null, remaining: number | null = null, resetAtMs: number | null = null) => ({
    status,
    remaining,
    resetAtMs,
    retryAfterMs,
  });

  it('a Retry-After one process was given holds the other process sharing the key, and a run started during it', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const app = governorOnDesk(openDesk(file), clock);
    const cli = governorOnDesk(openDesk(file), clock);
    for (const g of [app, cli]) g.define(BOOK, BOOK_LIMIT);
    // someone outside the record (another machine with the key) spent the budget: the app is told to wait 30 s
    (await app.acquire(BOOK)).complete(answered(429, 30_000));
    expect(app.waitMs(BOOK)).toBe(30_000);
    // the other process, and a run started now, have room in their windows but not on the server
    expect(cli.waitMs(BOOK)).toBe(30_000);
    await clock.advance(10_000);
    const restarted = governorOnDesk(openDesk(file), clock);
    restarted.define(BOOK, BOOK_LIMIT);
    expect(restarted.waitMs(BOOK)).toBe(20_000);
    const next = cli.acquire(BOOK);
    const done = released(next);
    await clock.advance(19_999);
    expect(done()).toBe(false);
    await clock.advance(1);
    expect(done()).toBe(true);
    // another endpoint is not held
    cli.define(PURCHASE, LIMIT);
    expect(cli.waitMs(PURCHASE)).toBe(0);
  });

  it('X-RateLimit-Remaining: 0 holds every process on the key until X-RateLimit-Reset', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    const app = governorOnDesk(openDesk(file), clock);
    const cli = governorOnDesk(openDesk(file), clock);
    for (const g of [app, cli]) g.define(BOOK, BOOK_LIMIT);
    (await app.acquire(BOOK)).complete(answered(200, null, 0, clock.now() + 45_000));
    expect(app.waitMs(BOOK)).toBe(45_000);
    expect(cli.waitMs(BOOK)).toBe(45_000);
    await clock.advance(45_000);
    expect(cli.waitMs(BOOK)).toBe(0);
  });

  it('a record that cannot hold blocks (an older ledger) still paces by releases', async () => {
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 0, ledger: arrayLedger() });
    governor.define(BOOK, BOOK_LIMIT);
    (await governor.acquire(BOOK)).complete(answered(429, 7_000));
    expect(governor.waitMs(BOOK)).toBe(7_000);
  });
});

describe('RateGovernor when its record fails', () => {
  it('a record that throws leaves the governor on its own count, and says so once', async () => {
    const clock = new ManualClock();
    const failures: unknown[] = [];
    const broken: ReleaseLedger = {
      recent: () => {
        throw new Error('SQLITE_BUSY: database is locked');
      },
      note: () => {
        throw new Error('SQLITE_READONLY: attempt to write a readonly database');
      },
    };
    const governor = new RateGovernor({
      clock,
      marginMs: 0,
      ledger: broken,
      onLedgerError: (err) => failures.push(err),
    });
    governor.define(PURCHASE, { limit: 2, windowMs: 10_000 });
    const first = await governor.acquire(PURCHASE);
    first.complete();
    (await governor.acquire(PURCHASE)).complete();
    const third = governor.acquire(PURCHASE);
    const done = released(third);
    await clock.advance(9_999);
    expect(done()).toBe(false);
    await clock.advance(1);
    expect((await third).grantedAt).toBe(first.grantedAt + 10_000);
    expect(governor.stats().endpoints.find((e) => e.key === PURCHASE)?.sent).toBe(3);
    expect(failures).toHaveLength(1);
  });

  it('a read-only desk: requests still go, paced by this run alone, and the one report does not quote the key', async () => {
    const file = bookFile();
    const clock = new ManualClock();
    // the desk exists with its table, then is opened read-only (another user's folder, a full disk…)
    new SqliteReleaseLedger(openDesk(file), { baseUrl: BASE_URL, apiKey: API_KEY });
    const readonly = new Database(deskFileFor(file), { readonly: true });
    cleanups.push(() => readonly.close());
    const reports: string[] = [];
    const governor = governorOnDesk(readonly, clock, reports);
    governor.define(PURCHASE, { limit: 2, windowMs: 10_000 });
    for (let i = 0; i < 2; i++) (await governor.acquire(PURCHASE)).complete();
    expect(governor.waitMs(PURCHASE)).toBe(10_000);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/readonly|read-only/i);
    expect(reports[0]).not.toContain(API_KEY);
  });

  it("a desk closed with its session: requests still in flight go on quietly, on the governor's own count", async () => {
    const clock = new ManualClock();
    const reports: string[] = [];
    const db = openDesk(bookFile());
    const governor = governorOnDesk(db, clock, reports);
    governor.define(PURCHASE, { limit: 1, windowMs: 10_000 });
    (await governor.acquire(PURCHASE)).complete();
    db.close();
    const next = governor.acquire(PURCHASE);
    await clock.advance(10_000);
    expect((await next).grantedAt).toBe(clock.now());
    expect(reports).toEqual([]);
  });

  it('a desk that cannot even hold the table: the governor works without a record', async () => {
    const clock = new ManualClock();
    const reports: string[] = [];
    const closed = new Database(':memory:');
    closed.close();
    const governor = governorOnDesk(closed, clock, reports);
    governor.define(PURCHASE, LIMIT);
    (await governor.acquire(PURCHASE)).complete();
    expect(governor.stats().endpoints.find((e) => e.key === PURCHASE)?.sent).toBe(1);
    expect(reports).toHaveLength(1);
  });
});

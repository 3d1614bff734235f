/**
 * The local-book protocol against a fake market, edge case by edge case. Each test ends by comparing
 * the mirrored book with the market's true book, row for row.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BookStore, openDatabase, readStatus, readSyncState, type Db } from '../../../src/core/store/index.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { SyncEngine, type EngineStatus, type SyncEngineOptions } from '../../../src/core/sync/engine.ts';
import type { BookSnapshotResult, BookSource } from '../../../src/core/sync/sources.ts';
import { stringifyJson, type ListingEvent } from '../../../src/shared/api/index.ts';
import { createRng, makeFullListing } from '../../bench/generate.ts';
import { book, tempDir } from '../../unit/store/helpers.ts';
import { FAKE_KEY, FakeMarket, eventually } from './fake-market.ts';

let market: FakeMarket;
let dir: { dir: string; remove(): void };
let db: Db;
let store: BookStore;
let engine: SyncEngine | null;
const rng = createRng(42);
let nextId = 1;

const FAST: SyncEngineOptions = {
  pingIntervalMs: 40,
  livenessTimeoutMs: 250,
  connectTimeoutMs: 2_000,
  snapshotRetryMs: 80,
  firstEventWaitMs: 30,
  antiEntropyMs: 60_000,
  divergenceGraceMs: 30,
  reconnect: { baseMs: 20, capMs: 100, floorMs: 0 },
  tooManyConnections: { baseMs: 400, capMs: 800, floorMs: 400 },
};

function seed(n: number, appId?: number): void {
  for (let i = 0; i < n; i++) {
    const l = makeFullListing(rng, nextId++);
    market.create(appId === undefined ? l : { ...l, app_id: appId as 730 });
  }
}

let mergeMode: 'atomic' | 'stepped' = 'atomic';

function startEngine(options: SyncEngineOptions = {}, source: BookSource = market.bookSource()): SyncEngine {
  engine = new SyncEngine(store, source, { ...FAST, mergeMode, mergeBudgetMs: 2, ...options });
  engine.start(market.url, FAKE_KEY);
  return engine;
}

const isLive = () => engine?.status().state === 'live';
/** Live, every event applied, and the mirror equal to the market (frames may still be in flight before). */
const caughtUp = (appId?: number) =>
  isLive() &&
  readSyncState(db).lastSeq === market.seq &&
  engine?.status().bufferedEvents === 0 &&
  JSON.stringify(book(db)) === JSON.stringify(market.leanBook(appId));

function shuffle<T>(list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/** A burst of random activity on the market: creations, reprices, amount changes, removals. */
function activity(n: number): ListingEvent[] {
  const out: ListingEvent[] = [];
  for (let i = 0; i < n; i++) {
    const ids = [...market.book.keys()];
    const r = rng();
    const id = ids[Math.floor(rng() * ids.length)];
    if (r < 0.25 || id === undefined) out.push(market.create(makeFullListing(rng, nextId++)));
    else if (r < 0.6) out.push(market.reprice(id, 1 + Math.floor(rng() * 100_000)));
    else if (r < 0.8) out.push(market.setAmount(id, Math.floor(rng() * 3)));
    else out.push(market.remove(id));
  }
  return out;
}

beforeEach(async () => {
  market = await FakeMarket.start();
  dir = tempDir('skindesk-sync-');
  db = openDatabase(join(dir.dir, 'book.db'));
  store = new BookStore(db);
  engine = null;
  nextId = 1;
});

afterEach(async () => {
  await engine?.stop();
  db.close();
  dir.remove();
  await market.close();
});

describe.each(['atomic', 'stepped'] as const)('sync protocol (%s merges)', (mode) => {
  beforeEach(() => {
    mergeMode = mode;
  });

  it('loads the snapshot after subscribing and then follows live events', async () => {
    seed(40);
    startEngine();
    await eventually(isLive, 'live');
    expect(book(db)).toEqual(market.leanBook());
    market.send(...activity(60));
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
    const sock = market.sockets[0];
    expect(sock?.subscribe).toMatchObject({ op: 'subscribe', events: expect.arrayContaining(['listing.created']) });
  });

  it('counts the live rows again within about a second of creations and removals', async () => {
    seed(20);
    startEngine();
    await eventually(isLive, 'live');
    expect(engine?.status().rows).toBe(20);
    const [first] = [...market.book.keys()];
    market.send(...Array.from({ length: 5 }, () => market.create(makeFullListing(rng, nextId++))), market.remove(first as number));
    await eventually(() => engine?.status().rows === 24, 'the status row count follows the book', 2_500);
  });

  it('ends with the true book despite reordered and duplicated events', async () => {
    seed(30);
    startEngine();
    await eventually(isLive, 'live');
    const events = activity(200);
    const noisy = shuffle([...events, ...events.filter(() => rng() < 0.3)]);
    market.send(...noisy);
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('keeps a removed listing removed when an older update arrives after the removal', async () => {
    seed(5);
    startEngine();
    await eventually(isLive, 'live');
    const reprice = market.reprice(3, 99_999);
    const removal = market.remove(3);
    market.send(removal, reprice);
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db).some((l) => l.id === 3)).toBe(false);
    expect(book(db)).toEqual(market.leanBook());
  });

  it('applies events that arrive while a slow snapshot is being read', async () => {
    seed(30);
    market.answerBook = async () => {
      const taken = market.snapshot();
      market.send(...activity(80)); // the market moves on while the snapshot travels
      await new Promise((r) => setTimeout(r, 200));
      return taken;
    };
    startEngine();
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('tells how far a first read of the book has come, then that it is writing it, then nothing once live', async () => {
    seed(30);
    let release = () => {};
    market.answerBook = async (onProgress) => {
      const taken = market.snapshot();
      onProgress?.({ rows: 10, bytes: 1_000 });
      await new Promise((r) => setTimeout(r, 300)); // past the status throttle
      onProgress?.({ rows: 30, bytes: 2_900 });
      await new Promise<void>((r) => (release = r));
      return taken;
    };
    const statuses: EngineStatus[] = [];
    startEngine().on('status', (status) => statuses.push(status));
    await eventually(() => engine?.status().bookRead?.rows === 30, 'the read reached 30 listings');
    expect(engine?.status()).toMatchObject({ state: 'connecting', rows: 0, bookRead: { phase: 'reading', rows: 30, bytes: 2_900, merged: 0 } });
    release();
    await eventually(() => caughtUp(), 'caught up');
    const reads = statuses.map((s) => s.bookRead);
    expect(reads).toContainEqual({ phase: 'reading', rows: 10, bytes: 1_000, merged: 0 });
    expect(reads).toContainEqual({ phase: 'merging', rows: 30, bytes: 2_900, merged: 0 });
    // told from inside the merge's transaction, the status never counted rows no reader could see yet
    expect(statuses.filter((s) => s.bookRead !== null).every((s) => s.rows === 0)).toBe(true);
    expect(statuses.filter((s) => s.state === 'live').every((s) => s.bookRead === null)).toBe(true);
    expect(engine?.status().bookRead).toBeNull();
  });

  it('asks again when the snapshot is older than events already seen (a stale cached answer)', async () => {
    seed(20);
    const stale = market.snapshot();
    market.send(...activity(10)); // nobody listening yet
    let staleAnswers = 2;
    market.answerBook = () => (staleAnswers-- > 0 ? stale : market.snapshot());
    startEngine();
    await market.waitForSubscribed();
    // The engine sees newer events before it asks, so the stale snapshot must be refused.
    market.send(...activity(5));
    await eventually(() => caughtUp(), 'caught up');
    expect(market.bookRequests).toBeGreaterThanOrEqual(3);
    expect(book(db)).toEqual(market.leanBook());
  });

  it('counts a slow stale answer against the cache wait: asks again once the cached copy must have expired', async () => {
    seed(20);
    const stale = market.snapshot();
    const askedAt: number[] = [];
    let answeredStaleAt = 0;
    market.answerBook = async () => {
      askedAt.push(Date.now());
      if (askedAt.length > 1) return market.snapshot();
      await new Promise((r) => setTimeout(r, 2_000)); // a big book downloading
      answeredStaleAt = Date.now();
      return stale;
    };
    const problems: string[] = [];
    startEngine({ snapshotRetryMs: 4_000 }).on('status', (s) => problems.push(s.problem ?? ''));
    await market.waitForSubscribed();
    market.send(...activity(5)); // newer than the cached snapshot: it was built before these were published
    await eventually(() => caughtUp(), 'caught up', 8_000);
    // built before the first event arrived, so expired 4 s after it: ~2 s after the slow answer, not 4 s
    const waited = (askedAt[1] ?? Infinity) - answeredStaleAt;
    expect(waited).toBeGreaterThan(1_000);
    expect(waited).toBeLessThan(3_000);
    // the wait left, rounded up: ~2 s, or 1 s when a busy machine answered late (the bounds above hold either way)
    expect(problems.some((p) => /is older than events already seen \(the marketplace caches it for 10 s\); asking again in [12] s/.test(p))).toBe(true);
  });

  /**
   * An engine merges a snapshot and stops; `reopenAfterMs` later a new one starts and is served that same
   * copy (the server's cache) once, then fresh ones. Returns how long it waited after the stale answer.
   */
  async function waitAfterMergedCopyReturns(snapshotRetryMs: number, reopenAfterMs: number): Promise<number> {
    seed(20);
    const answers: BookSnapshotResult[] = [];
    market.answerBook = () => {
      const answer = market.snapshot();
      answers.push(answer);
      return answer;
    };
    const first = startEngine({ snapshotRetryMs });
    await eventually(() => caughtUp(), 'the first run caught up');
    await first.stop();
    await new Promise((r) => setTimeout(r, reopenAfterMs));
    const askedAt: number[] = [];
    let answeredStaleAt = 0;
    market.answerBook = () => {
      askedAt.push(Date.now());
      if (askedAt.length > 1) return market.snapshot();
      answeredStaleAt = Date.now();
      return answers[0] as BookSnapshotResult;
    };
    startEngine({ snapshotRetryMs });
    await market.waitForSubscribed();
    market.send(...activity(5));
    await eventually(() => caughtUp(), 'caught up after the restart', 10_000);
    return (askedAt[1] ?? Infinity) - answeredStaleAt;
  }

  it('after a restart, asks again once the copy it merged last must have expired, when that copy comes back', async () => {
    // built before the first run merged it 2.5 s earlier: ~3.5 s more, not 6 s from the answer
    const waited = await waitAfterMergedCopyReturns(6_000, 2_500);
    expect(waited).toBeGreaterThan(2_000);
    expect(waited).toBeLessThan(5_000);
  });

  it('does not trust an ETag whose copy should already have expired (a rebuild with the same content)', async () => {
    // reopened after longer than that copy can live: the first event's bound (~2 s), not an immediate
    // second read of the same copy
    expect(await waitAfterMergedCopyReturns(2_000, 2_500)).toBeGreaterThan(1_000);
  });

  it('waits the full time when the same stale copy comes back after its bound (a build slower than the margin)', async () => {
    seed(20);
    const stale = market.snapshot();
    const askedAt: number[] = [];
    market.answerBook = () => {
      askedAt.push(Date.now());
      return askedAt.length <= 2 ? stale : market.snapshot();
    };
    startEngine({ snapshotRetryMs: 1_500 });
    await market.waitForSubscribed();
    market.send(...activity(5));
    await eventually(() => caughtUp(), 'caught up', 8_000);
    // the second read came at the first event's bound and still got the copy: that bound was wrong, so
    // the third waits the full 1.5 s instead of going out at once
    expect(askedAt).toHaveLength(3);
    expect((askedAt[2] ?? 0) - (askedAt[1] ?? 0)).toBeGreaterThan(1_000);
  });

  it('asks again about a second after a failed read, not after the stale-answer wait', async () => {
    seed(20);
    let failures = 1;
    market.answerBook = () => {
      if (failures-- > 0) throw new ApiError({ kind: 'server', code: 'INTERNAL_ERROR', status: 500, route: 'GET /public/v1/book', message: 'internal error' });
      return market.snapshot();
    };
    const warnings: string[] = [];
    // a stale answer would wait 30 s here; a failure backs off from ~1 s (the governor keeps the budget)
    startEngine({ snapshotRetryMs: 30_000, random: () => 0 }).on('warning', (w) => warnings.push(w));
    await market.waitForSubscribed();
    await eventually(() => caughtUp(), 'caught up after one failed read', 5_000);
    expect(market.bookRequests).toBe(2);
    expect(warnings.some((w) => /reading the book failed: internal error; trying again in 1 s/.test(w))).toBe(true);
    expect(book(db)).toEqual(market.leanBook());
  });

  it('says a failed book read in its status in plain words, not as the request line', async () => {
    seed(20);
    let failures = 1;
    market.answerBook = () => {
      if (failures-- > 0) throw new ApiError({ kind: 'server', status: 503, route: 'GET /public/v1/book', message: 'GET /public/v1/book: HTTP 503' });
      return market.snapshot();
    };
    const problems: (string | null)[] = [];
    const warnings: string[] = [];
    const started = startEngine({ random: () => 0 });
    started.on('status', (s) => problems.push(s.problem));
    started.on('warning', (w) => warnings.push(w));
    await market.waitForSubscribed();
    await eventually(() => caughtUp(), 'caught up after one failed read', 5_000);
    expect(problems).toContain('reading the book failed (the marketplace is failing on its side (a server error)); trying again');
    expect(problems.filter((p) => p?.includes('/public/v1'))).toEqual([]);
    // the log line keeps the technical detail
    expect(warnings.some((w) => w.startsWith('reading the book failed: GET /public/v1/book: HTTP 503; trying again'))).toBe(true);
  });

  it('says in its status when the book read waits for the rate limit, instead of an older problem', async () => {
    seed(10);
    let waits = 1;
    const source = { ...market.bookSource(), bookBudgetWaitMs: () => (waits-- > 0 ? 4_200 : 0) };
    const states: string[] = [];
    startEngine({}, source).on('status', (s) => states.push(`${s.state}:${s.problem ?? ''}`));
    await eventually(() => caughtUp(), 'caught up');
    expect(states).toContain("connecting:waiting for the marketplace's rate limit on reading the book: next read in 5 s");
    expect(states[states.length - 1]).toBe('live:');
  });

  it('reconnects during the snapshot, re-reads it and never shows an empty book', async () => {
    seed(25);
    startEngine();
    await eventually(isLive, 'live');
    let dropOnce = true;
    market.answerBook = async () => {
      if (dropOnce) {
        dropOnce = false;
        for (const s of market.sockets) s.ws.terminate();
        await new Promise((r) => setTimeout(r, 50));
      }
      return market.snapshot();
    };
    const counts: number[] = [];
    const watcher = setInterval(() => counts.push(readStatus(db).listings), 5);
    for (const s of market.sockets) s.ws.terminate();
    market.send(...activity(20));
    await eventually(() => market.connections >= 3, 'two reconnects');
    market.send(...activity(20));
    await eventually(() => caughtUp(), 'caught up');
    clearInterval(watcher);
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(book(db)).toEqual(market.leanBook());
    expect(readStatus(db).resyncs).toBeGreaterThanOrEqual(1);
  });

  /** Makes /book answer only once `release()` is called (a slow read, or one waiting for the rate budget). */
  function holdBookReads(): () => void {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    market.answerBook = async () => {
      await released;
      return market.snapshot();
    };
    return release;
  }

  const priceOf = (id: number) => book(db).find((l) => l.id === id)?.price;

  it('keeps applying live events while it re-reads the book after a reconnect, and reports them once live', async () => {
    seed(30);
    startEngine({ liveBatchSize: 1 });
    await eventually(isLive, 'live');
    const applied: ListingEvent[] = [];
    const reports: number[] = [];
    engine?.on('applied', (events) => {
      applied.push(...events);
      reports.push(events.length);
    });
    const release = holdBookReads();
    const [a, b] = [...market.book.keys()] as [number, number];
    for (const sock of market.sockets) sock.ws.terminate();
    // while nobody listens: a reprice and a new listing the mirror can only learn from the snapshot
    market.reprice(a, 55_555);
    const createdAway = market.create(makeFullListing(rng, nextId++));
    await eventually(() => market.connections >= 2 && market.sockets.some((sock) => sock.subscribe !== null), 'subscribed again');
    const fresh = market.create(makeFullListing(rng, nextId++));
    market.send(market.reprice(b, 44_444), fresh, market.reprice(createdAway.data.listing_id, 33_333));
    await eventually(() => priceOf(b) === 44_444 && priceOf(fresh.data.listing_id) !== undefined, 'live events in the book during the resync');
    expect(engine?.status().state).toBe('resyncing');
    expect(priceOf(a)).not.toBe(55_555);
    expect(priceOf(createdAway.data.listing_id)).toBeUndefined();
    // watchlists judge on a whole book: nothing is reported until it is live again
    expect(applied).toHaveLength(0);
    release();
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
    expect(priceOf(createdAway.data.listing_id)).toBe(33_333); // its update, held in the buffer, applied after the merge
    expect(applied.map((e) => e.data.listing_id)).toEqual(expect.arrayContaining([b, fresh.data.listing_id]));
    // reported in pieces of a live batch, as if they had waited in the buffer
    expect(Math.max(...reports)).toBe(1);
  });

  /**
   * Live, then a reconnect whose read of the book is held: a reprice and a new listing arrive and are
   * applied during the resync. Returns the events, what `applied` reported, and the read's release.
   */
  async function appliedDuringHeldResync(): Promise<{ sent: ListingEvent[]; applied: ListingEvent[]; release: () => void }> {
    seed(30);
    startEngine();
    await eventually(isLive, 'live');
    const applied: ListingEvent[] = [];
    engine?.on('applied', (events) => applied.push(...events));
    const release = holdBookReads();
    const b = [...market.book.keys()][1] as number;
    for (const sock of market.sockets) sock.ws.terminate();
    await eventually(() => market.connections >= 2 && market.sockets.some((sock) => sock.subscribe !== null), 'subscribed again');
    const fresh = market.create(makeFullListing(rng, nextId++));
    const sent = [market.reprice(b, 44_444), fresh];
    market.send(...sent);
    await eventually(() => priceOf(b) === 44_444 && priceOf(fresh.data.listing_id) !== undefined, 'live events in the book during the resync');
    expect(engine?.status().state).toBe('resyncing');
    expect(applied).toHaveLength(0);
    return { sent, applied, release };
  }

  const seqsOf = (events: readonly ListingEvent[]) => events.map((e) => e.seq.toString());

  it('reports the events applied during a resync that a dropped socket ended, once the book is live again, and once', async () => {
    const { sent, applied, release } = await appliedDuringHeldResync();
    // the socket drops before the held read answers: that resync never reaches live
    for (const sock of market.sockets) sock.ws.terminate();
    await eventually(() => market.connections >= 3 && market.sockets.some((sock) => sock.subscribe !== null), 'subscribed a third time');
    release();
    await eventually(() => caughtUp(), 'caught up');
    expect(seqsOf(applied)).toEqual(expect.arrayContaining(seqsOf(sent)));
    expect(new Set(seqsOf(applied)).size).toBe(applied.length);
  });

  it('reports the events applied during a resync when the engine is stopped before it is live again', async () => {
    const { sent, applied, release } = await appliedDuringHeldResync();
    await engine?.stop();
    release();
    expect(seqsOf(applied)).toEqual(seqsOf(sent));
  });

  it('applies nothing before the first snapshot: a first load never shows a handful of listings as the book', async () => {
    seed(20);
    const release = holdBookReads();
    startEngine();
    await market.waitForSubscribed();
    const fresh = market.create(makeFullListing(rng, nextId++));
    market.send(fresh);
    await eventually(() => engine?.status().bufferedEvents === 1, 'the creation buffered');
    await new Promise((r) => setTimeout(r, 100));
    expect(readStatus(db).listings).toBe(0);
    release();
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('stops with an authentication failure on close code 4401 and does not retry', async () => {
    market.refuseWith = 4401;
    const statuses: EngineStatus[] = [];
    const e = startEngine();
    e.on('status', (s) => statuses.push(s));
    await eventually(() => e.status().state === 'stopped', 'stopped');
    await new Promise((r) => setTimeout(r, 300));
    expect(market.connections).toBe(1);
    expect(e.status()).toMatchObject({ authFailed: true, state: 'stopped' });
    expect(e.status().problem).toMatch(/API key/);
    expect(statuses.some((s) => s.authFailed)).toBe(true);
  });

  // every host shows these words (the app's notice, `skindesk sync`, `skindesk watch`): none names "sync"
  it('words a refused key for any host: what was refused, what it means for the book, what to do', async () => {
    market.refuseWith = 4401;
    const e = startEngine();
    await eventually(() => e.status().state === 'stopped', 'stopped');
    expect(e.status().problem).toBe('The marketplace refused the API key (WebSocket closed with 4401): the book stopped updating. Check the key.');
    await e.stop();

    market.refuseWith = null;
    market.answerBook = () => {
      throw new ApiError({ kind: 'api', code: 'UNAUTHORIZED', status: 401, route: 'GET /public/v1/book', message: 'unauthorized' });
    };
    const second = startEngine();
    await eventually(() => second.status().state === 'stopped', 'stopped on the refused book read');
    expect(second.status()).toMatchObject({
      authFailed: true,
      problem: 'The marketplace refused the API key when reading the book (HTTP 401): the book stopped updating. Check the key.',
    });
  });

  it('backs off longer after 4429 (too many connections)', async () => {
    seed(3);
    market.refuseWith = 4429;
    const e = startEngine();
    await eventually(() => e.status().state === 'offline', 'offline');
    const { nextRetryAt, problem } = e.status();
    expect(problem).toMatch(/4429/);
    expect((nextRetryAt ?? 0) - Date.now()).toBeGreaterThan(250);
    market.refuseWith = null;
    await eventually(isLive, 'live after the back-off', 5_000);
    expect(market.connections).toBe(2);
  });

  it('starts the reconnect backoff afresh after a session that stayed subscribed or was closed for a restart', async () => {
    seed(3);
    market.answerBook = () => new Promise<never>(() => {}); // never live: only the session's age can reset
    const delays: number[] = [];
    const retries = new Set<number>(); // the status repeats every second: one delay per retry
    const problems = new Set<string>();
    startEngine({ random: () => 0.999, reconnect: { baseMs: 20, capMs: 5_000, floorMs: 0 }, healthySessionMs: 300 }).on(
      'status',
      (s) => {
        problems.add(`${s.state}: ${s.problem ?? ''}`);
        if (s.state !== 'offline' || s.nextRetryAt === null || retries.has(s.nextRetryAt)) return;
        retries.add(s.nextRetryAt);
        delays.push(s.nextRetryAt - Date.now());
      },
    );
    const dropSession = async (connection: number, keptMs: number, closeCode?: number): Promise<void> => {
      await eventually(() => market.connections === connection, `connection ${connection}`);
      const socket = await market.waitForSubscribed();
      await new Promise((r) => setTimeout(r, keptMs));
      if (closeCode === undefined) socket.ws.terminate();
      else socket.ws.close(closeCode, 'service restart');
      await eventually(() => delays.length === connection, `the backoff after connection ${connection}`);
    };
    for (const connection of [1, 2, 3]) await dropSession(connection, 0);
    await dropSession(4, 450);
    await dropSession(5, 0);
    await dropSession(6, 0, 1012);
    await dropSession(7, 0);
    // short sessions double the ceiling (20, 40, 80 ms); the one kept past 300 ms resets it to 20, then
    // 40; a short one the server closed with 1012 (service restart) resets it too
    const ceilings = delays.map((d) => [20, 40, 80, 160].find((c) => d <= c));
    expect(ceilings).toEqual([20, 40, 80, 20, 40, 20, 40]);
    // the countdown is shown while offline; once the next connection is under way it is gone
    expect(problems).toContain('offline: the feed closed (code 1006); reconnecting in 1 s');
    expect(problems).toContain('connecting: the feed closed (code 1006); reconnecting');
    expect([...problems].filter((p) => !p.startsWith('offline') && /reconnecting in/.test(p))).toEqual([]);
  });

  it('terminates a half-open socket that stops answering pings, and reconnects', async () => {
    seed(10);
    startEngine();
    await eventually(isLive, 'live');
    const first = market.sockets[0];
    if (!first) throw new Error('no socket');
    first.answersPings = false;
    await eventually(() => market.connections >= 2 && isLive(), 'reconnected', 5_000);
    market.send(...activity(10));
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('compares seqs above 2^53 exactly, end to end', async () => {
    await market.close();
    market = await FakeMarket.start(2n ** 62n);
    seed(10);
    startEngine();
    await eventually(isLive, 'live');
    // Consecutive seqs that are equal as doubles; sent newest first.
    const events = activity(40);
    market.send(...events.reverse());
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
    expect(readStatus(db).last_seq).toBe(market.seq.toString());
  });

  it('turns a buffer overflow into a visible resync instead of a silent gap', async () => {
    seed(20);
    const warnings: string[] = [];
    market.answerBook = async () => {
      const taken = market.snapshot();
      market.send(...activity(60));
      await new Promise((r) => setTimeout(r, 100));
      return taken;
    };
    const e = startEngine({ maxBufferedEvents: 25 });
    e.on('warning', (w) => warnings.push(w));
    const states: string[] = [];
    e.on('status', (s) => states.push(`${s.state}:${s.problem ?? ''}`));
    await eventually(() => market.bookRequests >= 2, 'a second snapshot');
    market.answerBook = null;
    await eventually(() => caughtUp(), 'caught up');
    expect(warnings.some((w) => /re-reading the book/.test(w))).toBe(true);
    expect(states.some((s) => s.startsWith('resyncing:') && /faster than the book/.test(s))).toBe(true);
    expect(book(db)).toEqual(market.leanBook());
  });

  it('repairs what the feed lost with a periodic snapshot and counts it', async () => {
    seed(30);
    startEngine({ antiEntropyMs: 150 });
    await eventually(isLive, 'live');
    // Changes the feed never delivers: a lost reprice and a lost removal.
    market.reprice(2, 4242);
    market.remove(5);
    await eventually(() => readStatus(db).divergence_repaired === 2, 'two repairs counted', 5_000);
    expect(book(db)).toEqual(market.leanBook());
  });

  it('a periodic check answered by a copy older than the book\'s last snapshot is asked again, not recorded as a check', async () => {
    seed(30);
    const old = market.snapshot(); // a copy a cache could still hand out
    market.reprice(2, 4242); // not sent: this socket sees no event at all
    startEngine({ antiEntropyMs: 100, snapshotRetryMs: 100 });
    await eventually(isLive, 'live');
    const checked = readSyncState(db);
    expect(checked.lastSnapshotSeq).toBe(market.seq);
    const requestsBefore = market.bookRequests;
    market.answerBook = () => old;
    await eventually(() => market.bookRequests >= requestsBefore + 3, 'the stale copy asked again');
    // "book checked at" and its copy stay those of the newer snapshot: the old copy proved nothing
    expect(readSyncState(db)).toMatchObject({ lastSnapshotSeq: checked.lastSnapshotSeq, lastSnapshotAt: checked.lastSnapshotAt, lastSnapshotEtag: checked.lastSnapshotEtag });
    expect(book(db)).toEqual(market.leanBook());
  });

  it('reconnects a feed that stays open but sends nothing while listings change', async () => {
    seed(30);
    const e = startEngine({ antiEntropyMs: 150 });
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    await eventually(isLive, 'live');
    // the socket answers pings; the changes' events never come
    market.reprice(2, 4242);
    await eventually(() => market.connections === 2, 'a new socket asked for');
    expect(warnings).toContainEqual(expect.stringMatching(/open but sent no event while listings changed .*; reconnecting$/));
    await eventually(isLive, 'live again');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('keeps a feed that delivers events though a periodic check repaired a change it lost', async () => {
    seed(30);
    startEngine({ antiEntropyMs: 150 });
    await eventually(isLive, 'live');
    let price = 100;
    const flowing = setInterval(() => market.send(market.reprice(3, price++)), 20);
    try {
      market.reprice(2, 4242); // lost: its event never comes
      await eventually(() => readStatus(db).divergence_repaired === 1, 'the lost change repaired');
      await new Promise((r) => setTimeout(r, 400)); // two more checks while events flow
    } finally {
      clearInterval(flowing);
    }
    expect(market.connections).toBe(1);
  });

  it('counts nothing for a periodic check cut short in its grace period: the events it waited for may be on the wire', async () => {
    seed(30);
    const e = startEngine({ antiEntropyMs: 150, divergenceGraceMs: 5_000 });
    await eventually(isLive, 'live');
    const reprice = market.reprice(2, 4242); // its event is still on its way when the check reads the book
    await eventually(() => book(db).find((l) => l.id === 2)?.price === 4242, 'the periodic check merged the change');
    market.send(reprice);
    await e.stop();
    expect(readStatus(db).divergence_repaired).toBe(0);
  });

  it('mirrors only the subscribed games', async () => {
    seed(10, 730);
    seed(10, 570);
    startEngine({ appIds: [570] });
    await eventually(isLive, 'live');
    expect(market.sockets[0]?.subscribe).toMatchObject({ app_ids: [570] });
    market.send(market.create({ ...makeFullListing(rng, nextId++), app_id: 730 }));
    market.send(market.create({ ...makeFullListing(rng, nextId++), app_id: 570 }));
    await eventually(() => caughtUp(570), 'caught up');
    expect(book(db)).toEqual(market.leanBook(570));
  });

  it('a broken control message (no seq) is told but does not re-read the book: it changes no listing', async () => {
    seed(10);
    const e = startEngine();
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    await eventually(isLive, 'live');
    const before = market.bookRequests;
    market.sendRaw('{"event":"connected","data":{"odd":true}}');
    market.sendRaw('{"event":"subscribed","data":{"events":7}}');
    market.send(market.reprice(4, 777));
    await eventually(() => caughtUp(), 'the reprice after them applied');
    expect(warnings.filter((w) => /control message that breaks the contract .*; it changes no listing, so the book stands$/.test(w))).toHaveLength(2);
    expect(market.bookRequests).toBe(before);
    expect(e.status().state).toBe('live');
  });

  it('re-reads the book after a frame that breaks the contract', async () => {
    seed(10);
    startEngine();
    await eventually(isLive, 'live');
    const before = market.bookRequests;
    market.reprice(4, 1); // lost inside the malformed frame below
    market.sendRaw(JSON.stringify({ event: 'listing.price_changed', seq: Number(market.seq), ts: 'x', data: { listing_id: 4 } }));
    await eventually(() => market.bookRequests > before && caughtUp(), 'resynced');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('re-reads the book after a malformed frame that came during a periodic check (and does not stay resyncing)', async () => {
    seed(10);
    startEngine({ antiEntropyMs: 100 });
    await eventually(isLive, 'live');
    // the next periodic check's read of the book waits until the malformed frame has come
    const release = holdBookReads();
    await eventually(() => market.bookRequests >= 2, 'the periodic check reading the book');
    market.reprice(4, 1); // lost inside the malformed frame below
    market.sendRaw(JSON.stringify({ event: 'listing.price_changed', seq: Number(market.seq), ts: 'x', data: { listing_id: 4 } }));
    await eventually(() => engine?.status().state === 'resyncing', 'resyncing');
    market.answerBook = null;
    release();
    await eventually(() => caughtUp(), 'live again, with the book the frame had changed');
    expect(book(db)).toEqual(market.leanBook());
  });

  /**
   * A change lost inside a malformed frame, with the market's /book cache in front of it: the copy built
   * just before the change (its seq the highest the socket has seen) is served for `cacheMs`. Returns the
   * reads of /book that answered that copy.
   */
  async function loseChangeInMalformedFrame(frameFor: (lostSeq: bigint) => string, cacheMs: number): Promise<{ staleServed: () => number }> {
    seed(10);
    startEngine({ snapshotRetryMs: cacheMs + 100 });
    await eventually(isLive, 'live');
    market.send(market.reprice(3, 7)); // the socket sees the market's latest seq
    await eventually(() => caughtUp(), 'caught up');
    const cached = market.snapshot();
    const cachedUntil = Date.now() + cacheMs;
    let staleServed = 0;
    market.answerBook = () => {
      if (Date.now() >= cachedUntil) return market.snapshot();
      staleServed++;
      return cached;
    };
    const lost = market.reprice(4, 1);
    market.sendRaw(frameFor(lost.seq));
    return { staleServed: () => staleServed };
  }

  it('after a malformed event whose seq can be read, takes no snapshot older than that seq as the repair', async () => {
    const { staleServed } = await loseChangeInMalformedFrame(
      (lostSeq) => stringifyJson({ event: 'listing.price_changed', seq: lostSeq, ts: 'x', data: { listing_id: 4 } }),
      400,
    );
    await eventually(() => staleServed() > 0, 'the cached copy served');
    await eventually(() => caughtUp(), 'repaired by a snapshot as new as the lost change');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('after a frame whose seq cannot be read, takes as the repair only a snapshot built after it came', async () => {
    await loseChangeInMalformedFrame(() => '{"event":"listing.price_changed","seq":"not a number","data":{"listing_id":4}}', 400);
    await eventually(() => caughtUp(), 'repaired by a snapshot built after the frame');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('a book that cannot be written during the first load stops the run with an error, not connecting forever', async () => {
    seed(10);
    const errors: Error[] = [];
    // from the merge of the first snapshot on, every write is refused, as on a damaged or full file
    market.answerBook = () => {
      db.pragma('query_only = ON');
      return market.snapshot();
    };
    const e = startEngine();
    e.on('error', (err) => errors.push(err));
    await eventually(() => errors.length > 0, 'an error');
    expect(errors[0]?.message).toMatch(/readonly/);
    await eventually(() => e.status().state === 'stopped', 'stopped');
    db.pragma('query_only = OFF');
  });

  it('after 4401 the engine is silent: no status every second (each re-raised the "key refused" notice)', async () => {
    market.refuseWith = 4401;
    const e = startEngine();
    await eventually(() => e.status().state === 'stopped', 'stopped');
    let statuses = 0;
    e.on('status', () => statuses++);
    await new Promise((r) => setTimeout(r, 2_300));
    expect(statuses).toBe(0);
  });
});

describe('the subscription must be confirmed (the snapshot waits for `subscribed`)', () => {
  beforeEach(() => {
    mergeMode = 'atomic';
  });

  const statesOf = (e: SyncEngine): string[] => {
    const states: string[] = [];
    e.on('status', (s) => states.push(`${s.state}: ${s.problem ?? ''}`));
    return states;
  };

  it('a subscription never confirmed is reported and ends in a reconnect, not a wait forever in connecting', async () => {
    seed(10);
    market.autoSubscribe = false;
    const e = startEngine({ subscribeAckTimeoutMs: 150 });
    const states = statesOf(e);
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    await eventually(() => market.connections >= 2, 'a second connection');
    expect(states.some((s) => /^offline: the feed did not confirm our subscription within 150 ms; reconnecting in/.test(s))).toBe(true);
    expect(warnings).toContain('the feed did not confirm our subscription within 150 ms; reconnecting');
    expect(market.bookRequests).toBe(0); // nothing was read without the confirmation
    market.autoSubscribe = true; // the server answers again
    await eventually(() => market.connections >= 3 || isLive(), 'a confirmed connection');
    await eventually(() => caughtUp(), 'caught up');
    expect(book(db)).toEqual(market.leanBook());
    expect(e.status().problem).toBeNull();
  });

  it('a confirmation waiting in the socket when a stalled thread wakes past the limit is read, not taken for lost', async () => {
    seed(10);
    market.autoSubscribe = false;
    const e = startEngine({ subscribeAckTimeoutMs: 150 });
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    const socket = await market.waitForSubscribed();
    market.sendControl(socket, 'subscribed', { events: 'all', app_ids: 'all' });
    // the thread is busy past the limit while the answer waits in the socket: on waking, timers run
    // before the socket is read
    const until = performance.now() + 400;
    while (performance.now() < until);
    await eventually(() => caughtUp(), 'caught up');
    expect(warnings.filter((w) => /did not confirm/.test(w))).toEqual([]);
    expect(market.connections).toBe(1);
  });

  it('a confirmation that comes late, after the buffer overflowed, still leads to a whole book', async () => {
    seed(10);
    market.autoSubscribe = false;
    const e = startEngine({ maxBufferedEvents: 5, subscribeAckTimeoutMs: 5_000 });
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    const socket = await market.waitForSubscribed();
    market.send(...activity(20)); // overflows the pre-snapshot buffer before any confirmation
    await eventually(() => warnings.some((w) => /re-reading the book/.test(w)), 'the overflow');
    market.sendControl(socket, 'subscribed', { events: 'all', app_ids: 'all' });
    await eventually(() => caughtUp(), 'caught up');
    expect(market.connections).toBe(1);
    expect(book(db)).toEqual(market.leanBook());
  });

  it.each([
    ['with no data, as the spec writes it', '{"event":"error"}', 'no reason given'],
    ['with data of a shape of its own', '{"event":"error","data":{"code":"BAD_OP"}}', 'no reason given'],
    ['with plain words as its data', '{"event":"error","data":"unknown op"}', 'unknown op'],
  ])('an `error` answer to the subscribe op %s is a refusal, not a broken frame', async (_how, frame, reason) => {
    seed(10);
    market.autoSubscribe = false;
    const e = startEngine({ subscribeAckTimeoutMs: 1_000 });
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    await market.waitForSubscribed();
    market.sendRaw(frame); // §6.1: the error message's data is "not shown"
    await eventually(() => caughtUp(), 'caught up');
    expect(warnings).toEqual([`the feed refused our subscription (${reason}); filtering locally`]);
    expect(market.connections).toBe(1);
    expect(market.bookRequests).toBe(1);
  });

  it('a confirmation of fewer games than asked is not taken: it reconnects for every event and filters here', async () => {
    seed(10, 730);
    seed(10, 570);
    market.autoSubscribe = false;
    const e = startEngine({ appIds: [570, 730], subscribeAckTimeoutMs: 5_000 });
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    const socket = await market.waitForSubscribed();
    expect(socket.subscribe).toMatchObject({ app_ids: [570, 730] });
    market.sendControl(socket, 'subscribed', { events: 'all', app_ids: [570] }); // CS2 left out
    await eventually(() => market.connections >= 2, 'a second connection');
    expect(warnings).toContain('the feed confirmed a narrower subscription than asked (without games 730); reconnecting for every event, filtered here');
    expect(market.bookRequests).toBe(0); // nothing was read on the narrowed socket
    market.autoSubscribe = true;
    await eventually(() => caughtUp(), 'caught up');
    expect(market.sockets.at(-1)?.subscribe).toEqual({ op: 'subscribe' });
    market.send(market.create({ ...makeFullListing(rng, nextId++), app_id: 730 }));
    market.send(market.create({ ...makeFullListing(rng, nextId++), app_id: 440 })); // not mirrored
    const bothGames = () => [...market.leanBook(570), ...market.leanBook(730)].sort((a, b) => a.id - b.id);
    await eventually(() => JSON.stringify(book(db)) === JSON.stringify(bothGames()), 'the CS2 creation applied');
    expect(book(db).some((l) => l.app_id === 440)).toBe(false);
  });

  it("takes a game's book that holds every event of that game, though the unfiltered feed showed other games' newer seqs", async () => {
    seed(10, 570);
    seed(10, 730);
    market.autoSubscribe = false;
    // the quiet game's book as the server keeps answering it: its own copy (a 304: nothing of it changed)
    const held = market.snapshot(570);
    market.answerBook = () => ({ ...held, fromCache: true });
    startEngine({ appIds: [570], subscribeAckTimeoutMs: 5_000 });
    await market.waitForSubscribed();
    market.send(market.create({ ...makeFullListing(rng, nextId++), app_id: 730 })); // newer than the copy
    market.sendRaw('{"event":"error"}'); // the filter refused: the socket keeps its default, every event
    await eventually(isLive, 'live on the copy of the quiet game', 3_000);
    expect(book(db)).toEqual(market.leanBook(570));
  });

  it('an overflow before a confirmation that never comes does not leave the engine stuck', async () => {
    seed(10);
    market.autoSubscribe = false;
    const e = startEngine({ maxBufferedEvents: 5, subscribeAckTimeoutMs: 200 });
    const states = statesOf(e);
    const warnings: string[] = [];
    e.on('warning', (w) => warnings.push(w));
    await market.waitForSubscribed();
    market.send(...activity(20));
    await eventually(() => warnings.some((w) => /re-reading the book/.test(w)), 'the overflow');
    market.autoSubscribe = true; // only the next connection is answered
    await eventually(() => caughtUp(), 'caught up');
    expect(market.connections).toBe(2);
    expect(states.some((s) => /^offline: the feed did not confirm our subscription/.test(s))).toBe(true);
    expect(book(db)).toEqual(market.leanBook());
  });
});

describe('a feed connection that is never made', () => {
  it('says why in its status: refused, not "the feed closed (code 1006)"', async () => {
    // a port nothing listens on: the market's, once closed
    const closed = await FakeMarket.start();
    const url = closed.url;
    await closed.close();
    engine = new SyncEngine(store, market.bookSource(), FAST);
    engine.start(url, FAKE_KEY);
    await eventually(() => /could not be made: the connection was refused \(ECONNREFUSED\)/.test(engine?.status().problem ?? ''), 'the refusal in words');
    expect(engine.status().problem).not.toMatch(/1006/);
  });

  it('backs off at the longer 4429 pace when the handshake is answered 429, not at the usual one', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end());
    server.on('upgrade', (_req, socket) => {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      engine = new SyncEngine(store, market.bookSource(), FAST);
      engine.start(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`, FAKE_KEY);
      await eventually(() => engine?.status().state === 'offline', 'offline');
      const { nextRetryAt, problem } = engine.status();
      expect(problem).toMatch(/HTTP 429/);
      // the usual pace is at most 100 ms here, the 4429 one at least 400
      expect((nextRetryAt ?? 0) - Date.now()).toBeGreaterThan(250);
    } finally {
      await engine?.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops as an authentication failure when the handshake is answered 401, instead of retrying forever', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end());
    let upgrades = 0;
    server.on('upgrade', (_req, socket) => {
      upgrades++;
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      engine = new SyncEngine(store, market.bookSource(), FAST);
      engine.start(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`, FAKE_KEY);
      await eventually(() => engine?.status().state === 'stopped', 'stopped');
      await new Promise((r) => setTimeout(r, 300));
      expect(engine.status()).toMatchObject({ authFailed: true });
      expect(upgrades).toBe(1);
    } finally {
      await engine?.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

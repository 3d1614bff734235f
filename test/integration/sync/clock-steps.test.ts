/**
 * The wall clock can be stepped while the sync runs (NTP correcting a drifted clock, the user setting
 * the time, a laptop resuming): every wait and interval of the feed and the engine must run on time that
 * never jumps, or a step back disables half-open detection, or stalls a resync, for as long as the step.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { BookStore, openDatabase, readSyncState, type Db } from '../../../src/core/store/index.ts';
import { SyncEngine, type SyncEngineOptions } from '../../../src/core/sync/engine.ts';
import { FeedConnection, type FeedClose } from '../../../src/core/sync/feed.ts';
import { createRng, makeFullListing } from '../../bench/generate.ts';
import { book, tempDir } from '../../unit/store/helpers.ts';
import { FAKE_KEY, FakeMarket } from './fake-market.ts';

const HOUR_MS = 60 * 60_000;

let market: FakeMarket;

beforeEach(async () => {
  market = await FakeMarket.start();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await market.close();
});

/** From now on Date.now() reads `byMs` off (negative: the clock was set back); it still runs evenly. */
function stepWallClock(byMs: number): void {
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + byMs);
}

/** Polls `check` on time that the steps do not move (fake-market's `eventually` reads Date.now). */
async function within(ms: number, check: () => boolean, what: string): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

describe('the feed connection when the wall clock is stepped', () => {
  let feed: FeedConnection | null = null;
  let closes: FeedClose[] = [];

  async function openFeed(livenessTimeoutMs = 250): Promise<void> {
    closes = [];
    feed = new FeedConnection({
      url: market.url,
      apiKey: FAKE_KEY,
      subscribe: { op: 'subscribe' },
      pingIntervalMs: 40,
      livenessTimeoutMs,
      connectTimeoutMs: 2_000,
    });
    feed.on('close', (close) => closes.push(close));
    feed.open();
    await market.waitForSubscribed();
  }

  afterEach(() => {
    feed?.close();
    feed = null;
  });

  it('still terminates a half-open socket after the clock was set back an hour', async () => {
    await openFeed();
    stepWallClock(-HOUR_MS);
    (market.sockets[0] as { answersPings: boolean }).answersPings = false;
    await within(2_000, () => closes.length > 0, 'the silent socket terminated');
    expect(closes[0]?.silent).toBe(true);
  });

  it('keeps a socket that answers its pings when the clock jumps an hour ahead', async () => {
    await openFeed(1_000); // a margin for a busy machine: only the jump may end it
    stepWallClock(HOUR_MS);
    await new Promise((r) => setTimeout(r, 600));
    expect(closes).toEqual([]);
  });
});

describe('the sync engine when the wall clock is stepped', () => {
  const rng = createRng(7);
  let dir: { dir: string; remove(): void };
  let db: Db;
  let store: BookStore;
  let engine: SyncEngine | null = null;
  let nextId = 1;

  const FAST: SyncEngineOptions = {
    pingIntervalMs: 40,
    livenessTimeoutMs: 250,
    connectTimeoutMs: 2_000,
    snapshotRetryMs: 300,
    firstEventWaitMs: 30,
    antiEntropyMs: 60_000,
    reconnect: { baseMs: 20, capMs: 100, floorMs: 0 },
    mergeMode: 'atomic',
  };

  beforeEach(() => {
    dir = tempDir('skindesk-clock-');
    db = openDatabase(join(dir.dir, 'book.db'));
    store = new BookStore(db);
    nextId = 1;
    for (let i = 0; i < 10; i++) market.create(makeFullListing(rng, nextId++));
  });

  afterEach(async () => {
    await engine?.stop();
    engine = null;
    db.close();
    dir.remove();
  });

  const caughtUp = () =>
    engine?.status().state === 'live' &&
    readSyncState(db).lastSeq === market.seq &&
    JSON.stringify(book(db)) === JSON.stringify(market.leanBook());

  it('re-reads the book after a frame it could not read, though the clock was set back while it waited', async () => {
    engine = new SyncEngine(store, market.bookSource(), FAST);
    engine.start(market.url, FAKE_KEY);
    await within(5_000, () => engine?.status().state === 'live', 'live');
    // the frame's seq cannot be read: only a copy of /book asked for once the server's cache has outlived
    // it repairs it (snapshotRetryMs on), and the clock is set back during that wait
    engine.on('status', (status) => {
      if (status.state === 'resyncing' && !vi.isMockFunction(Date.now)) stepWallClock(-HOUR_MS);
    });
    market.reprice(4, 1);
    market.sendRaw('{"event":"listing.price_changed","seq":"not a number","data":{"listing_id":4}}');
    await within(5_000, caughtUp, 'the book re-read and live again');
    expect(book(db)).toEqual(market.leanBook());
  });

  it('counts the live rows again after the clock was set back', async () => {
    // no periodic check meanwhile (its merge counts the rows anyway)
    engine = new SyncEngine(store, market.bookSource(), { ...FAST, snapshotRetryMs: 60_000 });
    engine.start(market.url, FAKE_KEY);
    await within(5_000, () => engine?.status().state === 'live', 'live');
    expect(engine.status().rows).toBe(10);
    stepWallClock(-HOUR_MS);
    market.send(...Array.from({ length: 3 }, () => market.create(makeFullListing(rng, nextId++))));
    await within(3_000, () => engine?.status().rows === 13, 'the status row count follows the book');
  });
});

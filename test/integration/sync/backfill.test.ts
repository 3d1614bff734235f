/** Detail backfill: cursor paging newest first, progress, resuming after a restart, stopping early. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { DetailBackfill, type BackfillProgress } from '../../../src/core/sync/backfill.ts';
import type { ListingsSource } from '../../../src/core/sync/sources.ts';
import { stopSyncRun } from '../../../src/core/sync/stop-run.ts';
import type { FullListing, ListingEvent } from '../../../src/shared/api/index.ts';
import { BookStore, asFullListing, mergeSnapshot, openDatabase, readListing, readStatus, type Db } from '../../../src/core/store/index.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { leanOnlyFrame, ownGameOnlyFrame, tempDir } from '../../unit/store/helpers.ts';
import { FakeMarket, eventually } from './fake-market.ts';

let market: FakeMarket;
let dir: { dir: string; remove(): void };
let file: string;
let db: Db;
let store: BookStore;
const rng = createRng(5);

beforeEach(async () => {
  market = await FakeMarket.start();
  dir = tempDir('skindesk-backfill-');
  file = join(dir.dir, 'book.db');
  db = openDatabase(file);
  store = new BookStore(db);
  for (let id = 1; id <= 2_500; id++) market.create(makeFullListing(rng, id));
  await mergeSnapshot(store, market.snapshot(), { scope: null, resync: false });
});

afterEach(async () => {
  db.close();
  dir.remove();
  await market.close();
});

/** Wraps the fake's listings source to record the cursors asked for. */
function recording(source: ListingsSource, cursors: (number | undefined)[]): ListingsSource {
  return {
    ...source,
    fetchListingsPage: (query, signal) => {
      cursors.push(query.cursor);
      return source.fetchListingsPage(query, signal);
    },
  };
}

/** A page asked for: of which game (undefined: every game's pages), from where, and where the next starts. */
interface PageAsked {
  appId: number | undefined;
  cursor: number | undefined;
  next: number | null;
}

/** Wraps the fake's listings source to record each page asked for and answered. */
function recordingPages(source: ListingsSource, pages: PageAsked[]): ListingsSource {
  return {
    ...source,
    fetchListingsPage: async (query, signal) => {
      const page = await source.fetchListingsPage(query, signal);
      pages.push({ appId: query.appId, cursor: query.cursor, next: page.nextCursor });
      return page;
    },
  };
}

/** The mirror narrowed to `games`, by a newer snapshot, as a sync with those games does. */
async function mirrorOnly(games: readonly number[]): Promise<void> {
  market.nextSeq();
  await mergeSnapshot(store, market.snapshot(), { scope: games, resync: true });
}

const listingsOf = (games: readonly number[]) => [...market.book.values()].filter((l) => games.includes(l.app_id)).length;

/** Stores the details of the market's listings that `which` picks, as a pass before (or creations) did. */
function detailAll(which: (listing: FullListing) => boolean): void {
  store.write(() => {
    for (const listing of market.book.values()) if (which(listing)) store.fillDetails(listing.id, listing);
  });
}

/**
 * Checks that each page after every game's first was the one whose game's paging had reached the newest
 * place (the highest cursor of those not read to the end): the games' listings read newest first.
 */
function expectNewestPageFirst(pages: readonly PageAsked[]): void {
  const reached = new Map<number | undefined, number | null>();
  for (const page of pages) {
    const places = [...reached.values()].filter((c): c is number => c !== null);
    if (page.cursor !== undefined && places.length > 0) expect(page.cursor).toBe(Math.max(...places));
    reached.set(page.appId, page.next);
  }
}

describe('detail backfill', () => {
  it('fills every listing newest first and reports progress with an ETA', async () => {
    const cursors: (number | undefined)[] = [];
    const backfill = new DetailBackfill(store, recording(market.listingsSource(), cursors), { idleMs: 60_000 });
    const seen: BackfillProgress[] = [];
    backfill.on('progress', (p) => seen.push(p));
    expect(backfill.progress()).toMatchObject({ detailed: 0, total: 2_500 });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'backfill done');
    await backfill.stop();
    expect(cursors).toEqual([undefined, 1_501, 501]);
    expect(readStatus(db)).toMatchObject({ listings: 2_500, detailed: 2_500 });
    const running = seen.filter((p) => p.state === 'running' && p.pages > 0);
    expect(running.length).toBeGreaterThan(0);
    expect(running.every((p) => p.etaMs !== null && p.detailed > 0 && p.total === 2_500)).toBe(true);
    const stored = readListing(db, 1_234);
    expect(stored && asFullListing(stored)).toEqual(market.book.get(1_234));
  });

  it('gives an ETA from the details stored per second of the clock, the wait between pages included', async () => {
    const clock = new ManualClock();
    const source = market.listingsSource();
    // the 1/s budget: each page comes a second after the one before, the wait for it most of that second
    const paced: ListingsSource = {
      ...source,
      fetchListingsPage: async (query, signal) => {
        await clock.advance(1_000);
        return source.fetchListingsPage(query, signal);
      },
    };
    const backfill = new DetailBackfill(store, paced, { pageSize: 500, clock });
    const seen: BackfillProgress[] = [];
    backfill.on('progress', (p) => seen.push(p));
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'backfill done');
    await backfill.stop();
    const running = seen.filter((p) => p.state === 'running' && p.pages > 0);
    expect(running.map((p) => p.pages)).toEqual([1, 2, 3, 4]);
    expect(running.map((p) => p.rowsPerSecond)).toEqual([500, 500, 500, 500]);
    // what is left, at 500 details a second
    expect(running.map((p) => p.etaMs)).toEqual(running.map((p) => (p.total - p.detailed) * 2));
  });

  it('resumes from the saved cursor after a restart', async () => {
    let pages = 0;
    const failing: ListingsSource = {
      ...market.listingsSource(),
      fetchListingsPage: async (query, signal) => {
        if (pages++ >= 1) throw new Error('network down');
        return market.listingsSource().fetchListingsPage(query, signal);
      },
    };
    const first = new DetailBackfill(store, failing, { retryMs: 60_000 });
    first.start();
    await eventually(() => readStatus(db).detailed === 1_000, 'first page stored');
    await first.stop();
    expect(store.state().backfillCursor).toBe(1_501);

    db.close();
    db = openDatabase(file);
    store = new BookStore(db);
    const cursors: (number | undefined)[] = [];
    const second = new DetailBackfill(store, recording(market.listingsSource(), cursors), { idleMs: 60_000 });
    second.start();
    await eventually(() => second.progress().state === 'done', 'backfill done');
    await second.stop();
    expect(cursors[0]).toBe(1_501);
    expect(readStatus(db).detailed).toBe(2_500);
  });

  /** Runs a backfill of `appIds` until its first `pages` pages are stored, then stops it (as a sync is by a signal). */
  async function stopAfterFirstPage(appIds: readonly number[] | null, pages = 1): Promise<number | null> {
    let stopped: Promise<void> | null = null;
    const first = new DetailBackfill(store, market.listingsSource(), { appIds, pageSize: 500 });
    first.on('progress', (p) => {
      if (p.pages === pages) stopped ??= first.stop();
    });
    first.start();
    await eventually(() => stopped !== null, 'one page stored');
    await stopped;
    return store.state().backfillCursor;
  }

  it('starts over from the newest page when the games mirrored changed since its cursor was saved', async () => {
    // `skindesk sync --app-id 730`, stopped after a page: its cursor is a place in CS2's pages
    market.nextSeq(); // (a snapshot newer than the book's, as each run's is)
    await mergeSnapshot(store, market.snapshot(730), { scope: [730], resync: true });
    const cs2Cursor = await stopAfterFirstPage([730]);
    expect(cs2Cursor).not.toBeNull();
    // then `skindesk sync --app-id 570`: Dota 2's listings newer than that cursor are on pages it skips
    market.nextSeq();
    await mergeSnapshot(store, market.snapshot(570), { scope: [570], resync: true });
    const cursors: (number | undefined)[] = [];
    const second = new DetailBackfill(store, recording(market.listingsSource(), cursors), { appIds: [570], pageSize: 500, clock: new ManualClock() });
    second.start();
    await eventually(() => second.progress().state === 'done', 'every Dota 2 listing detailed');
    await second.stop();
    expect(cursors[0]).toBeUndefined();
    // one pass from the newest page, not a resumed one and then another from the top
    expect(cursors.filter((c) => c === undefined)).toHaveLength(1);
    const dota = [...market.book.values()].filter((l) => l.app_id === 570).length;
    expect(readStatus(db)).toMatchObject({ listings: dota, detailed: dota });
  });

  it('starts over from the newest page from a cursor whose games were not recorded (a file from before schema 7)', async () => {
    db.prepare('UPDATE sync_state SET backfill_cursor = 1501, backfill_games = NULL WHERE id = 1').run();
    const cursors: (number | undefined)[] = [];
    const backfill = new DetailBackfill(store, recording(market.listingsSource(), cursors), { clock: new ManualClock() });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing detailed');
    await backfill.stop();
    expect(cursors).toEqual([undefined, 1_501, 501]);
  });

  it('resumes from the saved cursor when the same games are mirrored again, named in another order', async () => {
    const games = [730, 570];
    await mirrorOnly(games);
    await stopAfterFirstPage(games, 2);
    const saved = store.state().backfillGameCursors!;
    expect([...saved.keys()].sort()).toEqual([570, 730]);
    const pages: PageAsked[] = [];
    const second = new DetailBackfill(store, recordingPages(market.listingsSource(), pages), { appIds: [570, 730, 570], pageSize: 500, clock: new ManualClock() });
    second.start();
    await eventually(() => second.progress().state === 'done', 'every listing of both games detailed');
    await second.stop();
    // the first run read each game's newest page (a game not begun comes first); each goes on from its
    // place, one read to its end is not read again
    for (const game of games) {
      const place = saved.get(game);
      const own = pages.filter((p) => p.appId === game);
      if (place === null) expect(own).toEqual([]);
      else expect(own[0]?.cursor).toBe(place);
      expect(own.length + 1).toBe(Math.ceil(listingsOf([game]) / 500));
    }
    expect(readStatus(db)).toMatchObject({ listings: listingsOf(games), detailed: listingsOf(games) });
  });

  it('pages each of two mirrored games with its own app_id, newest page first, and never another game\'s pages', async () => {
    const games = [730, 570];
    await mirrorOnly(games);
    const pages: PageAsked[] = [];
    const clock = new ManualClock();
    const backfill = new DetailBackfill(store, recordingPages(market.listingsSource(), pages), { appIds: games, pageSize: 500, clock });
    const seen: BackfillProgress[] = [];
    backfill.on('progress', (p) => seen.push(p));
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing of both games detailed');
    await backfill.stop();
    expect(new Set(pages.map((p) => p.appId))).toEqual(new Set(games));
    // each game's pages once: as many as its own listings fill, none of the other games' listings read
    for (const game of games) expect(pages.filter((p) => p.appId === game)).toHaveLength(Math.ceil(listingsOf([game]) / 500));
    expect(pages.filter((p) => p.cursor === undefined)).toHaveLength(2);
    expectNewestPageFirst(pages);
    expect(readStatus(db)).toMatchObject({ listings: listingsOf(games), detailed: listingsOf(games) });
    expect(store.state()).toMatchObject({ backfillCursor: null, backfillGameCursors: null });
    const running = seen.filter((p) => p.state === 'running' && p.pages > 0);
    expect(running.length).toBeGreaterThan(0);
    expect(running.every((p) => p.total === listingsOf(games) && p.detailed > 0)).toBe(true);
  });

  it('asks no page of a mirrored game whose listings all have their details while another game\'s lack them', async () => {
    const games = [730, 570];
    await mirrorOnly(games);
    detailAll((l) => l.app_id === 570);
    const pages: PageAsked[] = [];
    const backfill = new DetailBackfill(store, recordingPages(market.listingsSource(), pages), { appIds: games, pageSize: 500, clock: new ManualClock() });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing of both games detailed');
    await backfill.stop();
    expect(pages.filter((p) => p.appId === 570)).toEqual([]);
    expect(pages.filter((p) => p.appId === 730)).toHaveLength(Math.ceil(listingsOf([730]) / 500));
    expect(readStatus(db)).toMatchObject({ listings: listingsOf(games), detailed: listingsOf(games) });
  });

  it('stops paging a mirrored game once its older listings all have their details, though another game\'s pages go on', async () => {
    const games = [730, 570];
    await mirrorOnly(games);
    // CS2's newest 100 listings are without details, its older ones have them: its first page is all it
    // needs, though its next pages come before Dota 2's (newer places) and Dota 2's all lack details
    const cs2 = [...market.book.values()].filter((l) => l.app_id === 730).sort((a, b) => b.id - a.id);
    const newestCs2 = new Set(cs2.slice(0, 100).map((l) => l.id));
    detailAll((l) => l.app_id === 730 && !newestCs2.has(l.id));
    const pages: PageAsked[] = [];
    const backfill = new DetailBackfill(store, recordingPages(market.listingsSource(), pages), { appIds: games, pageSize: 500, clock: new ManualClock() });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing of both games detailed');
    await backfill.stop();
    expect(Math.ceil(cs2.length / 500)).toBeGreaterThan(1);
    expect(pages.filter((p) => p.appId === 730)).toEqual([{ appId: 730, cursor: undefined, next: expect.any(Number) }]);
    expect(pages.filter((p) => p.appId === 570)).toHaveLength(Math.ceil(listingsOf([570]) / 500));
    expect(readStatus(db)).toMatchObject({ listings: listingsOf(games), detailed: listingsOf(games) });
  });

  it('pages three mirrored games apart and resumes each where it stopped after a restart', async () => {
    const games = [730, 570, 440];
    await mirrorOnly(games);
    let served = 0;
    const source = market.listingsSource();
    const failing: ListingsSource = {
      ...source,
      fetchListingsPage: async (query, signal) => {
        if (served++ >= 4) throw new Error('network down');
        return source.fetchListingsPage(query, signal);
      },
    };
    const firstPages: PageAsked[] = [];
    const first = new DetailBackfill(store, recordingPages(failing, firstPages), { appIds: games, pageSize: 500, retryMs: 60_000 });
    first.start();
    await eventually(() => first.progress().pages === 4, 'four pages stored');
    await first.stop();
    const saved = store.state().backfillGameCursors!;
    // each game's place as its last page left it (null: read to its end)
    for (const game of games) expect(saved.get(game)).toBe(firstPages.filter((p) => p.appId === game).at(-1)!.next);

    db.close();
    db = openDatabase(file);
    store = new BookStore(db);
    const pages: PageAsked[] = [];
    const second = new DetailBackfill(store, recordingPages(market.listingsSource(), pages), { appIds: games, pageSize: 500, clock: new ManualClock() });
    second.start();
    await eventually(() => second.progress().state === 'done', 'every listing of the three games detailed');
    await second.stop();
    // no newest page read again, no game read past its end again: the two runs read each page once
    expect(pages.filter((p) => p.cursor === undefined)).toEqual([]);
    expect(pages.some((p) => saved.get(p.appId!) === null)).toBe(false);
    expectNewestPageFirst([...firstPages, ...pages]);
    for (const game of games) {
      expect([...firstPages, ...pages].filter((p) => p.appId === game)).toHaveLength(Math.ceil(listingsOf([game]) / 500));
    }
    expect(readStatus(db)).toMatchObject({ listings: listingsOf(games), detailed: listingsOf(games) });
  });

  it('starts over when the games paged apart changed since their places were saved', async () => {
    await mirrorOnly([730, 570]);
    await stopAfterFirstPage([730, 570], 2);
    expect(store.state().backfillGameCursors?.size).toBe(2);
    await mirrorOnly([730, 440]);
    const pages: PageAsked[] = [];
    const second = new DetailBackfill(store, recordingPages(market.listingsSource(), pages), { appIds: [730, 440], pageSize: 500, clock: new ManualClock() });
    second.start();
    await eventually(() => second.progress().state === 'done', 'every listing of both games detailed');
    await second.stop();
    expect(pages.filter((p) => p.cursor === undefined).map((p) => p.appId).sort()).toEqual([440, 730]);
    expect(readStatus(db)).toMatchObject({ listings: listingsOf([730, 440]), detailed: listingsOf([730, 440]) });
  });

  it('pages every game at once when all four are named, as when none is', async () => {
    const cursors: (number | undefined)[] = [];
    const pages: PageAsked[] = [];
    const backfill = new DetailBackfill(store, recordingPages(recording(market.listingsSource(), cursors), pages), {
      appIds: [730, 252490, 570, 440],
      clock: new ManualClock(),
    });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing detailed');
    await backfill.stop();
    expect(cursors).toEqual([undefined, 1_501, 501]);
    expect(pages.every((p) => p.appId === undefined)).toBe(true);
  });

  it('after the saved pass, starts from the newest page at once for listings that came while it was stopped', async () => {
    let stopped: Promise<void> | null = null;
    const first = new DetailBackfill(store, market.listingsSource());
    // stopped after its first page, as a sync is by a signal
    first.on('progress', (p) => {
      if (p.pages === 1) stopped ??= first.stop();
    });
    first.start();
    await eventually(() => stopped !== null, 'one page stored');
    await stopped;
    expect(store.state().backfillCursor).toBe(1_501);
    // while nothing ran: 500 new listings, which the sync's snapshot brings without details
    for (let id = 2_501; id <= 3_000; id++) market.create(makeFullListing(rng, id));
    await mergeSnapshot(store, market.snapshot(), { scope: null, resync: true });

    // a clock nobody moves: the 60 s wait after a pass never ends within the test
    const cursors: (number | undefined)[] = [];
    const second = new DetailBackfill(store, recording(market.listingsSource(), cursors), { clock: new ManualClock() });
    second.start();
    await eventually(() => second.progress().state === 'done', 'every listing detailed');
    await second.stop();
    expect(cursors).toEqual([1_501, 501, undefined]);
    expect(readStatus(db)).toMatchObject({ listings: 3_000, detailed: 3_000 });
  });

  it('waits after a pass that filled nothing, though a listing the pages never show is still without details', async () => {
    // the mirror holds it; the market's pages do not show it (gone without an event, say)
    market.book.delete(7);
    const cursors: (number | undefined)[] = [];
    const backfill = new DetailBackfill(store, recording(market.listingsSource(), cursors), { clock: new ManualClock() });
    backfill.start();
    // the first pass filled the rest, so a second one looked at once; it found nothing more
    await eventually(() => cursors.length === 6 && backfill.progress().state === 'idle', 'two passes');
    await new Promise((r) => setTimeout(r, 200));
    await backfill.stop();
    expect(cursors).toEqual([undefined, 1_501, 501, undefined, 1_501, 501]);
    expect(backfill.progress()).toMatchObject({ detailed: 2_499, total: 2_500 });
  });

  /** Pages as the market answers them, each followed by a new listing the store takes from the feed. */
  function listingWhileEachPage(creation: (listing: FullListing, seq: bigint) => ListingEvent, cursors: (number | undefined)[]) {
    let next = 3_001;
    const source = recording(market.listingsSource(), cursors);
    return {
      ...source,
      fetchListingsPage: async (query: Parameters<ListingsSource['fetchListingsPage']>[0], signal: AbortSignal) => {
        const page = await source.fetchListingsPage(query, signal);
        const listing = makeFullListing(rng, next++);
        market.book.set(listing.id, listing);
        store.applyEvents([creation(listing, market.nextSeq())]);
        return page;
      },
    };
  }

  it('is done after one pass though listings keep coming, their creations carrying only the per-game fields', async () => {
    const cursors: (number | undefined)[] = [];
    const backfill = new DetailBackfill(store, listingWhileEachPage(ownGameOnlyFrame, cursors), { clock: new ManualClock() });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing detailed');
    await backfill.stop();
    expect(cursors).toEqual([undefined, 1_501, 501]);
    expect(readStatus(db)).toMatchObject({ listings: 2_503, detailed: 2_503 });
  });

  it('ends a pass at what was there when it began, though creations without their fields keep coming', async () => {
    const clock = new ManualClock();
    const cursors: (number | undefined)[] = [];
    const backfill = new DetailBackfill(store, listingWhileEachPage(leanOnlyFrame, cursors), { clock });
    backfill.start();
    await eventually(() => cursors.length === 3 && backfill.progress().state === 'idle', 'the first pass');
    expect(readStatus(db)).toMatchObject({ listings: 2_503, detailed: 2_500 });
    // the next pass, after the wait, details those three from the newest page and ends there
    await clock.advance(60_000);
    await eventually(() => cursors.length === 4 && backfill.progress().state === 'idle', 'the second pass');
    await new Promise((r) => setTimeout(r, 200));
    await backfill.stop();
    expect(cursors).toEqual([undefined, 1_501, 501, undefined]);
    expect(readStatus(db)).toMatchObject({ listings: 2_504, detailed: 2_503 });
  });

  it("counts its last progress after the engine's last write, as `skindesk status` reads the file then", async () => {
    const backfill = new DetailBackfill(store, market.listingsSource(), { clock: new ManualClock() });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'every listing detailed');
    // received, not yet applied when the run is asked to stop: the engine applies them as it stops
    const received = [market.create(makeFullListing(rng, 3_001)), market.create(makeFullListing(rng, 3_002))];
    const engine = { stop: () => Promise.resolve(void store.applyEvents(received)) };
    await stopSyncRun(engine, backfill, (err) => {
      throw err;
    });
    expect(readStatus(db)).toMatchObject({ listings: 2_502, detailed: 2_502 });
    expect(backfill.progress()).toMatchObject({ total: 2_502, detailed: 2_502 });
  });

  it('says a failed page read in its progress in plain words, not as the request line', async () => {
    const failing: ListingsSource = {
      ...market.listingsSource(),
      fetchListingsPage: () =>
        Promise.reject(new ApiError({ kind: 'network', route: 'GET /public/v1/listings', message: 'GET /public/v1/listings: network failure (ECONNRESET: socket hang up)' })),
    };
    const backfill = new DetailBackfill(store, failing, { retryMs: 60_000 });
    backfill.start();
    await eventually(() => backfill.progress().problem !== null, 'the failure told');
    await backfill.stop();
    expect(backfill.progress().problem).toBe('reading listing details failed (the marketplace could not be reached); trying again');
  });

  /** The first page's write meets a file another connection holds (SQLITE_BUSY), later ones go through. */
  function busyOnce(): void {
    vi.spyOn(store, 'fillDetails').mockImplementationOnce(() => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    });
  }

  it('says an error of its own in its progress and tries again after a pause', async () => {
    busyOnce();
    const clock = new ManualClock();
    const backfill = new DetailBackfill(store, market.listingsSource(), { clock, failureRetryMs: 30_000 });
    const failures: string[] = [];
    backfill.on('failed', (error) => failures.push(error.message));
    backfill.start();
    await eventually(() => backfill.progress().state === 'failed', 'the failure told');
    expect(backfill.progress().problem).toBe('the detail backfill failed (database is locked); trying again');
    expect(failures).toEqual(['database is locked']);
    await clock.advance(29_000);
    expect(backfill.progress().state).toBe('failed');
    await clock.advance(1_000);
    await eventually(() => backfill.progress().state === 'done', 'done after the pause');
    await backfill.stop();
    expect(backfill.progress().problem).toBeNull();
    expect(readStatus(db).detailed).toBe(2_500);
  });

  it('runs again when started after a failure (the worker starts it each time the book goes live)', async () => {
    busyOnce();
    const backfill = new DetailBackfill(store, market.listingsSource(), { failureRetryMs: 600_000 });
    backfill.start();
    await eventually(() => backfill.progress().state === 'failed', 'the failure told');
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'done once started again');
    await backfill.stop();
    expect(readStatus(db).detailed).toBe(2_500);
  });

  it('asks nothing when creation events already brought every detail, and wakes up when told', async () => {
    const cursors: (number | undefined)[] = [];
    store.write(() => {
      for (const l of market.book.values()) store.fillDetails(l.id, l);
    });
    const backfill = new DetailBackfill(store, recording(market.listingsSource(), cursors), { idleMs: 60_000 });
    backfill.start();
    await eventually(() => backfill.progress().state === 'done', 'done');
    expect(cursors).toEqual([]);
    // A snapshot brings a listing without details: the first (newest) page has it, the pass stops there.
    const newest = makeFullListing(rng, 9_000);
    market.create(newest);
    await mergeSnapshot(store, market.snapshot(), { scope: null, resync: true });
    backfill.nudge();
    await eventually(() => readStatus(db).detailed === 2_501, 'new listing detailed');
    await backfill.stop();
    expect(cursors).toEqual([undefined]);
    // A creation event carries its details itself.
    store.applyEvents([createdEvent(makeFullListing(rng, 9_001), market.nextSeq())]);
    expect(readStatus(db).detailed).toBe(2_502);
  });
});

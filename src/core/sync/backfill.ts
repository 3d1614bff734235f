/**
 * Detail backfill. Snapshot rows carry price state only, so the per-game fields (float, seed, stickers,
 * heroes...) are fetched with `GET /listings` cursor paging: newest first, 1 000 rows a page, paced by
 * the client's governor to the 1/s limit at background priority. The cursor is saved with each page's
 * rows, with the games it pages, so a restart resumes where it stopped; a cursor saved for other games
 * (`skindesk sync --app-id 730`, then `--app-id 570`) starts the pass over from the newest page. A pass ends at the last page or as soon as every live
 * listing older than its start has its details (newer ones lie above its cursor, where it never looks);
 * a new pass starts when a snapshot brings listings without them (newest first finds those in the first
 * pages). A creation carries its per-game fields, so it is detailed already (store/book-store.ts).
 *
 * `GET /listings` takes one `app_id` (or none), so a backfill of 2 or 3 of the 4 games pages each of them
 * with its own filter rather than every game's pages, of which it would keep only its games' rows: the
 * 1/s budget goes to listings it stores. The games' pagings are interleaved, newest page first: the next
 * page read is that of the game whose next page holds the newest listings, so a pass reads its games'
 * listings newest first as one paging of them would. The newest listings (those a trader looks at, and
 * watchlists judge) get their details first whatever their game, where a game after game order would
 * detail all of one game's old listings before another's newest; and a pass that ends once every older
 * listing has its details ends at the same place. Each game's place is saved with each page. A game none
 * of whose listings below its place lacks details is paged no further, whatever the other games still need.
 */
import { EventEmitter } from 'node:events';
import { type Clock, intervalTime, systemClock } from '../api/clock.ts';
import { ApiError, failureReason } from '../api/errors.ts';
import { APP_IDS, type FullListing } from '../../shared/api/index.ts';
import type { BookStore } from '../store/book-store.ts';
import { countDetailed, countLive, countUndetailedAbove, newestListingId, newestUndetailedBelow } from '../store/book-reader.ts';
import { backfillGamesKey, serializeGameCursors, type SyncState } from '../store/sync-state.ts';
import type { ListingsSource } from './sources.ts';

export interface BackfillProgress {
  state: 'idle' | 'running' | 'done' | 'failed';
  /** Live listings whose details are in the mirror. */
  detailed: number;
  /** Live listings. */
  total: number;
  problem: string | null;
  /** Estimated time until every live listing has its details (ms), null when unknown. */
  etaMs: number | null;
  /** Details stored per second, recently. */
  rowsPerSecond: number;
  /** Pages read in the current pass. */
  pages: number;
}

export interface BackfillOptions {
  appIds?: readonly number[] | null;
  pageSize?: 1000 | 500;
  /** After a pass, how long to wait before checking again for listings without details. */
  idleMs?: number;
  /** Wait after a failed page (unless the server says how long). */
  retryMs?: number;
  /** Wait after a pass stopped on an error of our own (a busy database file) before trying again. */
  failureRetryMs?: number;
  /** Recount detailed/total from the database at most this often (counting a million rows is not free). */
  recountMs?: number;
  /** Longest a single write transaction may hold the thread before the rest of the page waits a turn. */
  writeBudgetMs?: number;
  /** Time for the waits and the detail rate (a ManualClock in tests). */
  clock?: Clock;
}

/** Pages the detail rate is measured over: one slow answer is smoothed out, a change of pace shows soon. */
const RATE_WINDOW_PAGES = 10;

/**
 * One paging of `GET /listings` in a pass: every game's listings (no `app_id`), or one game's. `cursor`
 * is where its next page starts, null for its newest page; `ended` once its last page was read.
 */
interface Lane {
  appId: number | undefined;
  cursor: number | null;
  ended: boolean;
}

/**
 * The games whose listings are paged each with its own `app_id`, or null for a single paging: every game
 * (none named, or all four named — their pages hold only mirrored listings already, and a single paging
 * asks fewer pages), or one game (filtered by the paging itself).
 */
function gamesPagedApart(appIds: readonly number[] | null): number[] | null {
  if (appIds === null) return null;
  const games = [...new Set(appIds)].sort((a, b) => a - b);
  const everyGame = APP_IDS.every((game) => games.includes(game));
  return games.length > 1 && !everyGame ? games : null;
}

/** The lane whose next page holds the newest listings: one not begun yet (its newest page) first. */
function newestLane(lanes: readonly Lane[]): Lane | undefined {
  let pick: Lane | undefined;
  for (const lane of lanes) {
    if (lane.ended) continue;
    if (lane.cursor === null) return lane;
    if (pick === undefined || lane.cursor > (pick.cursor ?? 0)) pick = lane;
  }
  return pick;
}

type BackfillEvents = {
  progress: [progress: BackfillProgress];
  warning: [message: string];
  /** A pass stopped on an error of its own (not the market's): its progress says so too until it tries again. */
  failed: [error: Error];
};

export class DetailBackfill extends EventEmitter<BackfillEvents> {
  readonly #store: BookStore;
  readonly #source: ListingsSource;
  readonly #scope: ReadonlySet<number> | null;
  /** The `app_id` of a single paging (one game), undefined for every game's. */
  readonly #appId: number | undefined;
  /** The games paged each with its own `app_id` (gamesPagedApart), null for a single paging. */
  readonly #apart: readonly number[] | null;
  /** The games this backfill pages (backfillGamesKey): its saved cursor is theirs. */
  readonly #games: string;
  readonly #pageSize: 1000 | 500;
  readonly #idleMs: number;
  readonly #retryMs: number;
  readonly #failureRetryMs: number;
  readonly #recountMs: number;
  readonly #writeBudgetMs: number;
  readonly #clock: Clock;
  #running = false;
  #abort = new AbortController();
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #progress: BackfillProgress = {
    state: 'idle',
    detailed: 0,
    total: 0,
    problem: null,
    etaMs: null,
    rowsPerSecond: 0,
    pages: 0,
  };
  #countedAt = 0;
  #ratePerMs = 0;
  /** When each recent page of the pass was stored and the details it brought; the first is the pass's start. */
  #pageMarks: { at: number; filled: number }[] = [];
  /** The newest listing id when the running pass began; null between passes. */
  #passTop: number | null = null;
  /** Live listings without details above #passTop, at the last count: the next pass's, not this one's. */
  #newerUndetailed = 0;

  constructor(store: BookStore, source: ListingsSource, options: BackfillOptions = {}) {
    super();
    this.#store = store;
    this.#source = source;
    const appIds = options.appIds ?? null;
    this.#scope = appIds === null ? null : new Set(appIds);
    const games = appIds === null ? [] : [...new Set(appIds)];
    this.#appId = games.length === 1 ? games[0] : undefined;
    this.#apart = gamesPagedApart(appIds);
    this.#games = backfillGamesKey(appIds);
    this.#pageSize = options.pageSize ?? 1000;
    this.#idleMs = options.idleMs ?? 60_000;
    this.#retryMs = options.retryMs ?? 5_000;
    this.#failureRetryMs = options.failureRetryMs ?? 30_000;
    this.#recountMs = options.recountMs ?? 10_000;
    this.#writeBudgetMs = options.writeBudgetMs ?? 10;
    this.#clock = options.clock ?? systemClock;
    this.#recount(true);
  }

  progress(): BackfillProgress {
    return { ...this.#progress };
  }

  /** Starts the loop; while it waits after a failure of its own, tries again now. */
  start(): void {
    if (this.#running) {
      if (this.#progress.state === 'failed') this.#wake?.();
      return;
    }
    this.#running = true;
    this.#abort = new AbortController();
    this.#loop = this.#run();
  }

  /** Stops the loop (no ETA for a pass that is not running any more); `reportFinal` counts. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#abort.abort(new Error('stopped'));
    this.#wake?.();
    await this.#loop;
    this.#loop = null;
    if (this.#progress.state === 'running') this.#set({ state: 'idle', etaMs: null });
  }

  /**
   * A stopped run's summary, counted from the file (creations bring their details too, which the pages'
   * own tally never sees). Taken after the engine's last write, so it agrees with `skindesk status`.
   */
  reportFinal(): void {
    this.#recount(true);
    this.#set({});
  }

  /** Something may have brought listings without details (a snapshot merge): look again now. */
  nudge(): void {
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      try {
        await this.#round();
      } catch (err) {
        // The loop goes on after a pause: the worker starts it when the book goes live, which may not
        // happen again in this run, so a transient SQLITE_BUSY ended the details for good.
        const error = err instanceof Error ? err : new Error(String(err));
        this.#set({ state: 'failed', etaMs: null, problem: `the detail backfill failed (${error.message}); trying again` });
        this.emit('failed', error);
        await this.#idle(this.#failureRetryMs);
      }
    }
  }

  /** Waits when nothing lacks details, else runs a pass and, mostly, waits when it finished. */
  async #round(): Promise<void> {
    this.#recount(true);
    if (this.#progress.detailed >= this.#progress.total) {
      this.#set({ state: this.#progress.total > 0 ? 'done' : 'idle', etaMs: this.#progress.total > 0 ? 0 : null, problem: null });
      await this.#idle(this.#idleMs);
      return;
    }
    const end = await this.#pass();
    if (end === null) return;
    // Listings older than the pass's start yet above its cursor (come while a restarted sync was down)
    // are still without details: the next pass, from the newest page, starts now. Only after a pass that
    // got somewhere: what one that filled nothing left may be what the market's pages never show. Those
    // that came during the pass wait, or a nudge: a market whose creations lack their fields would
    // otherwise keep a pass running for good.
    if (end.filled > 0 && end.olderLeft > 0) return;
    await this.#idle(this.#idleMs);
  }

  /**
   * Reads pages from the saved cursor until the end of the book or until every listing older than the
   * pass's start has its details. Returns the details it stored and how many older listings are still
   * without them, or null when it was stopped first.
   */
  async #pass(): Promise<{ filled: number; olderLeft: number } | null> {
    this.#passTop = newestListingId(this.#store.db);
    this.#newerUndetailed = 0;
    try {
      return await this.#readPages();
    } finally {
      this.#passTop = null;
    }
  }

  /**
   * The pass's pagings where the saved state left them, or null when there is none to resume: a cursor
   * of other games is a place in pages this backfill does not read (resumed, the new games' listings
   * above it got their details only in a later pass, or never while the pass kept finding them).
   */
  #resumeLanes(saved: SyncState): Lane[] | null {
    if (saved.backfillGames !== this.#games) return null;
    if (this.#apart === null) {
      return saved.backfillCursor === null ? null : [{ appId: this.#appId, cursor: saved.backfillCursor, ended: false }];
    }
    const cursors = saved.backfillGameCursors;
    if (cursors === null) return null;
    return this.#apart.map((appId) => {
      const cursor = cursors.get(appId);
      return { appId, cursor: cursor ?? null, ended: cursor === null };
    });
  }

  #freshLanes(): Lane[] {
    return (this.#apart ?? [this.#appId]).map((appId) => ({ appId, cursor: null, ended: false }));
  }

  async #readPages(): Promise<{ filled: number; olderLeft: number } | null> {
    const signal = this.#abort.signal;
    const resumed = this.#resumeLanes(this.#store.state());
    let lanes: readonly Lane[] = resumed ?? this.#freshLanes();
    if (resumed === null) this.#saveCursor(lanes, 'start');
    this.#set({ state: 'running', pages: 0, problem: null });
    this.#pageMarks = [{ at: intervalTime(this.#clock), filled: 0 }];
    let passFilled = 0;
    const pending = new Map<number, number>();
    while (this.#running) {
      const lane = newestLane(lanes);
      if (lane === undefined) break; // (a saved state of ended games only, or every game's details found stored)
      if (!this.#hasOlderUndetailed(lane, pending)) {
        // Its pages left hold only listings with their details: the 1/s budget goes to the other games'.
        lanes = lanes.map((l) => (l === lane ? { ...l, ended: true } : l));
        continue;
      }
      const { appId, cursor } = lane;
      let page;
      try {
        page = await this.#source.fetchListingsPage(
          { limit: this.#pageSize, ...(cursor === null ? {} : { cursor }), ...(appId === undefined ? {} : { appId }) },
          signal,
        );
      } catch (err) {
        if (signal.aborted) return null;
        if (err instanceof ApiError && (err.status === 401 || err.code === 'UNAUTHORIZED')) {
          this.#set({ state: 'failed', problem: 'the marketplace refused the API key when reading listings' });
          this.#running = false;
          return null;
        }
        const wait = err instanceof ApiError && err.retryAfterMs ? err.retryAfterMs : this.#retryMs;
        this.emit('warning', `reading listing details failed: ${(err as Error).message}`);
        this.#set({ problem: `reading listing details failed (${failureReason(err)}); trying again` });
        await this.#idle(wait);
        continue;
      }
      const next = page.nextCursor;
      const moved: readonly Lane[] = lanes.map((l) => (l === lane ? { ...l, cursor: next, ended: next === null } : l));
      const filled = await this.#storePage(page.listings, moved);
      if (filled === null) return null;
      lanes = moved;
      passFilled += filled;
      this.#noteRate(filled);
      this.#progress.detailed += filled;
      this.#progress.pages++;
      this.#recount(false);
      const remaining = this.#olderUndetailed();
      const allRead = lanes.every((l) => l.ended);
      if (allRead || remaining === 0) {
        if (!allRead) this.#store.write(() => this.#saveCursor(lanes, 'complete'));
        return this.#passEnded(passFilled);
      }
      this.#set({ state: 'running', etaMs: this.#ratePerMs > 0 ? Math.round(remaining / this.#ratePerMs) : null, problem: null });
    }
    if (!this.#running) return null;
    this.#store.write(() => this.#saveCursor(lanes, 'complete'));
    return this.#passEnded(passFilled);
  }

  /**
   * Whether a game paged apart still has a live listing without details below its cursor (anywhere, for a
   * game not begun). The pass's end counts every game's listings, so without this a game whose details
   * are all stored kept being paged while another's were not. `pending` holds, per game, the newest such
   * listing the last look found: the game's pages are read down to it without looking again, so the
   * looks of a pass walk each of its rows once at most. (A single paging ends on the pass's own count.)
   */
  #hasOlderUndetailed(lane: Lane, pending: Map<number, number>): boolean {
    if (this.#apart === null || lane.appId === undefined) return true;
    const below = lane.cursor ?? Number.MAX_SAFE_INTEGER;
    const known = pending.get(lane.appId);
    if (known !== undefined && known < below) return true;
    const found = newestUndetailedBelow(this.#store.db, lane.appId, below);
    if (found === null) return false;
    pending.set(lane.appId, found);
    return true;
  }

  #passEnded(passFilled: number): { filled: number; olderLeft: number } {
    this.#recount(true);
    const done = this.#progress.detailed >= this.#progress.total;
    this.#set({ state: done ? 'done' : 'idle', etaMs: done ? 0 : null, problem: null });
    return { filled: passFilled, olderLeft: this.#olderUndetailed() };
  }

  /**
   * Stores a page's details in transactions of at most `writeBudgetMs` each, yielding to the event loop
   * between them: in the app this runs on the thread that answers the renderer, and a 1 000-row page
   * can take a few hundred ms on a busy machine. The cursor moves (to `lanes`, the pagings after this
   * page) with the page's last rows only, so a stop mid-page rereads that page (filling details twice is
   * harmless). Null when stopped.
   */
  async #storePage(listings: readonly FullListing[], lanes: readonly Lane[]): Promise<number | null> {
    let filled = 0;
    let at = 0;
    for (;;) {
      if (at > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (!this.#running) return null;
      }
      filled += this.#store.write(() => {
        const started = performance.now();
        const now = this.#store.clock.now();
        let n = 0;
        for (; at < listings.length; at++) {
          if (at % 50 === 49 && performance.now() - started > this.#writeBudgetMs) break;
          const listing = listings[at] as FullListing;
          if (this.#scope !== null && !this.#scope.has(listing.app_id)) continue;
          if (this.#store.fillDetails(listing.id, listing, now)) n++;
        }
        if (at >= listings.length) this.#saveCursor(lanes, lanes.every((l) => l.ended) ? 'complete' : 'page');
        return n;
      });
      if (at >= listings.length) return filled;
    }
  }

  /**
   * Saves where the pass's pagings are: a single paging's cursor in backfill_cursor, those of games paged
   * apart in backfill_game_cursors (the games not begun yet left out), each with the games they page.
   */
  #saveCursor(lanes: readonly Lane[], moment: 'start' | 'page' | 'complete'): void {
    const now = this.#store.clock.now();
    const db = this.#store.db;
    if (moment === 'start') {
      db.prepare(
        'UPDATE sync_state SET backfill_cursor = NULL, backfill_game_cursors = NULL, backfill_games = ?, backfill_pass_started_at = ? WHERE id = 1',
      ).run(this.#games, now);
    } else if (moment === 'complete') {
      db.prepare('UPDATE sync_state SET backfill_cursor = NULL, backfill_game_cursors = NULL, backfill_pass_completed_at = ? WHERE id = 1').run(now);
    } else if (this.#apart === null) {
      db.prepare('UPDATE sync_state SET backfill_cursor = ?, backfill_games = ? WHERE id = 1').run(lanes[0]?.cursor ?? null, this.#games);
    } else {
      const begun = new Map(lanes.filter((l) => l.ended || l.cursor !== null).map((l) => [l.appId as number, l.ended ? null : l.cursor]));
      db.prepare('UPDATE sync_state SET backfill_cursor = NULL, backfill_game_cursors = ?, backfill_games = ? WHERE id = 1').run(
        serializeGameCursors(begun),
        this.#games,
      );
    }
  }

  /**
   * Details stored per ms over the last pages, by the time between them: the wait for the 1/s budget, a
   * retry's pause and the writes are most of a page's time, and a rate taken over the request alone made
   * the ETA 5-10× too short.
   */
  #noteRate(filled: number): void {
    const marks = this.#pageMarks;
    marks.push({ at: intervalTime(this.#clock), filled });
    if (marks.length > RATE_WINDOW_PAGES + 1) marks.shift();
    const details = marks.slice(1).reduce((sum, mark) => sum + mark.filled, 0);
    const span = (marks.at(-1)?.at ?? 0) - (marks[0]?.at ?? 0);
    this.#ratePerMs = details / Math.max(span, 1);
    this.#progress.rowsPerSecond = Math.round(this.#ratePerMs * 1000);
  }

  #recount(force: boolean): void {
    const now = intervalTime(this.#clock);
    if (!force && now - this.#countedAt < this.#recountMs) return;
    this.#countedAt = now;
    this.#progress.total = countLive(this.#store.db);
    this.#progress.detailed = countDetailed(this.#store.db);
    this.#newerUndetailed = this.#passTop === null ? 0 : countUndetailedAbove(this.#store.db, this.#passTop);
  }

  /** Listings without details that the running pass can still reach (by the running tally). */
  #olderUndetailed(): number {
    return Math.max(0, this.#progress.total - this.#progress.detailed - this.#newerUndetailed);
  }

  #set(change: Partial<BackfillProgress>): void {
    this.#progress = { ...this.#progress, ...change };
    this.emit('progress', this.progress());
  }

  #idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.#clock.setTimer(ms, () => done());
      const done = () => {
        cancel();
        this.#wake = null;
        resolve();
      };
      this.#wake = done;
      if (!this.#running) done();
    });
  }
}

/**
 * Polls `GET /trades` into the tracker: the only source when no webhook receiver runs, and the safety
 * net when one does (the service drops a webhook URL after 20 failed deliveries, and a delivery retried
 * 6 times is gone for good).
 *
 * Cadence: every `activeIntervalMs` while the tracker holds trades in flight (or shortly after a write
 * that creates trades), every `idleIntervalMs` otherwise. The REST client's governor keeps the route
 * within its 1 request per second, however many pages a poll walks.
 *
 * Paging: trades come newest created first, and a trade's status changes long after its creation, so
 * page 1 alone is not enough. A poll walks on while the oldest row of the page is a trade it never saw
 * (more new ones may follow) or while some trade held as in flight is older than the page's oldest row
 * (its current state is further down). The offset pages shift while the poll walks them (a trade created
 * on top pushes every row down, one gone pulls them up past the reader): the pages are read through
 * readNewestFirst (api/pagers.ts), which keeps each trade once and reads a page again rather than skip
 * one. Every `fullSweepEveryMs`, and on the first poll, it walks every page, in case a trade held as final
 * changed after all.
 */
import { EventEmitter } from 'node:events';
import type { QueryOf, ResponseOf, Trade } from '../../shared/api/index.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { ApiError } from '../api/errors.ts';
import type { Priority } from '../api/governor.ts';
import { readNewestFirst } from '../api/pagers.ts';
import { instantKey } from './instant.ts';
import type { TradeTracker } from './tracker.ts';

/** What the poller needs of the REST client (`ApiClient` satisfies it); tests pass a fake. */
export interface TradesSource {
  call(
    name: 'trades',
    input: { query: QueryOf<'trades'> },
    opts: { priority: Priority; signal?: AbortSignal },
  ): Promise<ResponseOf<'trades'>>;
}

export interface TradePollerOptions {
  source: TradesSource;
  tracker: TradeTracker;
  clock?: Clock;
  /** While trades are in flight (default 5 s). */
  activeIntervalMs?: number;
  /** While nothing is in flight (default 2 minutes). */
  idleIntervalMs?: number;
  /** After `nudge()`, keep the active cadence this long even before the new trades show up (default 1 minute). */
  nudgeGraceMs?: number;
  /** How often a poll walks every page (default 15 minutes). */
  fullSweepEveryMs?: number;
  /** Rows per page: the route allows only 500 or 1000 (default 500). */
  pageLimit?: '500' | '1000';
  /** Bound on pages per poll, against a server that never ends (default 200, i.e. 100k trades at 500). */
  maxPages?: number;
}

export interface PollReport {
  full: boolean;
  pages: number;
  rows: number;
  applied: number;
  older: number;
  tie: number;
  inFlightAfter: number;
  startedAt: number;
  finishedAt: number;
}

export interface PollerStats {
  polls: number;
  fullSweeps: number;
  pagesFetched: number;
  failures: number;
  consecutiveFailures: number;
  lastPollAt: number | null;
  /** The last failure in words, while polls fail; null once a poll succeeds. */
  lastError: string | null;
  /** When the first poll of the failures going on now started; null while the last poll succeeded. */
  failingSince: number | null;
  nextPollAt: number | null;
}

export interface TradePollerEvents {
  poll: [PollReport];
  poll_error: [Error];
}

interface QueuedPoll {
  full: boolean;
  promise: Promise<PollReport>;
}

export class TradePoller extends EventEmitter<TradePollerEvents> {
  readonly #source: TradesSource;
  readonly #tracker: TradeTracker;
  readonly #clock: Clock;
  readonly #activeMs: number;
  readonly #idleMs: number;
  readonly #graceMs: number;
  readonly #fullSweepMs: number;
  readonly #pageLimit: '500' | '1000';
  readonly #maxPages: number;
  #running = false;
  #abort: AbortController | null = null;
  #cancelTimer: (() => void) | null = null;
  #chain: Promise<unknown> = Promise.resolve();
  #queued: QueuedPoll | null = null;
  #lastFullSweepAt: number | null = null;
  #activeUntil = 0;
  /** How many times stop() was called: a poll queued before a stop does not run after it. */
  #stops = 0;
  readonly #stats: PollerStats = {
    polls: 0,
    fullSweeps: 0,
    pagesFetched: 0,
    failures: 0,
    consecutiveFailures: 0,
    lastPollAt: null,
    lastError: null,
    failingSince: null,
    nextPollAt: null,
  };

  constructor(options: TradePollerOptions) {
    super();
    this.#source = options.source;
    this.#tracker = options.tracker;
    this.#clock = options.clock ?? systemClock;
    this.#activeMs = options.activeIntervalMs ?? 5_000;
    this.#idleMs = options.idleIntervalMs ?? 120_000;
    this.#graceMs = options.nudgeGraceMs ?? 60_000;
    this.#fullSweepMs = options.fullSweepEveryMs ?? 15 * 60_000;
    this.#pageLimit = options.pageLimit ?? '500';
    this.#maxPages = options.maxPages ?? 200;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Starts polling: the first poll (a full sweep) right away, then on the cadence. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0);
  }

  /**
   * Stops the timer, aborts a poll in progress and drops any queued behind it (they reject with an
   * AbortError); resolves when nothing runs any more.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stops++;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#stats.nextPollAt = null;
    this.#abort?.abort(new DOMException('the trade poller stopped', 'AbortError'));
    await this.#chain;
  }

  /**
   * A write just created trades (sell, deposit, withdraw): poll now and keep the fast cadence for a
   * while, even before the tracker sees the new trades in flight.
   */
  nudge(): void {
    this.#activeUntil = this.#clock.now() + this.#graceMs;
    if (this.#running) this.#schedule(0);
  }

  /**
   * The tracker's picture changed (a webhook showed a new trade in flight): if the next poll is further
   * away than the current cadence allows, bring it forward. Never delays a poll, never polls at once.
   */
  refreshCadence(): void {
    const next = this.#stats.nextPollAt;
    if (!this.#running || next === null) return;
    const interval = this.currentIntervalMs();
    if (next - this.#clock.now() > interval) this.#schedule(interval);
  }

  /**
   * Polls once now. Calls made while a poll runs are queued and coalesced into one follow-up poll
   * (a full sweep if any of them asked for one). Rejects with the failure, which is also emitted.
   */
  pollNow(options: { full?: boolean } = {}): Promise<PollReport> {
    if (this.#queued) {
      this.#queued.full ||= options.full === true;
      return this.#queued.promise;
    }
    const queued: QueuedPoll = { full: options.full === true, promise: Promise.resolve() as never };
    const stopsWhenAsked = this.#stops;
    queued.promise = this.#chain.then(() => {
      this.#queued = null;
      // a stop() between the ask and the turn: quitting must not wait for (or send) a whole new walk
      if (this.#stops !== stopsWhenAsked) throw new DOMException('the trade poller stopped', 'AbortError');
      return this.#poll(queued.full);
    });
    this.#queued = queued;
    this.#chain = queued.promise.catch(() => undefined);
    return queued.promise;
  }

  stats(): PollerStats {
    return { ...this.#stats };
  }

  /** The interval the next poll waits, given what the tracker holds now. */
  currentIntervalMs(): number {
    const active = this.#tracker.inFlightCount() > 0 || this.#clock.now() < this.#activeUntil;
    return active ? this.#activeMs : this.#idleMs;
  }

  #schedule(delayMs: number): void {
    this.#cancelTimer?.();
    this.#stats.nextPollAt = this.#clock.now() + delayMs;
    this.#cancelTimer = this.#clock.setTimer(delayMs, () => {
      this.#cancelTimer = null;
      this.#stats.nextPollAt = null;
      const dueForSweep =
        this.#lastFullSweepAt === null || this.#clock.now() - this.#lastFullSweepAt >= this.#fullSweepMs;
      // A failure was already counted and emitted as `poll_error` inside #poll; the timer re-arms there.
      this.pollNow({ full: dueForSweep }).catch(() => undefined);
    });
  }

  async #poll(full: boolean): Promise<PollReport> {
    const startedAt = this.#clock.now();
    const abort = new AbortController();
    this.#abort = abort;
    const report: PollReport = { full, pages: 0, rows: 0, applied: 0, older: 0, tie: 0, inFlightAfter: 0, startedAt, finishedAt: startedAt };
    // the trades this poll has read: a trade in flight among them needs no further page
    const seen = new Set<number>();
    // those the tracker did not hold when this poll read them (a page read again finds them held)
    const newToTracker = new Set<number>();
    try {
      const read = await readNewestFirst(
        async (name, input, opts) => {
          const response = await this.#source.call(name, input, opts);
          report.pages++;
          this.#stats.pagesFetched++;
          return response;
        },
        'trades',
        { limit: this.#pageLimit },
        {
          priority: 'background',
          signal: abort.signal,
          maxPages: this.#maxPages,
          // each page's trades go to the tracker as they come: a sweep of many pages shows the newest at once
          afterPage: (added, run) => {
            for (const row of added) {
              seen.add(row.id);
              if (this.#tracker.get(row.id) === null) newToTracker.add(row.id);
            }
            const oldest = run.at(-1);
            const oldestWasUnknown = oldest !== undefined && newToTracker.has(oldest.id);
            const counts = this.#tracker.applyMany(added, 'poll');
            report.rows += added.length;
            report.applied += counts.applied;
            report.older += counts.older;
            report.tie += counts.tie;
            return !full && oldest !== undefined && !oldestWasUnknown && !this.#inFlightFurtherDown(oldest, seen);
          },
        },
      );
      // a sweep cut short by a history that kept moving is not a sweep: the next poll sweeps again
      if (full && !read.stillMoving) {
        this.#lastFullSweepAt = startedAt;
        this.#stats.fullSweeps++;
      }
      this.#stats.polls++;
      this.#stats.consecutiveFailures = 0;
      // a good poll ends the failure: its words must not stay on show as if polling still failed
      this.#stats.lastError = null;
      this.#stats.failingSince = null;
      this.#stats.lastPollAt = startedAt;
      report.inFlightAfter = this.#tracker.inFlightCount();
      report.finishedAt = this.#clock.now();
      this.emit('poll', report);
      return report;
    } catch (err) {
      if (abort.signal.aborted) throw err; // stopped on purpose: not a failure
      const error = err instanceof Error ? err : new Error(String(err));
      this.#stats.failures++;
      if (this.#stats.consecutiveFailures === 0) this.#stats.failingSince = startedAt;
      this.#stats.consecutiveFailures++;
      // shown to the user (the trade feeds panel): the failure in words; the technical message goes
      // with the `poll_error` event to whoever logs it
      this.#stats.lastError = error instanceof ApiError ? error.explanation : error.message;
      this.emit('poll_error', error);
      throw error;
    } finally {
      if (this.#abort === abort) this.#abort = null;
      if (this.#running && !abort.signal.aborted && !this.#queued) this.#schedule(this.#nextDelayMs());
    }
  }

  /** The cadence, doubled per consecutive failure up to the idle interval (a failing server is not hammered). */
  #nextDelayMs(): number {
    const base = this.currentIntervalMs();
    const failures = this.#stats.consecutiveFailures;
    if (failures === 0) return base;
    return Math.min(base * 2 ** (failures - 1), Math.max(base, this.#idleMs));
  }

  /**
   * Whether some trade held as in flight, not read by this poll yet, was created before `row` or at the
   * same instant (so its state is on a later page): one sell of several games makes several trades at
   * once, and a page may end between them.
   */
  #inFlightFurtherDown(row: Trade, seen: ReadonlySet<number>): boolean {
    const boundary = instantKey(row.created_at);
    return this.#tracker.inFlight().some((t) => !seen.has(t.id) && instantKey(t.created_at) <= boundary);
  }
}

/**
 * The sync engine: keeps the local book equal to the marketplace's, following the spec's local-book
 * protocol (§6.1) hardened where it is weak:
 *
 *  - Every event is buffered from the moment the socket opens; the snapshot is asked for only after
 *    `subscribed`, and after the first event when one comes quickly, so there is proof it is new enough.
 *  - A snapshot is accepted only at or above the highest seq already seen (on this socket, and applied
 *    before); a cached or 304 snapshot that is older is asked for again after the server's cache expires.
 *  - Everything is applied through the store's seq guard, so snapshots and events commute: a reconnect
 *    or a periodic anti-entropy snapshot merges into the live table without emptying it, and during a
 *    resync events are applied as they arrive (kept in the buffer too, applied again after the merge).
 *  - The buffer is bounded; overflowing it discards it and demands a snapshot at least as new as the
 *    lost events (a visible resync, never a silent gap).
 *  - Liveness by ping; reconnect with full-jitter backoff; 4401 stops with an authentication failure,
 *    4429 backs off longer.
 */
import { EventEmitter } from 'node:events';
import {
  LIMITS,
  LISTING_EVENT_NAMES,
  WS_CLOSE,
  errorMessageText,
  type ListingCreatedEvent,
  type ListingEvent,
  type ServerFrame,
  type SubscribeOp,
} from '../../shared/api/index.ts';
import type { BookRead } from '../../shared/ipc/contract.ts';
import { ApiError, failureReason } from '../api/errors.ts';
import type { ApplyOutcome, BookStore } from '../store/book-store.ts';
import { countLive } from '../store/book-reader.ts';
import { mergeSnapshot, type MergeSummary } from '../store/snapshot-merge.ts';
import type { SyncState } from '../store/sync-state.ts';
import { RECONNECT_BACKOFF, TOO_MANY_CONNECTIONS_BACKOFF, backoffDelay, snapshotFailureBackoff, type BackoffPolicy } from './backoff.ts';
import { DivergenceTracker } from './divergence.ts';
import { EventQueue } from './event-queue.ts';
import { type FeedClose, type FeedLink, type FeedOptions, FeedConnection } from './feed.ts';
import type { BookSource, BookSnapshotResult } from './sources.ts';

export type EngineState = 'opening' | 'connecting' | 'live' | 'resyncing' | 'offline' | 'stopped';

export interface EngineStatus {
  state: EngineState;
  /** When `state` was entered (ms since the epoch). */
  since: number;
  /** Highest seq applied, as a decimal string. */
  lastSeq: string | null;
  /** Last moment the mirror was known to match the marketplace (ms), null before the first sync. */
  bookAsOf: number | null;
  /** Live listings in the mirror. */
  rows: number;
  eventsPerSecond: number;
  /** Plain words: why the state is offline or resyncing. */
  problem: string | null;
  /** The key was refused (4401 or HTTP 401): the engine stopped and will not retry. */
  authFailed: boolean;
  /** When the next reconnect is due (ms), while offline. */
  nextRetryAt: number | null;
  bufferedEvents: number;
  /** The read of the whole book under way (a first load or a resync), null otherwise. */
  bookRead: BookRead | null;
  resyncs: number;
  divergenceRepaired: number;
}

/** One change of the book, shaped like the IPC `bookChanged` push. */
export interface BookChange {
  version: number;
  lastSeq: string | null;
  /** So much changed (a large snapshot merge) that readers should refetch everything. */
  reset: boolean;
  upserted: number;
  removed: number;
  ids: number[];
  idsTruncated: boolean;
}

export const BOOK_CHANGE_MAX_IDS = 1000;

/** One applied batch of feed events, counted (the store's ApplyOutcome without its lists). */
export interface BatchSummary {
  events: number;
  applied: number;
  stale: number;
  covered: number;
  unknown: number;
  tookMs: number;
}

export interface SyncEngineOptions {
  /** Games to mirror; null mirrors every game. */
  appIds?: readonly number[] | null;
  /** REST base URL, recorded as the mirror's source. */
  sourceUrl?: string | null;
  pingIntervalMs?: number;
  livenessTimeoutMs?: number;
  connectTimeoutMs?: number;
  maxBufferedEvents?: number;
  /**
   * Events per transaction at most: a batch takes whatever is queued up to this. Default: 100 000 with
   * atomic merges (a backlog — after a snapshot, a slow disk — commits in few big transactions, each
   * rewriting the index pages it touches once: about 4× less written per event than at 20 000, and
   * 30-60 % more events/s), 2 000 with stepped ones (their transactions stay short for other writers).
   */
  liveBatchSize?: number;
  antiEntropyMs?: number;
  /**
   * Wait before asking again for a snapshot that was too old (the server caches /book this long); also
   * the longest wait after a failed read, which backs off from ~1 s up to it.
   */
  snapshotRetryMs?: number;
  /** After `subscribed`, how long to wait for a first event to prove the snapshot's freshness. */
  firstEventWaitMs?: number;
  /**
   * How long after the socket opens (and the subscribe op is sent) the server has to confirm it with
   * `subscribed` (or refuse it with `error`). The snapshot is asked for only after that answer, so without
   * a limit a lost answer would keep the engine in `connecting` forever with no error; past it, the status
   * says so and the engine reconnects through the usual backoff.
   */
  subscribeAckTimeoutMs?: number;
  divergenceGraceMs?: number;
  tombstoneWindowMs?: number;
  /**
   * 'atomic': each snapshot merges in one transaction (fast; readers on other connections switch from the
   * old book to the new one at once) — for an engine running off the UI thread, as the sync worker does.
   * 'stepped' (default): budgeted transactions of `mergeBudgetMs`, yielding between them — for an engine
   * sharing its thread with a UI (slower on large books: small commits rewrite the same index pages).
   */
  mergeMode?: 'atomic' | 'stepped';
  mergeBudgetMs?: number;
  reconnect?: BackoffPolicy;
  tooManyConnections?: BackoffPolicy;
  /**
   * A session that stayed subscribed this long proved the server takes us: its end starts the reconnect
   * backoff afresh, as reaching live does. Without it, a server restarting every few seconds keeps the
   * client from live (each restart costs a /book read) and the delays climb to the cap.
   */
  healthySessionMs?: number;
  random?: () => number;
  /**
   * Opens one feed connection. Default: a WebSocket in this thread. The sync worker is given one that
   * relays the socket its host holds (relay.ts), so frames are parsed, and new listings judged, in a
   * thread that never waits for a SQLite write.
   */
  openFeed?: (options: FeedOptions) => FeedLink;
}

type Resolved = Required<Omit<SyncEngineOptions, 'appIds' | 'sourceUrl' | 'liveBatchSize'>> & { liveBatchSize: number | null };

/**
 * Close codes by which a server that had taken our subscription announces its own restart (RFC 6455's
 * registry: 1001 going away, 1012 service restart): an incident on its side, not a failure of ours, so the
 * reconnect backoff starts afresh. Connections refused while it is down still double the delay.
 */
const ANNOUNCED_RESTART_CODES: ReadonlySet<number> = new Set([1001, 1012]);

/** A wait for the /book budget shorter than this goes unmentioned in the status. */
const BUDGET_WAIT_SHOWN_MS = 1_000;

/**
 * A read that left this close before a stale copy's expiry left at it: the wait aimed there, and timers
 * fire by the event loop's cached clock, which trails Date.now() by as much as the turn that set them
 * took. Without it, such a read seemed to leave before the bound, the bound was trusted again, and the
 * next read went out at once (seen ~1 in 8 runs of the protocol test).
 */
const BOUND_SLACK_MS = 50;
/** How often a book read's progress is told (the status crosses a thread and reaches the window). */
const BOOK_READ_STATUS_MS = 250;

const openSocketFeed = (options: FeedOptions): FeedLink => new FeedConnection(options);

/**
 * Time for waits and intervals inside a run (ms, monotonic). The wall clock can be stepped (NTP, the
 * user setting the time): a wait aimed at a wall-clock moment then lasted as long as a step back (a
 * resync held for an hour), and intervals measured on it stopped (the row count, the rate).
 */
const elapsedNow = (): number => performance.now();

const DEFAULTS: Resolved = {
  pingIntervalMs: 10_000,
  livenessTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  maxBufferedEvents: 200_000,
  liveBatchSize: null,
  antiEntropyMs: 60_000,
  snapshotRetryMs: LIMITS.bookCacheMs + 1_000,
  firstEventWaitMs: 1_500,
  subscribeAckTimeoutMs: 5_000,
  divergenceGraceMs: 5_000,
  tombstoneWindowMs: 30 * 60_000,
  mergeMode: 'stepped',
  mergeBudgetMs: 25,
  reconnect: RECONNECT_BACKOFF,
  tooManyConnections: TOO_MANY_CONNECTIONS_BACKOFF,
  healthySessionMs: 10_000,
  random: Math.random,
  openFeed: openSocketFeed,
};

type EngineEvents = {
  status: [status: EngineStatus];
  book: [change: BookChange];
  /**
   * The events of one applied batch that changed the book, right after they committed, with their seq
   * (duplicates, reordered and stale events never appear: the store's guard rejected them).
   */
  applied: [events: readonly ListingEvent[]];
  /**
   * A `listing.created` that arrived while live, before it is applied (it may still be a duplicate or
   * stale): a new listing carries everything about itself, so watchlists judge it at once instead of
   * behind the events queued ahead of it.
   */
  received: [event: ListingCreatedEvent];
  /** A batch of feed events is about to be written (one transaction). */
  applying: [events: number];
  /** What one batch did, and how long its transaction took. */
  batch: [summary: BatchSummary];
  /** A problem worth a log line that did not stop the engine (a bad frame, a failed snapshot fetch). */
  warning: [message: string];
  /** The store failed: the engine stopped. */
  error: [error: Error];
};

/**
 * What a `subscribed` answer leaves out of what was asked (words), or null: a confirmation of every
 * event and game asked (or of all), or another frame.
 */
function confirmedLessThanAsked(frame: ServerFrame, asked: SubscribeOp): string | null {
  if (frame.kind !== 'control' || frame.message.event !== 'subscribed') return null;
  const { events, app_ids: appIds } = frame.message.data;
  const missingEvents = events === 'all' || asked.events === undefined ? [] : asked.events.filter((e) => !events.includes(e));
  const missingGames = appIds === 'all' || asked.app_ids === undefined ? [] : asked.app_ids.filter((id) => !appIds.includes(id));
  const missing = [
    ...(missingEvents.length > 0 ? [`events ${missingEvents.join(', ')}`] : []),
    ...(missingGames.length > 0 ? [`games ${missingGames.join(', ')}`] : []),
  ];
  return missing.length === 0 ? null : missing.join('; ');
}

type Phase = 'subscribing' | 'buffering' | 'live';

interface Session {
  feed: FeedLink;
  abort: AbortController;
  phase: Phase;
  buffer: ListingEvent[];
  /** Highest seq seen on this socket of an event of the mirrored games (or of an unknown event). */
  maxSeen: bigint | null;
  eventsSeen: number;
  /** The first seq-bearing frame on this socket, and when it arrived (Date.now(): see #staleAnswerWait). */
  firstSeen: { seq: bigint; at: number } | null;
  /** A snapshot must be at least this new: events up to it were dropped (overflow, bad frame). */
  requiredSeq: bigint | null;
  /**
   * A snapshot must be asked for no earlier than this (elapsedNow()): a frame whose seq could not be
   * read came, and only a copy built after it surely contains what it changed. The server caches /book,
   * so a copy it serves was built at most `snapshotRetryMs` (the cache's life and a margin) earlier.
   */
  snapshotNotBefore: number | null;
  snapshotting: boolean;
  reachedLive: boolean;
  /** When the server confirmed the subscription (elapsedNow()), null before. */
  subscribedAt: number | null;
  onFirstEvent: (() => void) | null;
  /**
   * While the book is re-read, events also go to the store as they arrive (not only to the buffer): the
   * mirror already holds a whole book, so prices and new listings keep moving on screen during a resync.
   * False on a first load (a handful of new listings is no book) and after the store fell behind.
   */
  applyWhileResyncing: boolean;
  /**
   * maxSeen when the previous periodic check began (when the book went live, before the first): the same
   * at a check that repaired listings, the feed has been open but silent while the book changed.
   */
  seenAtLastCheck: bigint | null;
  /** Why we closed this socket ourselves, in plain words (the close alone would read as a failed connection). */
  endedBecause: string | null;
}

interface SessionEnd {
  close: FeedClose;
  /** Why we ended it ourselves, in plain words (the close alone would read as a failed connection). */
  problem?: string;
  /**
   * Live, subscribed for `healthySessionMs`, or closed by an announced restart after subscribing: the next
   * reconnect starts the backoff afresh.
   */
  healthy: boolean;
}

class AuthFailure extends Error {}

const maxSeq = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null ? a : a > b ? a : b);

/** A snapshot read for the book, with whether it is proven fresh and when it was asked for (elapsedNow()). */
type FetchedSnapshot = BookSnapshotResult & { provenFresh: boolean; requestedAt: number };

/** Whether `snapshot` contains every event this session lost (dropped in an overflow, or in a bad frame). */
function coversLosses(s: Session, snapshot: FetchedSnapshot): boolean {
  if (s.requiredSeq !== null && snapshot.seq < s.requiredSeq) return false;
  return s.snapshotNotBefore === null || snapshot.requestedAt >= s.snapshotNotBefore;
}

export class SyncEngine extends EventEmitter<EngineEvents> {
  readonly #store: BookStore;
  readonly #source: BookSource;
  readonly #o: Resolved;
  readonly #scope: ReadonlySet<number> | null;
  readonly #scopeList: readonly number[] | null;
  /** A server confirmed less than we asked: subscribe to everything and filter here (see #runSession). */
  #subscribeUnfiltered = false;
  readonly #sourceUrl: string | null;
  readonly #queue = new EventQueue();
  readonly #divergence = new DivergenceTracker();
  #running = false;
  #stopper = new AbortController();
  #loop: Promise<void> | null = null;
  #session: Session | null = null;
  #flushScheduled = false;
  #timers: NodeJS.Timeout[] = [];
  #antiEntropyTimer: NodeJS.Timeout | null = null;
  #version = 0;
  #state: EngineState = 'opening';
  #since = Date.now();
  #problem: string | null = null;
  #shownState: SyncState;
  /** The run failed (#fail): told once, and the engine stopped. */
  #failed = false;
  #authFailed = false;
  #nextRetryAt: number | null = null;
  #bookAsOf: number | null = null;
  #rows = 0;
  #rowsCountedAt = 0;
  /** A batch created or removed listings since the last count. */
  #rowsMoved = false;
  #rateBuckets: [number, number][] = [];
  #bookRead: BookRead | null = null;
  #bookReadShownAt = 0;
  #stopped = false;
  #indexingNames = false;
  /**
   * Events applied during a resync, reported as `applied` once the book is live again: watchlists judge
   * (and auto-buy) on a whole book, as when such events waited in the buffer. Null when none are held.
   * Kept across sessions: a resync that a dropped socket ends before live applied them all the same, so
   * they wait for the next session's live moment (or the stop) like those of a resync that got there.
   */
  #appliedWhileResyncing: ListingEvent[] | null = null;

  constructor(store: BookStore, source: BookSource, options: SyncEngineOptions = {}) {
    super();
    this.#store = store;
    this.#source = source;
    const { appIds = null, sourceUrl = null, ...rest } = options;
    this.#o = { ...DEFAULTS, ...(Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Partial<Resolved>) };
    this.#scopeList = appIds === null ? null : [...new Set(appIds)].sort((a, b) => a - b);
    this.#scope = this.#scopeList === null ? null : new Set(this.#scopeList);
    this.#sourceUrl = sourceUrl;
    const state = store.state();
    this.#shownState = state;
    this.#bookAsOf = state.lastSnapshotAt;
    this.#countRows(true);
  }

  /**
   * The sync state a status tells: the last one read when the file fails under the read (damaged), so a
   * status (timers send them, and the stop) is always told; the failure stops the run.
   */
  #statusState(): SyncState {
    try {
      this.#shownState = this.#store.state();
    } catch (err) {
      this.#fail(err);
    }
    return this.#shownState;
  }

  get version(): number {
    return this.#version;
  }

  status(): EngineStatus {
    const state = this.#statusState();
    if (this.#state === 'live') this.#bookAsOf = Date.now();
    return {
      state: this.#state,
      since: this.#since,
      lastSeq: state.lastSeq === null ? null : state.lastSeq.toString(),
      bookAsOf: this.#bookAsOf,
      rows: this.#countRows(false),
      eventsPerSecond: this.#eventsPerSecond(),
      problem: this.#problem,
      authFailed: this.#authFailed,
      nextRetryAt: this.#nextRetryAt,
      bufferedEvents: this.#pendingEvents(),
      bookRead: this.#bookRead,
      resyncs: state.resyncs,
      divergenceRepaired: state.divergenceRepaired,
    };
  }

  /** Events received and not yet applied for good (during a resync the queue holds buffered ones again). */
  #pendingEvents(): number {
    const s = this.#session;
    if (s === null) return this.#queue.length;
    return s.phase !== 'live' && s.applyWhileResyncing ? s.buffer.length : s.buffer.length + this.#queue.length;
  }

  /** Starts following the feed at `wsUrl`; returns at once (progress arrives as `status` events). */
  start(wsUrl: string, apiKey: string): void {
    if (this.#running) throw new Error('the sync engine is already running');
    this.#running = true;
    this.#stopped = false;
    this.#authFailed = false;
    this.#failed = false;
    this.#stopper = new AbortController();
    this.#timers.push(setInterval(() => this.#emitStatus(), 1_000));
    this.#timers.push(setInterval(() => this.#pruneTombstones(), 60_000));
    this.#timers.push(setInterval(() => this.#indexNames(), 5_000));
    this.#loop = this.#run(wsUrl, apiKey).catch((err: unknown) => this.#fail(err));
  }

  /** Stops: closes the socket, applies every event already received, and resolves when all is written. */
  async stop(): Promise<void> {
    if (!this.#running && this.#loop === null) return;
    this.#running = false;
    this.#stopper.abort(new Error('stopped'));
    this.#session?.abort.abort(new Error('stopped'));
    this.#session?.feed.close();
    await this.#loop;
    this.#loop = null;
    this.#clearTimers();
    this.#flushAll();
    // stopped during a resync: no live moment will report what it applied, and the file holds it
    this.#reportAppliedWhileResyncing();
    // the last status is a run's summary (`skindesk sync` prints it): the count is the file's own
    this.#countRows(true);
    this.#setState('stopped', this.#authFailed ? this.#problem : null);
    this.#stopped = true;
  }

  // ---- connection loop ------------------------------------------------------------------------

  async #run(wsUrl: string, apiKey: string): Promise<void> {
    let attempt = 0;
    /** Why the last session ended: it stays the status's problem until the new session is live. */
    let lastClose: string | null = null;
    while (this.#running) {
      this.#nextRetryAt = null;
      this.#setState(this.#rows > 0 ? 'resyncing' : 'connecting', lastClose === null ? this.#problem : `${lastClose}; reconnecting`);
      const end = await this.#runSession(wsUrl, apiKey);
      this.#flushAll();
      if (!this.#running) return;
      if (this.#authFailed) return;
      if (end.close.code === WS_CLOSE.unauthorized) {
        this.#stopForAuth('The marketplace refused the API key (WebSocket closed with 4401): the book stopped updating. Check the key.');
        return;
      }
      if (end.healthy) attempt = 0;
      // a 4429, or a handshake answered 429/503: hammering it again at the usual pace only prolongs it
      const slower = end.close.code === WS_CLOSE.tooManyConnections || end.close.throttled === true;
      const delay = backoffDelay(slower ? this.#o.tooManyConnections : this.#o.reconnect, attempt++, this.#o.random);
      this.#nextRetryAt = Date.now() + delay;
      lastClose = end.problem ?? describeClose(end.close);
      this.#setState('offline', `${lastClose}; reconnecting in ${Math.max(1, Math.round(delay / 1000))} s`);
      try {
        await sleep(delay, this.#stopper.signal);
      } catch {
        return;
      }
    }
  }

  #runSession(wsUrl: string, apiKey: string): Promise<SessionEnd> {
    return new Promise((resolve) => {
      // After a server confirmed less than we asked, everything is asked for and filtered here.
      const subscribe: SubscribeOp = this.#subscribeUnfiltered
        ? { op: 'subscribe' }
        : {
            op: 'subscribe',
            events: [...LISTING_EVENT_NAMES],
            ...(this.#scopeList === null ? {} : { app_ids: [...this.#scopeList] as SubscribeOp['app_ids'] }),
          };
      const feed = this.#o.openFeed({
        url: wsUrl,
        apiKey,
        subscribe,
        pingIntervalMs: this.#o.pingIntervalMs,
        livenessTimeoutMs: this.#o.livenessTimeoutMs,
        connectTimeoutMs: this.#o.connectTimeoutMs,
      });
      const s: Session = {
        feed,
        abort: new AbortController(),
        phase: 'subscribing',
        buffer: [],
        maxSeen: null,
        eventsSeen: 0,
        firstSeen: null,
        requiredSeq: null,
        snapshotNotBefore: null,
        snapshotting: false,
        reachedLive: false,
        subscribedAt: null,
        onFirstEvent: null,
        applyWhileResyncing: this.#store.state().lastSnapshotSeq !== null,
        seenAtLastCheck: null,
        endedBecause: null,
      };
      this.#session = s;
      let ackTimer: NodeJS.Timeout | null = null;
      feed.on('open', () => {
        ackTimer = setTimeout(() => {
          ackTimer = null;
          if (s.phase !== 'subscribing' || s.abort.signal.aborted) return;
          s.endedBecause = `the feed did not confirm our subscription within ${formatSeconds(this.#o.subscribeAckTimeoutMs)}`;
          this.emit('warning', `${s.endedBecause}; reconnecting`);
          feed.close();
        }, this.#o.subscribeAckTimeoutMs);
      });
      feed.on('frame', (frame) => {
        const narrowed = s.phase === 'subscribing' ? confirmedLessThanAsked(frame, subscribe) : null;
        if (narrowed !== null) {
          // what it left out would never arrive and the book would drift until the next periodic check
          s.endedBecause = `the feed confirmed a narrower subscription than asked (without ${narrowed})`;
          this.#subscribeUnfiltered = true;
          this.emit('warning', `${s.endedBecause}; reconnecting for every event, filtered here`);
          feed.close();
          return;
        }
        this.#onFrame(s, frame);
        if (ackTimer !== null && s.phase !== 'subscribing') {
          clearTimeout(ackTimer);
          ackTimer = null;
        }
      });
      feed.on('invalidFrame', (err) => {
        // Its effect on the book is unknown: only a snapshot that contains it repairs that. Its own seq, when
        // it can still be read, says how new that snapshot must be. Otherwise no seq proves it: the one
        // after the highest seen may be another game's (the feed is filtered, the seq global) or published
        // before it, arriving late (the spec lets events arrive out of order). Time does: a copy asked for
        // once the server's cache has outlived the frame was built after it.
        if (err.changesNoListing) {
          // a subscription left unconfirmed by it still ends in a reconnect (the confirmation's timer)
          this.emit('warning', `the feed sent a control message that breaks the contract (${err.message}); it changes no listing, so the book stands`);
          return;
        }
        this.emit('warning', `the feed sent a frame that breaks the contract (${err.message}); re-reading the book`);
        if (err.seq !== null) s.requiredSeq = maxSeq(s.requiredSeq, err.seq);
        else s.snapshotNotBefore = Math.max(s.snapshotNotBefore ?? 0, elapsedNow() + this.#o.snapshotRetryMs);
        this.#demandSnapshot(s, 'a malformed event arrived');
      });
      feed.on('close', (close) => {
        if (ackTimer !== null) clearTimeout(ackTimer);
        s.abort.abort(new Error('socket closed'));
        this.#cancelAntiEntropy();
        if (this.#session === s) this.#session = null;
        const subscribedFor = s.subscribedAt === null ? 0 : elapsedNow() - s.subscribedAt;
        const announced = s.subscribedAt !== null && close.code !== null && ANNOUNCED_RESTART_CODES.has(close.code);
        resolve({
          close,
          healthy: s.reachedLive || announced || subscribedFor >= this.#o.healthySessionMs,
          ...(s.endedBecause === null ? {} : { problem: s.endedBecause }),
        });
      });
      if (!this.#running) {
        resolve({ close: { code: null, reason: 'stopped', silent: false }, healthy: false });
        return;
      }
      feed.open();
    });
  }

  // ---- frames ---------------------------------------------------------------------------------

  #onFrame(s: Session, frame: ServerFrame): void {
    if (frame.kind === 'control') {
      const m = frame.message;
      if (m.event === 'subscribed' || (m.event === 'error' && s.phase === 'subscribing')) {
        if (m.event === 'error') {
          this.emit('warning', `the feed refused our subscription (${errorMessageText(m) ?? 'no reason given'}); filtering locally`);
        }
        if (s.phase === 'subscribing') {
          s.phase = 'buffering';
          s.subscribedAt = elapsedNow();
          this.#startSnapshotCycle(s);
        }
      } else if (m.event === 'error') {
        this.emit('warning', `the feed reported an error: ${errorMessageText(m) ?? 'no reason given'}`);
      }
      return;
    }
    const seq = frame.kind === 'unknown' ? frame.seq : frame.event.seq;
    if (s.firstSeen === null && seq !== null) s.firstSeen = { seq, at: Date.now() };
    if (frame.kind === 'unknown') {
      // its game cannot be told: it may have changed a listing mirrored here, so a snapshot must hold it
      s.maxSeen = maxSeq(s.maxSeen, seq);
      return;
    }
    const event = frame.event;
    s.eventsSeen++;
    if (s.onFirstEvent) s.onFirstEvent();
    if (this.#scope !== null && !this.#scope.has(event.data.app_id)) return;
    // Only the mirrored games' events: a book of them at seq S holds all of theirs up to S, whatever
    // other games did since. Counting those too took a game's book for stale while an unfiltered feed
    // (a refused or narrowed subscription) showed newer seqs of others, and, where the server answers
    // that book with its cached copy (a 304) until its own game moves, asked again for as long.
    s.maxSeen = maxSeq(s.maxSeen, event.seq);
    if (event.event !== 'listing.sold') this.#divergence.note(event.data.listing_id, event.seq);
    if (s.phase === 'live') {
      this.#queue.push(event);
      if (this.#queue.length > this.#o.maxBufferedEvents) this.#overflow(s);
      else {
        this.#scheduleFlush();
        if (event.event === 'listing.created' && this.listenerCount('received') > 0) this.emit('received', event);
      }
    } else {
      s.buffer.push(event);
      if (s.buffer.length > this.#o.maxBufferedEvents) this.#overflow(s);
      else if (s.applyWhileResyncing) this.#applyWhileResyncing(s, event);
    }
  }

  /**
   * An event that arrived during a resync, applied at once through the same guard. Safe against the
   * snapshot on its way: the merge and events commute as they do during an anti-entropy pass. It stays in
   * the buffer too: an update of a listing created while we were away is unknown until the snapshot
   * brings it, and is applied when the buffer is, after the merge.
   */
  #applyWhileResyncing(s: Session, event: ListingEvent): void {
    if (this.#queue.length >= this.#o.maxBufferedEvents) {
      // the store cannot keep up: leave the buffer (and the snapshot) to it, as on a first load
      s.applyWhileResyncing = false;
      this.#queue.clear();
      return;
    }
    this.#appliedWhileResyncing ??= [];
    this.#queue.push(event);
    this.#scheduleFlush();
  }

  #overflow(s: Session): void {
    this.emit('warning', `more than ${this.#o.maxBufferedEvents} events waited to be applied; re-reading the book`);
    this.#demandSnapshot(s, 'events arrived faster than the book could take them');
  }

  /** Drops what is pending and requires a snapshot at least as new as everything seen so far. */
  #demandSnapshot(s: Session, why: string): void {
    s.requiredSeq = maxSeq(s.requiredSeq, s.maxSeen);
    s.buffer = [];
    if (s.phase === 'live') {
      this.#queue.clear();
      s.phase = 'buffering';
      this.#cancelAntiEntropy();
      this.#setState('resyncing', `${why}; re-reading the book`);
      // during a periodic check (which holds `snapshotting`) this returns at once; the check, seeing the
      // book no longer live, starts the cycle when it ends
      this.#startSnapshotCycle(s);
    } else {
      this.#setState('resyncing', `${why}; re-reading the book`);
    }
  }

  // ---- snapshots ------------------------------------------------------------------------------

  /**
   * Runs the snapshot cycle in the background. A failure that is not the socket's (the store cannot be
   * written: a damaged page, a full disk) stops the run like any other write failure, instead of leaving
   * the engine 'connecting' forever (and, in the sync worker, ending the thread as an unhandled rejection,
   * so the damaged file was never set aside).
   */
  #startSnapshotCycle(s: Session): void {
    this.#snapshotCycle(s).catch((err: unknown) => {
      if (!s.abort.signal.aborted) this.#fail(err);
    });
  }

  /** Fetches and merges snapshots until one covers everything this session requires, then goes live. */
  async #snapshotCycle(s: Session): Promise<void> {
    if (s.snapshotting) return;
    s.snapshotting = true;
    try {
      for (;;) {
        if (s.eventsSeen === 0) await this.#waitFirstEvent(s);
        const hadBook = this.#rows > 0 || this.#store.state().lastSnapshotSeq !== null;
        this.#setState(hadBook ? 'resyncing' : 'connecting', this.#problem);
        const snapshot = await this.#fetchFreshSnapshot(s);
        this.#noteBookRead({ phase: 'merging', rows: snapshot.listings.length, bytes: this.#bookRead?.bytes ?? 0, merged: 0 });
        let summary: MergeSummary & { provenFresh: boolean };
        try {
          summary = await this.#merge(snapshot, hadBook, s.abort.signal);
        } finally {
          this.#bookRead = null;
        }
        if (!coversLosses(s, snapshot)) continue; // events were lost meanwhile
        // Buffered events go first; those at or below the snapshot are dropped as covered by the store
        // (creations among them still give their details). Whatever is still queued was applied during
        // the resync, or is in the buffer too.
        if (s.applyWhileResyncing) this.#queue.clear();
        this.#queue.prepend(s.buffer);
        s.buffer = [];
        s.requiredSeq = null;
        s.snapshotNotBefore = null;
        s.phase = 'live';
        s.reachedLive = true;
        s.seenAtLastCheck = s.maxSeen;
        s.applyWhileResyncing = true;
        this.#problem = null;
        this.#setState('live', null);
        this.#reportAppliedWhileResyncing();
        this.#scheduleFlush();
        this.#scheduleAntiEntropy(s, summary.provenFresh ? this.#o.antiEntropyMs : this.#o.snapshotRetryMs);
        return;
      }
    } catch (err) {
      if (s.abort.signal.aborted) return;
      if (err instanceof AuthFailure) {
        this.#stopForAuth(err.message);
        s.feed.close();
        return;
      }
      throw err;
    } finally {
      s.snapshotting = false;
    }
  }

  #waitFirstEvent(s: Session): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#o.firstEventWaitMs);
      function done() {
        clearTimeout(timer);
        s.onFirstEvent = null;
        s.abort.signal.removeEventListener('abort', done);
        resolve();
      }
      s.onFirstEvent = done;
      s.abort.signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Asks for /book until the answer is at least as new as everything already seen: on this socket
   * before the request, and applied to the book before. Older answers (the server caches /book for 10 s,
   * and a 304 returns the previous one) are asked for again once that cache has expired.
   */
  async #fetchFreshSnapshot(s: Session): Promise<FetchedSnapshot> {
    let behindOwnHistory = 0;
    let firstBehindAt = 0;
    let failures = 0;
    for (;;) {
      const notBefore = s.snapshotNotBefore;
      if (notBefore !== null && elapsedNow() < notBefore) {
        const wait = notBefore - elapsedNow();
        this.#setState(
          this.#state,
          `a frame that breaks the contract came: the book is read again once the marketplace's cached copy is newer than it, in ${Math.ceil(wait / 1000)} s`,
        );
        await sleep(wait, s.abort.signal);
        continue;
      }
      const seenOnSocket = s.maxSeen;
      const floor = maxSeq(maxSeq(seenOnSocket, s.requiredSeq), this.#store.state().lastSeq);
      let snapshot: BookSnapshotResult;
      const budgetWaitMs = this.#source.bookBudgetWaitMs?.() ?? 0;
      if (budgetWaitMs >= BUDGET_WAIT_SHOWN_MS) {
        // Every reconnect reads the book, so a bad minute can spend the 6/min budget: say so, rather
        // than leave the last problem (an old failure) standing while the request waits its turn.
        const seconds = Math.ceil(budgetWaitMs / 1000);
        this.#setState(this.#state, `waiting for the marketplace's rate limit on reading the book: next read in ${seconds} s`);
      }
      // when the request leaves, after its wait for the budget (the server serves its copy then); on the
      // wall clock too, for the bounds #staleAnswerWait takes from it and from the file
      const requestedAt = elapsedNow() + budgetWaitMs;
      const requestedAtWall = Date.now() + budgetWaitMs;
      try {
        snapshot = await this.#source.fetchBook(
          this.#scopeList?.length === 1 ? this.#scopeList[0] : undefined,
          s.abort.signal,
          (read) => this.#noteBookRead({ phase: 'reading', ...read, merged: 0 }),
        );
      } catch (err) {
        this.#bookRead = null;
        if (s.abort.signal.aborted) throw err;
        if (err instanceof ApiError && (err.status === 401 || err.code === 'UNAUTHORIZED')) {
          throw new AuthFailure('The marketplace refused the API key when reading the book (HTTP 401): the book stopped updating. Check the key.');
        }
        const wait =
          err instanceof ApiError && err.retryAfterMs
            ? Math.max(err.retryAfterMs, 1_000)
            : backoffDelay(snapshotFailureBackoff(this.#o.snapshotRetryMs), failures++, this.#o.random);
        this.emit('warning', `reading the book failed: ${(err as Error).message}; trying again in ${Math.round(wait / 1000)} s`);
        this.#setState(this.#state, `reading the book failed (${failureReason(err)}); trying again`);
        await sleep(wait, s.abort.signal);
        continue;
      }
      if (floor === null || snapshot.seq >= floor) {
        return { ...snapshot, provenFresh: seenOnSocket !== null && snapshot.seq >= seenOnSocket, requestedAt };
      }
      // what this socket requires: the seqs it saw, and those of frames it could not read otherwise
      const socketFloor = maxSeq(seenOnSocket, s.requiredSeq);
      const behindSocket = socketFloor !== null && snapshot.seq < socketFloor;
      if (!behindSocket) {
        // Older than what the book already applied but not than this socket: a cache, or the service's
        // sequence restarted. A snapshot read well after the cache must have expired settles it.
        if (behindOwnHistory++ === 0) firstBehindAt = elapsedNow();
        else if (elapsedNow() - firstBehindAt >= LIMITS.bookCacheMs) {
          this.emit('warning', 'the marketplace sequence went backwards (seq restarted); rebuilding the book');
          await this.#store.wipeBook(s.abort.signal);
          // changes of listings of the old sequence, all gone now: nothing a watchlist could act on
          this.#appliedWhileResyncing = null;
          this.#countRows(true);
          this.#emitBook({ reset: true, upserted: 0, removed: 0, ids: null });
          return { ...snapshot, provenFresh: false, requestedAt };
        }
      }
      this.#bookRead = null;
      const wait = behindSocket ? this.#staleAnswerWait(s, snapshot, requestedAtWall) : this.#o.snapshotRetryMs;
      this.#setState(
        this.#state,
        `the book snapshot (seq ${snapshot.seq}) is older than events already seen (the marketplace caches it for ${LIMITS.bookCacheMs / 1000} s); asking again in ${Math.ceil(wait / 1000)} s`,
      );
      await sleep(wait, s.abort.signal);
    }
  }

  /**
   * How long a snapshot older than this socket's events must wait before /book is asked again: until
   * `snapshotRetryMs` (the cache's 10 s and a margin) after the latest moment it can have been built,
   * the earlier of two bounds.
   * - Its seq is the last event published before it was built, so it was built before the first event of
   *   this socket above that seq was published, and therefore before that event arrived.
   * - The same ETag as the snapshot merged last is the same cached copy, built before that merge (an
   *   app restarted, or a socket dropped, within seconds of its last read).
   * A slow answer (a large book takes seconds to download) has then already spent part of the wait.
   *
   * On the wall clock (`requestedAt` too): the time of the last merge comes from the file, perhaps from an
   * earlier run. A step of the clock moves the wait by at most `snapshotRetryMs`, its upper bound.
   *
   * A bound the request was already past when the server served this copy is proven wrong: a build that
   * took longer than the margin, or a rebuild with the same content and ETag (a quiet market). Trusting
   * it would ask again at once, and again, spending the 6/min budget until the copy expires; the full
   * wait applies instead.
   */
  #staleAnswerWait(s: Session, snapshot: BookSnapshotResult, requestedAt: number): number {
    const retryMs = this.#o.snapshotRetryMs;
    const builtBy: number[] = [];
    const first = s.firstSeen;
    if (first !== null && snapshot.seq < first.seq) builtBy.push(first.at);
    const { lastSnapshotEtag, lastSnapshotAt } = this.#store.state();
    if (snapshot.etag !== null && snapshot.etag === lastSnapshotEtag && lastSnapshotAt !== null) builtBy.push(lastSnapshotAt);
    const expiries = builtBy.map((at) => at + retryMs).filter((expiry) => expiry > requestedAt + BOUND_SLACK_MS);
    if (expiries.length === 0) return retryMs;
    return Math.min(retryMs, Math.max(0, Math.min(...expiries) - Date.now()));
  }

  async #merge(
    snapshot: BookSnapshotResult & { provenFresh: boolean },
    hadBook: boolean,
    signal: AbortSignal,
  ): Promise<MergeSummary & { provenFresh: boolean }> {
    const summary = await mergeSnapshot(this.#store, snapshot, {
      scope: this.#scopeList,
      resync: hadBook,
      source: this.#sourceUrl,
      etag: snapshot.etag,
      budgetMs: this.#o.mergeBudgetMs,
      atomic: this.#o.mergeMode === 'atomic',
      signal,
      // a first load or a resync tells how far it has come (a periodic check runs unseen)
      ...(this.#bookRead ? { onRows: (merged: number) => this.#noteMerged(merged) } : {}),
    });
    this.#bookAsOf = Date.now();
    this.#countRows(true);
    this.#indexNames();
    this.#emitBook({
      reset: summary.changedIds === null || summary.changedIds.length > BOOK_CHANGE_MAX_IDS,
      upserted: summary.changed,
      removed: summary.removed,
      ids: summary.changedIds,
    });
    return { ...summary, provenFresh: snapshot.provenFresh };
  }

  // ---- anti-entropy ---------------------------------------------------------------------------

  #scheduleAntiEntropy(s: Session, delayMs: number): void {
    this.#cancelAntiEntropy();
    if (!this.#running) return;
    this.#antiEntropyTimer = setTimeout(() => {
      this.#antiEntropy(s).catch((err: unknown) => {
        if (!s.abort.signal.aborted) this.#fail(err);
      });
    }, delayMs);
  }

  #cancelAntiEntropy(): void {
    if (this.#antiEntropyTimer) clearTimeout(this.#antiEntropyTimer);
    this.#antiEntropyTimer = null;
  }

  /**
   * A periodic snapshot merged through the same guard while live events keep flowing: listings the
   * feed lost track of are repaired, and what was repaired (beyond events still in flight) is counted.
   */
  async #antiEntropy(s: Session): Promise<void> {
    if (s.phase !== 'live' || s.snapshotting || this.#session !== s) return;
    s.snapshotting = true;
    let next = this.#o.antiEntropyMs;
    try {
      this.#divergence.begin();
      // Events already received but not yet applied are in flight too: a change they explain is no repair.
      for (const e of this.#queue) if (e.event !== 'listing.sold') this.#divergence.note(e.data.listing_id, e.seq);
      const seenBefore = s.maxSeen;
      const seenAtPreviousCheck = s.seenAtLastCheck;
      s.seenAtLastCheck = seenBefore;
      let snapshot: BookSnapshotResult;
      try {
        snapshot = await this.#source.fetchBook(this.#scopeList?.length === 1 ? this.#scopeList[0] : undefined, s.abort.signal);
      } catch (err) {
        if (s.abort.signal.aborted) return;
        this.emit('warning', `the periodic book check could not read the book: ${(err as Error).message}`);
        return;
      }
      if (s.phase !== 'live') return;
      // A cached answer: older than an event this socket saw, or — on a socket that saw none — than the
      // snapshot the book last merged. Merged, it would change no row (the guard), but it would be
      // recorded as the latest check of the book. Asked again once the cache has moved on.
      const floor = seenBefore ?? this.#store.state().lastSnapshotSeq;
      if (floor !== null && snapshot.seq < floor) {
        next = this.#o.snapshotRetryMs;
        return;
      }
      const summary = await this.#merge({ ...snapshot, provenFresh: seenBefore !== null }, false, s.abort.signal);
      const changedIds = summary.changedIds;
      const changedCount = summary.changed + summary.removed;
      if (changedCount > 0) {
        try {
          await sleep(this.#o.divergenceGraceMs, s.abort.signal);
        } catch {
          // the socket closed or the engine stopped: events still on their way will never be seen, so
          // what they would have explained cannot be told from what the feed lost; nothing is counted
          return;
        }
        const repaired = this.#divergence.settle(snapshot.seq, changedIds, changedCount);
        if (repaired > 0) {
          this.#store.addDivergenceRepaired(repaired);
          this.emit('warning', `the periodic book check repaired ${repaired} listing(s) the feed had not updated`);
          if (s.maxSeen === seenAtPreviousCheck) this.#endSilentFeed(s);
        }
      }
    } finally {
      this.#divergence.cancel();
      s.snapshotting = false;
      if (this.#session === s && s.phase === 'live') this.#scheduleAntiEntropy(s, next);
      // a resync was demanded while this check ran (a malformed frame, an overflow): its cycle could not
      // start then, and nothing else would start it
      // (the phase is re-read: the awaits above let #demandSnapshot change it)
      else if (this.#session === s && (s.phase as Phase) === 'buffering' && !s.abort.signal.aborted) this.#startSnapshotCycle(s);
    }
  }

  /**
   * A socket that answers pings but delivers nothing (a server that lost our subscription, a proxy that
   * stopped forwarding) passes every liveness check while the book goes stale: the periodic check repairs
   * it once a minute and the watchlists, which act on events, never see a listing. Not one event of the
   * mirrored games since the previous check, while this one found listings changed without their events,
   * is that socket: a new one is asked for (a quiet game alone never ends one: nothing was repaired).
   */
  #endSilentFeed(s: Session): void {
    s.endedBecause = 'the feed stayed open but sent no event while listings changed (the periodic book check found them)';
    this.emit('warning', `${s.endedBecause}; reconnecting`);
    s.feed.close();
  }

  // ---- applying events ------------------------------------------------------------------------

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      try {
        this.#flushBatch();
      } catch (err) {
        this.#fail(err);
        return;
      }
      if (this.#queue.length > 0) this.#scheduleFlush();
    });
  }

  #flushBatch(): void {
    if (this.#queue.length === 0) return;
    const batch = this.#queue.take(this.#batchSize());
    this.emit('applying', batch.length);
    const started = performance.now();
    const outcome = this.#store.applyEvents(batch);
    if (outcome.removed > 0 || outcome.events.some((e) => e.event === 'listing.created')) this.#rowsMoved = true;
    const { applied, stale, covered, unknown } = outcome;
    this.emit('batch', { events: batch.length, applied, stale, covered, unknown, tookMs: performance.now() - started });
    this.#noteRate(batch.length);
    if (outcome.events.length > 0) {
      const held = this.#appliedWhileResyncing;
      // beyond the buffer's bound, the sweep of the book that going live starts judges them
      if (held === null) this.emit('applied', outcome.events);
      else if (held.length < this.#o.maxBufferedEvents) for (const e of outcome.events) held.push(e);
    }
    if (outcome.changedIds.length > 0) this.#emitEvents(outcome);
  }

  /** Events per transaction (see SyncEngineOptions.liveBatchSize). */
  #batchSize(): number {
    return this.#o.liveBatchSize ?? (this.#o.mergeMode === 'atomic' ? 100_000 : 2_000);
  }

  /**
   * In pieces of a live batch, as they would have come had they waited in the buffer: one message of
   * up to the buffer's bound would stall the thread that reads it (the app's, through the sync worker).
   */
  #reportAppliedWhileResyncing(): void {
    const held = this.#appliedWhileResyncing;
    this.#appliedWhileResyncing = null;
    if (held === null) return;
    const size = this.#batchSize();
    for (let i = 0; i < held.length; i += size) this.emit('applied', held.slice(i, i + size));
  }

  #flushAll(): void {
    try {
      while (this.#queue.length > 0) this.#flushBatch();
    } catch (err) {
      this.#fail(err);
    }
  }

  #emitEvents(outcome: ApplyOutcome): void {
    this.#emitBook({
      reset: false,
      upserted: outcome.applied - outcome.removed,
      removed: outcome.removed,
      ids: outcome.changedIds,
    });
  }

  #emitBook(change: { reset: boolean; upserted: number; removed: number; ids: readonly number[] | null }): void {
    this.#version++;
    const ids = change.ids ?? [];
    const lastSeq = this.#store.state().lastSeq;
    this.emit('book', {
      version: this.#version,
      lastSeq: lastSeq === null ? null : lastSeq.toString(),
      reset: change.reset,
      upserted: change.upserted,
      removed: change.removed,
      ids: ids.slice(0, BOOK_CHANGE_MAX_IDS),
      idsTruncated: change.ids === null || ids.length > BOOK_CHANGE_MAX_IDS,
    });
  }

  // ---- status ---------------------------------------------------------------------------------

  #setState(state: EngineState, problem: string | null): void {
    if (state !== this.#state) {
      if (this.#state === 'live') this.#bookAsOf = Date.now();
      this.#state = state;
      this.#since = Date.now();
    }
    this.#problem = problem;
    this.#emitStatus();
  }

  /**
   * How far the read of the whole book has come. Its status goes out at once when the phase changes and
   * otherwise a few times a second at most: a merge reports every 256 rows, and each status reads the
   * sync state and crosses to the host's thread.
   */
  #noteBookRead(read: BookRead): void {
    const phaseChanged = this.#bookRead?.phase !== read.phase;
    this.#bookRead = read;
    const now = elapsedNow();
    if (phaseChanged || now - this.#bookReadShownAt >= BOOK_READ_STATUS_MS) {
      this.#bookReadShownAt = now;
      this.#emitStatus();
    }
  }

  #noteMerged(merged: number): void {
    if (this.#bookRead?.phase === 'merging') this.#noteBookRead({ ...this.#bookRead, merged });
  }

  #emitStatus(): void {
    if (this.#stopped) return;
    this.emit('status', this.status());
  }

  /**
   * The live row count. A count(*) over a million rows costs ~15 ms: recounted when batches created or
   * removed listings (at most once a second, so the status bar agrees with the grid's own total within a
   * second), otherwise every half minute against drift.
   */
  #countRows(force: boolean): number {
    // a status told from inside a merge's open transaction must not count rows no reader can see yet
    if (!force && this.#bookRead?.phase === 'merging') return this.#rows;
    const now = elapsedNow();
    const due = this.#rowsMoved ? 1_000 : 30_000;
    if (force || now - this.#rowsCountedAt >= due) {
      try {
        this.#rows = countLive(this.#store.db);
      } catch (err) {
        // a file that fails under the count (damaged) keeps the last one: a status must still be told
        this.#fail(err);
        return this.#rows;
      }
      this.#rowsCountedAt = now;
      this.#rowsMoved = false;
    }
    return this.#rows;
  }

  #noteRate(count: number): void {
    const second = Math.floor(elapsedNow() / 1000);
    const last = this.#rateBuckets[this.#rateBuckets.length - 1];
    if (last && last[0] === second) last[1] += count;
    else this.#rateBuckets.push([second, count]);
    while (this.#rateBuckets.length > 0 && (this.#rateBuckets[0] as [number, number])[0] < second - 5) this.#rateBuckets.shift();
  }

  #eventsPerSecond(): number {
    const now = Math.floor(elapsedNow() / 1000);
    let sum = 0;
    for (const [second, count] of this.#rateBuckets) if (second >= now - 5 && second < now) sum += count;
    return sum / 5;
  }

  /**
   * Brings the name search index up to date in steps (a first snapshot interns ~100k names), yielding
   * between them; queries meanwhile scan the names not indexed yet, so results are never incomplete.
   */
  #indexNames(): void {
    if (this.#indexingNames || !this.#running) return;
    this.#indexingNames = true;
    const step = () => {
      try {
        const remaining = this.#store.indexNames(this.#o.mergeMode === 'atomic' ? 20_000 : 500);
        if (remaining > 0 && this.#running) {
          setImmediate(step);
          return;
        }
      } catch (err) {
        this.#fail(err);
      }
      this.#indexingNames = false;
    };
    setImmediate(step);
  }

  #pruneTombstones(): void {
    try {
      this.#store.enrichSales();
      this.#store.pruneTombstones(this.#o.tombstoneWindowMs, 5_000);
    } catch (err) {
      this.#fail(err);
    }
  }

  #fail(err: unknown): void {
    // the first failure stops the run; what fails while it stops (the same file) is its consequence
    if (this.#failed) return;
    this.#failed = true;
    const error = err instanceof Error ? err : new Error(String(err));
    // An 'error' event nobody listens to would throw and take the process down with it.
    if (this.listenerCount('error') > 0) this.emit('error', error);
    else this.emit('warning', `sync stopped: ${error.message}`);
    this.#problem = `the local book could not be written: ${error.message}`;
    void this.stop();
  }

  /**
   * The key was refused: nothing more is tried until it changes. `problem` is said as it is by every
   * host (the app's notice, `skindesk sync` and `skindesk watch`), so it names none of them. The timers stop too — the status timer
   * kept announcing the stop every second (each announcement re-raised the app's "key refused" notice).
   */
  #stopForAuth(problem: string): void {
    this.#authFailed = true;
    this.#running = false;
    this.#clearTimers();
    this.#setState('stopped', problem);
  }

  #clearTimers(): void {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    this.#cancelAntiEntropy();
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function describeClose(close: FeedClose): string {
  if (close.silent) return 'the feed went silent (no answer to pings)';
  if (close.code === WS_CLOSE.tooManyConnections) return 'the marketplace refused a fourth connection with this key (4429)';
  if (close.failure) return `the connection to the feed could not be made: ${close.failure}`;
  if (close.code === null) return 'the connection to the feed could not be made';
  return `the feed closed (code ${close.code}${close.reason ? `: ${close.reason}` : ''})`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One market session: the mirror of one marketplace (its SQLite file), the REST client and the sync
 * worker that keeps the mirror live. The mirror is opened synchronously first, so the last book is
 * readable before any network exists; `connect()` then starts the demo market (if that is the choice),
 * the client and the worker. Switching markets closes the session and opens another.
 *
 * The book's only writer is the sync worker (sync/sync-worker.ts): snapshot merges, event batches and
 * the detail backfill never run on this thread, which serves the UI. This thread holds the feed's socket
 * (relayed to the worker), so watchlists judge a new listing the moment it arrives; its own writes (the
 * desk: watchlists, purchase journal) go to a file of their own (store/desk.ts), and the caches it writes
 * in the book wait at most one of the worker's short steps.
 */
import { join } from 'node:path';
import type { FullListing } from '../../shared/api/index.ts';
import { SkindeskError } from '../../shared/ipc/index.ts';
import { upperFirst } from '../../shared/sentence.ts';
import { ApiClient } from '../api/client.ts';
import { failureReason } from '../api/errors.ts';
import { apiKeyId, deskRateGovernor } from '../api/release-ledger.ts';
import { DATABASE_FILE_NAME } from '../paths.ts';
import { claimCaches, type Db } from '../store/index.ts';
import type { BackfillOptions, BackfillProgress } from '../sync/backfill.ts';
import type { BookChange, EngineStatus, SyncEngineOptions } from '../sync/engine.ts';
import { MirrorWorker, SyncWorkerGoneError } from '../sync/mirror-worker.ts';
import { MarketPriceBoard } from './market-book/market-prices.ts';
import type { AppLog } from './log.ts';
import {
  DEMO_DATABASE_FILE_NAME,
  DEMO_MIRROR_SOURCE,
  type DemoMarketHandle,
  type MarketChoice,
  type StartDemoMarket,
  demoSeqStart,
} from './market.ts';
import type { Redactor } from './redaction.ts';
import { openSessionMirror } from './session-mirror.ts';

export interface SessionEvents {
  book(change: BookChange): void;
  status(status: EngineStatus): void;
  /** The detail backfill moved on (a page stored, a state change). */
  backfill(progress: BackfillProgress): void;
  /** Something the user should hear about that a new session would not mend (the key refused). */
  problem(message: string): void;
  /**
   * The session stopped following the market on a failure a new session may not meet (no network at
   * start, a write the disk refused, the worker ended): what happened, in words.
   */
  failed(message: string): void;
  /** SQLite found the book file damaged while syncing; the sync stopped (SQLite's error). */
  damaged(error: Error): void;
}

/** The sync engine's options a session passes to its worker (plain data: they cross a thread). */
export type SessionSyncOptions = Omit<SyncEngineOptions, 'sourceUrl' | 'random' | 'openFeed'>;

export interface SessionOptions {
  choice: MarketChoice;
  dataDir: string;
  /** The user's key for a real market (null for the demo, which brings its own). */
  apiKey: string | null;
  startDemoMarket: StartDemoMarket;
  syncOptions?: SessionSyncOptions;
  /** Timers of the detail backfill (tests shorten them); `false` runs none. */
  backfillOptions?: Omit<BackfillOptions, 'appIds' | 'clock'> | false;
  /** The sync worker's script (the Electron build passes its bundled file); default: the source file. */
  syncWorkerFile?: URL;
  log: AppLog;
  redactor: Redactor;
  events: SessionEvents;
}

export function mirrorFile(dataDir: string, choice: MarketChoice): string {
  return join(dataDir, choice.mode === 'demo' ? DEMO_DATABASE_FILE_NAME : DATABASE_FILE_NAME);
}

/** The market a session's book and caches record as theirs (the sync worker's source, see #createMirror). */
export function mirrorSource(choice: MarketChoice): string {
  // a demo market listens on a new port on every start: the file is the demo's whatever its URL
  return choice.mode === 'demo' ? DEMO_MIRROR_SOURCE : choice.baseUrl;
}

function notConnected(): SkindeskError {
  return new SkindeskError({
    code: 'UNAVAILABLE',
    message: 'Not connected to the marketplace, so the listing could not be read from it; the book shows what was stored.',
  });
}

export class MarketSession {
  #choice: MarketChoice;
  /** This thread's connection: reads the book, writes the desk (attached) and the caches. */
  readonly db: Db;
  readonly file: string;
  /** What opening the file had to do that the user must hear about (a damaged book set aside). */
  readonly openingNotice: string | null;
  /** The market price of every item, for the book's "against the market" column. */
  readonly marketPrices: MarketPriceBoard;
  #client: ApiClient | null = null;
  #mirror: MirrorWorker | null = null;
  #demo: DemoMarketHandle | null = null;
  #baseUrl: string | null;
  #ownStatus: EngineStatus;
  readonly #mirrorListeners = new Set<(mirror: MirrorWorker) => void>();
  #closed = false;
  #retryNote: string | null = null;
  readonly #options: SessionOptions;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#choice = options.choice;
    this.#baseUrl = options.choice.mode === 'real' ? options.choice.baseUrl : null;
    this.file = mirrorFile(options.dataDir, options.choice);
    const { db, status: mirror, state, notice } = openSessionMirror(this.file);
    this.db = db;
    this.openingNotice = notice;
    // before anything reads them: the caches of another market (the same desk serves every real market)
    // are forgotten, this market's kept for opening offline
    claimCaches(db, mirrorSource(this.#choice), state.source);
    this.marketPrices = new MarketPriceBoard(this.db);
    this.#ownStatus = {
      state: 'opening',
      since: Date.now(),
      lastSeq: mirror.last_seq,
      bookAsOf: state.lastSnapshotAt,
      rows: mirror.listings,
      eventsPerSecond: 0,
      problem: null,
      authFailed: false,
      nextRetryAt: null,
      bufferedEvents: 0,
      bookRead: null,
      resyncs: state.resyncs,
      divergenceRepaired: state.divergenceRepaired,
    };
  }

  get choice(): MarketChoice {
    return this.#choice;
  }

  /** Takes a new reason for the same market (demo: "no key" became "no URL"), without reconnecting. */
  relabel(choice: MarketChoice): void {
    if (choice.mode !== this.#choice.mode) throw new Error('relabel cannot change the market');
    this.#choice = choice;
  }

  get client(): ApiClient | null {
    return this.#client;
  }

  /**
   * The user's key's identity (apiKeyId: a one-way hash, never the key), known before connecting; null on
   * the demo market, whose key is its own.
   */
  get keyId(): string | null {
    const { apiKey } = this.#options;
    return this.#options.choice.mode === 'real' && apiKey ? apiKeyId(apiKey) : null;
  }

  get baseUrl(): string | null {
    return this.#baseUrl;
  }

  get demo(): DemoMarketHandle | null {
    return this.#demo;
  }

  /**
   * Calls `listener` with the sync worker before it starts (at once when it already runs), so a service
   * can follow its events from the first one (the watchlists judge `received` frames and `applied`
   * batches). Returns the unsubscribe.
   */
  onMirror(listener: (mirror: MirrorWorker) => void): () => void {
    this.#mirrorListeners.add(listener);
    if (this.#mirror) listener(this.#mirror);
    return () => this.#mirrorListeners.delete(listener);
  }

  /** The detail backfill's progress; null until the worker reported one (or when the session runs none). */
  backfillProgress(): BackfillProgress | null {
    return this.#mirror?.backfill ?? null;
  }

  status(): EngineStatus {
    const status = this.#mirror?.status ?? { ...this.#ownStatus };
    if (this.#retryNote === null) return status;
    // whatever the worker said last, a failed session follows nothing
    return { ...status, state: status.state === 'offline' ? 'offline' : 'stopped', problem: this.#retryNote };
  }

  /** This session failed and a new one is due (app-core.ts): its status says so from now on. */
  noteRetry(note: string): void {
    this.#retryNote = note;
    this.#options.events.status(this.status());
  }

  /**
   * Whether `fetchListing` can ask the marketplace: the sync worker runs. Not whether a client exists:
   * `connect()` makes the client before it first reaches the market, so a session that could not connect
   * keeps one.
   */
  get canFetchListings(): boolean {
    return this.#mirror !== null;
  }

  /**
   * One listing's full detail from the marketplace, stored in the mirror (by the worker, the book's
   * writer); null when the listing is gone. Interactive priority: the detail view is waiting.
   */
  async fetchListing(id: number): Promise<FullListing | null> {
    const mirror = this.#mirror;
    if (!mirror) throw notConnected();
    try {
      return await mirror.fetchListing(id);
    } catch (err) {
      // the worker ended while the read waited: the same plain refusal as before it ever ran
      throw err instanceof SyncWorkerGoneError ? notConnected() : err;
    }
  }

  /** Starts the network side; never throws (a failure becomes an offline status with the reason). */
  async connect(): Promise<void> {
    const { choice, events, log, redactor } = this.#options;
    this.#setOwnState('connecting', null);
    try {
      let apiKey: string;
      let wsUrl: string | undefined;
      if (choice.mode === 'demo') {
        const demo = await this.#options.startDemoMarket({ seqStart: demoSeqStart() });
        if (this.#closed) {
          await demo.close();
          return;
        }
        this.#demo = demo;
        redactor.add(demo.apiKey);
        this.#baseUrl = demo.baseUrl;
        apiKey = demo.apiKey;
        wsUrl = demo.wsUrl;
        log.info(`demo market listening at ${demo.baseUrl}`);
      } else {
        if (!this.#options.apiKey) throw new Error('no API key');
        apiKey = this.#options.apiKey;
      }
      // the desk records every release, so a restart, or `skindesk` run with this key on this data
      // folder, counts inside the same windows (api/release-ledger.ts)
      const governor = deskRateGovernor({
        db: this.db,
        baseUrl: this.#baseUrl as string,
        apiKey,
        onLedgerError: (message) => log.warn(redactor.redact(message)),
      });
      const client = new ApiClient({ baseUrl: this.#baseUrl as string, apiKey, governor, ...(wsUrl ? { wsUrl } : {}) });
      this.#client = client;
      this.marketPrices.start(client, {
        onChanged: () => events.book({ version: 0, lastSeq: this.status().lastSeq, reset: false, upserted: 0, removed: 0, ids: [], idsTruncated: true }),
        onWarning: (message) => log.warn(redactor.redact(message)),
      });
      const resolvedWs = await client.discoverWsUrl({ priority: 'interactive' });
      if (this.#closed) return;
      const mirror = this.#createMirror(apiKey);
      this.#mirror = mirror;
      for (const listener of this.#mirrorListeners) listener(mirror);
      mirror.start(resolvedWs);
      events.status(this.status());
    } catch (err) {
      // plain words with the system's own reason ("ECONNREFUSED …") for the status bar and the notice; the
      // request line ("GET /public/v1: network failure (…)") only in the log
      const message = redactor.redact(failureReason(err, { withCause: true }));
      log.error(`could not connect to the ${choice.mode} market: ${err instanceof Error ? redactor.redact(err.message) : message}`);
      this.#setOwnState(
        'offline',
        `Could not connect to the ${choice.mode === 'demo' ? 'demo ' : ''}market: ${message}`,
      );
      events.failed(`Could not connect to the marketplace: ${message}`);
    }
  }

  /**
   * The worker: the sync engine in stepped mode (its transactions stay short, so this thread's cache
   * writes never wait long for the book), the detail backfill (float, seed, stickers of the snapshot's
   * lean rows from GET /listings at background priority; its cursor lives in the mirror, so a restart
   * resumes), and the feed relayed through this thread.
   */
  #createMirror(apiKey: string): MirrorWorker {
    const { syncOptions, backfillOptions, events, log, redactor } = this.#options;
    const { appIds = null, ...engine } = syncOptions ?? {};
    const mirror = new MirrorWorker({
      dbPath: this.file,
      baseUrl: this.#baseUrl as string,
      source: mirrorSource(this.#choice),
      apiKey,
      appIds,
      engine: { mergeMode: 'stepped', ...engine },
      backfill: backfillOptions === false ? false : { ...backfillOptions },
      relayFeed: true,
      forwardApplied: true,
      ...(this.#options.syncWorkerFile ? { workerFile: this.#options.syncWorkerFile } : {}),
    });
    mirror.on('book', (change) => events.book(change));
    let keyRefusalTold = false;
    mirror.on('status', (status) => {
      events.status(status);
      // once per refusal: each notice replaces the one on screen, so a repeat would bring back one the
      // user dismissed
      if (status.authFailed && !keyRefusalTold) events.problem(status.problem ?? 'The marketplace refused the API key.');
      keyRefusalTold = status.authFailed;
    });
    mirror.on('backfill', (progress) => events.backfill(progress));
    // before the worker's engine reports anything: its first status ends this one
    mirror.on('upgrading', (what) => {
      log.info(`sync: ${what}`);
      this.#setOwnState('opening', `${upperFirst(what)}. Once, after an update; the book shows as it was meanwhile.`);
    });
    mirror.on('warning', (message) => log.warn(`sync: ${redactor.redact(message)}`));
    mirror.on('damaged', (error) => {
      log.error(`the book file is damaged: ${error.message}`);
      events.damaged(error);
    });
    mirror.on('error', (error) => {
      const message = redactor.redact(error.message);
      log.error(`sync stopped: ${message}`);
      events.failed(`The book stopped updating: ${message}`);
    });
    mirror.on('exit', (code) => {
      if (code === 0 || this.#closed) return;
      log.error(`the sync worker ended unexpectedly (exit ${code})`);
      this.#mirror = null;
      this.#setOwnState('offline', 'The book stopped updating: the sync worker ended unexpectedly');
      events.failed('The book stopped updating: the sync worker ended unexpectedly');
    });
    return mirror;
  }

  #setOwnState(state: EngineStatus['state'], problem: string | null): void {
    this.#ownStatus = { ...this.#ownStatus, state, since: Date.now(), problem };
    this.#options.events.status(this.#ownStatus);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.marketPrices.stop();
    try {
      // every event received is applied and the worker's connection closed before the file is let go
      await this.#mirror?.stop();
    } finally {
      this.#mirror?.removeAllListeners();
      await this.#demo?.close();
      this.db.close();
    }
  }
}

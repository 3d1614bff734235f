/**
 * One market session: the mirror of one marketplace (its SQLite file), the REST client and the sync
 * engine that keeps the mirror live. The mirror is opened synchronously first, so the last book is
 * readable before any network exists; `connect()` then starts the demo market (if that is the choice),
 * the client and the engine. Switching markets closes the session and opens another.
 */
import { join } from 'node:path';
import { ApiClient } from '../api/client.ts';
import { DATABASE_FILE_NAME } from '../paths.ts';
import { BookStore, openDatabase, readStatus, type Db } from '../store/index.ts';
import { type BackfillOptions, type BackfillProgress, DetailBackfill } from '../sync/backfill.ts';
import { type BookChange, type EngineStatus, SyncEngine, type SyncEngineOptions } from '../sync/engine.ts';
import { apiSources } from '../sync/sources.ts';
import type { AppLog } from './log.ts';
import {
  DEMO_DATABASE_FILE_NAME,
  type DemoMarketHandle,
  type MarketChoice,
  type StartDemoMarket,
  demoSeqStart,
} from './market.ts';
import type { Redactor } from './redaction.ts';

export interface SessionEvents {
  book(change: BookChange): void;
  status(status: EngineStatus): void;
  /** The detail backfill moved on (a page stored, a state change). */
  backfill(progress: BackfillProgress): void;
  /** The engine or the connection failed in a way the user should hear about. */
  problem(message: string): void;
}

export interface SessionOptions {
  choice: MarketChoice;
  dataDir: string;
  /** The user's key for a real market (null for the demo, which brings its own). */
  apiKey: string | null;
  startDemoMarket: StartDemoMarket;
  syncOptions?: Omit<SyncEngineOptions, 'sourceUrl'>;
  /** Timers of the detail backfill (tests shorten them); `false` runs none. */
  backfillOptions?: Omit<BackfillOptions, 'appIds'> | false;
  log: AppLog;
  redactor: Redactor;
  events: SessionEvents;
}

export function mirrorFile(dataDir: string, choice: MarketChoice): string {
  return join(dataDir, choice.mode === 'demo' ? DEMO_DATABASE_FILE_NAME : DATABASE_FILE_NAME);
}

export class MarketSession {
  #choice: MarketChoice;
  readonly db: Db;
  readonly store: BookStore;
  #client: ApiClient | null = null;
  #engine: SyncEngine | null = null;
  #backfill: DetailBackfill | null = null;
  #demo: DemoMarketHandle | null = null;
  #baseUrl: string | null;
  #ownStatus: EngineStatus;
  readonly #engineListeners = new Set<(engine: SyncEngine) => void>();
  #closed = false;
  readonly #options: SessionOptions;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#choice = options.choice;
    this.#baseUrl = options.choice.mode === 'real' ? options.choice.baseUrl : null;
    this.db = openDatabase(mirrorFile(options.dataDir, options.choice));
    this.store = new BookStore(this.db);
    const mirror = readStatus(this.db);
    const state = this.store.state();
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

  get baseUrl(): string | null {
    return this.#baseUrl;
  }

  get demo(): DemoMarketHandle | null {
    return this.#demo;
  }

  /**
   * Calls `listener` with the sync engine before it starts (at once when it already runs), so a service
   * can follow its events from the first one (the watchlists hook its `applied` batches). Returns the
   * unsubscribe.
   */
  onEngine(listener: (engine: SyncEngine) => void): () => void {
    this.#engineListeners.add(listener);
    if (this.#engine) listener(this.#engine);
    return () => this.#engineListeners.delete(listener);
  }

  /** The detail backfill's progress; null until the engine exists (or when the session runs none). */
  backfillProgress(): BackfillProgress | null {
    return this.#backfill?.progress() ?? null;
  }

  status(): EngineStatus {
    return this.#engine ? this.#engine.status() : { ...this.#ownStatus };
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
      const client = new ApiClient({ baseUrl: this.#baseUrl as string, apiKey, ...(wsUrl ? { wsUrl } : {}) });
      this.#client = client;
      const resolvedWs = await client.discoverWsUrl({ priority: 'interactive' });
      if (this.#closed) return;
      const engine = new SyncEngine(this.store, apiSources(client), {
        ...this.#options.syncOptions,
        sourceUrl: this.#baseUrl,
      });
      const backfill = this.#createBackfill(client);
      engine.on('book', (change) => {
        events.book(change);
        // a new snapshot may bring listings without details: the backfill looks again now, not in a minute
        if (change.reset || change.upserted + change.removed > 10_000) backfill?.nudge();
      });
      engine.on('status', (status) => {
        // background reads wait until the book itself is loaded and followed
        if (status.state === 'live' && !this.#closed) backfill?.start();
        events.status(status);
        if (status.authFailed) events.problem(status.problem ?? 'The marketplace refused the API key.');
      });
      engine.on('warning', (message) => log.warn(`sync: ${message}`));
      engine.on('error', (error) => {
        log.error(`sync stopped: ${error.message}`);
        events.problem(`The book stopped updating: ${error.message}`);
      });
      this.#engine = engine;
      for (const listener of this.#engineListeners) listener(engine);
      engine.start(resolvedWs, apiKey);
    } catch (err) {
      const message = redactor.redact(err instanceof Error ? err.message : String(err));
      log.error(`could not connect to the ${choice.mode} market: ${message}`);
      this.#setOwnState(
        'offline',
        `Could not connect to the ${choice.mode === 'demo' ? 'demo ' : ''}market: ${message}`,
      );
      events.problem(`Could not connect to the marketplace: ${message}`);
    }
  }

  /**
   * Fills in float, seed, stickers... of the snapshot's lean rows from GET /listings, at background
   * priority through the client's governor (interactive calls overtake it). Its cursor lives in the
   * mirror, so a restart resumes where the last session stopped.
   */
  #createBackfill(client: ApiClient): DetailBackfill | null {
    const { backfillOptions, syncOptions, events, log } = this.#options;
    if (backfillOptions === false) return null;
    const backfill = new DetailBackfill(this.store, apiSources(client), {
      ...backfillOptions,
      appIds: syncOptions?.appIds ?? null,
    });
    backfill.on('progress', (progress) => events.backfill(progress));
    backfill.on('warning', (message) => log.warn(`detail backfill: ${message}`));
    this.#backfill = backfill;
    return backfill;
  }

  #setOwnState(state: EngineStatus['state'], problem: string | null): void {
    this.#ownStatus = { ...this.#ownStatus, state, since: Date.now(), problem };
    this.#options.events.status(this.#ownStatus);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      // the backfill first: it writes to the mirror the engine's stop leaves consistent
      await this.#backfill?.stop();
      await this.#engine?.stop();
    } finally {
      this.#backfill?.removeAllListeners();
      this.#engine?.removeAllListeners();
      await this.#demo?.close();
      this.db.close();
    }
  }
}

/**
 * The app services: the implementation of every IPC call over the core, independent of the transport.
 * Electron main and the browser test host both build one AppCore and connect its `dispatch` and pushes
 * to their transport; nothing here knows which one it serves.
 */
import { createMarketHandlers } from './handlers/market.ts';
import { settleEarlierPurchases } from './market-buying/session-purchaser.ts';
import { createAccountHandlers } from './handlers/account.ts';
import { createWatchHandlers } from './handlers/watch.ts';
import { AccountRuntime } from './account-services/account-runtime.ts';
import type { AccountTimings } from './account-services/account-session.ts';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { BackfillOptions, BackfillProgress as BackfillRun } from '../sync/backfill.ts';
import type { BookChange, EngineStatus } from '../sync/engine.ts';
import { type SecretName, type SecretStore, SecretStoreError, secretState } from '../secrets/index.ts';
import {
  type BackfillProgress,
  type IpcCallName,
  type IpcDispatch,
  type IpcInput,
  type IpcOutput,
  type IpcParsedInput,
  type IpcHandlers,
  type IpcPushName,
  type IpcPushPayload,
  KEYCHAIN_NOTICE_TOPIC,
  type Notification,
  PushCoalescer,
  type PushSink,
  type SettingsView,
  SkindeskError,
  type SyncStatus,
  createDispatcher,
} from '../../shared/ipc/index.ts';
import { isDamagedDatabaseError, passesQuickCheck } from '../store/damage.ts';
import { deskFileFor } from '../store/desk.ts';
import { DemoMarketKeeper } from './demo-keeper.ts';
import { describeAppError } from './errors.ts';
import { checkExternalLink } from './external-links.ts';
import { type AppLog, silentLog } from './log.ts';
import { type MarketChoice, type StartDemoMarket, chooseMarket, sameChoice } from './market.ts';
import type { AppPlatform } from './platform.ts';
import { unreadableKeychainWords } from './keychain-words.ts';
import { Redactor } from './redaction.ts';
import { MarketSession, type SessionSyncOptions, mirrorFile, mirrorSource } from './session.ts';
import { damagedDeskMessage, otherMarketOfBook, removeOtherMarketsBook, setAsideDamagedBook } from './session-mirror.ts';
import { SettingsStore } from './settings.ts';
import { originOf } from '../../shared/market-url.ts';
import { type BookQueries, createBookQueries } from './book-queries.ts';

export interface AppCoreOptions {
  /** Folder for settings and the book mirrors (Electron: userData). */
  dataDir: string;
  secrets: SecretStore;
  platform: AppPlatform;
  startDemoMarket: StartDemoMarket;
  /** The app's version, for getAppInfo. */
  version: string;
  log?: AppLog;
  redactor?: Redactor;
  /** Passed to the sync engine (tests shorten its timers). */
  syncOptions?: SessionSyncOptions;
  /** The sync worker's script (the Electron build passes its bundled file); default: the source file. */
  syncWorkerFile?: URL;
  /** Timers of the detail backfill (tests shorten them); `false` runs none. */
  backfillOptions?: Omit<BackfillOptions, 'appIds' | 'clock'> | false;
  /** How often backfill progress is recomputed from the mirror (default 5 s). */
  progressIntervalMs?: number;
  /** Cadence of the trade poller and withdrawal tracker (tests shorten them). */
  accountTimings?: AccountTimings;
  /** Waits before a failed session is started again, one per failure in a row (default SESSION_RETRY_MS). */
  sessionRetryMs?: readonly number[];
}

interface SecretSnapshot {
  apiKey: string | null;
  webhookSecret: string | null;
  problem: string | null;
}

/**
 * The topic of the notices about the connection to the marketplace (switching, failing, trying again):
 * each replaces the one before in the window, so "Connecting to …" does not stay beside its failure.
 */
const CONNECTION_TOPIC = 'marketplace';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
/** What a first window is handed at most: a start that goes wrong in a loop must not grow without end. */
const MAX_STARTUP_NOTIFICATIONS = 20;
/**
 * A session that failed (no network at start, a write the disk refused, the worker ended) is started
 * again after these waits, one per failure in a row, the last repeated: a terminal left running overnight
 * follows the market again once the cause is gone, without hammering it meanwhile.
 */
const SESSION_RETRY_MS = [5_000, 15_000, 30_000, 60_000, 120_000];
/** An exception nothing caught is told at most this often (the log has every one). */
const UNEXPECTED_FAILURE_NOTICE_MS = 60_000;
/**
 * How long an account call waits, after the key or the market changed, for the new session to learn whose
 * key it is (whenAccountKnown). A market that does not answer by then leaves the account unknown: a new
 * key's screens then show none of the stored account's data (AccountSession.awaitingAccount) while the
 * account is asked again; the same key's show it, as offline.
 */
const ACCOUNT_CHANGE_WAIT_MS = 10_000;

export class AppCore {
  readonly redactor: Redactor;
  readonly settings: SettingsStore;
  readonly handlers: IpcHandlers;
  readonly dispatch: IpcDispatch;
  /** The account side: trade feeds, withdrawals, cached account reads (one session per market session). */
  readonly account: AccountRuntime;
  readonly #options: AppCoreOptions;
  readonly #log: AppLog;
  readonly #sinks = new Set<PushSink>();
  /**
   * Notifications published before a window took them (takeStartupNotifications): a problem found while
   * the app starts is published before any window can listen, and a push reaches only those listening.
   * Null once taken.
   */
  #startupNotifications: Notification[] | null = [];
  readonly #coalescer: PushCoalescer;
  #session: MarketSession;
  #queries: BookQueries;
  #secrets: SecretSnapshot;
  /** The app's book version: monotonic across market switches (each engine counts from 0). */
  #bookVersion = 0;
  #switching: Promise<void> = Promise.resolve();
  /** Settles once the last change of key or market has met its account, or gave up waiting (see whenAccountKnown). */
  #accountChange: Promise<void> = Promise.resolve();
  /** Sessions whose damaged file is being (or was) dealt with: one failure is met by many calls. */
  readonly #mending = new WeakSet<MarketSession>();
  #progressTimer: NodeJS.Timeout;
  #lastProgress: BackfillProgress | null = null;
  #unexpectedToldAt = Number.NEGATIVE_INFINITY;
  /** Sessions failed in a row (back to 0 when one goes live), and the timer of the next start. */
  #failuresInARow = 0;
  #retryTimer: NodeJS.Timeout | null = null;
  readonly #demoMarket: DemoMarketKeeper;
  #closed = false;

  /** Opens the mirror from disk (synchronously readable at once), then connects in the background. */
  static async start(options: AppCoreOptions): Promise<AppCore> {
    const redactor = options.redactor ?? new Redactor();
    const secrets = await readSecrets(options.secrets);
    redactor.add(secrets.apiKey);
    redactor.add(secrets.webhookSecret);
    const core = new AppCore(options, redactor, secrets);
    void core.#connect(core.#session);
    return core;
  }

  private constructor(options: AppCoreOptions, redactor: Redactor, secrets: SecretSnapshot) {
    this.#options = options;
    this.#log = options.log ?? silentLog;
    this.#demoMarket = new DemoMarketKeeper(options.startDemoMarket, {
      warn: (message) => this.#log.warn(message),
      // the sync would knock at its port for ever: a new session starts a new market
      lost: () => {
        if (this.#session.choice.mode === 'demo') this.#startAgainLater(this.#session, 'The demo market stopped');
      },
    });
    this.redactor = redactor;
    this.#secrets = secrets;
    this.settings = new SettingsStore(options.dataDir);
    this.#coalescer = new PushCoalescer((name, payload) => {
      for (const sink of this.#sinks) sink(name, payload);
    });
    this.account = new AccountRuntime({
      dataDir: options.dataDir,
      platform: options.platform,
      publish: (name, payload) => this.publish(name, payload),
      notify: (level, title, message, topic) => this.notify(level, title, message, topic),
      log: this.#log,
      webhookSecret: () => this.#secrets.webhookSecret,
      ...(options.accountTimings ? { timings: options.accountTimings } : {}),
    });
    const choice = chooseMarket(this.settings.get(), secrets.apiKey !== null, secrets.problem !== null);
    // nothing holds the file yet: a book of another market goes before anything can show it
    const removeBook = this.#otherMarketsBook(choice);
    if (removeBook) this.notify('info', 'Book', removeBook());
    this.#session = this.#openSession(choice);
    this.account.attach(this.#session, this.#meetsNewDemoMarket(this.#session));
    this.#queries = createBookQueries(this.#session.db);
    this.handlers = this.#createHandlers();
    this.dispatch = createDispatcher(this.handlers, {
      describeError: (error) => describeAppError(error, this.redactor),
      onFailure: (call, error) => this.backgroundFailure(`${call} failed`, error),
    });
    if (this.settings.loadProblem) this.notify('warning', 'Settings', this.settings.loadProblem);
    if (secrets.problem) this.notify('warning', 'Keychain', secrets.problem, KEYCHAIN_NOTICE_TOPIC);
    this.#progressTimer = setInterval(() => this.#recountProgress(), options.progressIntervalMs ?? 5_000);
    this.#progressTimer.unref();
  }

  /**
   * A typed call through the same dispatcher the transports use (input parsed, output checked); throws
   * SkindeskError on failure. For tests and host-side tools.
   */
  async call<N extends IpcCallName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> {
    const response = await this.dispatch(name, input);
    if (!response.ok) throw new SkindeskError(response.error);
    return response.value as IpcOutput<N>;
  }

  // ---- pushes ---------------------------------------------------------------------------------

  /** Receives every push (coalesced per the contract). Returns the unsubscribe. */
  subscribe(sink: PushSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  /** For core services added later (trade tracker, alerts): publish a push to every transport. */
  publish<P extends IpcPushName>(name: P, payload: IpcPushPayload<P>): void {
    this.#coalescer.publish(name, payload);
  }

  /** `topic`: what it is about, when a later notification about it should replace it (Notification.topic). */
  notify(level: Notification['level'], title: string, message: string, topic?: string): void {
    const notification: Notification = {
      id: randomUUID(),
      level,
      title,
      message: this.redactor.redact(message),
      at: new Date().toISOString(),
      ...(topic === undefined ? {} : { topic }),
    };
    if (this.#startupNotifications && this.#startupNotifications.length < MAX_STARTUP_NOTIFICATIONS) {
      this.#startupNotifications.push(notification);
    }
    this.publish('notification', notification);
  }

  /**
   * A failure on this thread that no caller can take further (a failed call already answered, a timer, a
   * feed handler): logged, and a damaged database file mended (#mendDamagedFile). This thread's connection
   * holds the book and the desk, so the damage may be in either.
   */
  backgroundFailure(what: string, error: unknown): void {
    this.#log.warn(`${what}: ${this.#wordsOf(error)}`);
    this.#mendIfDamaged(error);
  }

  /**
   * An exception nothing caught, in the host's process (an event handler, a timer): the host logs it with
   * its stack and calls this instead of a modal box over the trading screen. A damaged file is mended;
   * anything else is told in plain words, once a minute at most.
   */
  unexpectedFailure(error: unknown): void {
    if (this.#mendIfDamaged(error)) return;
    const now = Date.now();
    if (now - this.#unexpectedToldAt < UNEXPECTED_FAILURE_NOTICE_MS) return;
    this.#unexpectedToldAt = now;
    this.notify(
      'error',
      'Skindesk',
      'Something went wrong inside Skindesk; the log has the details. If the app misbehaves, restart it.',
    );
  }

  /** Mends the database file behind `error` when it is a damaged one; whether it was. */
  #mendIfDamaged(error: unknown): boolean {
    if (!isDamagedDatabaseError(error)) return false;
    void this.#mendDamagedFile(this.#session, this.#wordsOf(error), 'book-or-desk');
    return true;
  }

  /** A failure's message, with every secret the app holds taken out. */
  #wordsOf(error: unknown): string {
    return this.redactor.redact(error instanceof Error ? error.message : String(error));
  }

  // ---- state ------------------------------------------------------------------------------------

  get log(): AppLog {
    return this.#log;
  }

  /** The host's services (opening links through the OS): for handlers that vet their own URLs. */
  get platform(): AppPlatform {
    return this.#options.platform;
  }

  /** The current market session (mirror, client, engine, demo): for the hosts' assertions and tools. */
  get session(): MarketSession {
    return this.#session;
  }

  status(): SyncStatus {
    return this.#toSyncStatus(this.#session.status());
  }

  /** Resolves when the book is live (for tests and the test host); rejects after `timeoutMs`. */
  whenLive(timeoutMs = 30_000): Promise<SyncStatus> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const status = this.status();
        if (status.state === 'live') {
          cleanup();
          resolve(status);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`the book did not become live within ${timeoutMs} ms (state: ${this.status().state})`),
        );
      }, timeoutMs);
      const off = this.subscribe((name) => {
        if (name === 'syncStatus') check();
      });
      const poll = setInterval(check, 100);
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(poll);
        off();
      };
      check();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#progressTimer);
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    await this.#switching;
    await this.account.close();
    this.#coalescer.close();
    this.#sinks.clear();
    await this.#session.close();
    await this.#demoMarket.stop();
  }

  // ---- sessions ---------------------------------------------------------------------------------

  /** Connects a session, then starts what needs its REST client (the trade feeds). */
  async #connect(session: MarketSession): Promise<void> {
    await session.connect();
    await this.account.connected(session);
    settleEarlierPurchases(this, session).catch((err: unknown) =>
      this.backgroundFailure('settling the purchases an earlier run left open', err),
    );
  }

  /**
   * When `choice`'s book file holds another market's book (otherMarketOfBook): its removal, which says
   * what it did; null otherwise. Run it only once nothing holds the file.
   */
  #otherMarketsBook(choice: MarketChoice): (() => string) | null {
    const file = mirrorFile(this.#options.dataDir, choice);
    const formerMarket = otherMarketOfBook(file, mirrorSource(choice));
    return formerMarket === null ? null : () => removeOtherMarketsBook(file, formerMarket);
  }

  #openSession(choice: MarketChoice): MarketSession {
    const session: MarketSession = new MarketSession({
      choice,
      dataDir: this.#options.dataDir,
      apiKey: this.#secrets.apiKey,
      startDemoMarket: this.#demoMarket.lend,
      ...(this.#options.syncOptions ? { syncOptions: this.#options.syncOptions } : {}),
      ...(this.#options.syncWorkerFile ? { syncWorkerFile: this.#options.syncWorkerFile } : {}),
      ...(this.#options.backfillOptions === undefined ? {} : { backfillOptions: this.#options.backfillOptions }),
      log: this.#log,
      redactor: this.redactor,
      events: {
        // a closing session still reports; only the current one speaks for the app
        book: (change) => {
          if (session === this.#session) this.#publishBook(change);
        },
        status: (status) => {
          if (session !== this.#session) return;
          if (status.state === 'live') this.#failuresInARow = 0;
          this.publish('syncStatus', this.#toSyncStatus(status));
        },
        problem: (message) => {
          if (session === this.#session) this.notify('error', 'Marketplace', message, CONNECTION_TOPIC);
        },
        failed: (message) => this.#startAgainLater(session, message),
        // the worker has the book alone open
        damaged: (error) => void this.#mendDamagedFile(session, this.#wordsOf(error), 'book'),
        backfill: (run) => {
          if (session === this.#session) this.#publishProgress(toBackfillProgress(run, this.redactor));
        },
      },
    });
    if (session.openingNotice) this.notify('warning', 'Book', session.openingNotice);
    return session;
  }

  /**
   * Resolves when the account data on hand is the key's: at once, or once the change of key or market
   * under way has connected and met the new key's account (AccountRuntime.connected), at most
   * ACCOUNT_CHANGE_WAIT_MS later. The account screens' calls wait for it: asked in between, they would
   * find the market switching, or show the previous account's trades, guards and cached reads as this
   * key's until the new session learned whose key it is.
   */
  whenAccountKnown(): Promise<void> {
    return this.#accountChange;
  }

  #accountChanging(change: Promise<void>): void {
    const done = change.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ACCOUNT_CHANGE_WAIT_MS);
      timer.unref();
    });
    this.#accountChange = Promise.race([done, cap]).finally(() => clearTimeout(timer));
  }

  /** Re-evaluates the startup rule after a settings or key change; reconnects when the answer changed. */
  #reconsiderMarket(force: boolean): Promise<void> {
    return this.#serially(async () => {
      const choice = chooseMarket(this.settings.get(), this.#secrets.apiKey !== null, this.#secrets.problem !== null);
      if (!force && sameChoice(choice, this.#session.choice)) {
        this.#session.relabel(choice);
        this.publish('syncStatus', this.status());
        return;
      }
      // the old session lets go of the file first when it holds another market's book (removed, not shown)
      const removeBook = this.#otherMarketsBook(choice);
      let emptied = '';
      const next = await this.#replaceSession(choice, removeBook ? () => (emptied = removeBook()) : undefined);
      if (emptied) this.notify('info', 'Book', emptied);
      this.notify('info', 'Marketplace', choice.mode === 'demo' ? 'Switched to the demo market.' : `Connecting to ${choice.baseUrl}.`, CONNECTION_TOPIC);
      await this.#connect(next);
    });
  }

  /**
   * SQLite found a damaged page while the app runs (a disk that lied about a flush, a file changed under
   * the app): the same cure as at start (session-mirror.ts), without a restart. The book is a copy of the
   * market, so it is set aside and read again. The desk is never replaced: when the damage may be there
   * (a failure on this thread, whose connection holds both), the desk, a small file, is checked first.
   */
  #mendDamagedFile(session: MarketSession, reason: string, suspect: 'book' | 'book-or-desk'): Promise<void> {
    if (session !== this.#session || this.#mending.has(session)) return this.#switching;
    this.#mending.add(session);
    return this.#serially(async () => {
      if (session !== this.#session) return;
      this.#log.error(`a database file is damaged: ${reason}`);
      const desk = deskFileFor(session.file);
      if (suspect === 'book-or-desk' && existsSync(desk) && !passesQuickCheck(desk)) {
        this.notify('error', 'Desk', damagedDeskMessage(desk, reason));
        return;
      }
      let notice = '';
      let next: MarketSession;
      try {
        next = await this.#replaceSession(session.choice, () => {
          notice = setAsideDamagedBook(session.file, reason);
        });
      } catch (err) {
        const why = this.#wordsOf(err);
        this.#log.error(`the damaged book could not be replaced: ${why}`);
        this.notify(
          'error',
          'Book',
          `The book file is damaged (${reason}) and could not be set aside (${why}). Quit Skindesk, move ` +
            `${session.file} away, and start it again.`,
        );
        return;
      }
      this.notify('warning', 'Book', notice);
      await this.#connect(next);
    });
  }

  /**
   * A session failed in a way a new one may not (session.ts `failed`): a new one starts after a wait
   * that grows with each failure in a row. The first of a row is a notice; the status tells every one.
   */
  #startAgainLater(session: MarketSession, reason: string): void {
    if (session !== this.#session || this.#closed || this.#retryTimer !== null) return;
    const waits = this.#options.sessionRetryMs ?? SESSION_RETRY_MS;
    const wait = waits[Math.min(this.#failuresInARow, waits.length - 1)] as number;
    this.#failuresInARow++;
    const seconds = Math.max(1, Math.round(wait / 1000));
    session.noteRetry(`${reason}; trying again in ${seconds} s`);
    this.#log.warn(`${reason}; a new session in ${seconds} s (failure ${this.#failuresInARow} in a row)`);
    if (this.#failuresInARow === 1) this.notify('error', 'Marketplace', `${reason}. Skindesk tries again in ${seconds} s.`, CONNECTION_TOPIC);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.#serially(async () => {
        if (session !== this.#session) return;
        let next: MarketSession;
        try {
          next = await this.#replaceSession(session.choice);
        } catch (err) {
          // the book would not open (the cause still there): the old session stays, and waits again
          this.#startAgainLater(session, `The book could not be opened again: ${this.#wordsOf(err)}`);
          return;
        }
        await this.#connect(next);
      });
    }, wait);
    this.#retryTimer.unref();
  }

  /** Whether the session will start a new demo market (and with it a new demo account). */
  #meetsNewDemoMarket(session: MarketSession): boolean {
    return session.choice.mode === 'demo' && !this.#demoMarket.running;
  }

  /** Runs session changes one after another, never after close. */
  #serially(change: () => Promise<void>): Promise<void> {
    const run = async () => {
      if (!this.#closed) await change();
    };
    this.#switching = this.#switching.then(run, run);
    return this.#switching;
  }

  /**
   * Puts a new session for `choice` in place of the current one. The new one opens before the old one
   * closes, so the book stays readable throughout, unless `withFileLetGo` must act on the old one's file
   * (set a damaged book aside): then the old session lets the file go first.
   */
  async #replaceSession(choice: MarketChoice, withFileLetGo?: () => void): Promise<MarketSession> {
    const old = this.#session;
    // a start already due for the old session is this one
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    // the old account side stops writing to the old database before it closes
    await this.account.detach(old);
    const closeOld = () =>
      old.close().catch((err: unknown) => this.#log.warn(`closing the previous market failed: ${String(err)}`));
    if (withFileLetGo) {
      await closeOld();
      withFileLetGo();
    }
    const next = this.#openSession(choice);
    this.#session = next;
    this.account.attach(next, this.#meetsNewDemoMarket(next));
    this.#queries = createBookQueries(next.db);
    if (!withFileLetGo) await closeOld();
    if (choice.mode !== 'demo') await this.#demoMarket.stop();
    // the same book file (a session started again) holds the same rows: the grid keeps them, and its place
    if (next.file !== old.file || withFileLetGo) {
      this.#publishBook({
        version: 0,
        lastSeq: next.status().lastSeq,
        reset: true,
        upserted: 0,
        removed: 0,
        ids: [],
        idsTruncated: false,
      });
    }
    this.publish('syncStatus', this.status());
    // the previous market's "detail 40%" must not stand beside this one's book until the next recount
    this.#recountProgress();
    return next;
  }

  #publishBook(change: BookChange): void {
    this.#bookVersion++;
    this.publish('bookChanged', { ...change, version: this.#bookVersion });
  }

  /** Publishes when something the status bar shows changed; `progress` is computed when not given. */
  #publishProgress(progress: BackfillProgress = this.#backfillProgress()): void {
    if (this.#closed) return;
    const last = this.#lastProgress;
    if (
      last &&
      last.detailed === progress.detailed &&
      last.total === progress.total &&
      last.state === progress.state &&
      last.problem === progress.problem &&
      last.etaMs === progress.etaMs
    )
      return;
    this.#lastProgress = progress;
    this.publish('backfillProgress', progress);
  }

  /** The timer's recount of the progress. */
  #recountProgress(): void {
    try {
      this.#publishProgress();
    } catch (err) {
      this.backgroundFailure('the detail progress could not be counted', err);
    }
  }

  /**
   * How much of the book has its detail, counted in the mirror (a walk of a partial index), so details
   * from creation events and on-demand reads count too; the state is the backfill's. Between these
   * counts, each stored page publishes the backfill's own running tally.
   */
  #backfillProgress(): BackfillProgress {
    const run = this.#session.backfillProgress();
    const detailed = this.#session.db
      .prepare('SELECT count(*) FROM listings WHERE alive = 1 AND detailed_at IS NOT NULL')
      .pluck()
      .get() as number;
    const total = this.#session.status().rows;
    const counted = { detailed: Math.min(detailed, total), total };
    // the run's own view (state, problem, time left) with the mirror's counts
    return run ? { ...toBackfillProgress(run, this.redactor), ...counted } : { state: 'idle', ...counted, problem: null, etaMs: null };
  }

  #toSyncStatus(status: EngineStatus): SyncStatus {
    const choice = this.#session.choice;
    return {
      market: {
        mode: choice.mode,
        baseUrl: this.#session.baseUrl,
        demoReason: choice.mode === 'demo' ? choice.reason : null,
      },
      state: status.state,
      since: new Date(status.since).toISOString(),
      lastSeq: status.lastSeq,
      bookAsOf: iso(status.bookAsOf),
      rows: status.rows,
      eventsPerSecond: Math.round(status.eventsPerSecond * 100) / 100,
      problem: status.problem === null ? null : this.redactor.redact(status.problem),
      bookRead: status.bookRead,
    };
  }

  // ---- settings and secrets -------------------------------------------------------------------

  async #settingsView(): Promise<SettingsView> {
    const settings = this.settings.get();
    return {
      market: { useDemo: settings.market.useDemo, baseUrl: settings.market.baseUrl },
      apiKey: secretState(this.#secrets.apiKey),
      webhookSecret: secretState(this.#secrets.webhookSecret),
      secretStorage: { kind: this.#options.secrets.kind, problem: this.#secrets.problem },
    };
  }

  /**
   * Writes (or, with null, deletes) a secret in the store, then in memory and the redactor. A keychain
   * that could not be read at start and takes this write works now: the other secret, unknown until
   * then, is read again, so "no API key" is said only when there is none. True when that read worked:
   * the market is then chosen again (the key found may be for the real one).
   */
  async #storeSecret(name: SecretName, value: string | null): Promise<boolean> {
    const store = this.#options.secrets;
    const key = name === 'api-key' ? 'apiKey' : 'webhookSecret';
    const previous = this.#secrets[key];
    if (value === null) await store.delete(name);
    else await store.set(name, value);
    this.redactor.add(value);
    const wasUnreadable = this.#secrets.problem !== null;
    this.#secrets = { ...this.#secrets, [key]: value, problem: null };
    if (previous !== value) this.redactor.forget(previous);
    if (!wasUnreadable) return false;
    const other: SecretName = name === 'api-key' ? 'webhook-secret' : 'api-key';
    try {
      const found = await store.get(other);
      this.redactor.add(found);
      this.#secrets = { ...this.#secrets, [other === 'api-key' ? 'apiKey' : 'webhookSecret']: found };
      return true;
    } catch (err) {
      if (!(err instanceof SecretStoreError)) throw err;
      // written but still not readable: the other secret stays unknown, and the words say why
      this.#secrets = { ...this.#secrets, problem: unreadableKeychainWords(err.message) };
      return false;
    }
  }

  async #changeSecret(name: SecretName, value: string | null): Promise<SettingsView> {
    const keychainBack = await this.#storeSecret(name, value);
    const view = await this.#settingsView();
    this.publish('settingsChanged', view);
    // a new key for the market in use means a new session even if the choice stays "real"
    if (name === 'api-key') this.#accountChanging(this.#reconsiderMarket(this.#session.choice.mode === 'real'));
    else {
      this.account.secretChanged();
      // the key read again may choose the real market; or, none there, changes why the demo runs
      if (keychainBack) this.#accountChanging(this.#reconsiderMarket(false));
    }
    return view;
  }

  /**
   * The stored key is sent only to the market it was saved for: a URL of another origin (a page that
   * could call this must not be able to send the key elsewhere) removes it, unless the call brings the
   * key for the new market. The key is written before the settings, so a keychain that refuses it
   * leaves both as they were.
   */
  async #setMarket({ useDemo, baseUrl, apiKey }: IpcParsedInput<'setMarket'>): Promise<SettingsView> {
    const previousOrigin = originOf(this.settings.get().market.baseUrl);
    const keyDropped = apiKey === undefined && this.#secrets.apiKey !== null && previousOrigin !== originOf(baseUrl);
    // nothing to delete when no key is stored (a read-only store, the environment's, would refuse it)
    const newKey = apiKey ?? (keyDropped ? null : undefined);
    if (newKey !== undefined) await this.#storeSecret('api-key', newKey);
    this.settings.update((s) => {
      s.market.useDemo = useDemo;
      s.market.baseUrl = baseUrl;
    });
    const view = await this.#settingsView();
    this.publish('settingsChanged', view);
    if (keyDropped) {
      const keyWasFor = previousOrigin ?? 'no marketplace URL';
      this.notify('warning', 'API key removed', `The saved key was for ${keyWasFor}: enter the key for the new marketplace.`);
    }
    // a new key for the market in use means a new session even if the choice stays the same
    this.#accountChanging(this.#reconsiderMarket(newKey !== undefined && this.#session.choice.mode === 'real'));
    return view;
  }

  // ---- handlers ---------------------------------------------------------------------------------

  #createHandlers(): IpcHandlers {
    return {
      ...createMarketHandlers(this),
      ...createAccountHandlers(this),
      ...createWatchHandlers(this),
      getAppInfo: () => ({ name: 'Skindesk', version: this.#options.version, platform: process.platform }),
      takeStartupNotifications: () => {
        const notifications = this.#startupNotifications ?? [];
        this.#startupNotifications = null;
        return { notifications };
      },
      getStatus: () => this.status(),
      getBackfillProgress: () => this.#backfillProgress(),
      getRateLimits: () => {
        const client = this.#session.client;
        if (!client) return { endpoints: [], rateLimited: 0, queued: 0 };
        const stats = client.governorStats();
        return {
          // unlimited routes (POST withdraw) have no headroom to show, and Infinity is not JSON
          endpoints: stats.endpoints.filter((e) => Number.isFinite(e.limit)).map((e) => ({
            key: e.key,
            limit: e.limit,
            windowMs: e.windowMs,
            headroom: e.headroom,
            blockedUntil: iso(e.blockedUntil),
          })),
          rateLimited: stats.totals.rateLimited,
          queued: stats.totals.queued,
        };
      },
      queryBook: (query) => {
        const page = this.#queries.query(query);
        return { ...page, rows: this.#session.marketPrices.price(page.rows), version: this.#bookVersion };
      },
      getListing: async ({ id }) => this.#queries.listing(id, this.#session),
      getSettings: () => this.#settingsView(),
      setApiKey: ({ apiKey }) => this.#changeSecret('api-key', apiKey),
      clearApiKey: () => this.#changeSecret('api-key', null),
      setWebhookSecret: ({ secret }) => this.#changeSecret('webhook-secret', secret),
      clearWebhookSecret: () => this.#changeSecret('webhook-secret', null),
      setMarket: (input) => this.#setMarket(input),
      openExternal: async ({ url }) => {
        const verdict = checkExternalLink(url);
        if (!verdict.ok)
          throw new SkindeskError({ code: 'REFUSED', message: `Not opened: ${verdict.reason}.` });
        await this.#options.platform.openExternal(verdict.url);
        return { opened: true };
      },
    };
  }
}

/** The contract's view of a backfill run (the CLI prints its rate too; the app the time left). */
function toBackfillProgress(run: BackfillRun, redactor: Redactor): BackfillProgress {
  const total = run.total;
  return {
    state: run.state,
    detailed: Math.min(run.detailed, total),
    total,
    problem: run.problem === null ? null : redactor.redact(run.problem),
    etaMs: run.state === 'running' ? run.etaMs : null,
  };
}

/** Reads both secrets once at startup; an unreachable keychain means "not set", with the reason kept. */
async function readSecrets(store: SecretStore): Promise<SecretSnapshot> {
  try {
    const [apiKey, webhookSecret] = await Promise.all([store.get('api-key'), store.get('webhook-secret')]);
    return { apiKey, webhookSecret, problem: null };
  } catch (err) {
    if (err instanceof SecretStoreError) {
      return { apiKey: null, webhookSecret: null, problem: unreadableKeychainWords(err.message) };
    }
    throw err;
  }
}

/**
 * Watchlists without a window: the book mirror, the sync worker and the watch service, wired the way the
 * app wires them. `skindesk watch` runs this (on a server near the marketplace, say), and so does the
 * snipe benchmark. The sync worker is the book's only writer; this thread holds the feed's socket
 * (relayed to the worker), judges every new listing the moment its frame arrives and sends the purchase,
 * writing only to the desk file (store/desk.ts), so no book transaction ever stands in between.
 */
import { ApiClient, type ApiClientOptions } from '../api/client.ts';
import { PurchaseJournal } from '../api/purchase-journal.ts';
import { Purchaser } from '../api/purchaser.ts';
import { deskRateGovernor } from '../api/release-ledger.ts';
import { attachDesk } from '../store/desk.ts';
import { claimCaches, openDatabase, readSyncState, type Db, type OpenOptions } from '../store/index.ts';
import type { BackfillOptions } from '../sync/backfill.ts';
import type { EngineStatus, SyncEngineOptions } from '../sync/engine.ts';
import { MirrorWorker } from '../sync/mirror-worker.ts';
import type { Watchlist, WatchlistInput } from '../../shared/watchlist.ts';
import { WatchService, type WatchServiceOptions } from './service.ts';

export interface HeadlessWatchOptions {
  dbPath: string;
  baseUrl: string;
  apiKey: string;
  /** Discovered from the REST address when absent. */
  wsUrl?: string;
  /** The watchlists to run (saved into the database by name, replacing same-named ones). */
  watchlists: readonly WatchlistInput[];
  /** Send purchases for watchlists in automatic mode (the CLI's --auto-buy). */
  autoBuy: boolean;
  engine?: Omit<SyncEngineOptions, 'sourceUrl' | 'appIds' | 'random' | 'openFeed'>;
  /** The worker's detail backfill (float, seed, stickers of snapshot rows); false runs none. */
  backfill?: BackfillOptions | false;
  client?: Partial<Pick<ApiClientOptions, 'fetch' | 'timeoutMs' | 'governor'>>;
  service?: Pick<WatchServiceOptions, 'notify' | 'balanceRefreshMs' | 'detailSweepMs'>;
  onWarning?: (message: string) => void;
  /** Told before an upgrade of the book file that takes a while, so the run does not look stuck. */
  onLengthyStep?: OpenOptions['onLengthyStep'];
  onStatus?: (status: EngineStatus) => void;
  /**
   * The book stopped being followed: the sync failed (a damaged book: the error keeps SQLite's code) or
   * its worker ended. Default: onWarning.
   */
  onFailure?: (error: Error) => void;
}

export class HeadlessWatch {
  /** This thread's connection: reads the book, writes only the attached desk. */
  readonly db: Db;
  readonly client: ApiClient;
  readonly mirror: MirrorWorker;
  readonly service: WatchService;
  readonly purchaser: Purchaser;
  /** The watchlists this run judges (those of its file). */
  readonly watchlists: readonly Watchlist[];
  readonly #wsUrl: string | undefined;
  readonly #journal: PurchaseJournal;
  readonly #warn: (message: string) => void;
  #stopped: Promise<void> | null = null;

  private constructor(o: HeadlessWatchOptions) {
    const warn = o.onWarning ?? (() => {});
    this.db = openDatabase(o.dbPath, o.onLengthyStep ? { onLengthyStep: o.onLengthyStep } : {});
    try {
      attachDesk(this.db, o.dbPath);
      // the reference prices of another market (the file used with another --base-url) are not this one's
      claimCaches(this.db, o.baseUrl, readSyncState(this.db).source);
      this.client = new ApiClient({
        baseUrl: o.baseUrl,
        apiKey: o.apiKey,
        ...(o.wsUrl ? { wsUrl: o.wsUrl } : {}),
        ...o.client,
        // the desk records every release, so the app with this key on this data folder (or the next
        // run) counts inside the same windows (api/release-ledger.ts)
        governor:
          o.client?.governor ??
          deskRateGovernor({ db: this.db, baseUrl: o.baseUrl, apiKey: o.apiKey, onLedgerError: warn }),
      });
      this.#journal = new PurchaseJournal(this.db);
      this.purchaser = new Purchaser({ client: this.client, journal: this.#journal });
      this.#warn = warn;
      let ids = new Set<number>();
      this.service = new WatchService({
        db: this.db,
        only: (w) => ids.has(w.id),
        purchasing: o.autoBuy,
        onWarning: warn,
        ...o.service,
      });
      this.watchlists = o.watchlists.map((input) => this.service.upsert(input));
      ids = new Set(this.watchlists.map((w) => w.id));
      this.service.attachMarket(this.client, this.purchaser);
      this.#wsUrl = o.wsUrl;
      this.mirror = new MirrorWorker({
        dbPath: o.dbPath,
        baseUrl: o.baseUrl,
        apiKey: o.apiKey,
        ...(o.engine ? { engine: o.engine } : {}),
        ...(o.backfill === undefined ? {} : { backfill: o.backfill }),
        relayFeed: true,
        forwardApplied: true,
      });
      this.mirror.on('received', (event) => this.service.onArrived(event));
      this.mirror.on('applied', (events) => this.service.onApplied(events));
      // details the backfill stored: listings a detail condition could not match before
      this.mirror.on('backfill', (progress) => this.service.onBackfillProgress(progress));
      this.mirror.on('status', (status) => {
        this.service.onStatus(status.state);
        o.onStatus?.(status);
      });
      this.mirror.on('warning', warn);
      const failed = o.onFailure ?? ((error: Error) => warn(error.message));
      this.mirror.on('error', failed);
      this.mirror.on('exit', (code) => {
        if (code !== 0 && !this.#stopped) failed(new Error(`the sync worker stopped unexpectedly (exit ${code}); the book is no longer followed`));
        this.service.onStatus('stopped');
      });
    } catch (err) {
      this.db.close();
      throw err;
    }
  }

  /** Opens the database, saves the watchlists and starts following the feed. */
  static async start(o: HeadlessWatchOptions): Promise<HeadlessWatch> {
    const run = new HeadlessWatch(o);
    try {
      // in this thread first: a wrong address or a refused key fails here, before any worker starts
      const wsUrl = run.#wsUrl ?? (await run.client.discoverWsUrl({ priority: 'interactive' }));
      run.mirror.start(wsUrl);
      void run.#settleEarlierRun();
      return run;
    } catch (err) {
      await run.stop();
      throw err;
    }
  }

  /**
   * Purchases an earlier run left open (stopped between sending one and its answer) are settled from the
   * order history now, as the app does when it connects — not before the next purchase, which may never
   * come: until then their log entries stay pending and count against their watchlists' budgets.
   */
  async #settleEarlierRun(): Promise<void> {
    try {
      if (this.#journal.unresolved().length === 0) return;
      await this.purchaser.reconcileUnresolved();
      this.service.settleEarlierPurchases();
    } catch (err) {
      if (!this.#stopped) this.#warn(`purchases an earlier run left open could not be settled: ${(err as Error).message}`);
    }
  }

  /** Stops the feed (every received event applied), waits for purchases in flight, closes the database. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      try {
        await this.mirror.stop();
        await this.service.close();
      } finally {
        this.mirror.removeAllListeners();
        this.db.close();
      }
    })();
    return this.#stopped;
  }
}

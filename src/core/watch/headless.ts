/**
 * Watchlists without a window: the book mirror, the sync engine and the watch service in one process,
 * wired the way the app wires them. `skindesk watch` runs this (on a server near the marketplace, say),
 * and so does the snipe benchmark. The engine runs in this thread, so a feed event reaches the
 * watchlists — and a purchase leaves — without crossing a thread.
 */
import { ApiClient, type ApiClientOptions } from '../api/client.ts';
import { PurchaseJournal } from '../api/purchase-journal.ts';
import { Purchaser } from '../api/purchaser.ts';
import { BookStore, openDatabase, type Db } from '../store/index.ts';
import { type EngineStatus, SyncEngine, type SyncEngineOptions } from '../sync/engine.ts';
import { apiSources } from '../sync/sources.ts';
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
  engine?: Omit<SyncEngineOptions, 'sourceUrl'>;
  client?: Partial<Pick<ApiClientOptions, 'fetch' | 'timeoutMs' | 'governor'>>;
  service?: Pick<WatchServiceOptions, 'notify' | 'balanceRefreshMs'>;
  onWarning?: (message: string) => void;
  onStatus?: (status: EngineStatus) => void;
}

export class HeadlessWatch {
  readonly db: Db;
  readonly store: BookStore;
  readonly client: ApiClient;
  readonly engine: SyncEngine;
  readonly service: WatchService;
  readonly purchaser: Purchaser;
  /** The watchlists this run judges (those of its file). */
  readonly watchlists: readonly Watchlist[];
  #stopped: Promise<void> | null = null;

  private constructor(o: HeadlessWatchOptions) {
    const warn = o.onWarning ?? (() => {});
    // checkpoints in big steps, like the sync worker: a busy feed would otherwise checkpoint (copy back
    // and fsync) on nearly every commit, inside the path between a frame and its purchase
    this.db = openDatabase(o.dbPath, { checkpointPages: 25_000 });
    try {
      this.store = new BookStore(this.db);
      this.client = new ApiClient({ baseUrl: o.baseUrl, apiKey: o.apiKey, ...(o.wsUrl ? { wsUrl: o.wsUrl } : {}), ...o.client });
      this.purchaser = new Purchaser({ client: this.client, journal: new PurchaseJournal(this.db) });
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
      // Small live batches: a purchase's request is written on a later turn of the event loop, and a
      // big batch applied first would hold it back (latency over throughput, here).
      this.engine = new SyncEngine(this.store, apiSources(this.client), { liveBatchSize: 256, ...o.engine, sourceUrl: o.baseUrl });
      this.engine.on('received', (event) => this.service.onArrived(event));
      this.engine.on('applied', (events) => this.service.onApplied(events));
      this.engine.on('status', (status) => {
        this.service.onStatus(status.state);
        o.onStatus?.(status);
      });
      this.engine.on('warning', warn);
    } catch (err) {
      this.db.close();
      throw err;
    }
  }

  /** Opens the database, saves the watchlists and starts following the feed. */
  static async start(o: HeadlessWatchOptions): Promise<HeadlessWatch> {
    const run = new HeadlessWatch(o);
    try {
      const wsUrl = await run.client.discoverWsUrl({ priority: 'interactive' });
      run.engine.start(wsUrl, o.apiKey);
      return run;
    } catch (err) {
      await run.stop();
      throw err;
    }
  }

  /** Stops the feed, waits for purchases in flight to get their outcome, closes the database. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      try {
        await this.engine.stop();
        await this.service.close();
      } finally {
        this.engine.removeAllListeners();
        this.db.close();
      }
    })();
    return this.#stopped;
  }
}

/**
 * The host side of the sync worker: starts it, relays its status, book changes and backfill progress as
 * events, and stops it cleanly (every received event applied, the database closed). Same events as the
 * in-process SyncEngine, so a host can use either; the worker is the one to use next to a UI, because
 * large snapshot merges and their JSON parsing take seconds.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { FullListing, ListingCreatedEvent, ListingEvent } from '../../shared/api/index.ts';
import type { BackfillOptions, BackfillProgress } from './backfill.ts';
import type { BatchSummary, BookChange, EngineStatus, SyncEngineOptions } from './engine.ts';
import { ApiError } from '../api/errors.ts';
import { FeedRelayHost, isRelayRequest } from './relay.ts';
import { type HostMessage, SYNC_WORKER_YOUNG_GENERATION_MB, type SyncWorkerData, type WorkerFailure, type WorkerMessage } from './worker-protocol.ts';

export interface MirrorWorkerOptions {
  dbPath: string;
  baseUrl: string;
  apiKey: string;
  /**
   * What the book mirrors, recorded in the file (a file of another source is emptied first: see
   * otherSourceHeld in store/sync-state.ts): the base URL unless given. The app's demo market gives a
   * name of its own: a new port on every start, and its own file.
   */
  source?: string;
  wsUrl?: string | null;
  appIds?: readonly number[] | null;
  engine?: Omit<SyncEngineOptions, 'appIds' | 'sourceUrl' | 'random' | 'openFeed'>;
  backfill?: Omit<BackfillOptions, 'clock'> | false;
  /**
   * Hold the WebSocket in this thread and relay it to the worker (relay.ts): `received` then fires the
   * moment a new listing's frame arrives, never behind a SQLite transaction. For hosts that judge the
   * feed (watchlists); `skindesk sync` lets the worker hold its own socket.
   */
  relayFeed?: boolean;
  /** Emit `applied` with every committed batch's events (structured-cloned over from the worker). */
  forwardApplied?: boolean;
  /** The worker's script: the source file by default; the Electron build passes its bundled one. */
  workerFile?: URL;
  /** How long `stop()` waits for the worker to finish before terminating it. */
  stopTimeoutMs?: number;
}

type MirrorWorkerEvents = {
  status: [status: EngineStatus];
  /** The worker upgrades the book file before it syncs (a lengthy migration): what it does, in words. */
  upgrading: [what: string];
  /** A `listing.created` that arrived while the book is live, before the worker applies it (relayFeed only). */
  received: [event: ListingCreatedEvent];
  /** The events of one committed batch that changed the book, sales left out (forwardApplied only). */
  applied: [events: readonly ListingEvent[]];
  /** A batch of at least APPLYING_NOTICE_EVENTS events started its transaction (listen before start()). */
  applying: [events: number];
  /** What each batch of feed events did (listen before start(): the worker reports only if asked). */
  batch: [summary: BatchSummary];
  book: [change: BookChange];
  backfill: [progress: BackfillProgress];
  warning: [message: string];
  error: [error: Error];
  /** SQLite found the book file damaged and the worker's sync stopped: SQLite's error, its code kept. */
  damaged: [error: Error];
  /** The worker ended (after stop, or by a crash: then `code` is not 0). */
  exit: [code: number];
};

/** The worker's failure as the error it was: an ApiError (typed, with its code) or a plain Error. */
function errorFrom(failure: WorkerFailure): Error {
  if (failure.kind === null) return new Error(failure.message);
  return new ApiError({
    kind: failure.kind,
    route: failure.route ?? 'GET /public/v1/listings/{id}',
    message: failure.message,
    code: failure.code,
    status: failure.status,
    retryAfterMs: failure.retryAfterMs,
  });
}

/** A request to the worker that cannot be answered because it is not running (not started, or ended). */
export class SyncWorkerGoneError extends Error {
  override readonly name = 'SyncWorkerGoneError';
}

export class MirrorWorker extends EventEmitter<MirrorWorkerEvents> {
  readonly #options: MirrorWorkerOptions;
  #worker: Worker | null = null;
  #relay: FeedRelayHost | null = null;
  readonly #scope: ReadonlySet<number> | null;
  #status: EngineStatus | null = null;
  #backfill: BackfillProgress | null = null;
  #stopped: Promise<void> | null = null;
  #nextRequest = 1;
  readonly #pending = new Map<number, { resolve: (l: FullListing | null) => void; reject: (e: Error) => void }>();

  constructor(options: MirrorWorkerOptions) {
    super();
    this.#options = options;
    this.#scope = options.appIds ? new Set(options.appIds) : null;
  }

  get status(): EngineStatus | null {
    return this.#status;
  }

  get backfill(): BackfillProgress | null {
    return this.#backfill;
  }

  /** Starts the worker; `wsUrl` (when the host already discovered it) overrides the option. */
  start(wsUrl?: string): void {
    if (this.#worker) throw new Error('the sync worker is already running');
    const o = this.#options;
    const data: SyncWorkerData = {
      dbPath: o.dbPath,
      baseUrl: o.baseUrl,
      source: o.source ?? o.baseUrl,
      apiKey: o.apiKey,
      wsUrl: wsUrl ?? o.wsUrl ?? null,
      appIds: o.appIds ? [...o.appIds] : null,
      engine: o.engine ?? {},
      backfill: o.backfill ?? {},
      relayFeed: o.relayFeed ?? false,
      forwardApplied: o.forwardApplied ?? false,
      reportBatches: this.listenerCount('batch') + this.listenerCount('applying') > 0,
    };
    this.#relay = o.relayFeed
      ? new FeedRelayHost({ apiKey: o.apiKey, post: (notice) => this.#post(notice), onCreated: (event) => this.#onCreated(event) })
      : null;
    const worker = new Worker(o.workerFile ?? new URL('./sync-worker.ts', import.meta.url), {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: SYNC_WORKER_YOUNG_GENERATION_MB },
    });
    this.#worker = worker;
    worker.on('message', (m: WorkerMessage) => this.#onMessage(m));
    worker.on('error', (err) => this.#emitError(err));
    worker.on('exit', (code) => {
      this.#relay?.closeAll();
      for (const p of this.#pending.values()) p.reject(new SyncWorkerGoneError('the sync worker stopped'));
      this.#pending.clear();
      this.#worker = null;
      this.emit('exit', code);
    });
  }

  /**
   * The worker's JS heap in bytes: live objects, and the memory V8 holds for them (what counts in the
   * RSS); null when it is not running. For memory reports.
   */
  async heapBytes(): Promise<{ used: number; committed: number } | null> {
    const worker = this.#worker;
    if (!worker) return null;
    try {
      const heap = await worker.getHeapStatistics();
      return { used: heap.used_heap_size, committed: heap.total_physical_size };
    } catch {
      return null; // it stopped meanwhile
    }
  }

  /** Fetches one listing's full detail (interactive priority) and stores it; null when it is gone. */
  fetchListing(id: number): Promise<FullListing | null> {
    const worker = this.#worker;
    if (!worker) return Promise.reject(new SyncWorkerGoneError('the sync worker is not running'));
    const requestId = this.#nextRequest++;
    return new Promise((resolve, reject) => {
      this.#pending.set(requestId, { resolve, reject });
      this.#post({ type: 'fetchListing', requestId, id });
    });
  }

  /** Stops syncing: the worker applies what it received, closes the database and exits. */
  stop(): Promise<void> {
    this.#stopped ??= new Promise<void>((resolve) => {
      const worker = this.#worker;
      if (!worker) {
        resolve();
        return;
      }
      const timer = setTimeout(() => void worker.terminate(), this.#options.stopTimeoutMs ?? 30_000);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.#post({ type: 'stop' });
    });
    return this.#stopped;
  }

  #post(message: HostMessage): void {
    this.#worker?.postMessage(message);
  }

  /**
   * The same test as the engine's own `received`: a creation, in the mirrored games, while the book is
   * live (during a resync the book is being replaced, and a judgement would use one not yet whole).
   */
  #onCreated(event: ListingCreatedEvent): void {
    if (this.#status?.state !== 'live' || this.listenerCount('received') === 0) return;
    if (this.#scope !== null && !this.#scope.has(event.data.app_id)) return;
    this.emit('received', event);
  }

  #onMessage(m: WorkerMessage): void {
    if (isRelayRequest(m)) {
      this.#relay?.handle(m);
      return;
    }
    switch (m.type) {
      case 'applied':
        this.emit('applied', m.events);
        break;
      case 'applying':
        this.emit('applying', m.events);
        break;
      case 'batch':
        this.emit('batch', m.summary);
        break;
      case 'status':
        this.#status = m.status;
        this.emit('status', m.status);
        break;
      case 'upgrading':
        this.emit('upgrading', m.what);
        break;
      case 'book':
        this.emit('book', m.change);
        break;
      case 'backfill':
        this.#backfill = m.progress;
        this.emit('backfill', m.progress);
        break;
      case 'warning':
        this.emit('warning', m.message);
        break;
      case 'error':
        this.#emitError(new Error(m.message));
        break;
      case 'damaged': {
        const error = Object.assign(new Error(m.message), { code: m.code });
        // a host that does not mend the file hears it as the failure it also is
        if (this.listenerCount('damaged') > 0) this.emit('damaged', error);
        else this.#emitError(error);
        break;
      }
      case 'listing': {
        const pending = this.#pending.get(m.requestId);
        this.#pending.delete(m.requestId);
        if (!pending) break;
        if (m.error) pending.reject(errorFrom(m.error));
        else pending.resolve(m.listing);
        break;
      }
      case 'stopped':
        void this.#worker?.terminate();
        break;
    }
  }

  #emitError(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
    else this.emit('warning', error.message);
  }
}

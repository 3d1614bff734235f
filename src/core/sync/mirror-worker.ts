/**
 * The host side of the sync worker: starts it, relays its status, book changes and backfill progress as
 * events, and stops it cleanly (every received event applied, the database closed). Same events as the
 * in-process SyncEngine, so a host can use either; the worker is the one to use next to a UI, because
 * large snapshot merges and their JSON parsing take seconds.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { FullListing } from '../../shared/api/index.ts';
import type { BackfillOptions, BackfillProgress } from './backfill.ts';
import type { BookChange, EngineStatus, SyncEngineOptions } from './engine.ts';
import type { HostMessage, SyncWorkerData, WorkerFailure, WorkerMessage } from './worker-protocol.ts';

export interface MirrorWorkerOptions {
  dbPath: string;
  baseUrl: string;
  apiKey: string;
  wsUrl?: string | null;
  appIds?: readonly number[] | null;
  engine?: Omit<SyncEngineOptions, 'appIds' | 'sourceUrl' | 'random'>;
  backfill?: BackfillOptions | false;
  /** How long `stop()` waits for the worker to finish before terminating it. */
  stopTimeoutMs?: number;
}

type MirrorWorkerEvents = {
  status: [status: EngineStatus];
  book: [change: BookChange];
  backfill: [progress: BackfillProgress];
  warning: [message: string];
  error: [error: Error];
  /** The worker ended (after stop, or by a crash: then `code` is not 0). */
  exit: [code: number];
};

export class WorkerListingError extends Error {
  readonly kind: string | null;
  readonly code: string | null;
  constructor(failure: WorkerFailure) {
    super(failure.message);
    this.name = 'WorkerListingError';
    this.kind = failure.kind;
    this.code = failure.code;
  }
}

export class MirrorWorker extends EventEmitter<MirrorWorkerEvents> {
  readonly #options: MirrorWorkerOptions;
  #worker: Worker | null = null;
  #status: EngineStatus | null = null;
  #backfill: BackfillProgress | null = null;
  #stopped: Promise<void> | null = null;
  #nextRequest = 1;
  readonly #pending = new Map<number, { resolve: (l: FullListing | null) => void; reject: (e: Error) => void }>();

  constructor(options: MirrorWorkerOptions) {
    super();
    this.#options = options;
  }

  get status(): EngineStatus | null {
    return this.#status;
  }

  get backfill(): BackfillProgress | null {
    return this.#backfill;
  }

  start(): void {
    if (this.#worker) throw new Error('the sync worker is already running');
    const o = this.#options;
    const data: SyncWorkerData = {
      dbPath: o.dbPath,
      baseUrl: o.baseUrl,
      apiKey: o.apiKey,
      wsUrl: o.wsUrl ?? null,
      appIds: o.appIds ? [...o.appIds] : null,
      engine: o.engine ?? {},
      backfill: o.backfill ?? {},
    };
    const worker = new Worker(new URL('./sync-worker.ts', import.meta.url), { workerData: data });
    this.#worker = worker;
    worker.on('message', (m: WorkerMessage) => this.#onMessage(m));
    worker.on('error', (err) => this.#emitError(err));
    worker.on('exit', (code) => {
      for (const p of this.#pending.values()) p.reject(new Error('the sync worker stopped'));
      this.#pending.clear();
      this.#worker = null;
      this.emit('exit', code);
    });
  }

  /** Fetches one listing's full detail (interactive priority) and stores it; null when it is gone. */
  fetchListing(id: number): Promise<FullListing | null> {
    const worker = this.#worker;
    if (!worker) return Promise.reject(new Error('the sync worker is not running'));
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

  #onMessage(m: WorkerMessage): void {
    switch (m.type) {
      case 'status':
        this.#status = m.status;
        this.emit('status', m.status);
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
      case 'listing': {
        const pending = this.#pending.get(m.requestId);
        this.#pending.delete(m.requestId);
        if (!pending) break;
        if (m.error) pending.reject(new WorkerListingError(m.error));
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

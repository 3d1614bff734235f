/**
 * Messages between a host (the Electron main process, `skindesk sync`) and the sync worker thread that
 * owns the book's writer connection. Structured clone carries them (bigint included).
 */
import type { FullListing, ListingEvent } from '../../shared/api/index.ts';
import type { ApiErrorKind } from '../api/errors.ts';
import type { BackfillOptions, BackfillProgress } from './backfill.ts';
import type { BatchSummary, BookChange, EngineStatus, SyncEngineOptions } from './engine.ts';
import type { RelayNotice, RelayRequest } from './relay.ts';

/**
 * The writer connection's page cache (MB). Its stepped transactions need little; a big event batch
 * raises it for its own length (BookStore). The benchmark's event phase opens the book with it too.
 */
export const SYNC_WORKER_CACHE_MB = 16;
/**
 * The worker's young generation at most (MB). V8 grows a thread's new space with its allocation rate;
 * the host's thread gets it back when idle, a worker seldom does: in a 10-minute heavy-chaos soak the
 * worker's new space held 0–19 MB of live objects in up to 98 MB committed, most of the process's
 * anonymous memory growth. Capped, it stays at 17 MB at most; a 1M-row snapshot load ran as fast.
 */
export const SYNC_WORKER_YOUNG_GENERATION_MB = 16;

export interface SyncWorkerData {
  dbPath: string;
  baseUrl: string;
  /** What the book mirrors (MirrorWorkerOptions.source). */
  source: string;
  /** Kept in memory only; never logged, never sent back. */
  apiKey: string;
  wsUrl: string | null;
  appIds: number[] | null;
  engine: Omit<SyncEngineOptions, 'appIds' | 'sourceUrl' | 'random' | 'openFeed'>;
  /** The host holds the WebSocket and relays its frames (relay.ts); otherwise the worker opens its own. */
  relayFeed: boolean;
  /** Post every applied batch's events back, sales left out (the host's watchlists judge price changes from them). */
  forwardApplied: boolean;
  /** Post 'applying' and 'batch' reports (the host had listeners for them when it started the worker). */
  reportBatches: boolean;
  /**
   * false: no detail backfill (details still come with creation events and on demand). Without a clock:
   * it cannot cross threads.
   */
  backfill: Omit<BackfillOptions, 'clock'> | false;
}

/**
 * Batches at least this big are announced before their transaction starts ('applying'): a host can show
 * the work, and the soak suite aims its kill -9 inside such a transaction.
 */
export const APPLYING_NOTICE_EVENTS = 50;

export type HostMessage =
  | RelayNotice
  | { type: 'stop' }
  | { type: 'fetchListing'; requestId: number; id: number };

/** A failed call in the worker, as plain fields: an ApiError's when it was one (kind not null). */
export interface WorkerFailure {
  message: string;
  kind: ApiErrorKind | null;
  code: string | null;
  route: string | null;
  status: number | null;
  retryAfterMs: number | null;
}

export type WorkerMessage =
  | RelayRequest
  | { type: 'applied'; events: readonly ListingEvent[] }
  | { type: 'applying'; events: number }
  | { type: 'batch'; summary: BatchSummary }
  | { type: 'status'; status: EngineStatus }
  /** The book file is being upgraded (a lengthy migration, store/migrations.ts), before anything else runs. */
  | { type: 'upgrading'; what: string }
  | { type: 'book'; change: BookChange }
  | { type: 'backfill'; progress: BackfillProgress }
  | { type: 'warning'; message: string }
  | { type: 'error'; message: string }
  /** SQLite found the book file damaged (a page it cannot read): the sync stopped, the file is not sound. */
  | { type: 'damaged'; message: string; code: string }
  | { type: 'listing'; requestId: number; listing: FullListing | null; error: WorkerFailure | null }
  | { type: 'stopped' };

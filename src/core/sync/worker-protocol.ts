/**
 * Messages between a host (the Electron main process, `skindesk sync`) and the sync worker thread that
 * owns the book's writer connection. Structured clone carries them (bigint included).
 */
import type { FullListing } from '../../shared/api/index.ts';
import type { BackfillOptions, BackfillProgress } from './backfill.ts';
import type { BookChange, EngineStatus, SyncEngineOptions } from './engine.ts';

export interface SyncWorkerData {
  dbPath: string;
  baseUrl: string;
  /** Kept in memory only; never logged, never sent back. */
  apiKey: string;
  wsUrl: string | null;
  appIds: number[] | null;
  engine: Omit<SyncEngineOptions, 'appIds' | 'sourceUrl' | 'random'>;
  /** false: no detail backfill (details still come with creation events and on demand). */
  backfill: BackfillOptions | false;
}

export type HostMessage =
  | { type: 'stop' }
  | { type: 'fetchListing'; requestId: number; id: number };

export interface WorkerFailure {
  message: string;
  kind: string | null;
  code: string | null;
}

export type WorkerMessage =
  | { type: 'status'; status: EngineStatus }
  | { type: 'book'; change: BookChange }
  | { type: 'backfill'; progress: BackfillProgress }
  | { type: 'warning'; message: string }
  | { type: 'error'; message: string }
  | { type: 'listing'; requestId: number; listing: FullListing | null; error: WorkerFailure | null }
  | { type: 'stopped' };

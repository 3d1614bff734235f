/**
 * Messages between the soak runner (run.ts, which also hosts the demo market) and the soak client
 * (client.ts, the real core in a process of its own, so that its memory and event-loop figures are the
 * client's alone). They travel over the child-process IPC channel; the API key is handed over in the
 * `start` message, never in argv or the environment (both end up in crash reports and `ps`).
 */
import type { SessionSyncOptions } from '../../src/core/app/index.ts';
import type { Trade } from '../../src/shared/api/index.ts';
import type { FuzzReport } from './ipc-fuzz.ts';

export interface ClientConfig {
  /** 1 for the first process, 2 after the kill -9, ... */
  incarnation: number;
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  /** The app's data folder: settings and the database (the same across incarnations). */
  dataDir: string;
  /** Where the client writes its log, IPC recording, exports and crash output. */
  artefactDir: string;
  seed: number;
  /** Between two purchase attempts (ms); 0 turns purchases off. */
  purchaseEveryMs: number;
  /** Between two trade-creating writes (sell or withdraw, ms); 0 turns them off. */
  tradeEveryMs: number;
  /** Purchases only listings at or below this price (cents). */
  maxPurchasePrice: number;
  syncOptions: SessionSyncOptions;
  poller: { activeIntervalMs: number; idleIntervalMs: number };
}

export type ParentMessage =
  | { type: 'start'; config: ClientConfig }
  /** Start the auto-trader (purchases, sells, withdrawals) and the IPC readers. */
  | { type: 'go' }
  /** Stop starting actions, finish those under way, settle every open purchase; answers `quiesced`. */
  | { type: 'quiesce' }
  | { type: 'export' }
  | { type: 'fuzz' }
  | { type: 'report' }
  /** Close everything cleanly and exit 0 after a final `report`. */
  | { type: 'stop' }
  /** Die of an uncaught error carrying a real failure of the REST client (crash-output check). */
  | { type: 'crash' };

export interface PurchaseCounts {
  attempted: number;
  bought: number;
  not_bought: number;
  unknown: number;
  /** Outcomes learned from the order history rather than the purchase answer. */
  reconciled: number;
}

/**
 * One memory reading (MB): RSS, its anonymous part (Linux; not the database's file pages), each thread's
 * JS heap as live objects and as what V8 holds for them (committed, counted in the RSS), buffers.
 */
export interface MemoryReading {
  t: number;
  rss: number;
  anon: number | null;
  heap: number;
  heapCommitted: number;
  external: number;
  /** The sync worker thread's JS heap (its own isolate). */
  workerHeap: number | null;
  workerHeapCommitted: number | null;
}

export interface ClientFigures {
  incarnation: number;
  /** Events handed to the store, and what they did (counted around BookStore.applyEvents). */
  events: { received: number; applied: number; appliedWhileResyncing: number; stale: number; covered: number; unknown: number };
  engine: { state: string; lastSeq: string | null; rows: number; bufferedEvents: number; resyncs: number; divergenceRepaired: number };
  purchases: PurchaseCounts;
  tradeWrites: { sells: number; withdrawals: number; refused: number; failed: number };
  /** Failures the auto-trader saw, by ApiError kind/code. */
  errors: Record<string, number>;
  governor: { sent: number; rateLimited: number; waits: number; waitedMs: number };
  webhooks: { received: number; accepted: number; rejected: Record<string, number>; processingErrors: number } | null;
  poller: { polls: number; failures: number };
  trades: Trade[];
  /** MB. RSS, and its anonymous part (Linux), from going live to the end; a reading every 10 s. */
  memory: {
    rssStartMb: number | null;
    rssEndMb: number;
    anonStartMb: number | null;
    anonEndMb: number | null;
    rssPeakMb: number;
    heapUsedEndMb: number;
    samples: number;
    trend: MemoryReading[];
  };
  /** Share of the seconds since first going live that the engine was live. */
  liveFraction: number;
  /** Event-loop delay after the first book was live (the run), and the worst of startup before it. */
  loop: {
    maxLagMs: number;
    p99LagMs: number;
    meanLagMs: number;
    startupMaxLagMs: number;
    /** Longest stretch the client's own work (main-thread CPU) held the loop after going live, and before. */
    maxBlockedMs: number;
    startupMaxBlockedMs: number;
    stalls: { atMs: number; ms: number; cpuMs: number; state: string; doing: string }[];
    /** Longest garbage-collection pause after going live, and totals. */
    gcMaxMs: number;
    gcTotalMs: number;
    gcCount: number;
    /** Longest single BookStore.applyEvents call after going live, and its batch size. */
    applyMaxMs: number;
    applyMaxEvents: number;
  };
  /** IPC calls made, pushes received, bytes recorded; failed calls by `call: code` (the app's own answers). */
  ipc: { calls: number; pushes: number; recordedBytes: number; failedCalls: Record<string, number> };
  uptimeMs: number;
  /** When the engine first reported `live` (ms since the process started), null if never. */
  firstLiveMs: number | null;
  /**
   * What the sync engine reported from the start until it first went live: each change of its state or
   * of its problem text, so a slow start (a resume after kill -9) says what it waited on.
   */
  startupSteps: StartupStep[];
}

export interface StartupStep {
  /** ms since the process started */
  atMs: number;
  state: string;
  problem: string | null;
}

export type ChildMessage =
  | { type: 'ready'; webhookUrl: string; pid: number }
  | { type: 'status'; engine: ClientFigures['engine']; live: boolean; figures: ClientFigures }
  | { type: 'quiesced'; unresolved: number; figures: ClientFigures }
  | { type: 'exported'; files: string[]; rows: number }
  | { type: 'fuzzed'; report: FuzzReport }
  | { type: 'report'; figures: ClientFigures }
  /** A batch of this many events is about to be written (sent for big batches only). */
  | { type: 'applying'; events: number }
  | { type: 'failed'; message: string };

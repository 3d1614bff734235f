/**
 * The sync worker thread: the book's only writer. It reads the snapshot (1M rows: seconds of JSON
 * parsing and validation) and merges it in one transaction, applies the feed and runs the detail
 * backfill, all off the host's thread; the host reads the same file through its own connection and
 * never waits (WAL). Statistics for the query planner are refreshed here after large changes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ListingEvent } from '../../shared/api/index.ts';
import { ApiClient } from '../api/client.ts';
import { ApiError, failureReason } from '../api/errors.ts';
import { deskRateGovernor } from '../api/release-ledger.ts';
import { refreshQueryStatistics } from '../query/query-book.ts';
import { BookStore } from '../store/book-store.ts';
import { isDamagedDatabaseError } from '../store/damage.ts';
import { type Db, openDatabase } from '../store/database.ts';
import { describeLengthyStep } from '../store/migrations.ts';
import { openDeskFile } from '../store/desk.ts';
import { otherSourceHeld } from '../store/sync-state.ts';
import { DetailBackfill } from './backfill.ts';
import { SyncEngine } from './engine.ts';
import { RelayedFeeds, isRelayNotice } from './relay.ts';
import { apiSources } from './sources.ts';
import { stopSyncRun } from './stop-run.ts';
import { APPLYING_NOTICE_EVENTS, type HostMessage, SYNC_WORKER_CACHE_MB, type SyncWorkerData, type WorkerMessage } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('sync-worker.ts runs only as a worker thread');
const data = workerData as SyncWorkerData;
const post = (message: WorkerMessage) => port.postMessage(message);

let damageReported = false;
/**
 * A damaged book file (SQLite cannot read a page of it) is no failure to retry or show as such: the host
 * sets the file aside and reads the book again (app/app-core.ts). This worker has no other file open, so
 * the damage is the book's. Returns whether `err` was that.
 */
function reportedDamage(err: unknown): boolean {
  if (!isDamagedDatabaseError(err)) return false;
  // the sync, the backfill and a detail read meet the same damage: the host hears it once
  if (!damageReported) post({ type: 'damaged', message: (err as Error).message, code: (err as { code: string }).code });
  damageReported = true;
  return true;
}

/**
 * The desk beside the book, on this thread's own connection, for the rate ledger only; null (with a
 * warning) when it cannot be opened: the requests are then paced by this run's own count, as before.
 */
function openLedgerDesk(): Db | null {
  try {
    return openDeskFile(data.dbPath);
  } catch (err) {
    post({ type: 'warning', message: `the desk could not be opened for the rate ledger (${(err as Error).message}): the book's requests are paced by this run's own count` });
    return null;
  }
}

// The book's writer runs the upgrades the host's connection left to it (writer-only, some of them seconds
// long on a large book): the host says so while this thread is busy with them.
const db = openDatabase(data.dbPath, {
  checkpointPages: 25_000,
  cacheMb: SYNC_WORKER_CACHE_MB,
  onLengthyStep: (step) => post({ type: 'upgrading', what: describeLengthyStep(step) }),
});
const store = new BookStore(db);
// before the engine counts the book: a book of another marketplace is emptied first
const formerSource = otherSourceHeld(store.state(), data.source);
if (formerSource !== null) {
  post({ type: 'warning', message: `the book mirrored ${formerSource}: starting a fresh mirror of ${data.source}` });
  await store.wipeBook(undefined, { withSales: true });
}
const ledgerDesk = openLedgerDesk();
// the desk records every release (api/release-ledger.ts): the book reads and detail pages of a run just
// killed, or of a `skindesk sync` beside the app with this key on this data folder, count in this run's windows
const governor = ledgerDesk ? deskRateGovernor({ db: ledgerDesk, baseUrl: data.baseUrl, apiKey: data.apiKey, onLedgerError: (message) => post({ type: 'warning', message }) }) : null;
const client = new ApiClient({
  baseUrl: data.baseUrl,
  apiKey: data.apiKey,
  ...(governor ? { governor } : {}),
  ...(data.wsUrl ? { wsUrl: data.wsUrl } : {}),
});
const sources = apiSources(client);
const relayed = data.relayFeed ? new RelayedFeeds((request) => post(request)) : null;
const engine = new SyncEngine(store, sources, {
  mergeMode: 'atomic',
  ...data.engine,
  appIds: data.appIds,
  sourceUrl: data.source,
  ...(relayed ? { openFeed: relayed.open } : {}),
});
const backfill = data.backfill === false ? null : new DetailBackfill(store, sources, { ...data.backfill, appIds: data.appIds });

/** ANALYZE (about 1.5 s at 1M rows) a little after large changes, not after each of them. */
let statisticsTimer: NodeJS.Timeout | null = null;
function refreshStatisticsSoon(): void {
  if (statisticsTimer) return;
  statisticsTimer = setTimeout(() => {
    statisticsTimer = null;
    try {
      refreshQueryStatistics(db);
    } catch (err) {
      if (!reportedDamage(err)) post({ type: 'warning', message: `query statistics were not refreshed: ${(err as Error).message}` });
    }
  }, 5_000);
}

engine.on('status', (status) => {
  post({ type: 'status', status });
  // background reads wait until the book itself is loaded and followed
  if (status.state === 'live' && !stopping) backfill?.start();
});
engine.on('book', (change) => {
  post({ type: 'book', change });
  if (change.reset || change.upserted + change.removed > 10_000) {
    backfill?.nudge();
    refreshStatisticsSoon();
  }
});
engine.on('warning', (message) => post({ type: 'warning', message }));
// sales change no listing a watchlist could match (the book already changed through amount/removal)
const judged = (e: ListingEvent) => e.event !== 'listing.sold';
if (data.forwardApplied) {
  engine.on('applied', (events) => {
    const forwarded = events.filter(judged);
    if (forwarded.length > 0) post({ type: 'applied', events: forwarded });
  });
}
// batch reports cross the thread only for a host that listens (a message per batch otherwise wasted)
if (data.reportBatches) {
  engine.on('applying', (events) => {
    if (events >= APPLYING_NOTICE_EVENTS) post({ type: 'applying', events });
  });
  engine.on('batch', (summary) => post({ type: 'batch', summary }));
}
engine.on('error', (error) => {
  if (!reportedDamage(error)) post({ type: 'error', message: error.message });
});
backfill?.on('progress', (progress) => {
  post({ type: 'backfill', progress });
  if (progress.state === 'done') refreshStatisticsSoon();
});
backfill?.on('warning', (message) => post({ type: 'warning', message }));
// any other failure of the backfill is in its progress already
backfill?.on('failed', reportedDamage);

let stopping: Promise<void> | null = null;
async function stop(): Promise<void> {
  if (statisticsTimer) clearTimeout(statisticsTimer);
  try {
    // the backfill's last recount may meet a damaged file
    await stopSyncRun(engine, backfill, (err) => {
      if (!reportedDamage(err)) post({ type: 'warning', message: `the detail backfill did not stop cleanly: ${(err as Error).message}` });
    });
  } finally {
    db.close();
    ledgerDesk?.close();
    post({ type: 'stopped' });
  }
}

async function fetchListing(requestId: number, id: number): Promise<void> {
  try {
    const listing = await sources.fetchListing(id);
    store.write(() => store.fillFetched(id, listing));
    post({ type: 'listing', requestId, listing, error: null });
  } catch (err) {
    reportedDamage(err);
    if (err instanceof ApiError && err.code === 'LISTING_NOT_FOUND') {
      post({ type: 'listing', requestId, listing: null, error: null });
      return;
    }
    const e = err instanceof ApiError ? err : null;
    post({
      type: 'listing',
      requestId,
      listing: null,
      error: {
        message: (err as Error).message,
        kind: e?.kind ?? null,
        code: e?.code ?? null,
        route: e?.route ?? null,
        status: e?.status ?? null,
        retryAfterMs: e?.retryAfterMs ?? null,
      },
    });
  }
}

port.on('message', (message: HostMessage) => {
  if (isRelayNotice(message)) relayed?.deliver(message);
  else if (message.type === 'stop') stopping ??= stop();
  else if (message.type === 'fetchListing') void fetchListing(message.requestId, message.id);
});

try {
  const wsUrl = data.wsUrl ?? (await client.discoverWsUrl({ priority: 'interactive' }));
  engine.start(wsUrl, data.apiKey);
} catch (err) {
  // for people (the CLI's failure line, the app's notice): plain words, with the network's reason and the code
  post({ type: 'error', message: `could not start syncing: ${failureReason(err, { withCause: true, withCode: true })}` });
}

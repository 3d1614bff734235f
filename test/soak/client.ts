/**
 * The soak client: the real core in a process of its own, driven by the soak runner (run.ts) over the
 * child-process IPC channel. It is what the desktop app runs, minus Electron:
 *
 * - AppCore (src/core/app) on "real market" settings pointed at the demo market, with the API key in a
 *   memory secret store: the mirror, its sync engine and REST client, and every IPC call and push
 *   (recorded to a file, for the API-key grep);
 * - TradeFeeds: the trade tracker fed by a webhook receiver and the GET /trades poller;
 * - the journaled Purchaser, and an auto-trader that buys cheap listings found in the mirror (through
 *   the queryBook IPC call, as the UI would), withdraws what it bought and sells inventory items.
 *
 * Figures measured here are the client's own: events handed to the store (counted around
 * BookStore.applyEvents), purchases by outcome, 429s received (the governor), RSS and event-loop delay
 * (perf_hooks.monitorEventLoopDelay). Logs are written raw — nothing here redacts — so the runner's grep
 * for the API key tests what the core itself lets through.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { AccountReads } from '../../src/core/account/account-reads.ts';
import { ApiClient } from '../../src/core/api/client.ts';
import { ApiError } from '../../src/core/api/errors.ts';
import { PurchaseJournal } from '../../src/core/api/purchase-journal.ts';
import { LATE_APPLY_MS, Purchaser } from '../../src/core/api/purchaser.ts';
import { AppCore, type AppLog, RecordingPlatform, SettingsStore } from '../../src/core/app/index.ts';
import { MemorySecretStore } from '../../src/core/secrets/index.ts';
import { TradeFeeds } from '../../src/core/trades/trade-feeds.ts';
import type { IpcCallName, IpcInput, SyncStatus } from '../../src/shared/ipc/index.ts';
import { runIpcFuzz, seededRandom } from './ipc-fuzz.ts';
import type { ChildMessage, ClientConfig, ClientFigures, MemoryReading, ParentMessage, PurchaseCounts, StartupStep } from './protocol.ts';

const MB = 1024 * 1024;
const startedAt = performance.now();
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

/**
 * Stalls, measured two ways. Wall clock (monitorEventLoopDelay above, and the tick below) is what the
 * user feels, but on a shared machine it also counts time the OS gave to other processes. So each tick
 * also reads this thread's own CPU time (process.threadCpuUsage): a stall's `cpuMs` is how much of it
 * was the client's own synchronous work — JavaScript, SQLite, GC pauses — and that is what the
 * invariant judges. The longest stalls are kept with what the engine and the runner were doing.
 * Startup (modules, database, the first book) is measured apart from the run that follows it.
 */
const stalls: { atMs: number; ms: number; cpuMs: number; state: string; doing: string }[] = [];
let startupMaxLagMs: number | null = null;
let maxBlockedMs = 0;
let startupMaxBlockedMs = 0;
/** What the runner last asked for (start, go, quiesce, export, fuzz...): labels the stalls. */
let doing = 'start';
const STALL_TICK_MS = 20;
let lastTick = performance.now();
let lastCpu = process.threadCpuUsage();
setInterval(() => {
  const now = performance.now();
  const used = process.threadCpuUsage(lastCpu);
  lastCpu = process.threadCpuUsage();
  const late = now - lastTick - STALL_TICK_MS;
  lastTick = now;
  // The loop was held up `late` ms; at most `cpuMs` of that was this thread running.
  const cpuMs = (used.user + used.system) / 1000;
  const blocked = Math.max(0, Math.min(late, cpuMs));
  if (firstLiveMs === null) startupMaxBlockedMs = Math.max(startupMaxBlockedMs, blocked);
  else maxBlockedMs = Math.max(maxBlockedMs, blocked);
  if (late < 50) return;
  stalls.push({ atMs: Math.round(now - startedAt), ms: Math.round(late), cpuMs: Math.round(cpuMs), state: core?.session.status().state ?? 'starting', doing });
  stalls.sort((a, b) => b.ms - a.ms);
  stalls.length = Math.min(stalls.length, 10);
}, STALL_TICK_MS).unref();

/** Garbage-collection pauses and the longest single store write: what a stall is made of. */
const pauses = { gcMaxMs: 0, gcTotalMs: 0, gcCount: 0, applyMaxMs: 0, applyMaxEvents: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.gcCount++;
    pauses.gcTotalMs += entry.duration;
    if (firstLiveMs !== null) pauses.gcMaxMs = Math.max(pauses.gcMaxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

let config: ClientConfig | null = null;
let core: AppCore | null = null;
let feeds: TradeFeeds | null = null;
let api: ApiClient | null = null;
let purchaser: Purchaser | null = null;
let reads: AccountReads | null = null;
const platform = new RecordingPlatform();

const counts = {
  events: { received: 0, applied: 0, appliedWhileResyncing: 0, stale: 0, covered: 0, unknown: 0 },
  purchases: { attempted: 0, bought: 0, not_bought: 0, unknown: 0, reconciled: 0 } satisfies PurchaseCounts,
  tradeWrites: { sells: 0, withdrawals: 0, refused: 0, failed: 0 },
  errors: {} as Record<string, number>,
  ipc: { calls: 0, pushes: 0, recordedBytes: 0, failedCalls: {} as Record<string, number> },
};
const memory = {
  rssStartMb: null as number | null,
  anonStartMb: null as number | null,
  rssPeakMb: 0,
  samples: 0,
  samplesLive: 0,
  samplesSinceLive: 0,
  /** Every 10 s, thinned to stay under 240 points however long the run. */
  trend: [] as MemoryReading[],
};

function anonRssMb(): number | null {
  try {
    const m = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The sync worker's JS heap, read asynchronously each second (its isolate is not in process.memoryUsage). */
let workerHeapMb: { used: number; committed: number } | null = null;
function memoryPoint(): MemoryReading {
  const u = process.memoryUsage();
  return {
    t: Math.round(performance.now() - startedAt),
    rss: u.rss / MB,
    anon: anonRssMb(),
    heap: u.heapUsed / MB,
    heapCommitted: getHeapStatistics().total_physical_size / MB,
    external: u.external / MB,
    workerHeap: workerHeapMb?.used ?? null,
    workerHeapCommitted: workerHeapMb?.committed ?? null,
  };
}
let firstLiveMs: number | null = null;
const startupSteps: StartupStep[] = [];
/** A start that keeps failing reports its first steps and its last ones, not an unbounded list. */
const STARTUP_STEPS_KEPT = 40;

function noteStartupStep(status: { state: string; problem: string | null }): void {
  if (firstLiveMs !== null) return;
  const last = startupSteps[startupSteps.length - 1];
  if (last && last.state === status.state && last.problem === status.problem) return;
  if (startupSteps.length === STARTUP_STEPS_KEPT) startupSteps.splice(STARTUP_STEPS_KEPT / 2, 1);
  startupSteps.push({ atMs: Math.round(performance.now() - startedAt), state: status.state, problem: status.problem });
}

// ---- output: raw files (nothing redacted here on purpose) --------------------------------------

function file(name: string): string {
  return join(config!.artefactDir, `${name}-${config!.incarnation}`);
}

function logLine(level: string, message: string): void {
  if (!config) return;
  appendFileSync(file('client.log'), `${new Date().toISOString()} ${level} ${message}\n`);
}

const fileLog: AppLog = {
  info: (m) => logLine('info', m),
  warn: (m) => logLine('warn', m),
  error: (m) => logLine('error', m),
};

/** Every IPC response and push, as the renderer would receive them (capped so a long run stays small). */
function record(kind: 'call' | 'push', name: string, payload: unknown): void {
  if (!config || counts.ipc.recordedBytes > 64 * MB) return;
  const line = `${JSON.stringify({ kind, name, payload })}\n`;
  counts.ipc.recordedBytes += line.length;
  appendFileSync(file('ipc-recording.jsonl'), line);
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

function countError(err: unknown): void {
  const key = err instanceof ApiError ? `${err.kind}${err.code ? `:${err.code}` : ''}` : (err as Error).name || 'Error';
  counts.errors[key] = (counts.errors[key] ?? 0) + 1;
  logLine('warn', `action failed: ${err instanceof Error ? err.message : String(err)}`);
}

// Crash output goes to its own file and stderr, unredacted: if an error carried the key, the grep sees it.
process.on('uncaughtException', (err) => {
  const text = `uncaught ${err.name}: ${err.message}\n${err.stack ?? ''}\n${err instanceof ApiError ? JSON.stringify(err) : ''}\n`;
  if (config) appendFileSync(file('crash.txt'), text);
  process.stderr.write(text);
  process.exit(70);
});

// ---- the core ----------------------------------------------------------------------------------

async function call<N extends IpcCallName>(name: N, input: IpcInput<N>) {
  counts.ipc.calls++;
  const response = await core!.dispatch(name, input);
  record('call', name, response);
  if (!response.ok) {
    const key = `${name}: ${response.error.code}`;
    counts.ipc.failedCalls[key] = (counts.ipc.failedCalls[key] ?? 0) + 1;
  }
  return response;
}

async function start(c: ClientConfig): Promise<void> {
  config = c;
  mkdirSync(c.artefactDir, { recursive: true });
  new SettingsStore(c.dataDir).update((s) => {
    s.market.useDemo = false;
    s.market.baseUrl = c.baseUrl;
  });
  core = await AppCore.start({
    dataDir: c.dataDir,
    secrets: new MemorySecretStore({ 'api-key': c.apiKey, 'webhook-secret': c.webhookSecret }),
    platform,
    startDemoMarket: () => Promise.reject(new Error('the soak client uses the market it is given')),
    version: 'soak',
    log: fileLog,
    syncOptions: c.syncOptions,
  });
  core.subscribe((name, payload) => {
    counts.ipc.pushes++;
    record('push', name, payload);
    if (name === 'syncStatus') {
      const status = payload as SyncStatus;
      noteStartupStep(status);
      if (status.state === 'live') firstLive();
    }
  });
  noteStartupStep(core.session.status()); // where it stood before the first push reached us
  countAppliedEvents(core);

  const sessionClient = await waitFor(() => core!.session.client, 30_000, 'the REST client');
  // One key, one budget: trades, purchases and exports share the sync engine's governor.
  api = new ApiClient({ baseUrl: c.baseUrl, apiKey: c.apiKey, governor: sessionClient.governor });
  const db = core.session.db;
  feeds = new TradeFeeds({
    db,
    source: api,
    webhook: { secret: c.webhookSecret, log: (line) => logLine('warn', line) },
    poller: c.poller,
  });
  feeds.poller.on('poll_error', (err) => logLine('warn', `trade poll failed: ${err.message}`));
  purchaser = new Purchaser({ client: api, journal: new PurchaseJournal(db) });
  reads = new AccountReads({ api, db });
  const { webhookUrl } = await feeds.start();
  setInterval(sample, 1_000).unref();
  send({ type: 'ready', webhookUrl: webhookUrl!, pid: process.pid });
}

/** Counts what the sync worker's engine applies, from the batch summaries it reports. */
function countAppliedEvents(app: AppCore): void {
  app.session.onMirror((mirror) => {
    const readHeap = setInterval(
      () => void mirror.heapBytes().then((b) => (workerHeapMb = b && { used: b.used / MB, committed: b.committed / MB })),
      1_000,
    );
    readHeap.unref();
    mirror.once('exit', () => clearInterval(readHeap));
    // Tells the runner a big batch is about to be written, so a kill -9 can land inside its transaction.
    // (the worker announces only batches of APPLYING_NOTICE_EVENTS or more)
    mirror.on('applying', (events) => send({ type: 'applying', events }));
    mirror.on('batch', (batch) => {
      if (firstLiveMs !== null && batch.tookMs > pauses.applyMaxMs) {
        pauses.applyMaxMs = batch.tookMs;
        pauses.applyMaxEvents = batch.events;
      }
      counts.events.received += batch.events;
      counts.events.applied += batch.applied;
      // the book moving while it is re-read: events that, before, waited in the buffer for the snapshot
      if (core?.session.status().state === 'resyncing') counts.events.appliedWhileResyncing += batch.applied;
      counts.events.stale += batch.stale;
      counts.events.covered += batch.covered;
      counts.events.unknown += batch.unknown;
    });
  });
}

async function waitFor<T>(get: () => T | null | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not appear within ${ms} ms`);
    await sleep(50);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The first book is in: startup ends, and the run's memory baseline and loop figures start here. */
function firstLive(): void {
  if (firstLiveMs !== null) return;
  firstLiveMs = performance.now() - startedAt;
  startupMaxLagMs = loop.max / 1e6;
  loop.reset();
  stalls.length = 0;
  const point = memoryPoint();
  memory.rssStartMb = point.rss;
  memory.anonStartMb = point.anon;
  memory.trend.push(point);
}

function sample(): void {
  const point = memoryPoint();
  memory.samples++;
  memory.rssPeakMb = Math.max(memory.rssPeakMb, point.rss);
  const live = core?.session.status().state === 'live';
  if (live) firstLive();
  if (firstLiveMs !== null) {
    memory.samplesSinceLive++;
    if (live) memory.samplesLive++;
    if (memory.samplesSinceLive % 10 === 0) {
      memory.trend.push(point);
      if (memory.trend.length > 240) memory.trend = memory.trend.filter((_, i) => i % 2 === 0 || i === memory.trend.length - 1);
    }
  }
  if (core) send({ type: 'status', engine: engineFigures(), live, figures: figures() });
}

function engineFigures(): ClientFigures['engine'] {
  const s = core!.session.status();
  return {
    state: s.state,
    lastSeq: s.lastSeq,
    rows: s.rows,
    bufferedEvents: s.bufferedEvents,
    resyncs: s.resyncs,
    divergenceRepaired: s.divergenceRepaired,
  };
}

function figures(): ClientFigures {
  const governor = api?.governorStats().totals;
  const webhooks = feeds?.receiver?.stats() ?? null;
  const poller = feeds?.poller.stats();
  const ns = (v: number) => (Number.isFinite(v) ? v / 1e6 : 0);
  const rssNow = process.memoryUsage.rss() / MB;
  return {
    incarnation: config?.incarnation ?? 0,
    events: { ...counts.events },
    engine: core ? engineFigures() : { state: 'opening', lastSeq: null, rows: 0, bufferedEvents: 0, resyncs: 0, divergenceRepaired: 0 },
    purchases: { ...counts.purchases },
    tradeWrites: { ...counts.tradeWrites },
    errors: { ...counts.errors },
    governor: governor
      ? { sent: governor.sent, rateLimited: governor.rateLimited, waits: governor.waits, waitedMs: governor.waitedMs }
      : { sent: 0, rateLimited: 0, waits: 0, waitedMs: 0 },
    webhooks: webhooks
      ? { received: webhooks.received, accepted: webhooks.accepted, rejected: { ...webhooks.rejected }, processingErrors: webhooks.processingErrors }
      : null,
    poller: { polls: poller?.polls ?? 0, failures: poller?.failures ?? 0 },
    trades: feeds?.tracker.list() ?? [],
    memory: {
      rssStartMb: memory.rssStartMb,
      rssEndMb: rssNow,
      anonStartMb: memory.anonStartMb,
      anonEndMb: anonRssMb(),
      rssPeakMb: Math.max(memory.rssPeakMb, rssNow),
      heapUsedEndMb: process.memoryUsage().heapUsed / MB,
      samples: memory.samples,
      trend: [...memory.trend, memoryPoint()],
    },
    liveFraction: memory.samplesSinceLive === 0 ? 0 : memory.samplesLive / memory.samplesSinceLive,
    loop: {
      maxLagMs: firstLiveMs === null ? 0 : ns(loop.max),
      p99LagMs: firstLiveMs === null ? 0 : ns(loop.percentile(99)),
      meanLagMs: firstLiveMs === null ? 0 : ns(loop.mean),
      startupMaxLagMs: startupMaxLagMs ?? ns(loop.max),
      maxBlockedMs,
      startupMaxBlockedMs,
      stalls: [...stalls],
      gcMaxMs: pauses.gcMaxMs,
      gcTotalMs: pauses.gcTotalMs,
      gcCount: pauses.gcCount,
      applyMaxMs: pauses.applyMaxMs,
      applyMaxEvents: pauses.applyMaxEvents,
    },
    ipc: { ...counts.ipc, failedCalls: { ...counts.ipc.failedCalls } },
    uptimeMs: performance.now() - startedAt,
    firstLiveMs,
    startupSteps: [...startupSteps],
  };
}

// ---- the auto-trader ---------------------------------------------------------------------------

let acting = false;
const underway = new Set<Promise<unknown>>();
const timers: NodeJS.Timeout[] = [];

function track<T>(work: Promise<T>): void {
  underway.add(work);
  void work.catch(countError).finally(() => underway.delete(work));
}

function every(ms: number, rng: () => number, action: () => Promise<unknown>): void {
  if (ms <= 0) return;
  const next = () => {
    const timer = setTimeout(() => {
      if (!acting) return;
      track(action());
      next();
    }, ms * (0.5 + rng()));
    timers.push(timer);
  };
  next();
}

function go(): void {
  const c = config!;
  acting = true;
  const rng = seededRandom(c.seed * 31 + c.incarnation);
  every(c.purchaseEveryMs, rng, () => buyOne(rng));
  let sellNext = true;
  every(c.tradeEveryMs, rng, () => {
    sellNext = !sellNext;
    return sellNext ? sellOne() : withdrawOne();
  });
  // What the renderer keeps asking: status, rate limits, a window of the book.
  every(2_000, rng, async () => {
    await call('getStatus', {});
    await call('getRateLimits', {});
    await call('queryBook', { sort: { field: 'created_at', dir: 'desc' }, limit: 25, count: true });
  });
}

async function buyOne(rng: () => number): Promise<void> {
  const page = await call('queryBook', {
    filter: { price: { min: 1, max: config!.maxPurchasePrice } },
    sort: { field: 'price', dir: 'asc' },
    limit: 50,
  });
  if (!page.ok) return;
  const rows = (page.value as { rows: { id: number; price: number; market_hash_name: string; app_id: number }[] }).rows;
  if (rows.length === 0) return;
  const row = rows[Math.floor(rng() * rows.length)]!;
  counts.purchases.attempted++;
  const outcome = await purchaser!.buy({
    listingId: row.id,
    maxPrice: row.price,
    amount: 1,
    marketHashName: row.market_hash_name,
    appId: row.app_id,
    source: 'soak',
  });
  counts.purchases[outcome.status]++;
  if (outcome.reconciled) counts.purchases.reconciled++;
  if (outcome.error) logLine('info', `purchase ${outcome.status}: ${outcome.error.message}`);
}

const usedAssets = new Set<string>();
let inventoryReadAt = 0;
/** The stored inventory may list items an earlier process already sold: read it afresh first. */
let inventoryStale = true;

async function sellOne(): Promise<void> {
  if (feeds!.tracker.inFlightCount() >= 8) return;
  const fresh = async () => {
    inventoryReadAt = Date.now();
    inventoryStale = false;
    return reads!.inventory(730, { maxAgeMs: 0 });
  };
  const unused = (read: Awaited<ReturnType<AccountReads['inventory']>>) =>
    read.data.find((r) => r.item.tradable && !r.item.commodity && !usedAssets.has(r.item.steam_asset_id));
  let row = unused(inventoryStale ? await fresh() : await reads!.inventory(730));
  // The route allows 5 reads a minute: a fresh read for more items at most twice a minute.
  if (!row && Date.now() - inventoryReadAt > 30_000) row = unused(await fresh());
  if (!row) return;
  usedAssets.add(row.item.steam_asset_id);
  await write('sells', () => api!.sell({ listings: [{ items: [{ token: row.item.token, amount: 1 }], price: Math.max(1, row.item.recommended_price) }] }));
}

async function withdrawOne(): Promise<void> {
  if (feeds!.tracker.inFlightCount() >= 8) return;
  const page = await reads!.backpack({ page: '1', limit: '10' }, { maxAgeMs: 0 });
  const item = page.data.items.find((i) => i.trade_locked_until === null);
  if (!item) return;
  await write('withdrawals', () => api!.withdraw({ items: [{ id: item.id, amount: item.amount }] }));
}

/** A write that creates a trade: never retried (like every write); the poller follows what it made. */
async function write(kind: 'sells' | 'withdrawals', send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
    counts.tradeWrites[kind]++;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'api') counts.tradeWrites.refused++;
    else counts.tradeWrites.failed++;
    if (err instanceof ApiError && err.code === 'INVALID_ITEM_TOKEN') inventoryStale = true;
    countError(err);
  } finally {
    feeds!.poller.nudge();
  }
}

async function quiesce(): Promise<number> {
  acting = false;
  for (const t of timers.splice(0)) clearTimeout(t);
  await Promise.allSettled([...underway]);
  const journal = new PurchaseJournal(core!.session.db);
  // Anything left open (a crash of the previous process, an unreadable order history, a request whose
  // answer never came) is settled now. One whose answer never came is "not bought" only once the
  // marketplace can no longer apply it (LATE_APPLY_MS after its failure): looked at again then.
  for (;;) {
    for (const outcome of await purchaser!.reconcileUnresolved()) {
      if (outcome.status !== 'unknown') logLine('info', `reconciled an open purchase: ${outcome.status}`);
    }
    const open = journal.unresolved();
    const horizon = Math.max(...open.map((e) => (e.resolvedAtMs ?? e.createdAtMs) + LATE_APPLY_MS));
    if (open.length === 0 || Date.now() > horizon) return open.length;
    logLine('info', `${open.length} purchase(s) still open: looked at again in ${Math.ceil((horizon - Date.now()) / 1000)} s`);
    await sleep(horizon - Date.now() + 500);
  }
}

async function exportOrders(): Promise<{ files: string[]; rows: number }> {
  const files: string[] = [];
  let rows = 0;
  for (const format of ['csv', 'json'] as const) {
    const target = join(config!.artefactDir, `orders-export-${config!.incarnation}.${format}`);
    const result = await api!.exportOrders(target, { format });
    rows += result.rows;
    files.push(target);
  }
  return { files, rows };
}

async function stop(): Promise<void> {
  acting = false;
  await feeds?.stop();
  await core?.close();
  writeFileSync(file('final-figures.json'), JSON.stringify(figures(), null, 2));
}

/** An uncaught error built from a real REST failure: what a crash report would print. */
async function crash(): Promise<void> {
  // A port nothing listens on (bound, then released): a refused connection, as when the market is down.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const unreachable = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: config!.apiKey, timeoutMs: 2_000 });
  unreachable.user().then(
    () => {
      throw new Error('the unreachable market answered');
    },
    (err: unknown) => {
      setImmediate(() => {
        throw err;
      });
    },
  );
}

process.on('message', (raw) => {
  const message = raw as ParentMessage;
  if (message.type !== 'report') doing = message.type;
  const run = async () => {
    switch (message.type) {
      case 'start':
        await start(message.config);
        return;
      case 'go':
        go();
        return;
      case 'quiesce': {
        const unresolved = await quiesce();
        send({ type: 'quiesced', unresolved, figures: figures() });
        return;
      }
      case 'export':
        send({ type: 'exported', ...(await exportOrders()) });
        return;
      case 'fuzz':
        send({ type: 'fuzzed', report: await runIpcFuzz(core!, platform, config!.seed) });
        return;
      case 'report':
        send({ type: 'report', figures: figures() });
        return;
      case 'stop':
        await stop();
        send({ type: 'report', figures: figures() });
        process.disconnect?.();
        setTimeout(() => process.exit(0), 50).unref();
        return;
      case 'crash':
        await crash();
        return;
    }
  };
  run().catch((err: unknown) => {
    logLine('error', `${message.type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    send({ type: 'failed', message: `${message.type}: ${err instanceof Error ? err.message : String(err)}` });
  });
});

/**
 * snipe_p99_ms: from the WebSocket frame of a matching new listing arriving in the client process to the
 * purchase request for it being written to the socket, with the demo market producing 5,000 background
 * events per second (in its own process). The client is `skindesk watch`'s own runtime (HeadlessWatch):
 * the sync worker writing the book, and in the main thread the feed's socket, the watch service and the
 * journaled purchaser.
 *
 * Both ends are measured in the client process, without touching the code under test:
 *  - arrival: every chunk read from a socket to the market is time-stamped ('net.client.socket'
 *    diagnostics channel); the target's frame is the first chunk that names its listing id;
 *  - written: undici's 'undici:request:bodySent' channel (the whole POST /purchase is on the socket),
 *    matched to the listing by the body's listing_id.
 *
 * The purchase rate limit (30/min) is lifted on both sides (the demo's limiter off, the client's governor
 * given a wide purchase window and not fed the server's purchase count) so one run collects a few
 * hundred samples; the path measured is the same, the desk's record of releases included (every
 * purchase writes its release there before it goes, as in the app and `skindesk watch`).
 * Prints one JSON line on stdout.
 */
import { type ChildProcess, fork } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deskRateGovernor } from '../../src/core/api/release-ledger.ts';
import { requestFetch } from '../../src/core/api/transport.ts';
import { attachDesk } from '../../src/core/store/desk.ts';
import { type Db, openDatabase } from '../../src/core/store/index.ts';
import { HeadlessWatch } from '../../src/core/watch/headless.ts';
import { rateLimitKey } from '../../src/shared/api/index.ts';
import type { WatchlistInput } from '../../src/shared/watchlist.ts';
import type { SnipeMarketMessage, SnipeMarketRequest } from './snipe-market.ts';

const BACKGROUND_RATE = 5_000;
const WARMUP = 10;
/**
 * How long a snipe may wait for its purchase. One that got none (or whose frame was not found) counts in
 * the percentiles as this long, a lower bound: left out, a missed snipe would flatter the p99 it failed.
 */
const MISS_MS = 5_000;
const SAMPLES = Number(process.env.SNIPE_SAMPLES ?? 300);
const log = (m: string) => process.stderr.write(`[snipe] ${m}\n`);

// ---- measurement hooks (installed before anything connects) ------------------------------------

let marketPort = -1;
/** Chunks read from the market's sockets, time-stamped on arrival (kept as bytes: no work per chunk). */
const chunks: { t: number; buf: Buffer }[] = [];
dc.subscribe('net.client.socket', (message) => {
  const socket = (message as { socket: Socket }).socket;
  socket.on('data', (chunk: Buffer) => {
    const t = performance.now();
    if (socket.remotePort === marketPort) chunks.push({ t, buf: chunk });
  });
});
const bodies = new WeakMap<object, string>();
dc.subscribe('undici:request:bodyChunkSent', (message) => {
  const m = message as { request: object; chunk: Uint8Array };
  bodies.set(m.request, (bodies.get(m.request) ?? '') + Buffer.from(m.chunk).toString('utf8'));
});
/** When undici created each purchase request (the purchaser's work done), keyed by the request. */
const createdAt = new WeakMap<object, number>();
dc.subscribe('undici:request:create', (message) => {
  const m = message as { request: { method: string; path: string } };
  if (m.request.method === 'POST' && m.request.path.endsWith('/purchase')) createdAt.set(m.request, performance.now());
});
const requested = new Map<number, number>();
const written = new Map<number, number>();
dc.subscribe('undici:request:bodySent', (message) => {
  const t = performance.now();
  const m = message as { request: { method: string; path: string } };
  if (m.request.method !== 'POST' || !m.request.path.endsWith('/purchase')) return;
  const id = /"listing_id":(\d+)/.exec(bodies.get(m.request) ?? '')?.[1];
  if (id) {
    written.set(Number(id), t);
    const c = createdAt.get(m.request);
    if (c !== undefined) requested.set(Number(id), c);
  }
});

/**
 * Arrival time of the first chunk, read after `since`, that names the listing (a frame split across two
 * chunks: the later one). Searched only after the purchase was seen, so it costs nothing in between.
 */
function arrivalOf(listingId: number, since: number): number | null {
  const needle = Buffer.from(`"listing_id":${listingId},`);
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i] as { t: number; buf: Buffer };
    if (c.t < since) continue;
    if (c.buf.includes(needle)) return c.t;
    const next = chunks[i + 1];
    if (next && Buffer.concat([c.buf.subarray(-64), next.buf.subarray(0, 64)]).includes(needle)) return next.t;
  }
  return null;
}

function pruneChunks(olderThanMs: number): void {
  const cutoff = performance.now() - olderThanMs;
  let drop = 0;
  while (drop < chunks.length && (chunks[drop] as { t: number }).t < cutoff) drop++;
  chunks.splice(0, drop);
}

// ---- the market process ---------------------------------------------------------------------------

function startMarket(): Promise<{ child: ChildProcess; ready: Extract<SnipeMarketMessage, { type: 'ready' }> }> {
  const child = fork(fileURLToPath(new URL('./snipe-market.ts', import.meta.url)), [JSON.stringify({ rate: BACKGROUND_RATE, listings: 20_000, seed: 3 })], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the market process exited (${code})`)));
    child.once('message', (m: SnipeMarketMessage) => {
      if (m.type === 'ready') resolve({ child, ready: m });
      else reject(new Error(`unexpected first message ${m.type}`));
    });
  });
}

function create(child: ChildProcess, name: string, price: number): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: SnipeMarketMessage) => {
      if (m.type === 'created') resolve(m.id);
      else reject(new Error(m.type === 'error' ? m.message : `unexpected ${m.type}`));
    });
    child.send({ type: 'create', name, price } satisfies SnipeMarketRequest);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) return false;
    await sleep(2);
  }
  return true;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}
const round = (x: number) => Math.round(x * 1000) / 1000;

// ---- run ------------------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'skindesk-snipe-'));
const { child, ready } = await startMarket();
marketPort = Number(new URL(ready.baseUrl).port);
let run: HeadlessWatch | null = null;
let deskConnection: Db | null = null;
let lastState = '';
try {
  // the governor `skindesk watch` builds (its windows recorded in the desk), on a connection of its own to
  // the same files, so that its purchase window can be widened before the client defines the published one
  const bookFile = join(dir, 'book.db');
  deskConnection = openDatabase(bookFile);
  attachDesk(deskConnection, bookFile);
  const governor = deskRateGovernor({
    db: deskConnection,
    baseUrl: ready.baseUrl,
    apiKey: ready.apiKey,
    onLedgerError: (m) => log(`warning: ${m}`),
  });
  governor.define(rateLimitKey('purchase'), { limit: 100_000, windowMs: 60_000 });
  // ...and the server's own count of purchases is not fed back to it (its reset times are whole seconds);
  // through the client's own transport (transport.ts), as without this wrapper
  const withoutPurchaseBudget: typeof fetch = async (input, init) => {
    const response = await requestFetch(input, init);
    if (!String(input).endsWith('/purchase')) return response;
    const headers = new Headers(response.headers);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) headers.delete(name);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  const targets = ready.names.slice(0, 10);
  const watchlists: WatchlistInput[] = targets.map((t, i) => ({
    name: `snipe ${i}`,
    filter: { name: t.name },
    price: { kind: 'ceiling', max_price: Math.floor(t.price * 0.5) },
    auto_buy: {
      mode: 'auto',
      guardrails: { max_price: t.price, total_budget: 100_000_000, daily_cap: 100_000_000, max_per_hour: 1_000, min_balance: 0 },
    },
  }));
  run = await HeadlessWatch.start({
    dbPath: bookFile,
    baseUrl: ready.baseUrl,
    wsUrl: ready.wsUrl,
    apiKey: ready.apiKey,
    watchlists,
    autoBuy: true,
    client: { governor, fetch: withoutPurchaseBudget },
    onWarning: (m) => log(`warning: ${m}`),
    onStatus: (st) => {
      if (st.state !== lastState) log(`sync ${st.state}${st.problem ? `: ${st.problem}` : ''}`);
      lastState = st.state;
    },
  });
  const service = run.service;
  if (!(await until(() => service.bookLive, 60_000))) throw new Error('the book never became live');
  await service.sweep();
  await sleep(2_000); // let the background feed settle in
  log(`live; ${BACKGROUND_RATE} background events/s; ${WARMUP} warm-up + ${SAMPLES} snipes`);

  const latencies: number[] = [];
  const breakdown: { total: number; toRequest: number; toWritten: number }[] = [];
  let missed = 0;
  let rateSum = 0;
  let rated = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const target = targets[i % targets.length] as { name: string; price: number };
    const price = 100 + (i % 97);
    const asked = performance.now();
    const id = await create(child, target.name, price);
    const seen = await until(() => written.has(id), MISS_MS);
    const arrived = arrivalOf(id, asked);
    if (!seen || arrived === null) {
      missed++;
      const last = service.log(1)[0];
      log(`snipe ${i}: ${seen ? 'its frame was not found' : 'no purchase within 5 s'} (sync ${run.mirror.status?.state}; last decision: ${last ? `${last.decision} ${last.reason ?? last.status ?? ''}` : 'none'})`);
      if (i >= WARMUP) latencies.push(MISS_MS);
    } else if (i >= WARMUP) {
      latencies.push((written.get(id) as number) - arrived);
      const c = requested.get(id);
      if (c !== undefined) breakdown.push({ total: (written.get(id) as number) - arrived, toRequest: c - arrived, toWritten: (written.get(id) as number) - c });
      rateSum += run.mirror.status?.eventsPerSecond ?? 0;
      rated++;
    }
    pruneChunks(1_000);
    await sleep(20 + ((i * 37) % 60)); // not in step with the market's 20 ms ticks
  }
  await service.settled();
  const bought = service.log(WARMUP + SAMPLES + 10).filter((e) => e.status === 'bought').length;
  latencies.sort((a, b) => a - b);
  // where the slowest ones spent their time: up to the request (frame parsing, judging, guardrails,
  // journal) or in the HTTP client before its bytes were on the socket
  for (const b of breakdown.sort((x, y) => y.total - x.total).slice(0, 5)) {
    log(`slow: ${b.total.toFixed(1)} ms = ${b.toRequest.toFixed(1)} to the request + ${b.toWritten.toFixed(1)} to written`);
  }
  const n = latencies.length;
  const part = (key: 'toRequest' | 'toWritten', p: number) =>
    breakdown.length ? round(percentile(breakdown.map((b) => b[key]).sort((a, b) => a - b), p)) : null;
  const result = {
    snipe_p99_ms: n ? round(percentile(latencies, 99)) : null,
    snipe_p50_ms: n ? round(percentile(latencies, 50)) : null,
    snipe_max_ms: n ? round(latencies[n - 1] as number) : null,
    // the two halves: frame to purchase request created (parse, judge, guardrails, journal), then to
    // its bytes on the socket (the HTTP client)
    snipe_to_request_p50_ms: part('toRequest', 50),
    snipe_to_request_p99_ms: part('toRequest', 99),
    snipe_to_written_p50_ms: part('toWritten', 50),
    snipe_to_written_p99_ms: part('toWritten', 99),
    // misses included (each as MISS_MS)
    snipe_samples: n,
    snipe_missed: missed,
    snipe_bought: bought,
    snipe_background_events_per_s: rated ? Math.round(rateSum / rated) : 0,
    // other processes on the machine stretch the tail: the load it ran under is part of the figure
    snipe_load_avg_1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await run?.stop();
  deskConnection?.close();
  child.send({ type: 'stop' } satisfies SnipeMarketRequest);
  await new Promise((r) => {
    child.once('exit', r);
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
  rmSync(dir, { recursive: true, force: true });
}

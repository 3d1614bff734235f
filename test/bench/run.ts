/**
 * `npm run bench`: generates a 1M-listing book, runs each phase of phases.ts in its own process (so
 * the peak memory of one never counts against another), and prints ONE JSON object with every figure.
 * Goals (issue 5): ingest_vs_floor <= 1.3, events_per_s >= 150 000, filter_p95_ms <= 30, rss_mb <= 400.
 * Progress goes to stderr; the JSON is the only thing on stdout.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bookSnapshotText } from './dataset.ts';
import { BOOK_SIZE, PHASES_AFTER_INGEST, SNAPSHOT_SEQ, figureProblems } from './phases.ts';

const PHASES_FILE = fileURLToPath(new URL('./phases.ts', import.meta.url));
const SNIPE_FILE = fileURLToPath(new URL('./snipe.ts', import.meta.url));
const DEMO_BOOK_FILE = fileURLToPath(new URL('./demo-book.ts', import.meta.url));
/** The second floor/ingest round runs only if the first ended this soon (28 s on a quick host, 36 on a slow one). */
const SECOND_ROUND_BEFORE_MS = 32_000;

/** Runs a standalone benchmark script in its own process; its last stdout line is a JSON object of figures. */
function runScript(what: string, file: string): Record<string, unknown> {
  log(what);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}
const started = performance.now();
const log = (message: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${message}\n`);

const dir = mkdtempSync(join(tmpdir(), 'skindesk-bench-'));
// Figures from a machine other processes keep busy are slower: the load is reported with them.
const loadAtStart = loadavg()[0] ?? 0;
try {
  log(`generating a ${BOOK_SIZE.toLocaleString('en-US')}-listing /book answer`);
  writeFileSync(join(dir, 'snapshot.json'), bookSnapshotText(BOOK_SIZE, SNAPSHOT_SEQ));

  const results: Record<string, unknown> = {};
  const runPhase = (phase: string): Record<string, unknown> => {
    log(`phase ${phase}`);
    const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', PHASES_FILE, phase, dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`phase ${phase} failed (exit ${r.status ?? r.signal})`);
    const line = r.stdout.trim().split('\n').pop() ?? '{}';
    log(`phase ${phase}: ${line}`);
    return JSON.parse(line) as Record<string, unknown>;
  };
  // Floor and ingest alternate, twice when time allows, and the faster of each counts: on a shared
  // machine the load moves between phases, and the ratio should compare two paths, not two moments. A
  // slow first round (a loaded machine) skips the second to stay within the 5-minute budget: the phases
  // after it take ~3.5 min on a quick host since schema 13 (details ~80 s), ~4 on a slow one.
  const floors = [runPhase('floor')];
  const ingests = [runPhase('snapshot')];
  if (performance.now() - started < SECOND_ROUND_BEFORE_MS) {
    floors.push(runPhase('floor'));
    ingests.push(runPhase('snapshot'));
  }
  const fastest = (key: string, of: Record<string, unknown>[]) =>
    of.reduce((best, r) => ((r[key] as number) < (best[key] as number) ? r : best));
  Object.assign(results, fastest('floor_1m_ms', floors), fastest('snapshot_1m_ms', ingests));
  results.rss_mb = Math.max(...ingests.map((r) => r.rss_mb as number));
  results.ingest_rounds = ingests.length;
  for (const phase of PHASES_AFTER_INGEST) Object.assign(results, runPhase(phase));
  Object.assign(results, runScript('snipe (issue 10: frame to purchase request, 5,000 background events/s)', SNIPE_FILE));
  Object.assign(results, runScript('demo market (issue 3: 1M listings, GET /book answer time)', DEMO_BOOK_FILE));
  // A phase that did less than the whole work would report a flattering figure: the run fails instead.
  const problems = figureProblems(results);
  if (problems.length > 0) throw new Error(`the figures do not cover the work: ${problems.join('; ')}`);
  const snapshotMs = results.snapshot_1m_ms as number;
  const floorMs = results.floor_1m_ms as number;
  const report = {
    snapshot_1m_ms: snapshotMs,
    floor_1m_ms: floorMs,
    ingest_vs_floor: Math.round((snapshotMs / floorMs) * 100) / 100,
    events_per_s: results.events_per_s,
    // like ingest_vs_floor, a ratio of times: how many times longer than the bare floor the mix takes
    events_vs_floor: Math.round(((results.events_floor_per_s as number) / (results.events_per_s as number)) * 100) / 100,
    filter_p95_ms: results.filter_p95_ms,
    rss_mb: results.rss_mb,
    ...results,
    listings: BOOK_SIZE,
    cores: availableParallelism(),
    node: process.version,
    load_avg_1m_start: Math.round(loadAtStart * 10) / 10,
    load_avg_1m_end: Math.round((loadavg()[0] ?? 0) * 10) / 10,
    bench_total_s: Math.round((performance.now() - started) / 1000),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The short soak (about a minute of chaos at level 1, under two minutes in all) as part of `npm test`:
 * `npm run soak` as a real process, its one JSON object parsed, every invariant required to hold and
 * the figures required to show that the run did what it claims (events flowed, purchases were made and
 * some answers lost, every kind of forged delivery was sent, the client was killed and came back, the
 * artefacts were grepped). The long run (`npm run soak -- --minutes 60 --chaos 2`) is for releases.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATE_APPLY_MS } from '../../../src/core/api/purchaser.ts';
import { INVARIANT_NAMES, type SoakReport } from '../../soak/report.ts';

const ROOT = join(import.meta.dirname, '../../..');

interface SoakRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function runSoak(args: string[], timeoutMs: number): Promise<SoakRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin/soak.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

describe('npm run soak', () => {
  it('refuses bad flags with exit code 2', async () => {
    const run = await runSoak(['--minutes', '0'], 20_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--minutes/);
    expect(run.stdout).toBe('');
  });

  // (the end of trading waits up to LATE_APPLY_MS more when a purchase's answer never came: see quiesce)
  it('runs a minute of mild chaos and every invariant holds', { timeout: 150_000 + LATE_APPLY_MS }, async () => {
    const run = await runSoak(['--minutes', '1', '--chaos', '1', '--seed', '3'], 140_000 + LATE_APPLY_MS);
    let report: SoakReport;
    try {
      report = JSON.parse(run.stdout) as SoakReport;
    } catch {
      throw new Error(`stdout is not one JSON object (exit ${run.code}):\n${run.stdout.slice(0, 2000)}\n${run.stderr.slice(-3000)}`);
    }
    const context = `${JSON.stringify(report.failures)}\n${run.stderr.slice(-3000)}`;
    expect(Object.keys(report.invariants ?? {}).sort(), context).toEqual([...INVARIANT_NAMES].sort());
    for (const name of INVARIANT_NAMES) expect(report.invariants[name], `${name}\n${context}`).toBe(true);
    expect(report.ok, context).toBe(true);
    expect(run.code).toBe(0);

    // The run did what it claims.
    expect(report.events.published).toBeGreaterThan(500);
    expect(report.events.applied).toBeGreaterThan(0);
    // the restart resyncs from the book on disk while the feed runs: the book follows it meanwhile
    expect(report.events.applied_while_resyncing).toBeGreaterThan(0);
    expect(report.events.applied_while_resyncing).toBeLessThan(report.events.applied);
    expect(report.mirror.rows).toBeGreaterThan(1_000);
    expect(report.mirror.divergent_rows).toBe(0);
    expect(report.sync.resyncs).toBeGreaterThanOrEqual(2); // the kill -9, the restart, the drops
    expect(report.purchases.attempted).toBeGreaterThan(5);
    expect(report.purchases.confirmed).toBeGreaterThan(0);
    expect(report.purchases.duplicated).toBe(0);
    expect(report.trades.server).toBeGreaterThan(0);
    expect(report.trades.sells + report.trades.withdrawals).toBeGreaterThan(0);
    expect(report.rate_limits.over_limit).toBe(0);
    expect(report.rate_limits.early_retries).toBe(0);
    for (const kind of ['forged', 'tampered', 'stale', 'replayed'] as const) expect(report.webhooks.injected[kind], kind).toBeGreaterThanOrEqual(1);
    expect(report.webhooks.injected_accepted).toBe(0);
    expect(report.webhooks.rejected.forged).toBeGreaterThanOrEqual(2);
    expect(report.webhooks.rejected.stale).toBeGreaterThanOrEqual(1);
    expect(report.webhooks.rejected.replayed).toBeGreaterThanOrEqual(1);
    for (const action of ['storm', 'clean_drop', 'half_open', 'restart']) expect(report.chaos.actions[action], action).toBeGreaterThanOrEqual(1);
    expect(report.chaos.websocket.halfOpenClosedByClient).toBeGreaterThanOrEqual(1);
    expect(report.kill9.integrity).toBe('ok');
    expect(report.kill9.during_batch_write).toBe(true);
    expect(report.kill9.resumed_live_ms).toBeGreaterThan(0);
    // the restart's path to live is on record: it starts from the book on disk and ends live
    const steps = report.kill9.resume_steps;
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps[steps.length - 1]?.state).toBe('live');
    expect(steps.slice(0, -1).every((s) => s.state !== 'live')).toBe(true);
    expect(report.memory.rss_start_mb).toBeGreaterThan(0);
    // judged on the processes' own memory here (Linux), not on RSS with the database's mapped pages
    expect(report.memory.judged).toBe('anonymous');
    expect(report.memory.growth_second_half_mb).toBeLessThanOrEqual(report.memory.bound_mb);
    // each reading has both threads' JS heaps, live and committed: [t, rss, anon, used, committed, worker used, committed]
    for (const p of report.memory.per_process) expect(p.trend.some((r) => (r[6] ?? 0) >= (r[5] ?? Infinity) && (r[4] ?? 0) >= (r[3] ?? Infinity))).toBe(true);
    expect(report.event_loop.max_blocked_ms).toBeLessThanOrEqual(100);
    expect(report.event_loop.max_lag_ms).toBeGreaterThan(0); // wall-clock lag is measured and reported too
    expect(report.security.ipc_fuzz.inputs).toBeGreaterThan(1_000);
    expect(report.security.ipc_fuzz.handlerRuns).toBe(0);
    expect(report.security.api_key_scan.files).toBeGreaterThanOrEqual(6);
    expect(report.security.api_key_scan.leaks).toEqual([]);
    expect(report.security.crash_exit_code).toBe(70);
    expect(report.security.exports.files).toBe(2);
  });
});

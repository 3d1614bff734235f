// The benchmark's phases on a small book, in the order `npm run bench` runs them (test/bench/run.ts):
// the figures cover the whole book, and the event path is measured on a book whose listings have their
// details, as the app's book has once the backfill ran (a lean book makes removals and sales cheaper).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bookSnapshotText } from '../../bench/dataset.ts';
import { PHASES_AFTER_INGEST, RANDOM_COMBINATIONS, SNAPSHOT_SEQ, figureProblems } from '../../bench/phases.ts';

const LISTINGS = 2_000;
const PHASES_FILE = join(import.meta.dirname, '../../bench/phases.ts');
const dirs: string[] = [];

function newBenchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skindesk-bench-test-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'snapshot.json'), bookSnapshotText(LISTINGS, SNAPSHOT_SEQ));
  return dir;
}

function phase(name: string, dir: string) {
  const r = spawnSync(process.execPath, ['--expose-gc', PHASES_FILE, name, dir], {
    encoding: 'utf8',
    env: { ...process.env, SKINDESK_BENCH_LISTINGS: String(LISTINGS) },
  });
  return {
    status: r.status,
    stderr: r.stderr,
    result:
      r.status === 0 ? (JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>) : null,
  };
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run bench phases', () => {
  it(
    'measure every phase on the whole book, the events on a book with its details',
    { timeout: 120_000 },
    () => {
      const dir = newBenchDir();
      const results: Record<string, unknown> = {};
      for (const name of ['floor', 'snapshot', ...PHASES_AFTER_INGEST]) {
        const r = phase(name, dir);
        expect(r.status, `${name}: ${r.stderr}`).toBe(0);
        Object.assign(results, r.result);
      }
      expect(figureProblems(results, LISTINGS)).toEqual([]);
      expect(results.events_book_detailed_before).toBe(LISTINGS);
      expect(results.events_applied).toBeGreaterThan(0);
      expect(results.filter_combinations).toBeGreaterThanOrEqual(20);
      // random combinations timed beside the named ones, the slowest with their queries
      expect(results.filter_random_combinations).toBe(RANDOM_COMBINATIONS);
      expect(results.filter_random_max_ms).toBeGreaterThanOrEqual(results.filter_random_p95_ms as number);
      expect((results.filter_random_slowest as { query: unknown }[])[0]?.query).toBeDefined();
      // the first answer of each filter is measured, not thrown away as a warm-up
      expect(typeof results.filter_first_p95_ms).toBe('number');
      for (const q of results.filter_slowest as { first_ms: number; max_ms: number }[])
        expect(q.max_ms).toBeGreaterThanOrEqual(q.first_ms);
    },
  );

  it('the event phase refuses a book without details', { timeout: 60_000 }, () => {
    const dir = newBenchDir();
    expect(phase('snapshot', dir).status).toBe(0);
    const r = phase('events', dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/have no details/);
  });

  it('figures that do not cover the whole book are problems', () => {
    const whole = {
      snapshot_1m_ms: 10,
      floor_1m_ms: 9,
      events_per_s: 1_000,
      events_floor_per_s: 2_000,
      filter_p95_ms: 3,
      rss_mb: 100,
      floor_rows: 100,
      snapshot_rows: 100,
      snapshot_listings_after: 100,
      details_detailed: 100,
      events_book_rows_before: 100,
      events_book_detailed_before: 100,
      events_applied: 50,
      filter_combinations: 33,
      filter_random_combinations: RANDOM_COMBINATIONS,
      detailed_listings: 101,
      query_listings: 101,
    };
    expect(figureProblems(whole, 100)).toEqual([]);
    expect(figureProblems({ ...whole, snapshot_rows: 60, snapshot_listings_after: 60 }, 100)).toHaveLength(1);
    expect(figureProblems({ ...whole, events_book_detailed_before: 0 }, 100)).toHaveLength(1);
    expect(figureProblems({ ...whole, filter_combinations: 12 }, 100)).toHaveLength(1);
    expect(figureProblems({ ...whole, filter_random_combinations: 20 }, 100)).toHaveLength(1);
    expect(figureProblems({ ...whole, events_per_s: Number.NaN }, 100)).toHaveLength(1);
  });
});

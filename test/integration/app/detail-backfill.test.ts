// The app runs the detail backfill in its market session: after it finishes, every listing of the
// mirror carries the float and seed the marketplace holds, progress says done, and a float filter
// through the app's own queryBook call returns exactly the listings in range. A restart resumes the
// pass from the cursor saved in the mirror.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppCore, RecordingPlatform, type StartDemoMarket } from '../../../src/core/app/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { readSyncState } from '../../../src/core/store/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import type { BackfillProgress, BookRow } from '../../../src/shared/ipc/index.ts';
import type { BookFilter } from '../../../src/shared/query.ts';
import { until as waitUntil } from './until.ts';

const LISTINGS = 3_000;
const dirs: string[] = [];
const cores: AppCore[] = [];
const demos: DemoMarket[] = [];

/** A still market (no simulated activity), so the mirror and the demo's truth can be compared row by row. */
const startDemo: StartDemoMarket = async ({ seqStart }) => {
  const demo = await startDemoMarket({ port: 0, listings: LISTINGS, rate: 0, seed: 23, seqStart });
  demos.push(demo);
  return demo;
};

async function startCore(dataDir: string) {
  const progress: BackfillProgress[] = [];
  const core = await AppCore.start({
    dataDir,
    secrets: new MemorySecretStore(),
    platform: new RecordingPlatform(),
    startDemoMarket: startDemo,
    version: '0.0.0-test',
    progressIntervalMs: 200,
  });
  cores.push(core);
  core.subscribe((name, payload) => {
    if (name === 'backfillProgress') progress.push(payload as BackfillProgress);
  });
  return { core, progress };
}

const until = <T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000) => waitUntil(what, probe, timeoutMs);

/** Every row the query matches, page by page (bounded). */
async function allRows(core: AppCore, filter: BookFilter) {
  const rows: BookRow[] = [];
  let after: string | undefined;
  for (let page = 0; page < 50; page++) {
    const result = await core.call('queryBook', {
      filter,
      sort: { field: 'id', dir: 'asc' },
      limit: 1000,
      ...(after === undefined ? {} : { after }),
    });
    rows.push(...result.rows);
    if (result.next === null) return rows;
    after = result.next;
  }
  throw new Error('more than 50 pages of rows');
}

afterEach(async () => {
  while (cores.length) await cores.pop()?.close();
  while (demos.length) await demos.pop()?.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skindesk-backfill-'));
  dirs.push(dir);
  return dir;
}

describe('the detail backfill in the app', () => {
  it('fills every listing of the mirror with its details, reports done, and float filters match exactly', async () => {
    const { core, progress } = await startCore(tempDir());
    await core.whenLive(20_000);
    await until('the backfill to finish', () => progress.find((p) => p.state === 'done'));
    expect(progress.some((p) => p.state === 'running')).toBe(true);
    // while it runs, how long the rest takes (the status bar's tooltip says it); once done, nothing
    expect(progress.some((p) => p.state === 'running' && p.etaMs !== null && p.etaMs > 0)).toBe(true);
    const done = await core.call('getBackfillProgress', {});
    expect(done).toEqual({ state: 'done', detailed: done.total, total: done.total, problem: null, etaMs: null });
    expect(done.total).toBeGreaterThan(LISTINGS / 2);

    const demo = demos[0]!;
    const rows = await allRows(core, {});
    expect(rows).toHaveLength(done.total);
    const missing = core.session.db
      .prepare('SELECT count(*) FROM listings WHERE alive = 1 AND detailed_at IS NULL')
      .pluck()
      .get();
    expect(missing).toBe(0);
    let floats = 0;
    for (const row of rows) {
      const truth = demo.state.listing(row.id)?.full;
      if (!truth) throw new Error(`listing ${row.id} is not in the demo market`);
      expect({ id: row.id, wear: row.paint_wear, seed: row.paint_seed }).toEqual({
        id: row.id,
        wear: truth.cs_paint_wear,
        seed: truth.cs_paint_seed,
      });
      if (row.paint_wear !== null) floats++;
    }
    expect(floats).toBeGreaterThan(100);

    const min = 0.15;
    const max = 0.38;
    const expected = rows
      .filter((r) => r.paint_wear !== null && r.paint_wear >= min && r.paint_wear <= max)
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(10);
    const filtered = await allRows(core, { float: { min, max } });
    expect(filtered.map((r) => r.id)).toEqual(expected);
    const counted = await core.call('queryBook', { filter: { float: { min, max } }, limit: 1, count: true });
    expect(counted.total).toBe(expected.length);
  });

  it('stops with the session and resumes the pass from the saved cursor after a restart', async () => {
    const dataDir = tempDir();
    const first = await startCore(dataDir);
    await first.core.whenLive(20_000);
    const partial = await until('the first page of details', () =>
      first.progress.find((p) => p.state === 'running' && p.detailed > 0 && p.detailed < p.total),
    );
    const cursor = readSyncState(first.core.session.db).backfillCursor;
    expect(cursor).not.toBeNull();
    await cores.pop()?.close();
    await demos.pop()?.close();

    // the same seed brings the same listings; the new session starts from the cursor, not from the top
    const second = await startCore(dataDir);
    const opening = await second.core.call('getBackfillProgress', {});
    expect(opening.detailed).toBeGreaterThanOrEqual(partial.detailed);
    await second.core.whenLive(20_000);
    await until('the backfill to finish after the restart', () => second.progress.find((p) => p.state === 'done'));
    const done = await second.core.call('getBackfillProgress', {});
    expect(done).toMatchObject({ state: 'done', problem: null });
    expect(done.detailed).toBe(done.total);
    // a 3 000-row book is three pages; the first session read at least one of them
    expect(second.core.session.backfillProgress()?.pages).toBeLessThan(Math.ceil(LISTINGS / 1000));
  });
});

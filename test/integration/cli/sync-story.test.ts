/**
 * What `skindesk sync` writes on stderr tells the run once: the "stopping" line only when there is a
 * running sync to stop, a refused key said once (the last line), and one `stopped` line whose counts are
 * the ones `skindesk status` reads from the file right after.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startDemoMarket, type DemoMarket } from '../../../src/demo/index.ts';
import { tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

let demo: DemoMarket;
let dir: { dir: string; remove(): void };
beforeAll(async () => {
  // the marketplace's rate limits keep the detail backfill running when the sync stops, and its events
  // change the book until then: a count taken before the last one would differ
  demo = await startDemoMarket({ port: 0, listings: 4_000, rate: 20, seed: 5, reorder: 0, duplicate: 0 });
});
afterAll(() => demo?.close());
beforeEach(() => {
  dir = tempDir('skindesk-sync-story-');
});
afterEach(() => dir.remove());

function sync(baseUrl: string, key: string, extra: string[]): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, [CLI, 'sync', '--base-url', baseUrl, '--db', join(dir.dir, 'book.db'), ...extra], {
    env: { ...process.env, SKINDESK_API_KEY: key },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, lines: stderr.trim().split('\n') })));
}

const stoppedLines = (lines: string[]) => lines.filter((l) => l.startsWith('skindesk sync: stopped ·'));
const stoppingLines = (lines: string[]) => lines.filter((l) => l.startsWith('skindesk sync: stopping'));

it('a run stopped by --duration: one stopped line, with the counts skindesk status reads', { timeout: 60_000 }, async () => {
  const ran = await sync(demo.baseUrl, demo.apiKey, ['--duration', '4']);
  expect(ran.code, ran.lines.join('\n')).toBe(0);
  expect(stoppingLines(ran.lines), ran.lines.join('\n')).toHaveLength(1);
  const stopped = stoppedLines(ran.lines);
  expect(stopped, ran.lines.join('\n')).toHaveLength(1);
  expect(ran.lines.at(-1)).toBe(stopped[0]);

  const status = spawnSync(process.execPath, [CLI, 'status', '--db', join(dir.dir, 'book.db')], { encoding: 'utf8' });
  const book = JSON.parse(status.stdout) as { listings: number; detailed: number };
  const listings = book.listings.toLocaleString('en-US');
  expect(stopped[0]).toContain(` · ${listings} listings · details ${book.detailed.toLocaleString('en-US')}/${listings}`);
});

it('a refused key: no stopping line, the refusal said once and last, after one stopped line', { timeout: 60_000 }, async () => {
  const ran = await sync(demo.baseUrl, 'demo_not_the_key', ['--duration', '20']);
  const text = ran.lines.join('\n');
  expect(ran.code, text).toBe(1);
  expect(stoppingLines(ran.lines), text).toEqual([]);
  expect(ran.lines.filter((l) => /refused the API key/.test(l)), text).toEqual([ran.lines.at(-1)]);
  expect(ran.lines.at(-1)).toMatch(/^skindesk sync: The marketplace refused the API key \(WebSocket closed with 4401\)/);
  expect(stoppedLines(ran.lines), text).toEqual([ran.lines.at(-2)]);
  expect(ran.lines.at(-2)).toBe('skindesk sync: stopped · 0 listings · details 0/0 · 0.0 events/s');
});

it('a marketplace unreachable at the start: only the failure, nothing was started to stop', { timeout: 30_000 }, async () => {
  const ran = await sync('http://127.0.0.1:9', demo.apiKey, ['--duration', '20']);
  expect(ran.code, ran.lines.join('\n')).toBe(1);
  expect(ran.lines).toHaveLength(1);
  expect(ran.lines[0]).toMatch(/^skindesk sync: could not start syncing: the marketplace could not be reached/);
});

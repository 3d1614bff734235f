/**
 * `skindesk sync --duration SECONDS` stops after that long, however long: a month (2.6e9 ms) is beyond
 * what one Node timer can wait, and such a timer fires at once.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

let dir: { dir: string; remove(): void };
beforeEach(() => {
  dir = tempDir('skindesk-duration-');
});
afterEach(() => dir.remove());

it(
  'sync --duration of 30 days keeps syncing until then (here: until SIGINT, then exit 0)',
  { timeout: 30_000 },
  async () => {
    // nothing listens on port 9: the sync keeps reconnecting, as it would through an outage
    const child = spawn(
      process.execPath,
      [
        CLI,
        'sync',
        '--base-url',
        'http://127.0.0.1:9',
        '--ws-url',
        'ws://127.0.0.1:9',
        '--db',
        join(dir.dir, 'book.db'),
        '--duration',
        '2592000',
      ],
      { env: { ...process.env, SKINDESK_API_KEY: 'demo_unused' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // running well past its start (the worker up, the feed tried), and not stopping by itself
    const early = await Promise.race([
      closed.then(() => 'exited'),
      new Promise((resolve) => setTimeout(() => resolve('running'), 5_000)),
    ]);
    expect(early, stderr).toBe('running');
    expect(stderr).not.toMatch(/stopping|TimeoutOverflowWarning/);
    child.kill('SIGINT');
    expect(await closed, stderr).toBe(0);
    expect(stderr).toMatch(/stopping — applying received events/);
  },
);

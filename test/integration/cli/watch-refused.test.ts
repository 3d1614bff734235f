/**
 * `skindesk watch` with a refused key: the failure line is said once, last, in words that fit the watch
 * (the sync engine's own words named "sync", a command the person did not run), with exit 1.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoMarket, type DemoMarket } from '../../../src/demo/index.ts';
import { tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

let demo: DemoMarket;
let dir: { dir: string; remove(): void };
beforeAll(async () => {
  demo = await startDemoMarket({ port: 0, listings: 200, rate: 0, seed: 3 });
  dir = tempDir('skindesk-watch-refused-');
});
afterAll(async () => {
  dir?.remove();
  await demo?.close();
});

it('a refused key: the watch says so once, without naming the sync, exit 1', { timeout: 30_000 }, async () => {
  const file = join(dir.dir, 'watchlists.json');
  writeFileSync(file, JSON.stringify([{ name: 'cheap', filter: {}, price: { kind: 'ceiling', max_price: 100 } }]));
  const child = spawn(process.execPath, [CLI, 'watch', '--base-url', demo.baseUrl, '--watchlists', file, '--db', join(dir.dir, 'book.db')], {
    env: { ...process.env, SKINDESK_API_KEY: 'demo_not_the_key' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(1);
  expect(stderr.trim().split('\n').at(-1)).toBe(
    'skindesk watch: The marketplace refused the API key (WebSocket closed with 4401): the book stopped updating. Check the key.',
  );
  expect(stderr).not.toMatch(/\bsync\b/);
  // said once, as the last line; and nothing was in flight to wait for
  expect(stderr.match(/refused the API key/g)).toHaveLength(1);
  expect(stderr).not.toMatch(/stopping/);
});

/**
 * `skindesk sync` against a marketplace that refuses from the start (a base URL that answers 404, a
 * refused key): the failure line says it in plain words, with the spec's code when one came, never the
 * request line.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { syncCommand } from '../../../src/cli/commands/sync.ts';
import { watchCommand } from '../../../src/cli/commands/watch.ts';
import { tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

let dir: { dir: string; remove(): void };
let server: Server | null = null;
beforeEach(() => {
  dir = tempDir('skindesk-sync-refused-');
});
afterEach(async () => {
  dir.remove();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

async function answering(status: number, type: string, body: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function sync(baseUrl: string, extra: string[] = ['--duration', '20']): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [CLI, 'sync', '--base-url', baseUrl, '--db', join(dir.dir, 'book.db'), ...extra],
    {
      env: { ...process.env, SKINDESK_API_KEY: 'sk_live_REFUSED_0001' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

const lastLine = (text: string) => text.trim().split('\n').at(-1);

it('a base URL that answers 404: not found, in plain words', { timeout: 30_000 }, async () => {
  const ran = await sync(await answering(404, 'text/html', '<html>Not Found</html>'));
  expect(ran.code, ran.stderr).toBe(1);
  expect(lastLine(ran.stderr)).toBe(
    'skindesk sync: could not start syncing: the marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong)',
  );
  expect(ran.stderr).not.toMatch(/\/public\/v1|REFUSED_0001/);
});

it('a refused key: plain words and the spec’s code', { timeout: 30_000 }, async () => {
  const ran = await sync(
    await answering(
      401,
      'application/json',
      JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'bad key' } }),
    ),
  );
  expect(ran.code, ran.stderr).toBe(1);
  expect(lastLine(ran.stderr)).toBe(
    'skindesk sync: could not start syncing: the API key is missing, wrong or revoked (UNAUTHORIZED)',
  );
  expect(ran.stderr).not.toMatch(/\/public\/v1|REFUSED_0001/);
});

// Nothing listens on the discard port: the marketplace cannot be reached.
const UNREACHABLE = 'http://127.0.0.1:9';

it('a marketplace unreachable at the start: exit 1, as the usage says', { timeout: 30_000 }, async () => {
  const ran = await sync(UNREACHABLE);
  expect(ran.code, ran.stderr).toBe(1);
  expect(lastLine(ran.stderr)).toMatch(/^skindesk sync: could not start syncing: the marketplace could not be reached \(ECONNREFUSED/);
  const exitCodes = (usage: string) => usage.slice(usage.indexOf('Exit code:')).replace(/\s+/g, ' ');
  for (const usage of [syncCommand.usage, watchCommand.usage]) {
    expect(exitCodes(usage)).toMatch(/1 [^;]*\bthe marketplace unreachable or answering with an error at the start\b/);
    expect(exitCodes(usage)).toMatch(/A marketplace lost once the (sync|watch) runs .*is retried until stopped, and the exit is still 0\./);
  }
});

it('with --ws-url, a marketplace not there at the start is retried: exit 0 after --duration', { timeout: 30_000 }, async () => {
  const ran = await sync(UNREACHABLE, ['--ws-url', 'ws://127.0.0.1:9/public/v1/ws', '--duration', '2']);
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stderr).toMatch(/reconnecting/);
  expect(syncCommand.usage.replace(/\s+/g, ' ')).toMatch(/\(or, with --ws-url, not there at the start\) is retried until stopped/);
});

/**
 * `skindesk sync` on a book file an older build made: an upgrade that takes a while (seconds on a large
 * book) is said on stderr before it runs, so the command does not look stuck before its first line.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BookStore, SCHEMA_VERSION, openDatabase } from '../../../src/core/store/index.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { backToVersion, tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

let dir: { dir: string; remove(): void };
let server: Server;
beforeEach(async () => {
  dir = tempDir('skindesk-sync-upgrade-');
  // a marketplace address that is not one: the run ends at its first request, after the upgrade
  server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterEach(async () => {
  dir.remove();
  await new Promise((resolve) => server.close(resolve));
});

function sync(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const child = spawn(process.execPath, [CLI, 'sync', '--base-url', baseUrl, '--db', file, '--duration', '20'], {
    env: { ...process.env, SKINDESK_API_KEY: 'sk_live_UPGRADE_0001' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

it('says on stderr that it upgrades the book file before a lengthy step, and nothing on stdout', { timeout: 30_000 }, async () => {
  const file = join(dir.dir, 'book.db');
  const db = openDatabase(file);
  new BookStore(db).applyEvents([createdEvent(makeFullListing(createRng(8), 1), 2n)]);
  backToVersion(db, 7);
  db.close();

  const ran = await sync(file);
  expect(ran.code, ran.stderr).toBe(1);
  const lines = ran.stderr.trim().split('\n');
  expect(lines[0]).toBe('skindesk sync: upgrading the book file: rebuilding the indexes of the item fields (a few seconds for a large book)');
  expect(lines.filter((line) => line.includes('upgrading'))).toHaveLength(1);
  expect(ran.stdout).toBe('');
  const upgraded = openDatabase(file, { readonly: true });
  expect(upgraded.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  upgraded.close();
});

it('says nothing of an upgrade making a new book file', { timeout: 30_000 }, async () => {
  const ran = await sync(join(dir.dir, 'new.db'));
  expect(ran.code, ran.stderr).toBe(1);
  expect(ran.stderr).not.toContain('upgrading');
});

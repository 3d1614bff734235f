/**
 * `skindesk sync` and `skindesk watch` on a book file an older build made: an upgrade that takes a while
 * (seconds on a large book) is said on stderr before it runs, so the command does not look stuck before
 * its first line.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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

type Command = 'sync' | 'watch';

function run(command: Command, file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const watchlists = join(dir.dir, 'watchlists.json');
  writeFileSync(watchlists, JSON.stringify([{ name: 'cheap', filter: {}, price: { kind: 'ceiling', max_price: 100 } }]));
  const args = command === 'sync' ? ['--duration', '20'] : ['--watchlists', watchlists];
  const child = spawn(process.execPath, [CLI, command, '--base-url', baseUrl, '--db', file, ...args], {
    env: { ...process.env, SKINDESK_API_KEY: 'sk_live_UPGRADE_0001' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

it.each<Command>(['sync', 'watch'])('%s says on stderr that it upgrades the book file before a lengthy step, and nothing on stdout', { timeout: 30_000 }, async (command) => {
  const file = join(dir.dir, 'book.db');
  const db = openDatabase(file);
  new BookStore(db).applyEvents([createdEvent(makeFullListing(createRng(8), 1), 2n)]);
  backToVersion(db, 7);
  db.close();

  const ran = await run(command, file);
  expect(ran.code, ran.stderr).toBe(1);
  const lines = ran.stderr.trim().split('\n');
  // each lengthy step is said once, before it runs, first of all
  expect(lines.slice(0, 5)).toEqual([
    `skindesk ${command}: upgrading the book file: rebuilding the indexes of the item fields (a few seconds for a large book)`,
    `skindesk ${command}: upgrading the book file: rebuilding the float and name indexes (a few seconds for a large book)`,
    `skindesk ${command}: upgrading the book file: copying prices into the details and rebuilding eight of their indexes (a few seconds for a large book)`,
    `skindesk ${command}: upgrading the book file: rebuilding the name index and most detail indexes (several seconds for a large book)`,
    `skindesk ${command}: upgrading the book file: rebuilding the name, price and sticker indexes and indexing the exterior (several seconds for a large book)`,
  ]);
  expect(lines.filter((line) => line.includes('upgrading'))).toHaveLength(5);
  expect(ran.stdout).toBe('');
  const upgraded = openDatabase(file, { readonly: true });
  expect(upgraded.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  upgraded.close();
});

it.each<Command>(['sync', 'watch'])('%s says nothing of an upgrade making a new book file', { timeout: 30_000 }, async (command) => {
  const ran = await run(command, join(dir.dir, 'new.db'));
  expect(ran.code, ran.stderr).toBe(1);
  expect(ran.stderr).not.toContain('upgrading');
});

/**
 * `skindesk sync`, `watch` and `demo` stop on SIGINT/SIGTERM with exit 0, also when the signal comes
 * while the CLI is still starting: while Node strips and loads the TypeScript, or while the command's
 * modules load (together a good part of a second). The signal is sent by the process itself at a chosen
 * module (signal-at.mjs, preloaded with --import), so the test does not depend on timing. A command that
 * does not run until stopped (`book`) still ends by the signal, as before.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../unit/store/helpers.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const HOOK = fileURLToPath(new URL('./signal-at.mjs', import.meta.url));

let dir: { dir: string; remove(): void };
beforeEach(() => {
  dir = tempDir('skindesk-stop-');
});
afterEach(() => dir.remove());

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; it sends itself `signal` when the module loader resolves a path ending in `at`. */
function runSignalled(args: string[], signal: NodeJS.Signals, at: string, again = false): Promise<Ran> {
  const child = spawn(process.execPath, ['--import', HOOK, CLI, ...args], {
    env: {
      ...process.env,
      SKINDESK_API_KEY: 'demo_unused',
      SKINDESK_TEST_SIGNAL: signal,
      SKINDESK_TEST_SIGNAL_AT: at,
      SKINDESK_TEST_SIGNAL_AGAIN: again ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig, stdout, stderr })));
}

describe('a stop signal while the CLI starts', () => {
  it.each([
    ['SIGINT', 'src/cli/main.ts'],
    ['SIGTERM', 'src/cli/commands/sync.ts'],
  ] as const)('sync: %s while loading %s exits 0 without touching the book', async (signal, at) => {
    const db = join(dir.dir, 'book.db');
    const ran = await runSignalled(['sync', '--base-url', 'http://127.0.0.1:9', '--db', db, '--duration', '30'], signal, at);
    expect(ran, ran.stderr).toMatchObject({ code: 0, signal: null });
    expect(ran.stderr).toBe(`skindesk sync: ${signal} before the sync started — nothing to apply\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('watch: SIGTERM while its modules load exits 0', async () => {
    const file = join(dir.dir, 'watchlists.json');
    writeFileSync(file, JSON.stringify([{ name: 'cheap', filter: {}, price: { kind: 'ceiling', max_price: 100 } }]));
    const db = join(dir.dir, 'book.db');
    const ran = await runSignalled(['watch', '--base-url', 'http://127.0.0.1:9', '--watchlists', file, '--db', db], 'SIGTERM', 'src/cli/commands/watch.ts');
    expect(ran, ran.stderr).toMatchObject({ code: 0, signal: null, stdout: '' });
    expect(ran.stderr).toBe('skindesk watch: SIGTERM before the watch started — nothing in flight\n');
    expect(existsSync(db)).toBe(false);
  });

  it('demo: SIGINT while its modules load exits 0 and serves nothing', async () => {
    const ran = await runSignalled(['demo', '--port', '0', '--listings', '10'], 'SIGINT', 'src/cli/commands/demo.ts');
    expect(ran, ran.stderr).toMatchObject({ code: 0, signal: null, stdout: '' });
    expect(ran.stderr).toBe('demo market: SIGINT before it started, not starting\n');
  });

  it('sync: one stop sent twice at once (`timeout` signals the process, then its group) still exits 0', async () => {
    const db = join(dir.dir, 'book.db');
    const ran = await runSignalled(['sync', '--base-url', 'http://127.0.0.1:9', '--db', db, '--duration', '30'], 'SIGTERM', 'src/cli/commands/sync.ts', true);
    expect(ran, ran.stderr).toMatchObject({ code: 0, signal: null });
    expect(ran.stderr).toBe('skindesk sync: SIGTERM before the sync started — nothing to apply\n');
  });

  it('bad flags still exit 2 when a signal came too', async () => {
    const ran = await runSignalled(['sync', '--base-url', 'nope'], 'SIGINT', 'src/cli/commands/sync.ts');
    expect(ran.code).toBe(2);
  });

  it('a command that does not run until stopped still ends by the signal', async () => {
    const ran = await runSignalled(['book', '--db', join(dir.dir, 'book.db')], 'SIGINT', 'src/cli/commands/book.ts');
    expect(ran).toMatchObject({ code: null, signal: 'SIGINT' });
  });
});

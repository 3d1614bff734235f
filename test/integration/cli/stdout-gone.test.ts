/**
 * The CLI's stdout when it cannot be written: a reader that went away (`| head -1`, a closed pipe) ends
 * the output quietly with the command's own exit code; a failure to write (a full disk) is one plain line
 * on stderr and exit 1 — never a stack trace. `watch` stops as if asked to when nobody reads its lines.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { lean, openTestStore, type TestStore } from '../../unit/store/helpers.ts';
import { startQuietMarket, tempDb } from '../watch/rig.ts';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

interface Ran {
  code: number | null;
  stderr: string;
}

function run(
  args: string[],
  stdout: number | 'pipe',
  env: NodeJS.ProcessEnv = {},
  onStdout?: (child: ReturnType<typeof spawn>) => void,
): Promise<Ran> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  onStdout?.(child);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

/** stdout on /dev/full: every write fails with ENOSPC, as on a full disk. */
async function intoFullDisk(args: string[]): Promise<Ran> {
  const fd = openSync('/dev/full', 'w');
  try {
    return await run(args, fd);
  } finally {
    closeSync(fd);
  }
}

/** stdout a pipe whose reader leaves after the first line (or at once). */
function readerLeaves(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  afterFirstLine = true,
): Promise<Ran & { firstLine: string }> {
  let firstLine = '';
  return run(args, 'pipe', env, (child) => {
    if (!afterFirstLine) return void child.stdout!.destroy();
    child.stdout!.on('data', (chunk: Buffer) => {
      if (firstLine !== '') return;
      firstLine = chunk.toString().split('\n')[0]!;
      child.stdout!.destroy();
    });
  }).then((ran) => ({ ...ran, firstLine }));
}

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at |node:internal|Node\.js v/);

describe('a book on a full disk and a reader that left', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = openTestStore();
    await mergeSnapshot(
      t.store,
      { seq: 40n, listings: Array.from({ length: 5_000 }, (_, i) => lean(i + 1)) },
      { scope: [730], resync: false },
    );
    t.db.close();
  });
  afterAll(() => t.close());

  it.each([['book'], ['status'], ['search', '--limit', '100']])(
    '%s > /dev/full: one plain line, exit 1',
    { timeout: 30_000 },
    async (...command) => {
      const ran = await intoFullDisk([...command, '--db', t.file]);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toBe(
        `skindesk ${command[0]}: could not write the output (no space left on the device)\n`,
      );
    },
  );

  it('--help > /dev/full: one plain line, exit 1', { timeout: 30_000 }, async () => {
    const ran = await intoFullDisk(['--help']);
    expect(ran).toEqual({
      code: 1,
      stderr: 'skindesk --help: could not write the output (no space left on the device)\n',
    });
  });

  it.each([['book'], ['status']])(
    '%s to a reader that already left: quiet, exit 0',
    { timeout: 30_000 },
    async (command) => {
      const ran = await readerLeaves([command, '--db', t.file], {}, false);
      expect(ran).toMatchObject({ code: 0, stderr: '' });
    },
  );

  it('book | head -1: the first row, then quiet, exit 0', { timeout: 30_000 }, async () => {
    const ran = await readerLeaves(['book', '--db', t.file]);
    expect(JSON.parse(ran.firstLine)).toMatchObject({ id: 1 });
    expect(ran).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('demo > /dev/full', () => {
  it(
    'stops at once when its address line cannot be written: one plain line, exit 1, no market left serving',
    { timeout: 60_000 },
    async () => {
      const ran = await intoFullDisk(['demo', '--port', '0', '--listings', '100', '--rate', '0']);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('skindesk demo: could not write the output (no space left on the device)\n');
      expect(ran.stderr).not.toContain('ready in');
      noStackTrace(ran.stderr);
    },
  );
});

describe('sync 2>&1 | head -1', () => {
  let demo: DemoMarket;
  let tmp: ReturnType<typeof tempDb>;
  beforeAll(async () => {
    demo = await startQuietMarket({ listings: 800, seed: 37 });
    tmp = tempDb();
  }, 60_000);
  afterAll(async () => {
    await demo?.close();
    tmp?.remove();
  });

  it('keeps syncing when the reader of its progress leaves, and stops at --duration with exit 0', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'sync', '--base-url', demo.baseUrl, '--db', tmp.file, '--duration', '4'], {
      env: { ...process.env, SKINDESK_API_KEY: demo.apiKey },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // the first progress line read, then the pipe closed: every later line meets a reader that left
    child.stderr.once('data', () => child.stderr.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    const db = new Database(tmp.file, { readonly: true });
    const rows = db.prepare('SELECT count(*) AS n FROM listings WHERE alive = 1').get() as { n: number };
    db.close();
    expect(rows.n).toBe(demo.state.book().listings.length);
  });
});

describe('watch | head -1', () => {
  let demo: DemoMarket;
  let tmp: ReturnType<typeof tempDb>;
  beforeAll(async () => {
    demo = await startQuietMarket({ listings: 800, seed: 31 });
    tmp = tempDb();
  }, 60_000);
  afterAll(async () => {
    await demo?.close();
    tmp?.remove();
  });

  it(
    'prints its first match, then stops as if asked to: purchases in flight first, exit 0',
    { timeout: 90_000 },
    async () => {
      const file = join(tmp.dir, 'watchlists.json');
      // every listing matches: the whole-book check prints hundreds of lines, the reader leaves after one
      writeFileSync(
        file,
        JSON.stringify([{ name: 'any', filter: {}, price: { kind: 'ceiling', max_price: 10_000_000 } }]),
      );
      const ran = await readerLeaves(
        ['watch', '--base-url', demo.baseUrl, '--watchlists', file, '--db', tmp.file],
        { SKINDESK_API_KEY: demo.apiKey },
      );
      expect(JSON.parse(ran.firstLine)).toMatchObject({ type: 'match' });
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toContain('skindesk watch: stopping — waiting for purchases in flight');
      noStackTrace(ran.stderr);
    },
  );
});

/**
 * The folder a database file goes in. A path under /proc once sent Node's recursive mkdir into an endless
 * loop: the calls that could loop run in a child process with a time limit, so a hang fails the test
 * instead of hanging the run (a thread spinning in a synchronous call never sees the test's own timeout).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFolderFor } from '../../../src/core/store/folder.ts';
import { tempDir } from './helpers.ts';

const FOLDER_TS = fileURLToPath(new URL('../../../src/core/store/folder.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const LIMIT_MS = 20_000;

/** Runs node with `args` (SIGKILL after LIMIT_MS: the loop took no other signal); null status = killed. */
function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const ran = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    timeout: LIMIT_MS,
    killSignal: 'SIGKILL',
    env: { ...process.env, SKINDESK_API_KEY: 'demo_unused' },
  });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

describe('makeFolderFor', () => {
  it('makes every missing folder above the file, and leaves existing ones alone', () => {
    const tmp = tempDir();
    dirs.push(tmp);
    makeFolderFor(join(tmp.dir, 'a', 'b', 'c', 'book.db'), 'the book');
    expect(statSync(join(tmp.dir, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(existsSync(join(tmp.dir, 'a', 'b', 'c', 'book.db'))).toBe(false);
    makeFolderFor(join(tmp.dir, 'a', 'b', 'c', 'book.db'), 'the book');
    makeFolderFor('book.db', 'the book');
  });

  it('says which folder it cannot make, and why, when a file stands in the way', () => {
    const tmp = tempDir();
    dirs.push(tmp);
    writeFileSync(join(tmp.dir, 'file'), '');
    expect(() => makeFolderFor(join(tmp.dir, 'file', 'sub', 'book.db'), 'the book')).toThrow(
      `cannot create the folder ${join(tmp.dir, 'file', 'sub')} for the book (ENOTDIR: not a directory)`,
    );
  });

  it.skipIf(process.platform !== 'linux')('fails at once on a folder under /proc, never loops', () => {
    const script =
      `import { makeFolderFor } from ${JSON.stringify(FOLDER_TS)};` +
      `try { makeFolderFor('/proc/nope/deeper/book.db', 'the book'); } catch (err) { console.log(err.message); }`;
    const ran = node(['--input-type=module', '-e', script]);
    expect(ran.status, `killed after ${LIMIT_MS} ms, still looping?`).toBe(0);
    expect(ran.stdout.trim()).toBe(
      'cannot create the folder /proc/nope for the book (ENOENT: no such file or directory)',
    );
  });
});

describe.skipIf(process.platform !== 'linux')('--db in a folder that cannot be made', () => {
  it('sync says so in plain words and exits 1, --duration or not', () => {
    const ran = node([
      CLI,
      'sync',
      '--base-url',
      'http://127.0.0.1:9',
      '--db',
      '/proc/nope/book.db',
      '--duration',
      '2',
    ]);
    expect(ran.status, ran.stderr).toBe(1);
    expect(ran.stderr).toBe(
      'skindesk sync: cannot create the folder /proc/nope for the book (ENOENT: no such file or directory)\n',
    );
  });

  it('buy says so in its not_bought line (its desk file goes there)', () => {
    const ran = node([
      CLI,
      'buy',
      '--base-url',
      'http://127.0.0.1:9',
      '--listing',
      '1',
      '--max-price',
      '5',
      '--db',
      '/proc/nope/book.db',
    ]);
    expect(ran.status, ran.stderr).toBe(1);
    expect(JSON.parse(ran.stdout)).toEqual({
      status: 'not_bought',
      order_id: null,
      error: {
        kind: 'local',
        code: null,
        message: 'cannot create the folder /proc/nope for the desk file (ENOENT: no such file or directory)',
      },
    });
  });
});

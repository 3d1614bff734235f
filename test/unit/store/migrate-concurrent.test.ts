/**
 * Two processes opening a new (or older) book file at the same moment — the app and `skindesk sync`, or
 * `sync` and `watch` started together — both read the schema version before either holds the write
 * lock; the one that waits must not run the migrations the other has just run.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/core/store/index.ts';
import { tempDir } from './helpers.ts';

const DATABASE_MODULE = join(import.meta.dirname, '../../../src/core/store/database.ts');
const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A process that opens the file as a writer (running the migrations) and says how it went. */
function openInChild(file: string): Promise<string> {
  const script = `import(${JSON.stringify(DATABASE_MODULE)}).then((m) => { m.openDatabase(${JSON.stringify(file)}).close(); console.log('opened'); })
    .catch((e) => console.log('failed: ' + e.message));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
}

it(
  'two processes opening a new file at once both open it, and the schema is made once',
  { timeout: 30_000 },
  async () => {
    const tmp = tempDir();
    dirs.push(tmp);
    const file = join(tmp.dir, 'book.db');
    // Hold the write lock so that both processes read version 0 and then queue for the lock.
    const holder = new Database(file);
    holder.pragma('journal_mode = WAL');
    holder.exec('BEGIN IMMEDIATE');
    const opening = [openInChild(file), openInChild(file)];
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    holder.exec('COMMIT');
    expect(await Promise.all(opening)).toEqual(['opened', 'opened']);
    expect(holder.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(holder.prepare('SELECT count(*) FROM sync_state').pluck().get()).toBe(1);
    holder.close();
  },
);

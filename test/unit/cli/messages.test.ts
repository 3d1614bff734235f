import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { UsageError, parseFlags } from '../../../src/cli/args.ts';
import { COMMANDS } from '../../../src/cli/commands/index.ts';
import { failureText } from '../../../src/cli/mirror-output.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { deskFileFor } from '../../../src/core/store/desk.ts';
import { MAX_SEQ_START } from '../../../src/demo/index.ts';

const command = (name: string) => {
  const found = COMMANDS.find((c) => c.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
};

/** The message a command's run rejects with (the text main.ts prints after "skindesk NAME: "). */
async function failure(name: string, argv: string[]): Promise<{ usage: boolean; message: string }> {
  try {
    await command(name).run(argv);
  } catch (err) {
    return { usage: err instanceof UsageError, message: (err as Error).message };
  }
  throw new Error(`skindesk ${name} ${argv.join(' ')} did not fail`);
}

const dir = mkdtempSync(join(tmpdir(), 'skindesk-cli-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `fn` with an API key in the environment, as a command that needs the marketplace wants. */
async function withKey<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.SKINDESK_API_KEY;
  process.env.SKINDESK_API_KEY = 'demo_unused';
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.SKINDESK_API_KEY;
    else process.env.SKINDESK_API_KEY = saved;
  }
}

interface BuyLine {
  status: string;
  order_id: number | null;
  error: { kind: string; code: string | null; message: string };
}

/** `skindesk buy` of listing 1 at 5 cents from an unreachable market: its exit code and its one line. */
async function buyLine(extra: string[]): Promise<{ code: number; line: BuyLine }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
  let code: number;
  try {
    code = await withKey(() => command('buy').run(['--base-url', 'http://127.0.0.1:9', '--listing', '1', '--max-price', '5', ...extra]));
  } finally {
    spy.mockRestore();
  }
  return { code, line: JSON.parse(lines.join('')) as BuyLine };
}

describe('skindesk flag messages', () => {
  it('a missing required flag is "--FLAG is required", whatever its schema says about a bad value', async () => {
    expect(await failure('buy', ['--base-url', 'http://127.0.0.1:9', '--listing', '1'])).toEqual({ usage: true, message: '--max-price is required' });
    expect(await failure('buy', [])).toEqual({
      usage: true,
      message: '--base-url is required; --listing is required; --max-price is required',
    });
    expect(await failure('sync', [])).toEqual({ usage: true, message: '--base-url is required' });
    // present but wrong still says what is wrong with it
    expect(await failure('sync', ['--base-url', 'ftp://x'])).toEqual({ usage: true, message: '--base-url: must be an http(s) URL' });
  });

  it('a bad value of a repeatable flag names the flag, not its position, once', async () => {
    expect(await failure('search', ['--db', 'x.db', '--seed', 'a', '--seed', '2', '--seed', 'b'])).toEqual({
      usage: true,
      message: '--seed: must be a paint seed: a whole number, at most 9 digits',
    });
    expect((await failure('sales', ['--db', 'x.db', '--phase', 'p9'])).message).toMatch(/^--phase: must be a Doppler phase: /);
  });

  it('a refused number says the rule it broke, its limit included', async () => {
    const said = async (name: string, argv: string[]) => (await failure(name, argv)).message;
    const cents = '--min-price: must be a whole number of cents, at most 12 digits';
    expect(await said('search', ['--min-price', '9999999999999'])).toBe(cents);
    expect(await said('search', ['--min-price', '12.5'])).toBe(cents);
    expect(await said('search', ['--max-price', '9999999999999'])).toBe(cents.replace('--min-price', '--max-price'));
    expect(await said('search', ['--seed', '1234567890'])).toBe('--seed: must be a paint seed: a whole number, at most 9 digits');
    const limit = '--limit: must be a whole number from 1 to 1000000, without leading zeros';
    for (const value of ['0', '0100', '2000000']) expect(await said('search', ['--limit', value]), value).toBe(limit);
    const buy = (listing: string, maxPrice: string, amount = '1') =>
      said('buy', ['--base-url', 'http://127.0.0.1:9', '--listing', listing, '--max-price', maxPrice, '--amount', amount]);
    const rule = 'must be a positive integer of at most 15 digits, without leading zeros';
    expect(await buy('9999999999999999', '5')).toBe(`--listing: the listing id ${rule}`);
    expect(await buy('0123', '5')).toBe(`--listing: the listing id ${rule}`);
    expect(await buy('1', '9999999999999999')).toBe(`--max-price: the maximum price (cents per copy) ${rule}`);
    expect(await buy('1', '5', '0')).toBe(`--amount: the amount ${rule}`);
    const games = '--app-id: must be one of 730, 252490, 570, 440';
    for (const value of ['0730', '731', '+730', '99999999999999999999']) {
      expect(await said('book', ['--app-id', value]), value).toBe(games);
      expect(await said('sync', ['--base-url', 'http://127.0.0.1:9', '--app-id', value]), value).toBe(games);
    }
  });

  it('a number too long for a double is refused by the flag\'s range, never as "received Infinity"', async () => {
    const huge = '9'.repeat(400);
    const said = async (name: string, argv: string[]) => (await failure(name, argv)).message;
    expect(await said('search', ['--limit', huge])).toBe('--limit: must be a whole number from 1 to 1000000, without leading zeros');
    expect(await said('demo', ['--port', huge])).toBe('--port: must be from 0 to 65535');
    expect(await said('demo', ['--rate', huge])).toBe('--rate: must be from 0 to 1000000');
    expect(await said('demo', ['--reorder', `${huge}.5`])).toBe('--reorder: must be from 0 to 1');
    // no upper bound of their own: the value is taken (a duration or a speed-up beyond any use), not refused
    // in zod's words; with a bad flag beside it, only that flag is named
    expect(await said('sync', ['--base-url', 'ftp://x', '--duration', huge])).toBe('--base-url: must be an http(s) URL');
    expect(await said('demo', ['--time-scale', huge, '--port', 'x'])).toBe('--port: must be a whole number');
  });

  it("a length, count or size limit is said in the flag's words, never zod's", async () => {
    const said = async (name: string, argv: string[]) => (await failure(name, argv)).message;
    expect(await said('search', ['--name', 'x'.repeat(201)])).toBe('--name: must be at most 200 characters');
    expect(await said('sales', ['--name='])).toBe('--name: must not be empty');
    expect(await said('sync', ['--base-url', 'http://127.0.0.1:9', '--db='])).toBe('--db: must not be empty');
    expect(await said('search', ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((s) => ['--sticker', s]))).toBe('--sticker: may be given at most 5 times');
    expect(await said('search', Array.from({ length: 9 }, () => ['--phase', 'p1']).flat())).toBe('--phase: may be given at most 8 times');
    expect(await said('sync', ['--base-url', 'http://127.0.0.1:9', '--duration', '0'])).toBe('--duration: must be more than 0');
    expect(await said('demo', ['--time-scale', '0.0'])).toBe('--time-scale: must be more than 0');
    // a message the schema gives itself stays
    expect(await said('demo', ['--port', '70000'])).toBe('--port: must be from 0 to 65535');
  });

  it('a value that starts with a dash after its flag is one line that shows the spelling parseArgs takes', async () => {
    // parseArgs says it in three lines; the CLI's error is the first line of what it prints
    expect(await failure('buy', ['--base-url', 'http://127.0.0.1:9', '--listing', '1', '--max-price', '-5'])).toEqual({
      usage: true,
      message: "--max-price is missing its value ('-5' reads as a flag; a value that starts with a dash is written --max-price=-5)",
    });
    expect((await failure('sync', ['--base-url', 'http://127.0.0.1:9', '--duration', '-1'])).message).toBe(
      "--duration is missing its value ('-1' reads as a flag; a value that starts with a dash is written --duration=-1)",
    );
    // the spelling it names is taken: the value itself is then judged
    expect((await failure('search', ['--db', 'x.db', '--min-price=-5'])).message).toBe('--min-price: must be a whole number of cents, at most 12 digits');
    for (const [name, argv] of [
      ['demo', ['--seed', '-1']],
      ['search', ['--name', '-x']],
      ['status', ['-x']],
      ['status', ['--db']],
      ['watch', ['--auto-buy=yes']],
      ['book', ['extra']],
    ] as const) {
      expect((await failure(name, [...argv])).message, `${name} ${argv.join(' ')}`).not.toContain('\n');
    }
  });

  it('a --format the command does not print says which it does, in its own words', async () => {
    const said = async (name: string, argv: string[]) => (await failure(name, argv)).message;
    expect(await said('book', ['--format', 'xml'])).toBe('--format: must be jsonl or csv');
    expect(await said('sales', ['--format', 'json'])).toBe('--format: must be jsonl or csv');
    expect(await said('search', ['--format', 'csv'])).toBe('--format: must be jsonl');
  });

  it('a flag written with one dash is named whole, with the spelling that works', async () => {
    // parseArgs reads -db as the letters -d -b and names only '-d'
    expect(await failure('status', ['-db', 'x.db'])).toEqual({ usage: true, message: "Unknown option '-db': flags are written with two dashes (--db)" });
    expect((await failure('search', ['--db', 'x.db', '-limit=5'])).message).toBe("Unknown option '-limit=5': flags are written with two dashes (--limit=5)");
    expect((await failure('status', ['-x'])).message).toBe("Unknown option '-x'");
  });

  it('a rule over two flags is its own message', async () => {
    expect((await failure('sales', ['--db', 'x.db', '--since', '2026-02-01', '--until', '2026-01-01'])).message).toBe('--since must be before --until');
    expect((await failure('search', ['--db', 'x.db', '--min-price', '5', '--max-price', '1'])).message).toBe('--min-price: must not exceed --max-price');
    expect(() => parseFlags([], {}, z.strictObject({}).refine(() => false, { message: 'no' }))).toThrow(/^no$/);
  });

  it('demo: a whole number beyond the seq range is out of range, not "not a whole number"', async () => {
    for (const seq of ['99999999999999999999', (MAX_SEQ_START + 1n).toString()]) {
      expect(await failure('demo', ['--seq-start', seq])).toEqual({
        usage: true,
        message: `--seq-start: is out of range: at most ${MAX_SEQ_START} (the int64 maximum less room for the events that follow)`,
      });
    }
    expect((await failure('demo', ['--seq-start=-1'])).message).toBe('--seq-start: must be a whole number');
    // the other whole numbers of demo: beyond 2^53 too, only the flag's range (zod's "Too big: expected
    // int to be <=9007199254740991" came first)
    for (const [flag, range] of [
      ['--port', 'from 0 to 65535'],
      ['--listings', 'from 0 to 5000000'],
      ['--seed', 'from 0 to 4294967295'],
    ]) {
      expect((await failure('demo', [flag!, '99999999999999999999'])).message).toBe(`${flag}: must be ${range}`);
    }
    expect((await failure('demo', ['--port', '70000'])).message).toBe('--port: must be from 0 to 65535');
  });

  it.each(['status', 'book', 'search', 'sales'])('%s --db DIRECTORY says it is a directory', async (name) => {
    expect(await failure(name, ['--db', dir])).toEqual({
      usage: false,
      message: `${dir} is a directory: --db names the book's database file (e.g. ${join(dir, 'book.db')})`,
    });
  });

  it('sync --db DIRECTORY says it is a directory before anything starts', async () => {
    expect((await withKey(() => failure('sync', ['--base-url', 'http://127.0.0.1:9', '--db', dir]))).message).toMatch(/ is a directory: --db names/);
  });
});

describe("a --db naming another program's database", () => {
  const foreign = join(dir, 'foreign.db');
  const other = new Database(foreign);
  other.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ada')");
  other.close();
  const refusal = `${foreign} is not a Skindesk book (it holds other tables): --db names the book's database file`;
  const market = ['--base-url', 'http://127.0.0.1:9'];
  const watchlists = join(dir, 'foreign-watchlists.json');
  writeFileSync(watchlists, JSON.stringify([{ name: 'any', filter: {}, price: { kind: 'ceiling', max_price: 100 } }]));
  const untouched = () => {
    expect(existsSync(deskFileFor(foreign))).toBe(false);
    const db = new Database(foreign, { readonly: true });
    expect([db.pragma('user_version', { simple: true }), db.pragma('journal_mode', { simple: true })]).toEqual([0, 'delete']);
    expect(db.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual(['customers']);
    db.close();
  };

  it.each([
    ['sync', market],
    ['watch', [...market, '--watchlists', watchlists]],
    ['status', []],
    ['book', []],
    ['search', []],
    ['sales', []],
  ])('%s refuses it in plain words (exit 1), and writes nothing into it or beside it', async (name, args) => {
    let thrown: unknown = null;
    await withKey(() => command(name).run([...args, '--db', foreign])).catch((err: unknown) => (thrown = err));
    expect(thrown).not.toBeInstanceOf(UsageError);
    // what main.ts prints after "skindesk NAME: ", with exit 1
    expect(failureText(name, thrown)).toBe(refusal);
    untouched();
  });

  it('buy refuses it in its not_bought line, before a desk file is made beside it', async () => {
    const { code, line } = await buyLine(['--db', foreign]);
    expect(code).toBe(1);
    expect(line).toEqual({ status: 'not_bought', order_id: null, error: { kind: 'local', code: null, message: refusal } });
    untouched();
  });
});

describe('a database file SQLite cannot read, at the start of watch and buy', () => {
  const notADatabase = (file: string) => writeFileSync(file, Buffer.alloc(8192, 0x5a));
  const watchlists = join(dir, 'watchlists.json');
  writeFileSync(watchlists, JSON.stringify([{ name: 'any', filter: {}, price: { kind: 'ceiling', max_price: 100 } }]));

  it('watch names the damaged book and says what to do, as sync does', async () => {
    const book = join(dir, 'damaged-book.db');
    notADatabase(book);
    const { message } = await withKey(() => failure('watch', ['--base-url', 'http://127.0.0.1:9', '--watchlists', watchlists, '--db', book]));
    expect(message).toBe(
      'the book file is damaged (file is not a database): move it away (or delete it), then `skindesk sync` reads the book again',
    );
  });

  it('watch names the damaged desk file, and does not tell to delete the book', async () => {
    const book = join(dir, 'good-book.db');
    new Database(book).close();
    notADatabase(join(dir, 'good-book.desk.db'));
    const { message } = await withKey(() => failure('watch', ['--base-url', 'http://127.0.0.1:9', '--watchlists', watchlists, '--db', book]));
    expect(message).toMatch(/^the desk file .*good-book\.desk\.db is damaged \(file is not a database\): it holds the purchase journal/);
    expect(message).not.toMatch(/skindesk sync/);
  });

  it('buy names the damaged desk file in its not_bought line', async () => {
    const book = join(dir, 'buy-book.db');
    notADatabase(join(dir, 'buy-book.desk.db'));
    const { code, line } = await buyLine(['--db', book]);
    expect(code).toBe(1);
    expect(line.status).toBe('not_bought');
    expect(line.error.kind).toBe('local');
    expect(line.error.message).toMatch(/^the desk file .*buy-book\.desk\.db is damaged \(file is not a database\)/);
  });
});

describe('a refused or failed request, in the words main.ts prints after "skindesk NAME: "', () => {
  const route = 'GET /public/v1/book';
  it('is plain words, with the spec’s code when the marketplace sent one, never the request line', () => {
    const said = (init: Omit<ConstructorParameters<typeof ApiError>[0], 'route'>) => failureText('sync', new ApiError({ route, ...init }));
    expect(said({ kind: 'api', status: 401, code: 'UNAUTHORIZED', message: `${route}: UNAUTHORIZED (HTTP 401) — bad key` })).toBe(
      'the API key is missing, wrong or revoked (UNAUTHORIZED)',
    );
    expect(said({ kind: 'api', status: 404, message: `${route}: HTTP 404` })).toBe(
      'the marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong)',
    );
    expect(said({ kind: 'api', status: 400, code: 'BOOK_PAUSED', serverMessage: 'maintenance', message: `${route}: BOOK_PAUSED (HTTP 400) — maintenance` })).toBe(
      'the marketplace refused the request with the code BOOK_PAUSED (“maintenance”)',
    );
    expect(said({ kind: 'server', status: 502, message: `${route}: HTTP 502` })).toBe('the marketplace is failing on its side (a server error)');
  });

  it('buy: the not_bought line’s message is plain words, its kind and code stay beside it', async () => {
    const book = join(dir, 'unreachable-book.db');
    const { code, line } = await buyLine(['--db', book]);
    expect(code).toBe(1);
    expect(line).toEqual({
      status: 'not_bought',
      order_id: null,
      error: { kind: 'network', code: null, message: expect.stringMatching(/^the marketplace could not be reached \(ECONNREFUSED: /) },
    });
    expect(line.error.message).not.toMatch(/\/public\/v1|POST/);
  });
});

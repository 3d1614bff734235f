/**
 * `skindesk book`: the mirrored book, sorted by id, one listing per line with the lean fields of the
 * spec (`id, app_id, market_hash_name, price, amount, commodity, created_at`) as JSON lines or CSV. Reads
 * through a read-only connection, so it works while `skindesk sync` writes.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { defaultDatabaseFile } from '../../core/paths.ts';
import { iterateBook, openDatabase, type Db } from '../../core/store/index.ts';
import { APP_IDS } from '../../shared/api/index.ts';
import { parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';

export const LEAN_COLUMNS = ['id', 'app_id', 'market_hash_name', 'price', 'amount', 'commodity', 'created_at'] as const;

/** `--app-id N`: one of the four games. */
export const appIdFlag = z
  .string()
  .regex(/^[1-9]\d*$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => (APP_IDS as readonly number[]).includes(n), { message: `must be one of ${APP_IDS.join(', ')}` });

/** Opens the book read-only: the given file, or the app's database in its data folder. */
export function openBookDb(file: string | undefined): Db {
  const path = file ?? defaultDatabaseFile();
  if (!existsSync(path)) throw new Error(`there is no book at ${path}: run \`skindesk sync\` first (or pass --db)`);
  return openDatabase(path, { readonly: true });
}

/** Writes to stdout honouring back-pressure; a closed pipe (`| head`) ends the output quietly. */
export class StdoutWriter {
  #closed = false;
  constructor() {
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') this.#closed = true;
      else throw err;
    });
  }
  get closed(): boolean {
    return this.#closed;
  }
  async write(text: string): Promise<void> {
    if (this.#closed || text === '') return;
    // A closed pipe rejects the wait for 'drain' (and sets #closed through the listener above).
    if (!process.stdout.write(text)) await once(process.stdout, 'drain').catch(() => {});
  }
}

const flags: FlagSpec = {
  db: { type: 'string' },
  'app-id': { type: 'string' },
  format: { type: 'string' },
};

const schema = z.strictObject({
  db: z.string().min(1).optional(),
  'app-id': appIdFlag.optional(),
  format: z.enum(['jsonl', 'csv']).default('jsonl'),
});

export const bookCommand: CliCommand = {
  name: 'book',
  summary: 'print the mirrored book sorted by id (JSON lines or CSV)',
  usage: [
    'Usage: skindesk book --db FILE [--app-id N] [--format jsonl|csv]',
    '',
    'Prints every live listing of the local book, sorted by id, with the lean fields',
    `${LEAN_COLUMNS.join(', ')}.`,
    '',
    "  --db FILE           the book database (default: the app's database in its data folder)",
    '  --app-id N          only one game (730, 252490, 570 or 440)',
    '  --format jsonl|csv  one JSON object per line (default), or CSV with a header row',
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    const db = openBookDb(opts.db);
    const out = new StdoutWriter();
    try {
      const rows = iterateBook(db, opts['app-id'] === undefined ? {} : { appId: opts['app-id'] });
      let chunk: string[] = [];
      if (opts.format === 'csv') chunk.push(stringify([LEAN_COLUMNS as unknown as string[]]));
      for (const r of rows) {
        const lean = {
          id: r.id,
          app_id: r.app_id,
          market_hash_name: r.market_hash_name,
          price: r.price,
          amount: r.amount,
          commodity: r.commodity,
          created_at: r.created_at,
        };
        chunk.push(
          opts.format === 'csv'
            ? stringify([LEAN_COLUMNS.map((c) => lean[c])], { cast: { boolean: (v) => (v ? 'true' : 'false') } })
            : `${JSON.stringify(lean)}\n`,
        );
        if (chunk.length >= 2_000) {
          await out.write(chunk.join(''));
          chunk = [];
          if (out.closed) break;
        }
      }
      await out.write(chunk.join(''));
      return 0;
    } finally {
      db.close();
    }
  },
};

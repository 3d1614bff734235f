/**
 * `skindesk book`: the mirrored book, sorted by id, one listing per line with the lean fields of the
 * spec (`id, app_id, market_hash_name, price, amount, commodity, created_at`) as JSON lines or CSV. Reads
 * through a read-only connection, so it works while `skindesk sync` writes.
 */
import { z } from 'zod';
import { LEAN_COLUMNS } from '../../core/export/view-export.ts';
import { iterateBook } from '../../core/store/index.ts';
import { parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { MIRROR_FLAGS, formatFlag, mirrorFlagShape, printRows, readMirror } from '../mirror-output.ts';

const flags: FlagSpec = { ...MIRROR_FLAGS, format: { type: 'string' } };
const schema = z.strictObject({ ...mirrorFlagShape, format: formatFlag('jsonl', 'csv') });

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
    // iterateBook yields exactly the lean fields, in the spec's order
    await readMirror(opts.db, (db) =>
      printRows(
        iterateBook(db, opts['app-id'] === undefined ? {} : { appId: opts['app-id'] }),
        LEAN_COLUMNS,
        opts.format,
      ),
    );
    return 0;
  },
};

/**
 * `skindesk status`: one JSON object describing the local book — `last_seq` (a decimal string: int64
 * does not fit a JSON number), `listings`, `detailed`, `tombstones`, `last_snapshot_at`, `resyncs`,
 * `divergence_repaired`.
 */
import { z } from 'zod';
import { readStatus } from '../../core/store/index.ts';
import { parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { DB_FLAG, dbFlagShape, readMirror } from '../mirror-output.ts';
import { writeLine } from '../stdout.ts';

const flags: FlagSpec = DB_FLAG;
const schema = z.strictObject(dbFlagShape);

export const statusCommand: CliCommand = {
  name: 'status',
  summary: 'print the state of the local book as one JSON object',
  usage: [
    'Usage: skindesk status --db FILE',
    '',
    'Prints {"last_seq","listings","detailed","tombstones","last_snapshot_at","resyncs","divergence_repaired"}.',
    'last_seq is a decimal string (an int64); last_snapshot_at an ISO time; both null before the first sync.',
    '',
    "  --db FILE   the book database (default: the app's database in its data folder)",
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    const status = await readMirror(opts.db, readStatus);
    writeLine(JSON.stringify(status));
    return 0;
  },
};

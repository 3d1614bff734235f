/**
 * `skindesk search`: the query engine from the command line — the same filters, sorts and keyset paging
 * the app's book grid uses — printing matching listings as JSON lines (lean fields plus float, seed,
 * paint index, fade, blue, StatTrak, souvenir, stickers and keychains when their details are known).
 */
import { z } from 'zod';
import { rowsText } from '../../core/export/row-text.ts';
import { BOOK_ROW_COLUMNS, bookPages } from '../../core/export/view-export.ts';
import { BOOK_SORT_FIELDS, type BookFilter } from '../../shared/query.ts';
import { digitsToNumber, parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { MIRROR_FLAGS, floatFlag, formatFlag, mirrorFlagShape, nameFlag, phasesFlag, readMirror } from '../mirror-output.ts';
import { stdoutGone, writeOut } from '../stdout.ts';

/** The natural direction of each sort: cheapest, lowest float, newest, highest fade and blue. */
const DEFAULT_DIRECTION: Record<(typeof BOOK_SORT_FIELDS)[number], 'asc' | 'desc'> = {
  price: 'asc',
  float: 'asc',
  created_at: 'desc',
  fade: 'desc',
  blue: 'desc',
  id: 'asc',
};

const cents = z
  .string()
  .regex(/^\d{1,12}$/, 'must be a whole number of cents, at most 12 digits')
  .transform(Number);
const sort = z
  .string()
  .regex(new RegExp(`^(${BOOK_SORT_FIELDS.join('|')})(:(asc|desc))?$`), `must be one of ${BOOK_SORT_FIELDS.join(', ')}, optionally :asc or :desc`)
  .transform((v) => {
    const [field, dir] = v.split(':') as [(typeof BOOK_SORT_FIELDS)[number], 'asc' | 'desc' | undefined];
    return { field, dir: dir ?? DEFAULT_DIRECTION[field] };
  });

export const SEARCH_MAX_LIMIT = 1_000_000;
/** What --limit takes, said whichever part of it a value breaks (a 0, a leading zero, too many). */
const LIMIT_RULE = `must be a whole number from 1 to ${SEARCH_MAX_LIMIT}, without leading zeros`;

const flags: FlagSpec = {
  ...MIRROR_FLAGS,
  name: { type: 'string' },
  'min-price': { type: 'string' },
  'max-price': { type: 'string' },
  'float-min': { type: 'string' },
  'float-max': { type: 'string' },
  seed: { type: 'string', multiple: true },
  phase: { type: 'string', multiple: true },
  sticker: { type: 'string', multiple: true },
  sort: { type: 'string' },
  limit: { type: 'string' },
  format: { type: 'string' },
};

const schema = z
  .strictObject({
    ...mirrorFlagShape,
    name: nameFlag.optional(),
    'min-price': cents.optional(),
    'max-price': cents.optional(),
    'float-min': floatFlag.optional(),
    'float-max': floatFlag.optional(),
    seed: z
      .array(z.string().regex(/^\d{1,9}$/, 'must be a paint seed: a whole number, at most 9 digits').transform(Number))
      .max(1000)
      .optional(),
    phase: phasesFlag.optional(),
    sticker: z.array(z.string().min(1).max(200)).max(5).optional(),
    sort: sort.optional(),
    limit: z
      .string()
      .regex(/^[1-9]\d*$/, LIMIT_RULE)
      .transform(digitsToNumber)
      .pipe(z.number().max(SEARCH_MAX_LIMIT, LIMIT_RULE))
      .default(100),
    format: formatFlag('jsonl'),
  })
  .refine((o) => o['min-price'] === undefined || o['max-price'] === undefined || o['min-price'] <= o['max-price'], {
    message: 'must not exceed --max-price',
    path: ['min-price'],
  })
  .refine((o) => o['float-min'] === undefined || o['float-max'] === undefined || o['float-min'] <= o['float-max'], {
    message: 'must not exceed --float-max',
    path: ['float-min'],
  });

export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'search the local book with the query engine (JSON lines)',
  usage: [
    'Usage: skindesk search --db FILE [--app-id N] [--name S] [--min-price C] [--max-price C]',
    '                       [--float-min X] [--float-max X] [--seed N]... [--phase P]... [--sticker S]...',
    '                       [--sort FIELD] [--limit N] [--format jsonl]',
    '',
    "  --db FILE          the book database (default: the app's database in its data folder)",
    '  --app-id N         one game (730, 252490, 570 or 440)',
    '  --name S           case-insensitive part of the market hash name',
    '  --min-price C      lowest price, in cents',
    '  --max-price C      highest price, in cents',
    '  --float-min X      lowest float (paint wear, 0 to 1)',
    '  --float-max X      highest float',
    '  --seed N           paint seed; repeat for several (any of them matches)',
    '  --phase P          Doppler / Gamma Doppler phase (Phase 1…4 or p1…p4, Ruby, Sapphire, Black Pearl,',
    '                     Emerald); repeat for several (any of them matches)',
    '  --sticker S        part of a sticker name; repeat to require several stickers',
    `  --sort FIELD       ${BOOK_SORT_FIELDS.join(', ')} (default created_at); add :asc or :desc to turn it`,
    '                     (defaults: price and float ascending, created_at, fade and blue descending)',
    `  --limit N          at most N listings (default 100, up to ${SEARCH_MAX_LIMIT})`,
    '  --format jsonl     one JSON object per line',
    '',
    'Filters on float, seed, phase and stickers match only listings whose details are in the book',
    '(see `skindesk status`: detailed). Sorting by float, fade or blue lists only listings that have one.',
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    const filter: BookFilter = {};
    if (opts['app-id'] !== undefined) filter.app_id = opts['app-id'] as BookFilter['app_id'];
    if (opts.name !== undefined) filter.name = opts.name;
    if (opts['min-price'] !== undefined || opts['max-price'] !== undefined) {
      filter.price = { min: opts['min-price'], max: opts['max-price'] };
    }
    if (opts['float-min'] !== undefined || opts['float-max'] !== undefined) {
      filter.float = { min: opts['float-min'], max: opts['float-max'] };
    }
    if (opts.seed) filter.paint_seeds = opts.seed;
    if (opts.phase) filter.phases = [...new Set(opts.phase)];
    if (opts.sticker) filter.stickers = { all: opts.sticker.map((name) => ({ name })) };
    await readMirror(opts.db, async (db) => {
      // Every page from one moment of the book, as `skindesk book` reads it in one statement: the pages
      // are queries of their own, and `skindesk sync` commits between them (a listing repriced from one
      // page's range to a later one's was printed twice, one moved the other way not at all).
      db.exec('BEGIN');
      try {
        for (const rows of bookPages(db, { filter, ...(opts.sort ? { sort: opts.sort } : {}) }, opts.limit)) {
          await writeOut(rowsText(rows, BOOK_ROW_COLUMNS, 'jsonl'));
          if (stdoutGone()) break;
        }
      } finally {
        db.exec('COMMIT');
      }
    });
    return 0;
  },
};

/**
 * `skindesk sales`: the sold history the mirror recorded (every `listing.sold` it applied), oldest first,
 * with the item's float, seed, paint index and stickers when known — as JSON lines or CSV, to study
 * prices beyond the marketplace's own short sales window.
 */
import { z } from 'zod';
import { SALE_COLUMNS, iterateSales } from '../../core/store/index.ts';
import { parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { MIRROR_FLAGS, floatFlag, formatFlag, mirrorFlagShape, nameFlag, phasesFlag, printRows, readMirror } from '../mirror-output.ts';

/** A date (2026-11-01, midnight UTC) or an ISO time with its zone; anything else is refused. */
const time = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/,
    'must be a date (YYYY-MM-DD) or an ISO time with its zone',
  )
  .transform((v, ctx) => {
    const ms = Date.parse(v);
    // Date.parse rolls 2026-02-30 over to March: the calendar day must exist as typed
    const [y, m, d] = v.slice(0, 10).split('-').map(Number) as [number, number, number];
    const day = new Date(Date.UTC(y, m - 1, d));
    if (Number.isNaN(ms) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d)
      ctx.addIssue({ code: 'custom', message: 'is not a real date' });
    return ms;
  });

const flags: FlagSpec = {
  ...MIRROR_FLAGS,
  name: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'float-min': { type: 'string' },
  'float-max': { type: 'string' },
  phase: { type: 'string', multiple: true },
  format: { type: 'string' },
};

const schema = z
  .strictObject({
    ...mirrorFlagShape,
    name: nameFlag.optional(),
    since: time.optional(),
    until: time.optional(),
    'float-min': floatFlag.optional(),
    'float-max': floatFlag.optional(),
    phase: phasesFlag.optional(),
    format: formatFlag('jsonl', 'csv'),
  })
  .refine((o) => o.since === undefined || o.until === undefined || o.since < o.until, {
    message: '--since must be before --until',
  })
  .refine((o) => o['float-min'] === undefined || o['float-max'] === undefined || o['float-min'] <= o['float-max'], {
    message: '--float-min must not exceed --float-max',
  });

export const salesCommand: CliCommand = {
  name: 'sales',
  summary: 'print the sold history the local book recorded (JSON lines or CSV)',
  usage: [
    'Usage: skindesk sales --db FILE [--app-id N] [--name S] [--since TIME] [--until TIME]',
    '                      [--float-min X] [--float-max X] [--phase P]... [--format jsonl|csv]',
    '',
    'Prints every sale the mirror saw (listing.sold), oldest first, with the fields',
    `${SALE_COLUMNS.join(', ')}.`,
    'price is per copy, in cents; float, seed, paint index and stickers are null when the item was never detailed.',
    '',
    "  --db FILE           the book database (default: the app's database in its data folder)",
    '  --app-id N          only one game (730, 252490, 570 or 440)',
    '  --name S            item names containing S (case-insensitive)',
    '  --since TIME        sales at or after TIME (2026-11-01 or 2026-11-01T12:00:00Z)',
    '  --until TIME        sales before TIME',
    '  --float-min X       lowest float (paint wear, 0 to 1); float and phase match only sales of items',
    '  --float-max X       highest float                     whose details the mirror had',
    '  --phase P           Doppler / Gamma Doppler phase (Phase 1…4 or p1…p4, Ruby, Sapphire, Black Pearl,',
    '                      Emerald); repeat for several (any of them matches)',
    '  --format jsonl|csv  one JSON object per line (default), or CSV with a header row (stickers as JSON)',
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    const filter = {
      ...(opts['app-id'] !== undefined ? { appId: opts['app-id'] } : {}),
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      ...(opts.since !== undefined ? { sinceMs: opts.since } : {}),
      ...(opts.until !== undefined ? { untilMs: opts.until } : {}),
      ...(opts['float-min'] !== undefined || opts['float-max'] !== undefined
        ? { float: { min: opts['float-min'] ?? 0, max: opts['float-max'] ?? 1 } }
        : {}),
      ...(opts.phase ? { phases: [...new Set(opts.phase)] } : {}),
    };
    await readMirror(opts.db, (db) => printRows(iterateSales(db, filter), SALE_COLUMNS, opts.format));
    return 0;
  },
};

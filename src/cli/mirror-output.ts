/**
 * What the commands that read the local mirror share (`book`, `status`, `search`, `sales`; `sync` takes
 * `--app-id` too): the common flags, opening the file read-only for the length of a command, and
 * printing rows to stdout with back-pressure.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiError, failureReason } from '../core/api/errors.ts';
import { type RowFormat, headerText, rowsText } from '../core/export/row-text.ts';
import { defaultDatabaseFile } from '../core/paths.ts';
import { damagedFileOf, isDamagedDatabaseError } from '../core/store/damage.ts';
import { NotABookError, openDatabase, type Db } from '../core/store/index.ts';
import { APP_IDS } from '../shared/api/index.ts';
import { DOPPLER_PHASES, type DopplerPhase, parsePhase } from '../shared/phases.ts';
import type { FlagSpec } from './args.ts';
import { stdoutGone, writeOut } from './stdout.ts';

/** `--app-id N`: one of the four games, written as listed (`0730` too is answered with the list). */
export const appIdFlag = z
  .string()
  .refine((v) => APP_IDS.map(String).includes(v), { message: `must be one of ${APP_IDS.join(', ')}` })
  .transform(Number);

/**
 * Refuses a book path that is a directory, in those words: SQLite would only say "disk I/O error" (read
 * only) or "unable to open database file".
 */
export function refuseDirectory(path: string): void {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`${path} is a directory: --db names the book's database file (e.g. ${join(path, 'book.db')})`);
}

/** Opens the book read-only: the given file, or the app's database in its data folder. */
export function openBookDb(file: string | undefined): Db {
  const path = file ?? defaultDatabaseFile();
  if (!existsSync(path))
    throw new Error(`there is no book at ${path}: run \`skindesk sync\` first (or pass --db)`);
  refuseDirectory(path);
  return openDatabase(path, { readonly: true });
}

/** The commands that read or write the book file alone: a damage there is the book's. */
const BOOK_COMMANDS = new Set(['sync', 'book', 'status', 'search', 'sales']);

/**
 * A command's failure in words. A damaged database file (SQLite's "file is not a database", "database disk
 * image is malformed") says what to do: the book is a copy of the market, read again by `skindesk sync`.
 */
export function failureText(command: string, err: unknown): string {
  // a refused or failed request: plain words, the network's reason and the spec's code (not the request line)
  if (err instanceof ApiError) return failureReason(err, { withCause: true, withCode: true });
  // every command that opens the book takes it from --db (or its default): the likely slip
  if (err instanceof NotABookError) return `${err.message}: --db names the book's database file`;
  const message = err instanceof Error ? err.message : String(err);
  if (!isDamagedDatabaseError(err)) return message;
  return BOOK_COMMANDS.has(command) ? damagedBookText(message) : `a database file is damaged (${message})`;
}

const damagedBookText = (reason: string) =>
  `the book file is damaged (${reason}): move it away (or delete it), then \`skindesk sync\` reads the book again`;

/**
 * For a command that opens the book with its desk attached (`watch`), or the desk alone (`buy`): which
 * of the two files SQLite cannot read, in words that say what to do — the book is read again by
 * `skindesk sync`; the desk (purchase journal, watchlists) is the trader's own and never replaced on its
 * own. Null when the error is not a damaged file, or neither file shows the damage.
 */
export function damagedFileText(bookPath: string, err: unknown): string | null {
  if (!isDamagedDatabaseError(err)) return null;
  const reason = err instanceof Error ? err.message : String(err);
  const damaged = damagedFileOf(bookPath);
  if (damaged === null) return null;
  return damaged.which === 'book' ? damagedBookText(reason) : damagedDeskText(damaged.file, reason);
}

/** The desk file SQLite cannot read: named, and never to be deleted lightly (it holds the journal). */
export function damagedDeskText(desk: string, reason: string): string {
  return (
    `the desk file ${desk} is damaged (${reason}): it holds the purchase journal and the watchlists, so ` +
    'it is never replaced on its own: move it away to start with an empty one (or put back a copy), then run the command again'
  );
}

/**
 * Prints rows as JSON lines, or as CSV with a header row (see rowsText), in chunks that honour
 * back-pressure; stops early on a closed pipe.
 */
export async function printRows<C extends string>(
  rows: Iterable<Record<C, unknown>>,
  columns: readonly C[],
  format: RowFormat,
): Promise<void> {
  await writeOut(headerText(columns, format));
  let chunk: Record<C, unknown>[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length >= 2_000) {
      await writeOut(rowsText(chunk, columns, format));
      chunk = [];
      if (stdoutGone()) return;
    }
  }
  await writeOut(rowsText(chunk, columns, format));
}

/** `--db FILE`, the mirror every reading command opens. */
export const DB_FLAG = { db: { type: 'string' } } as const satisfies FlagSpec;
export const dbFlagShape = { db: z.string().min(1).optional() };
/** `--db FILE` and `--app-id N`, as the commands that read listings take them. */
export const MIRROR_FLAGS = { ...DB_FLAG, 'app-id': { type: 'string' } } as const satisfies FlagSpec;
export const mirrorFlagShape = { ...dbFlagShape, 'app-id': appIdFlag.optional() };
/**
 * `--format`: the row formats a command prints, the first the default; anything else is refused in the
 * flag's words ("must be jsonl or csv"), not zod's (`Invalid option: expected one of "jsonl"|"csv"`).
 */
export const formatFlag = (...formats: [RowFormat, ...RowFormat[]]) =>
  z.enum(formats, { error: `must be ${formats.join(' or ')}` }).default(formats[0]);

/** `--name S`: a case-insensitive substring of the item name. */
export const nameFlag = z.string().min(1).max(200);

/** `--float-min X` / `--float-max X`: a float (paint wear) from 0 to 1. */
export const floatFlag = z
  .string()
  .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, 'must be a number from 0 to 1')
  .transform(Number);

/** `--phase P`, repeatable: Doppler phases by any of their names (`p2`, `Phase 2`, `ruby`, `black-pearl`). */
export const phasesFlag = z
  .array(
    z.string().transform((text, ctx): DopplerPhase => {
      const parsed = parsePhase(text);
      if (parsed === null) {
        ctx.addIssue({ code: 'custom', message: `must be a Doppler phase: ${DOPPLER_PHASES.join(', ')} (or p1…p4)` });
        return z.NEVER;
      }
      return parsed;
    }),
  )
  .max(DOPPLER_PHASES.length);

/** Runs `read` on the mirror opened read-only (works while `skindesk sync` writes), then closes it. */
export async function readMirror<T>(file: string | undefined, read: (db: Db) => T | Promise<T>): Promise<T> {
  const db = openBookDb(file);
  try {
    return await read(db);
  } finally {
    db.close();
  }
}

/**
 * The app's small JSON files (settings, trade feed settings, the market screens' presets): read against a
 * schema, written atomically (a temporary file renamed over the old one, so a crash leaves the old file or
 * the new one, never half of either).
 *
 * A missing file gives the defaults. So does a damaged one (not JSON, or not what the schema allows), but
 * it is renamed aside first, as `<file>.damaged-<time>`: the next save would otherwise overwrite what it
 * held (saved presets, say) without anyone having seen the problem. The caller reports `problem` once.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import { setAsideDamagedFile } from '../store/damage.ts';

export interface JsonFileRead<T> {
  value: T;
  /** What went wrong, in words for the user; null when the file was read or did not exist yet. */
  problem: string | null;
}

/** Reads `file` as `schema`; `what` names its content for the problem ("settings", "filter presets"). */
export function readJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  defaults: T,
  what: string,
): JsonFileRead<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { value: defaults, problem: null };
    return {
      value: defaults,
      problem: `The ${what} could not be read (${(err as Error).message}); defaults are used.`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return setAside(file, defaults, what, 'it is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { value: parsed.data, problem: null };
  return setAside(file, defaults, what, 'it holds values this version does not accept');
}

function setAside<T>(file: string, defaults: T, what: string, why: string): JsonFileRead<T> {
  const aside = setAsideDamagedFile(file);
  return {
    value: defaults,
    problem: `The ${what} file ${basename(file)} was damaged (${why}); defaults are used. The file was kept as ${basename(aside)}.`,
  };
}

export function writeJsonFileAtomically(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}

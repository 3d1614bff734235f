/**
 * Flag parsing for every `skindesk` command: node:util parseArgs for the syntax, then a zod schema per
 * command for the values, so a bad flag is a clear message and exit code 2, never a half-run command.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<S extends z.ZodType>(argv: string[], options: FlagSpec, schema: S): z.infer<S> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `--${i.path.join('.') || '?'}: ${i.message}`).join('; ');
    throw new UsageError(msg);
  }
  return parsed.data;
}

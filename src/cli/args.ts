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
  let tokens: { kind: string; name?: string }[];
  try {
    ({ values, tokens } = parseArgs({ args: argv, options, strict: true, allowPositionals: false, tokens: true }));
  } catch (err) {
    throw new UsageError(syntaxProblem((err as Error).message, argv));
  }
  // parseArgs keeps the last of a repeated flag: `--app-id 730 --app-id 570` would silently mean 570.
  // Only the flags the usage marks with `...` (`multiple` in their spec) may be repeated. (A repeated
  // switch such as --auto-buy means the same either way and stays allowed.)
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const spec = options[token.name];
    if (spec?.type !== 'string' || spec.multiple) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} may be given once`);
    seen.add(token.name);
  }
  const parsed = schema.safeParse(values, { error: plainLimit });
  if (!parsed.success) {
    // one message per problem, each said once (two bad values of a repeatable flag are one problem)
    throw new UsageError([...new Set(parsed.error.issues.map((i) => flagProblem(i, values)))].join('; '));
  }
  return parsed.data;
}

/**
 * A flag's digits as a number for the range check after it. Over 309 digits Number() gives Infinity,
 * which zod refuses in its own words ("expected number, received Infinity") before the flag's range
 * is looked at; as the largest double it meets that range (or, with no maximum, is taken as huge).
 */
export const digitsToNumber = (text: string): number => Math.min(Number(text), Number.MAX_VALUE);

/**
 * parseArgs' own message, on one line: the command's error is the first line of what it prints, so a
 * script that reads that line gets all of it. The one message of several lines is a flag followed by a
 * value that starts with a dash (`--max-price -5`, `--name -x`), which parseArgs will not take as the
 * value; it is said with the spelling that does.
 */
function syntaxProblem(message: string, argv: readonly string[]): string {
  const ambiguous = /^Option '(--[^']+)' argument is ambiguous\./.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1]!;
    const value = argv[argv.indexOf(flag) + 1] ?? '-…';
    return `${flag} is missing its value ('${value}' reads as a flag; a value that starts with a dash is written ${flag}=${value})`;
  }
  // `-db`: parseArgs reads one-dash words as single letters and names only the first ('-d')
  const letter = /^Unknown option '-([^-])'/.exec(message)?.[1];
  const word = argv.find((a) => a.length > 2 && a.startsWith(`-${letter}`) && !a.startsWith('--'));
  if (letter !== undefined && word !== undefined) {
    return `Unknown option '${word}': flags are written with two dashes (-${word})`;
  }
  return message.replace(/\s*\n\s*/g, ' ');
}

/**
 * A size or length limit in a flag's words, where zod's own would show ("Too big: expected array to have
 * <=5 items"). Only where the schema gave no message of its own: a per-parse map comes after those.
 */
function plainLimit(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return undefined;
  const small = issue.code === 'too_small';
  const bound = String(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'string':
      if (small && bound === '1') return 'must not be empty';
      return `must be at ${small ? 'least' : 'most'} ${bound} characters`;
    case 'array':
      return small ? `must be given at least ${bound} times` : `may be given at most ${bound} times`;
    case 'number':
      if (issue.inclusive === false) return `must be ${small ? 'more' : 'less'} than ${bound}`;
      return `must be at ${small ? 'least' : 'most'} ${bound}`;
    default:
      return undefined;
  }
}

/**
 * A validation issue in the words of the command line: "--max-price is required" for a flag that is
 * missing, "--seed: must be …" for a bad value (also of a repeatable flag, whatever its position), and
 * the message alone for a rule over several flags (it names them itself).
 */
function flagProblem(issue: z.core.$ZodIssue, values: Record<string, unknown>): string {
  const key = issue.path[0];
  if (key === undefined) return issue.message;
  const flag = `--${String(key)}`;
  if (values[String(key)] === undefined) return `${flag} is required`;
  return `${flag}: ${issue.message}`;
}

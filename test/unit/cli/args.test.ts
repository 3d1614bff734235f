import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UsageError, parseFlags, type FlagSpec } from '../../../src/cli/args.ts';
import { COMMANDS } from '../../../src/cli/commands/index.ts';

const options: FlagSpec = {
  db: { type: 'string' },
  'app-id': { type: 'string' },
  seed: { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
};
const schema = z.strictObject({
  db: z.string().optional(),
  'app-id': z.string().optional(),
  seed: z.array(z.string()).optional(),
  quiet: z.boolean().optional(),
});

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error('no usage error');
}

describe('skindesk flag parsing', () => {
  it('refuses a one-value flag given twice, naming it, in every spelling', () => {
    for (const [argv, flag] of [
      [['--app-id', '730', '--app-id', '570'], 'app-id'],
      [['--app-id=730', '--app-id', '570'], 'app-id'],
      [['--db', 'a.db', '--seed', '1', '--db=b.db'], 'db'],
      [['--app-id', '730', '--app-id', '730'], 'app-id'],
    ] as const) {
      expect(usageError(() => parseFlags([...argv], options, schema)), argv.join(' ')).toBe(`--${flag} may be given once`);
    }
  });

  it('keeps repeatable flags (multiple) and repeated switches working', () => {
    expect(parseFlags(['--seed', '1', '--seed', '2', '--quiet', '--quiet', '--db', 'a.db'], options, schema)).toEqual({
      seed: ['1', '2'],
      quiet: true,
      db: 'a.db',
    });
  });

  // The contract: a flag the usage marks with `...` may be repeated, any other flag taking a value may not.
  it.each(COMMANDS.map((c) => [c.name, c] as const))('%s: exactly the flags its usage marks with ... may be repeated', async (_name, command) => {
    const synopsis = command.usage.slice(0, command.usage.indexOf('\n\n'));
    const repeatable = [...synopsis.matchAll(/\[--([a-z-]+) [^\]]+\]\.\.\./g)].map((m) => m[1]!);
    const valued = [...synopsis.matchAll(/--([a-z-]+) [A-Z]/g)].map((m) => m[1]!);
    expect(valued.length).toBeGreaterThan(0);
    for (const flag of valued) {
      // a repeatable flag is accepted, so make the run fail validation anyway (an empty --db: every
      // command with a repeatable flag reads or writes the book) and nothing runs
      const argv = [`--${flag}`, 'x', `--${flag}`, 'x', ...(repeatable.includes(flag) ? ['--db', ''] : [])];
      const failure = await command.run(argv).then(
        () => 'ran',
        (err: unknown) => (err instanceof UsageError ? err.message : `not a usage error: ${String(err)}`),
      );
      if (repeatable.includes(flag)) expect(failure, flag).not.toMatch(/may be given once|^ran$|not a usage error/);
      else expect(failure, flag).toBe(`--${flag} may be given once`);
    }
  });
});

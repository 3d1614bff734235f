import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/args.ts';
import { watchCommand } from '../../../src/cli/commands/watch.ts';

const dir = mkdtempSync(join(tmpdir(), 'skindesk-watchlists-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `skindesk watch` says about a watchlists file (it fails before anything starts). */
async function problem(content: unknown): Promise<string> {
  const file = join(dir, 'watchlists.json');
  writeFileSync(file, JSON.stringify(content));
  const err = await watchCommand.run(['--base-url', 'http://127.0.0.1:9', '--watchlists', file, '--db', join(dir, 'book.db')]).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  const prefix = `--watchlists: ${file} does not hold valid watchlists: `;
  expect((err as Error).message.startsWith(prefix), (err as Error).message).toBe(true);
  return (err as Error).message.slice(prefix.length);
}

const cheap = { name: 'cheap', filter: {}, price: { kind: 'ceiling', max_price: 100 } };

describe('skindesk watch: an invalid watchlists file names every problem', () => {
  it('an unknown price kind: which watchlist, which field, what is allowed (both shapes of the file)', async () => {
    const bad = { name: 'Howl', filter: {}, price: { kind: 'nope' } };
    const expected = 'watchlist 2 ("Howl"): price.kind: must be one of "ceiling", "below", not "nope"';
    expect(await problem([cheap, bad])).toBe(expected);
    expect(await problem({ watchlists: [cheap, bad] })).toBe(expected);
  });

  it('several problems, each with its place; a missing field is "required"', async () => {
    expect(
      await problem([
        { filter: {}, price: { kind: 'below', reference: 'average_30d', percent: 100 } },
        { ...cheap, auto_buy: { mode: 'always' } },
        { ...cheap, name: 'c', price: {} },
      ]),
    ).toBe(
      [
        'watchlist 1: name: is required',
        'watchlist 1: price.percent: Too big: expected number to be <100',
        'watchlist 2 ("cheap"): auto_buy.mode: must be one of "off", "confirm", "auto", not "always"',
        'watchlist 3 ("c"): price.kind: must be one of "ceiling", "below" (it is missing)',
      ].join('; '),
    );
  });

  it('a file of neither shape says what the shapes are', async () => {
    const shapes = 'the file must hold an array of watchlists, or {"watchlists": [...]}';
    expect(await problem({ watchlist: [cheap] })).toBe(shapes);
    expect(await problem(5)).toBe(shapes);
  });
});

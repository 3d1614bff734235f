// Proves the layering rules in eslint.config.js fire: each fixture under test/fixtures/lint/ is linted
// as if it lived at the same path under the repository root, with the project's real ESLint config.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const fixtures = join(root, 'test/fixtures/lint');
const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });

/** Lints a fixture at its virtual path and returns the no-restricted-imports messages. */
async function restrictedImports(fixture: string): Promise<string[]> {
  const text = readFileSync(join(fixtures, fixture), 'utf8');
  const [result] = await eslint.lintText(text, { filePath: join(root, fixture) });
  if (!result) throw new Error(`no lint result for ${fixture}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `${fixture} must parse`).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint rules', () => {
  it.each([
    ['src/renderer/node-builtin.ts', /node:fs.*Node built-ins/],
    ['src/renderer/bare-builtin.ts', /'path'.*Node built-ins/],
    ['src/renderer/imports-core.tsx', /\.\.\/core\/book\.ts.*must not import/],
    ['src/renderer/imports-electron.ts', /'electron' may be imported only/],
    ['src/core/imports-electron.ts', /'electron' may be imported only/],
    ['src/core/imports-demo.ts', /src\/core must not import/],
    ['src/shared/imports-native.ts', /better-sqlite3.*Native/],
    ['src/shared/imports-ws.ts', /'ws'.*Native/],
    ['src/demo/imports-core.ts', /src\/demo must not import/],
  ])('reports %s', async (fixture, expected) => {
    const messages = await restrictedImports(fixture);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(expected);
  });

  it.each(['src/renderer/clean.tsx', 'src/core/clean.ts'])('does not report %s', async (fixture) => {
    expect(await restrictedImports(fixture)).toEqual([]);
  });

  it('the fixtures are not linted as part of the project', async () => {
    expect(await eslint.isPathIgnored(join(fixtures, 'src/renderer/node-builtin.ts'))).toBe(true);
  });
});

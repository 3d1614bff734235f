// Proves the layering rules in eslint.config.js fire: each fixture under test/fixtures/lint/ is linted
// as if it lived at the same path under the repository root, with the project's real ESLint config.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const fixtures = join(root, 'test/fixtures/lint');
const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });

/** The layering rules: static imports and exports, and `import()` / `require()` with a literal specifier. */
const LAYERING_RULES = new Set(['no-restricted-imports', 'skindesk/no-restricted-dynamic-imports']);

/** Lints a fixture at its virtual path and returns the layering messages. */
async function restrictedImports(fixture: string): Promise<string[]> {
  const text = readFileSync(join(fixtures, fixture), 'utf8');
  const [result] = await eslint.lintText(text, { filePath: join(root, fixture) });
  if (!result) throw new Error(`no lint result for ${fixture}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `${fixture} must parse`).toEqual([]);
  return result.messages.filter((m) => m.ruleId !== null && LAYERING_RULES.has(m.ruleId)).map((m) => m.message);
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
    // every rule in every folder the issue names
    ['src/shared/node-builtin.ts', /node:fs.*Node built-ins/],
    ['src/shared/imports-electron.ts', /'electron'.*may be imported only/],
    ['src/renderer/imports-native.ts', /better-sqlite3.*Native/],
    ['src/demo/imports-electron.ts', /'electron'.*may be imported only/],
    ['src/cli/imports-electron.ts', /'electron'.*may be imported only/],
    // every way of importing
    ['src/renderer/reexports-core.ts', /src\/renderer must not import/],
    ['src/renderer/type-imports-core.ts', /src\/renderer must not import/],
    ['src/renderer/dynamic-builtin.ts', /node:fs\/promises.*Node built-ins/],
    ['src/core/dynamic-demo.ts', /src\/core must not import/],
    ['src/demo/dynamic-core.ts', /src\/demo must not import/],
    ['src/renderer/require-electron.cjs', /'electron'.*may be imported only/],
    // packages that bring electron or Node along
    ['src/core/imports-updater.ts', /electron-updater.*may be imported only/],
    ['src/shared/imports-undici.ts', /undici.*Native/],
  ])('reports %s', async (fixture, expected) => {
    const messages = await restrictedImports(fixture);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(expected);
  });

  it.each(['src/renderer/clean.tsx', 'src/core/clean.ts', 'src/main/clean.ts'])('does not report %s', async (fixture) => {
    expect(await restrictedImports(fixture)).toEqual([]);
  });

  it('the fixtures are not linted as part of the project', async () => {
    expect(await eslint.isPathIgnored(join(fixtures, 'src/renderer/node-builtin.ts'))).toBe(true);
  });
});

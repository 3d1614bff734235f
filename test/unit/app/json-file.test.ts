// The app's small JSON files: defaults when missing, and when damaged the defaults plus the damaged file
// kept aside and reported, so the next save cannot silently destroy what it held (saved presets, say).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonFile, writeJsonFileAtomically } from '../../../src/core/app/json-file.ts';
import { ScreenStateStore } from '../../../src/core/app/market-screens/screen-state.ts';
import { tempDir } from '../store/helpers.ts';

const schema = z.strictObject({ port: z.number().int() });
const DEFAULTS = { port: 1 };

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
function folder(): string {
  const tmp = tempDir('skindesk-json-');
  dirs.push(tmp);
  return tmp.dir;
}

describe('readJsonFile', () => {
  it('gives the defaults for a missing file, and the value of a sound one', () => {
    const file = join(folder(), 'a.json');
    expect(readJsonFile(file, schema, DEFAULTS, 'test settings')).toEqual({ value: DEFAULTS, problem: null });
    writeJsonFileAtomically(file, { port: 8931 });
    expect(readJsonFile(file, schema, DEFAULTS, 'test settings')).toEqual({
      value: { port: 8931 },
      problem: null,
    });
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it.each([
    ['not JSON', '{ "port": 89', 'it is not valid JSON'],
    ['JSON the schema refuses', '{ "port": "eighty" }', 'it holds values this version does not accept'],
  ])('keeps a file that is %s aside, reports it and gives the defaults', (_kind, text, why) => {
    const dir = folder();
    const file = join(dir, 'a.json');
    writeFileSync(file, text);
    const read = readJsonFile(file, schema, DEFAULTS, 'test settings');
    expect(read.value).toEqual(DEFAULTS);
    expect(read.problem).toMatch(
      new RegExp(
        `^The test settings file a\\.json was damaged \\(${why}\\); defaults are used\\. The file was kept as a\\.json\\.damaged-\\d{8}T\\d{6}Z\\.$`,
      ),
    );
    expect(existsSync(file)).toBe(false);
    const aside = readdirSync(dir).find((f) => f.startsWith('a.json.damaged-')) as string;
    expect(readFileSync(join(dir, aside), 'utf8')).toBe(text);
  });

  it('reports a file it cannot read without moving it', () => {
    const file = join(folder(), 'a.json');
    mkdirSync(file); // a folder where the file should be: EISDIR
    const read = readJsonFile(file, schema, DEFAULTS, 'test settings');
    expect(read).toEqual({
      value: DEFAULTS,
      problem: expect.stringMatching(/^The test settings could not be read \(EISDIR/),
    });
    expect(existsSync(file)).toBe(true);
  });
});

describe('the market screens file', () => {
  it('a damaged presets file is reported and survives the next save', () => {
    const dir = folder();
    const damaged = '{"lastView":null,"presets":[{"name":"Blue gems","filter":{"app_id":730,';
    writeFileSync(join(dir, 'market-screens.json'), damaged);
    const store = new ScreenStateStore(dir);
    expect(store.loadProblem).toMatch(
      /^The filter presets and last view file market-screens\.json was damaged/,
    );
    expect(store.get()).toEqual({ lastView: null, presets: [] });
    store.savePreset({
      name: 'Cheap knives',
      view: { filter: { name: 'knife' }, sort: { field: 'price', dir: 'asc' } },
    });
    const aside = readdirSync(dir).find((f) => f.startsWith('market-screens.json.damaged-')) as string;
    expect(readFileSync(join(dir, aside), 'utf8')).toBe(damaged);
    expect(new ScreenStateStore(dir).loadProblem).toBeNull();
  });
});

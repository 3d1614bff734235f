// `npm test`'s steps (scripts/test-steps.mjs): a test left focused with `.only` fails the vitest and
// the Playwright step, run with the step's own flags. Without that, Playwright runs the focused test
// alone and exits 0 with every other test missing from its counts (not even reported as skipped).
// Then `npm test` itself (scripts/test.mjs), on fixture suites: its final line is CI's verdict, so a
// run that fails outside any test body, or passes nothing at all, must not end in "0 failed".
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { reports, root, steps } from '../../../scripts/test-steps.mjs';

interface Step {
  name: string;
  cmd: string[];
}

const stepNamed = (name: string): Step => (steps as Step[]).find((s) => s.name === name)!;
// inside the project (so the fixtures resolve vitest and @playwright/test), in the ignored reports folder
mkdirSync(reports as string, { recursive: true });
const dir = mkdtempSync(join(reports as string, 'focused-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The step's command with its report flags left out (they would overwrite npm test's own reports). */
const ownFlags = (step: Step) =>
  step.cmd.filter((a) => !a.startsWith('--reporter') && !a.startsWith('--outputFile'));

describe('npm test steps', () => {
  it('fail the vitest step on a focused test', { timeout: 60_000 }, () => {
    const fixture = join(dir, 'vitest');
    mkdirSync(fixture);
    writeFileSync(
      join(fixture, 'vitest.config.mjs'),
      "export default { test: { include: ['*.test.mjs'] } };\n",
    );
    writeFileSync(
      join(fixture, 'focused.test.mjs'),
      "import { expect, it } from 'vitest';\nit.only('focused', () => expect(1).toBe(1));\nit('left out', () => expect(1).toBe(2));\n",
    );
    const r = spawnSync(process.execPath, [...ownFlags(stepNamed('vitest')), '--root', fixture], {
      cwd: root as string,
      encoding: 'utf8',
    });
    expect(r.status, r.stdout + r.stderr).not.toBe(0);
  });

  it('fail the Playwright step on a focused test', { timeout: 60_000 }, () => {
    const fixture = join(dir, 'playwright');
    mkdirSync(fixture);
    writeFileSync(
      join(fixture, 'pw.config.mjs'),
      `export default { testDir: ${JSON.stringify(fixture)}, outputDir: ${JSON.stringify(join(fixture, 'out'))}, reporter: 'list' };\n`,
    );
    writeFileSync(
      join(fixture, 'focused.spec.mjs'),
      "import { expect, test } from '@playwright/test';\ntest.only('focused', () => expect(1).toBe(1));\ntest('left out', () => expect(1).toBe(2));\n",
    );
    writeFileSync(
      join(fixture, 'other.spec.mjs'),
      "import { expect, test } from '@playwright/test';\ntest('in another file', () => expect(1).toBe(2));\n",
    );
    const env = { ...process.env };
    delete env.CI; // the config's forbidOnly follows CI; npm test must not depend on it
    const r = spawnSync(
      process.execPath,
      [...ownFlags(stepNamed('e2e')), '--config', join(fixture, 'pw.config.mjs')],
      {
        cwd: root as string,
        encoding: 'utf8',
        env,
      },
    );
    expect(r.status, r.stdout + r.stderr).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/only/i);
  });
});

/**
 * Runs the real scripts/test.mjs with the vitest step alone, pointed at a fixture suite: the runner is
 * copied (with the scripts it imports) beside a test-steps.mjs that takes the real vitest step and
 * moves it onto the fixture, its reports into the copy's own folder (npm test's stay untouched).
 */
function npmTestOn(name: string, files: Record<string, string>) {
  const fixture = join(dir, name);
  const copy = join(fixture, 'runner');
  mkdirSync(join(copy, 'bin'), { recursive: true });
  cpSync(join(root as string, 'scripts'), join(copy, 'scripts'), { recursive: true });
  copyFileSync(join(root as string, 'bin/node-version.mjs'), join(copy, 'bin/node-version.mjs'));
  writeFileSync(
    join(fixture, 'vitest.config.mjs'),
    "export default { test: { include: ['*.test.mjs'] } };\n",
  );
  for (const [file, text] of Object.entries(files)) writeFileSync(join(fixture, file), text);
  const realSteps = pathToFileURL(join(root as string, 'scripts/test-steps.mjs')).href;
  writeFileSync(
    join(copy, 'scripts/test-steps.mjs'),
    `import { join } from 'node:path';
import * as real from ${JSON.stringify(realSteps)};
export const root = real.root;
export const reports = ${JSON.stringify(join(copy, 'test-results'))};
const moved = (value) => JSON.parse(JSON.stringify(value).replaceAll(real.reports, reports));
export const vitestJson = join(reports, 'vitest.json');
export const playwrightJson = join(reports, 'playwright.json');
export const steps = real.steps
  .filter((step) => step.name === 'vitest')
  .map(moved)
  .map((step) => ({ ...step, cmd: [...step.cmd, '--root', ${JSON.stringify(fixture)}] }));
`,
  );
  const r = spawnSync(process.execPath, [join(copy, 'scripts/test.mjs')], {
    cwd: root as string,
    encoding: 'utf8',
  });
  const output = r.stdout + r.stderr;
  return { status: r.status, output, lastLine: r.stdout.trimEnd().split('\n').at(-1) };
}

const passing = "it('adds up', () => expect(1 + 1).toBe(2));\n";
const imports = "import { afterAll, beforeAll, describe, expect, it } from 'vitest';\n";

describe("npm test's final line", () => {
  it(
    'counts the passes of a passing suite, lists its skipped tests with their reasons, and exits 0',
    { timeout: 60_000 },
    () => {
      const r = npmTestOn('passing', {
        'a.test.mjs':
          imports + passing + "it('needs a planet', (ctx) => ctx.skip('no planet on this machine'));\n",
      });
      expect(r.status, r.output).toBe(0);
      expect(r.lastLine).toBe('tests: 1 passed, 0 failed, 1 skipped');
      expect(r.output).toMatch(/skipped .*a\.test\.mjs > needs a planet \(no planet on this machine\)/);
    },
  );

  // a failure that no test in vitest's report carries, or a step that passes nothing: the final line says so
  it.each([
    {
      fixture: 'before-all',
      what: 'a beforeAll that throws', // vitest marks its tests skipped
      test: `${passing}describe('set up', () => {\n  beforeAll(() => { throw new Error('setup broke'); });\n  it('never runs', () => expect(1).toBe(1));\n});\n`,
      lastLine: 'tests: 1 passed, 1 failed, 1 skipped',
      note: /a\.test\.mjs failed outside its tests/,
    },
    {
      fixture: 'after-all',
      what: 'an afterAll that throws', // vitest counts its tests passed
      test: `${passing}afterAll(() => { throw new Error('teardown broke'); });\n`,
      lastLine: 'tests: 1 passed, 1 failed',
      note: /a\.test\.mjs failed outside its tests/,
    },
    {
      fixture: 'unhandled',
      what: 'an unhandled rejection', // in no test of the JSON report
      test: `${passing}it('leaks a rejection', async () => {\n  void Promise.reject(new Error('nobody waits for this'));\n  await new Promise((done) => setImmediate(done));\n});\n`,
      lastLine: 'tests: 2 passed, 1 failed',
      note: /vitest exited 1 with no failed test in its report/,
    },
    {
      fixture: 'all-skipped',
      what: 'a step of skipped tests only', // it proves nothing; the summary names them
      test: "describe.skipIf(true)('never on this machine', () => {\n  it('one', () => expect(1).toBe(2));\n  it('two', () => expect(1).toBe(2));\n});\n",
      lastLine: 'tests: 0 passed, 1 failed, 2 skipped',
      note: /skipped .*a\.test\.mjs > never on this machine > one/,
    },
  ])('counts $what as a failure', { timeout: 60_000 }, ({ fixture, test, lastLine, note }) => {
    const r = npmTestOn(fixture, { 'a.test.mjs': imports + test });
    expect(r.status, r.output).not.toBe(0);
    expect(r.lastLine).toBe(lastLine);
    expect(r.output).toMatch(note);
  });
});

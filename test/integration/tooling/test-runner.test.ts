// `npm test`'s steps (scripts/test-steps.mjs): a test left focused with `.only` fails the vitest and
// the Playwright step, run with the step's own flags. Without that, Playwright runs the focused test
// alone and exits 0 with every other test missing from its counts (not even reported as skipped).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

// The steps of `npm test` (scripts/test.mjs), in order. A test left focused (`.only`) fails its step:
// Playwright would otherwise run only the focused tests and leave every other one out of the counts
// altogether (neither passed, failed nor skipped), and vitest would skip the rest of that file.
// A step with a `report` is a test step: npm test counts its tests from that report.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
export const reports = join(root, 'test-results');
export const vitestJson = join(reports, 'vitest.json');
export const playwrightJson = join(reports, 'playwright.json');
export const vitestSkipsJson = join(reports, 'vitest-skips.json');

/** Absolute path of a package's CLI script, run with this same Node (not whatever `node` is on PATH). */
function bin(pkg, name = pkg) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const rel = typeof bins === 'string' ? bins : bins[name];
  return join(dirname(manifestPath), rel);
}

export const steps = [
  { name: 'lint', cmd: [bin('eslint'), '--max-warnings=0', '.'] },
  { name: 'typecheck', cmd: [bin('typescript', 'tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  // before the tests: the packaging test packs out/, and the e2e tests serve out/renderer
  { name: 'build', cmd: [bin('electron-vite'), 'build'] },
  {
    name: 'vitest',
    cmd: [
      bin('vitest'),
      'run',
      '--allowOnly=false',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestJson}`,
      `--reporter=${join(root, 'scripts/vitest-skip-reporter.mjs')}`,
    ],
    env: { SKINDESK_VITEST_SKIPS: vitestSkipsJson },
    report: { kind: 'vitest', json: vitestJson, skips: vitestSkipsJson },
  },
  {
    name: 'e2e',
    cmd: [bin('@playwright/test', 'playwright'), 'test', '--forbid-only'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
    report: { kind: 'playwright', json: playwrightJson },
  },
];

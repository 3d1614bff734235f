// What npm test (scripts/test.mjs) reads from a test step's reports: its counts, and the notes its
// summary prints (why a failure is counted that no test carries, which tests were skipped and why).

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** The parsed JSON file, or undefined when it is missing or not JSON (the step never wrote it). */
export function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** vitest JSON (jest-compatible): the test files that failed with no failed test in them. Such a file
 * failed to load (no results at all), or a beforeAll threw (its tests are marked skipped), or an
 * afterAll threw (its tests stay passed): in the counts, each is one failed test. */
function filesFailedOutsideTests(report) {
  return (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  );
}

export function vitestCounts(report) {
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + filesFailedOutsideTests(report).length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

/** Playwright JSON: expected = passed, flaky = passed on retry, unexpected = failed; `errors` are
 * failures outside any test (a spec file that does not load, a global setup that throws). */
export function playwrightCounts(report) {
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors ?? []).length,
    skipped: stats.skipped ?? 0,
  };
}

/** What the summary says of a Playwright run besides its counts: why tests were skipped (the `skip`
 * annotations' descriptions), with how many tests each. */
export function playwrightNotes(report) {
  const reasons = new Map();
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'skipped') continue;
        const note = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'no reason given';
        reasons.set(`${spec.file}: ${note}`, (reasons.get(`${spec.file}: ${note}`) ?? 0) + 1);
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return [...reasons].map(([reason, n]) => `skipped ${n} (${reason})`);
}

/** What the summary says of a vitest run besides its counts: each file that failed outside its tests,
 * and each skipped test with its reason, from the list scripts/vitest-skip-reporter.mjs wrote. */
export function vitestNotes(report, skipsFile, root) {
  const notes = filesFailedOutsideTests(report).map(
    (file) =>
      `${relative(root, file.name)} failed outside its tests (in a hook or while loading${file.message ? `: ${file.message}` : ''}; see above); counted as one failed test`,
  );
  if (vitestCounts(report).skipped === 0) return notes;
  const skipped = readJson(skipsFile);
  if (!Array.isArray(skipped))
    return [...notes, `vitest: its skipped tests are not listed (no ${skipsFile})`];
  return [
    ...notes,
    ...skipped.map(
      ({ file, name, note }) => `skipped ${relative(root, file)} > ${name} (${note ?? 'no reason given'})`,
    ),
  ];
}

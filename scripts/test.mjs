#!/usr/bin/env node
// `npm test`: the one test command. Runs every check in order (lint, typecheck, build, vitest, e2e), streams their output, stops at the first
// failure (non-zero exit), then prints one summary line per step and, last, the test counts:
//   tests: X passed, Y failed[, Z skipped]
// Counts come from the JSON reports of vitest and Playwright; a skipped test is never counted as passed,
// and a test file that fails to load counts as one failed test. The steps are in test-steps.mjs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { playwrightJson, reports, root, steps, vitestJson } from './test-steps.mjs';
import { requireNode } from '../bin/node-version.mjs';

requireNode('npm test');

function run(step) {
  return new Promise((done) => {
    const child = spawn(process.execPath, step.cmd, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...step.env },
    });
    child.on('error', (err) => {
      console.error(`[test] ${step.name}: ${err.message}`);
      done(1);
    });
    child.on('close', (code, signal) => done(signal ? 1 : (code ?? 1)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** vitest JSON (jest-compatible): files that failed to load have no assertion results. */
function vitestCounts(report) {
  const loadFailures = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + loadFailures,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

/** Playwright JSON: expected = passed, flaky = passed on retry, unexpected = failed; `errors` are
 * failures outside any test (a spec file that does not load, a global setup that throws). */
function playwrightCounts(report) {
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors ?? []).length,
    skipped: stats.skipped ?? 0,
  };
}

/** Why Playwright tests were skipped: the `skip` annotations' descriptions, with how many tests each. */
function playwrightSkipReasons(report) {
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

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

async function main() {
  mkdirSync(reports, { recursive: true });
  for (const file of [vitestJson, playwrightJson]) rmSync(file, { force: true });

  const results = [];
  let exitCode = 0;
  for (const step of steps) {
    console.log(`\n[test] ▶ ${step.name}`);
    const started = Date.now();
    const code = await run(step);
    results.push({ name: step.name, code, ms: Date.now() - started });
    if (code !== 0) {
      exitCode = code;
      break;
    }
  }

  const totals = { passed: 0, failed: 0, skipped: 0 };
  const notes = [];
  for (const [name, file, count] of [
    ['vitest', vitestJson, vitestCounts],
    ['e2e', playwrightJson, playwrightCounts],
  ]) {
    const result = results.find((r) => r.name === name);
    if (!result) continue; // not reached
    const report = existsSync(file) ? readJson(file) : undefined;
    if (!report) {
      notes.push(`${name}: no JSON report (${file}); its tests are not counted`);
      continue;
    }
    const c = count(report);
    if (name === 'e2e') notes.push(...playwrightSkipReasons(report));
    totals.passed += c.passed;
    totals.failed += c.failed;
    totals.skipped += c.skipped;
  }

  console.log('\n[test] summary');
  for (const step of steps) {
    const r = results.find((x) => x.name === step.name);
    const status = !r ? 'not run' : r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`;
    console.log(`  ${step.name.padEnd(10)} ${status.padEnd(18)} ${r ? seconds(r.ms) : ''}`.trimEnd());
  }
  for (const note of notes) console.log(`  note: ${note}`);
  const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
  process.exitCode = exitCode;
}

await main();

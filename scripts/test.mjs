#!/usr/bin/env node
// `npm test`: the one test command. Runs every check in order (lint, typecheck, build, vitest, e2e), streams their output, stops at the first
// failure, then prints one summary line per step, the skipped tests and, last, the test counts:
//   tests: X passed, Y failed[, Z skipped]
// That last line is CI's verdict, so it never says "0 failed" of a test step that failed: counts come
// from the JSON reports of vitest and Playwright, a skipped test is never counted as passed, and a
// failure no test in the report carries (a file that fails to load, a hook or an unhandled error)
// counts as one failed test. A test step that passes no test at all fails too: all skipped proves
// nothing. The steps are in test-steps.mjs, the reading of the reports in test-counts.mjs.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { playwrightCounts, playwrightNotes, readJson, vitestCounts, vitestNotes } from './test-counts.mjs';
import { reports, root, steps } from './test-steps.mjs';
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

/** A test step's counts and notes from its reports, and why it failed (undefined: it passed). */
function tally(step, code) {
  const { kind, json, skips } = step.report;
  const report = readJson(json);
  const notes = [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (report && kind === 'vitest') {
    Object.assign(counts, vitestCounts(report));
    notes.push(...vitestNotes(report, skips, root));
  } else if (report) {
    Object.assign(counts, playwrightCounts(report));
    notes.push(...playwrightNotes(report));
  } else {
    notes.push(`${step.name}: no JSON report (${json}); its tests are not counted`);
  }

  let failure = code === 0 ? undefined : `exit ${code}`;
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1;
    notes.push(
      `${step.name} exited ${code} with no failed test in its report (a hook or an unhandled error: see above); counted as one failed test`,
    );
  } else if (code === 0 && counts.passed === 0) {
    counts.failed = 1;
    failure = 'no test passed';
    notes.push(`${step.name}: no test passed (${counts.skipped} skipped); counted as one failed test`);
  }
  return { counts, notes, failure };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

async function main() {
  mkdirSync(reports, { recursive: true });
  // a report left from an earlier run must not stand in for one this run failed to write
  for (const { report } of steps) {
    for (const file of [report?.json, report?.skips]) if (file) rmSync(file, { force: true });
  }

  const results = [];
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const notes = [];
  for (const step of steps) {
    console.log(`\n[test] ▶ ${step.name}`);
    const started = Date.now();
    const code = await run(step);
    const result = {
      name: step.name,
      code,
      failure: code === 0 ? undefined : `exit ${code}`,
      ms: Date.now() - started,
    };
    if (step.report) {
      const tallied = tally(step, code);
      for (const key of Object.keys(totals)) totals[key] += tallied.counts[key];
      notes.push(...tallied.notes);
      result.failure = tallied.failure;
    }
    results.push(result);
    if (result.failure) break;
  }
  const failed = results.find((r) => r.failure);

  console.log('\n[test] summary');
  for (const step of steps) {
    const r = results.find((x) => x.name === step.name);
    const status = !r ? 'not run' : r.failure ? `FAILED (${r.failure})` : 'passed';
    console.log(`  ${step.name.padEnd(10)} ${status.padEnd(18)} ${r ? seconds(r.ms) : ''}`.trimEnd());
  }
  for (const note of notes) console.log(`  note: ${note}`);
  const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
  process.exitCode = failed ? failed.code || 1 : 0;
}

await main();

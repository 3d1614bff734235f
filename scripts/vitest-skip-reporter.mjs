// A vitest reporter that writes the skipped tests, with the reason each was skipped, to the file named
// by SKINDESK_VITEST_SKIPS. npm test lists them in its summary: vitest's JSON report has the skipped
// tests' names but not the note given to `ctx.skip(note)`, so a skip would otherwise go unexplained.
import { writeFileSync } from 'node:fs';

export default class VitestSkipReporter {
  onTestRunEnd(testModules) {
    const file = process.env.SKINDESK_VITEST_SKIPS;
    if (!file) return;
    const skipped = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests('skipped')) {
        const note = test.result().note ?? (test.options.mode === 'todo' ? 'todo' : undefined);
        skipped.push({ file: testModule.moduleId, name: test.fullName, note });
      }
    }
    writeFileSync(file, JSON.stringify(skipped, null, 1));
  }
}

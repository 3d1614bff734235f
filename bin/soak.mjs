#!/usr/bin/env node
// `npm run soak -- --minutes N [--chaos LEVEL]`: the soak and chaos suite (test/soak/run.ts), run by
// Node's built-in type stripping like the CLI (re-exec with the flag on Node 22.12–22.17).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../test/soak/run.ts', import.meta.url));
if (process.features.typescript) {
  await import(entry);
} else {
  const r = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', entry, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

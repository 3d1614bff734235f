#!/usr/bin/env node
// `npm run bench`: the benchmark of the book mirror (test/bench/run.ts), TypeScript run by Node's type
// stripping like the CLI. Prints one JSON object on stdout.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../test/bench/run.ts', import.meta.url));
if (process.features.typescript) {
  await import(entry);
} else {
  const r = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', '--expose-gc', entry], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

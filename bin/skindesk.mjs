#!/usr/bin/env node
// The `skindesk` command. The CLI is TypeScript run by Node's built-in type stripping (Node >= 22.18
// strips by default; 22.12–22.17 need the flag, so re-exec with it there).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
if (process.features.typescript) {
  await import(entry);
} else {
  const r = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', entry, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

// Runs a TypeScript entry with Node's built-in type stripping: imported in-process where Node strips
// types by default (>= 22.18), re-executed with the flag on 22.12–22.17. Shared by every bin script.
import { spawnSync } from 'node:child_process';

/** @param {string} entry absolute path of the .ts file; @param {string[]} [nodeFlags] for the re-exec */
export async function runTypeScript(entry, nodeFlags = []) {
  if (process.features.typescript) {
    await import(entry);
    return;
  }
  const r = spawnSync(
    process.execPath,
    ['--experimental-strip-types', '--no-warnings', ...nodeFlags, entry, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(r.status ?? 1);
}

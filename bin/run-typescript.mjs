// Runs a TypeScript entry with Node's built-in type stripping: imported in-process where Node strips
// types by default (>= 22.18), re-executed with the flag on 22.12–22.17. Shared by every bin script.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { basename } from 'node:path';
import { requireNode } from './node-version.mjs';

/** Signals that ask a command to stop: passed on to a re-executed child (see below). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** @param {string} entry absolute path of the .ts file; @param {string[]} [nodeFlags] for the re-exec */
export async function runTypeScript(entry, nodeFlags = []) {
  requireNode(basename(process.argv[1] ?? 'skindesk', '.mjs'));
  if (process.features.typescript) {
    await import(entry);
    return;
  }
  // This process only waits for the child, so a stop signal sent to it (a supervisor's SIGTERM, say)
  // must reach the child, which decides what it means (sync, watch and demo stop cleanly), and this
  // process must outlive it: ended by the default action, it would leave the child running unseen. On
  // POSIX the child gets a process group of its own, so a Ctrl+C in the terminal (which signals the
  // foreground group, this one) reaches it once, from here, not twice (a second SIGINT ends a stopping
  // command at once). None of the commands reads standard input, which a background group may not.
  const child = spawn(
    process.execPath,
    ['--experimental-strip-types', '--no-warnings', ...nodeFlags, entry, ...process.argv.slice(2)],
    { stdio: 'inherit', detached: process.platform !== 'win32' },
  );
  const forward = (/** @type {NodeJS.Signals} */ signal) => void child.kill(signal);
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  /** @type {[number | null, NodeJS.Signals | null]} */
  const [code, signal] = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  // ended by a signal: the shell's convention, 128 + its number
  process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1));
}

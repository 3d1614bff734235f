// SIGINT/SIGTERM for the long-running commands (`sync`, `watch`, `demo`) means "stop, and exit 0". Loading
// the CLI takes a good part of a second (Node strips the TypeScript, then the core loads), so the handlers
// are installed before any of it: by bin/skindesk.mjs, which is why this module is plain JavaScript, and
// by main.ts when it runs without that launcher. A signal in that time is recorded, and the command
// honours it as soon as it runs (or at once, when it is already running). A second signal ends the
// process at once, as the commands document — but not one that repeats the first within a moment:
// supervisors send one stop twice (coreutils `timeout` signals the process, then its whole group), and
// taken as "at once" it cut the stop short (exit 143, purchases in flight left without an outcome).
// Types: stop-request.d.mts. Keep this module free of imports: it runs before everything else.

/** The commands for which a signal is a stop request. */
const LONG_RUNNING = new Set(['sync', 'watch', 'demo']);
const SIGNALS = ['SIGINT', 'SIGTERM'];

/** A signal this soon after the first is the same stop sent again, not a second request. */
export const REPEATED_SIGNAL_MS = 500;

let installed = false;
/** @type {'SIGINT' | 'SIGTERM' | null} */
let requested = null;
let requestedAt = 0;
/** @type {((signal: 'SIGINT' | 'SIGTERM') => void)[]} */
const waiting = [];

/** @param {'SIGINT' | 'SIGTERM'} signal */
function onSignal(signal) {
  if (requested !== null) {
    if (performance.now() - requestedAt < REPEATED_SIGNAL_MS) return;
    // a second stop: the signal's own effect, at once
    releaseStopHandling();
    process.kill(process.pid, signal);
    return;
  }
  requested = signal;
  requestedAt = performance.now();
  for (const resolve of waiting.splice(0)) resolve(signal);
}

/** Whether `skindesk <argv>` runs a command that stops on a signal (not its --help). */
export function stopsOnSignal(argv) {
  const [name, ...rest] = argv;
  return name !== undefined && LONG_RUNNING.has(name) && !rest.includes('--help') && !rest.includes('-h');
}

/** Starts listening for SIGINT/SIGTERM; from then on the first one is a stop request. Once only. */
export function installStopHandling() {
  if (installed) return;
  installed = true;
  for (const s of SIGNALS) process.on(s, onSignal);
}

/**
 * Stops listening: a signal from now on has its default effect (the process ends at once). Called on a
 * second signal, and by a command that is stopping for another reason (a failure).
 */
export function releaseStopHandling() {
  for (const s of SIGNALS) process.off(s, onSignal);
}

/** The signal that asked to stop, or null while none has. */
export function stopRequested() {
  return requested;
}

/**
 * Resolves with the first SIGINT/SIGTERM: at once when it came already, even before the command
 * started. Installs the handlers if nothing has (a command run on its own, as tests do).
 */
export function whenStopRequested() {
  installStopHandling();
  if (requested) return Promise.resolve(requested);
  return new Promise((resolve) => waiting.push(resolve));
}

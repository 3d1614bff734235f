// SIGINT/SIGTERM for the long-running commands (`sync`, `watch`, `demo`) means "stop, and exit 0". Loading
// the CLI takes a good part of a second (Node strips the TypeScript, then the core loads), so the handlers
// are installed before any of it: by bin/skindesk.mjs, which is why this module is plain JavaScript, and
// by main.ts when it runs without that launcher. A signal in that time is recorded, and the command
// honours it as soon as it runs (or at once, when it is already running). After the first signal the
// handlers are gone, so a second one ends the process at once, as the commands document.
// Types: stop-request.d.mts. Keep this module free of imports: it runs before everything else.

/** The commands for which a signal is a stop request. */
const LONG_RUNNING = new Set(['sync', 'watch', 'demo']);
const SIGNALS = ['SIGINT', 'SIGTERM'];

let installed = false;
/** @type {'SIGINT' | 'SIGTERM' | null} */
let requested = null;
/** @type {((signal: 'SIGINT' | 'SIGTERM') => void)[]} */
const waiting = [];

/** @param {'SIGINT' | 'SIGTERM'} signal */
function onSignal(signal) {
  releaseStopHandling();
  requested = signal;
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
 * Stops listening: a signal from now on has its default effect (the process ends at once). Called on
 * the first signal, and by a command that is stopping for another reason (a failure).
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

// Preloaded into the CLI process with `node --import`: the moment the module loader resolves a URL ending
// in SKINDESK_TEST_SIGNAL_AT, the process sends itself SKINDESK_TEST_SIGNAL — and with
// SKINDESK_TEST_SIGNAL_AGAIN=1 once more right after the first was handled, as a supervisor that signals
// the process and then its group (two signals sent back to back would merge into one pending signal).
// A signal at a chosen point of the start (while the TypeScript or a command's modules load), with no
// timing involved.
import { registerHooks } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const at = process.env.SKINDESK_TEST_SIGNAL_AT;
const signal = process.env.SKINDESK_TEST_SIGNAL;
const again = process.env.SKINDESK_TEST_SIGNAL_AGAIN === '1';
let sent = false;

if (isMainThread && at && signal) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (!sent && resolved.url.endsWith(at)) {
        sent = true;
        // once: after it, this hook no longer listens, so only the CLI's own handling decides what the
        // repeat does
        if (again) process.once(signal, () => setImmediate(() => process.kill(process.pid, signal)));
        process.kill(process.pid, signal);
      }
      return resolved;
    },
  });
}

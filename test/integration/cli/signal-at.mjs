// Preloaded into the CLI process with `node --import`: the moment the module loader resolves a URL ending
// in SKINDESK_TEST_SIGNAL_AT, the process sends itself SKINDESK_TEST_SIGNAL. A signal at a chosen point of
// the start (while the TypeScript or a command's modules load), with no timing involved.
import { registerHooks } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const at = process.env.SKINDESK_TEST_SIGNAL_AT;
const signal = process.env.SKINDESK_TEST_SIGNAL;
let sent = false;

if (isMainThread && at && signal) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (!sent && resolved.url.endsWith(at)) {
        sent = true;
        process.kill(process.pid, signal);
      }
      return resolved;
    },
  });
}

/**
 * How the commands that need the marketplace start: the API key (SKINDESK_API_KEY, else the keychain
 * the app stored it in) in the same words everywhere, and — for the long-running ones — a stop asked
 * for before any work began (main.ts listens from the first moment) honoured with exit 0.
 */
import { resolveApiKey } from '../core/secrets/index.ts';
import { stopRequested } from './stop-request.mjs';

export type FoundKey = { key: string; problem: null } | { key: null; problem: string };

/** The key, or why there is none ("no API key: …"). */
export async function findApiKey(): Promise<FoundKey> {
  const found = await resolveApiKey();
  if (found.value) return { key: found.value, problem: null };
  const why = found.keychainProblem ? ` (the keychain could not be read: ${found.keychainProblem})` : '';
  return { key: null, problem: `no API key: set SKINDESK_API_KEY or save one in the app${why}` };
}

/**
 * The start of `sync` and `watch`, before their work: stopped when a stop signal came first (said on
 * stderr as `<prefix>: <signal> before <nothingYet>`), no key when there is none (said likewise), else
 * the key. The signal is looked at again after the keychain read, which can take a while.
 */
export async function startLongRunning(
  prefix: string,
  nothingYet: string,
): Promise<{ start: 'stopped' | 'no key' } | { start: 'go'; key: string }> {
  const stoppedEarly = () => {
    const signal = stopRequested();
    if (signal) process.stderr.write(`${prefix}: ${signal} before ${nothingYet}\n`);
    return signal !== null;
  };
  if (stoppedEarly()) return { start: 'stopped' };
  const found = await findApiKey();
  if (found.key === null) {
    process.stderr.write(`${prefix}: ${found.problem}\n`);
    return { start: 'no key' };
  }
  return stoppedEarly() ? { start: 'stopped' } : { start: 'go', key: found.key };
}

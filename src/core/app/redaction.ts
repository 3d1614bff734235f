/**
 * One redactor per app: it knows every secret the app currently holds (the API key, the webhook secret,
 * the demo market's key) and removes them, in every encoding the REST client's `redact` knows, from
 * anything about to be logged or shown. Electron's log and the test host's console both go through it.
 */
import { redact } from '../api/errors.ts';

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Remembers a secret so it is removed from now on (call with every key the app loads or is given). */
  add(secret: string | null | undefined): void {
    if (secret) this.#secrets.add(secret);
  }

  forget(secret: string | null | undefined): void {
    if (secret) this.#secrets.delete(secret);
  }

  redact(text: string): string {
    return redact(text, [...this.#secrets]);
  }

  /** Redacts strings, Errors (message and stack) and plain data deeply; other values pass unchanged. */
  redactValue(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value instanceof Error) {
      const copy = new Error(this.redact(value.message));
      copy.name = value.name;
      copy.stack = value.stack === undefined ? undefined : this.redact(value.stack);
      return copy;
    }
    if (depth > 6 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.redactValue(v, depth + 1)]));
  }
}

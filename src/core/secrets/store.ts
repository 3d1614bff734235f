/**
 * Where Skindesk keeps its secrets: the marketplace API key and the webhook signing secret. One small
 * interface so the app uses the OS keychain, the CLI and CI an environment variable, and unit tests a map,
 * with the same calling code. No implementation ever puts a secret into an error message.
 */

/** The secrets Skindesk holds, by the account name each has in the keychain. */
export const SECRET_NAMES = ['api-key', 'webhook-secret'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export type SecretStoreKind = 'keyring' | 'env' | 'memory';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** The stored value, or null when none is stored. Rejects with SecretStoreError when the store is unreachable. */
  get(name: SecretName): Promise<string | null>;
  set(name: SecretName, value: string): Promise<void>;
  /** True when a value was removed, false when there was none. */
  delete(name: SecretName): Promise<boolean>;
}

export type SecretStoreErrorReason = 'unavailable' | 'read_only' | 'invalid_value';

/** A failure of the store itself (never of a secret's content, which is never quoted). */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
  readonly reason: SecretStoreErrorReason;
  constructor(reason: SecretStoreErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Visible ASCII without spaces, like an HTTP header value the client can send (see ApiClient). */
const SECRET_PATTERN = /^[\x21-\x7e]{1,512}$/;

/** Refuses values that could not be sent as a header, without quoting them. */
export function assertStorableSecret(name: SecretName, value: string): void {
  if (!SECRET_PATTERN.test(value)) {
    throw new SecretStoreError(
      'invalid_value',
      `the ${describeSecret(name)} must be 1 to 512 visible ASCII characters without spaces`,
    );
  }
}

export function describeSecret(name: SecretName): string {
  return name === 'api-key' ? 'API key' : 'webhook signing secret';
}

/** What the UI may know about a secret: whether it is set, and its last 4 characters. */
export interface SecretState {
  set: boolean;
  /** Null when not set, and for values shorter than 8 characters (4 of them would give half away). */
  last4: string | null;
}

export const MIN_LENGTH_FOR_HINT = 8;

export function secretState(value: string | null): SecretState {
  if (value === null || value === '') return { set: false, last4: null };
  return { set: true, last4: value.length >= MIN_LENGTH_FOR_HINT ? value.slice(-4) : null };
}

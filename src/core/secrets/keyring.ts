import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import {
  type SecretName,
  type SecretStore,
  SecretStoreError,
  assertStorableSecret,
  describeSecret,
} from './store.ts';

/** The keychain service name every Skindesk secret is filed under (account = the secret's name). */
export const KEYRING_SERVICE = 'skindesk';

/**
 * The keychain service of a separate profile (the app's SKINDESK_USER_DATA: tests, side-by-side installs).
 * A key is bound to the market URL in its own profile's settings, so two profiles must not share one
 * entry: the second would send the first one's key to its own market, or delete it on setting another
 * URL. The CLI reads the default profile's entries (KEYRING_SERVICE) only.
 */
export function profileKeyringService(profileDir: string): string {
  const id = createHash('sha256').update(resolve(profileDir)).digest('hex').slice(0, 16);
  return `${KEYRING_SERVICE}-profile-${id}`;
}

export interface KeyringSecretStoreOptions {
  /** Keychain service name (default `skindesk`). */
  service?: string;
}

/**
 * Without a pinned store the library silently falls back to the kernel's keyutils keyring on Linux when no
 * Secret Service answers: a key saved there lives in memory only, is gone after a reboot and expires, while
 * the app would say it was saved. Pinned, a missing Secret Service is an error the user is told about.
 * The option is ignored on macOS and Windows.
 */
const SECRET_SERVICE_ONLY: EntryOptions = { linux: { store: 'secret-service' } };

/**
 * Secrets in the OS keychain through @napi-rs/keyring: macOS Keychain, Windows Credential Manager, the
 * Secret Service (GNOME Keyring, KWallet) on Linux — never the kernel keyring. On Linux without a running
 * Secret Service every call rejects with SecretStoreError('unavailable'), which the app shows in Settings.
 */
export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keyring';
  readonly service: string;

  constructor(options: KeyringSecretStoreOptions = {}) {
    this.service = options.service ?? KEYRING_SERVICE;
  }

  async get(name: SecretName): Promise<string | null> {
    try {
      return await this.#entry(name).getPassword();
    } catch (err) {
      throw unavailable('read', name, err);
    }
  }

  async set(name: SecretName, value: string): Promise<void> {
    assertStorableSecret(name, value);
    try {
      await this.#entry(name).setPassword(value);
    } catch (err) {
      throw unavailable('store', name, err);
    }
  }

  async delete(name: SecretName): Promise<boolean> {
    try {
      return await this.#entry(name).deleteCredential();
    } catch (err) {
      throw unavailable('delete', name, err);
    }
  }

  #entry(name: SecretName): AsyncEntry {
    return new AsyncEntry(this.service, name, SECRET_SERVICE_ONLY);
  }
}

/** The library's message names the platform problem ("Secret Service: no result found"), never the value. */
function unavailable(action: string, name: SecretName, err: unknown): SecretStoreError {
  const cause = err instanceof Error ? err.message : String(err);
  return new SecretStoreError(
    'unavailable',
    `could not ${action} the ${describeSecret(name)} in the system keychain: ${cause}`,
  );
}

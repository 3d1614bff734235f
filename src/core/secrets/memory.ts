import { type SecretName, type SecretStore, assertStorableSecret } from './store.ts';

/** Secrets in a map, for unit tests and the browser test host (which must never touch the real keychain). */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory';
  readonly #values = new Map<SecretName, string>();

  constructor(initial: Partial<Record<SecretName, string>> = {}) {
    for (const [name, value] of Object.entries(initial) as [SecretName, string][]) {
      assertStorableSecret(name, value);
      this.#values.set(name, value);
    }
  }

  async get(name: SecretName): Promise<string | null> {
    return this.#values.get(name) ?? null;
  }

  async set(name: SecretName, value: string): Promise<void> {
    assertStorableSecret(name, value);
    this.#values.set(name, value);
  }

  async delete(name: SecretName): Promise<boolean> {
    return this.#values.delete(name);
  }
}

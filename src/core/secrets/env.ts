import { type SecretName, type SecretStore, SecretStoreError, describeSecret } from './store.ts';

/** The environment variable that carries each secret for the CLI and CI. */
export const SECRET_ENV_VARS: Record<SecretName, string> = {
  'api-key': 'SKINDESK_API_KEY',
  'webhook-secret': 'SKINDESK_WEBHOOK_SECRET',
};

/**
 * Secrets from environment variables (`SKINDESK_API_KEY`, `SKINDESK_WEBHOOK_SECRET`). Read-only: a
 * process cannot change its parent's environment, so set and delete refuse with a plain explanation.
 */
export class EnvSecretStore implements SecretStore {
  readonly kind = 'env';
  readonly #env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#env = env;
  }

  async get(name: SecretName): Promise<string | null> {
    const value = this.#env[SECRET_ENV_VARS[name]]?.trim();
    return value ? value : null;
  }

  async set(name: SecretName, _value: string): Promise<void> {
    throw readOnly(name);
  }

  async delete(name: SecretName): Promise<boolean> {
    throw readOnly(name);
  }
}

function readOnly(name: SecretName): SecretStoreError {
  return new SecretStoreError(
    'read_only',
    `the ${describeSecret(name)} comes from the environment variable ${SECRET_ENV_VARS[name]}; change it there`,
  );
}

import { EnvSecretStore } from './env.ts';
import { KeyringSecretStore } from './keyring.ts';
import { type SecretName, type SecretStore, SecretStoreError } from './store.ts';

export type SecretSource = 'env' | 'keychain';

export type ResolvedSecret =
  | { value: string; source: SecretSource; keychainProblem: null }
  /** Not found anywhere; `keychainProblem` says why the keychain could not be asked, when it could not. */
  | { value: null; source: null; keychainProblem: string | null };

export interface ResolveSecretOptions {
  env?: SecretStore;
  keychain?: SecretStore;
}

/**
 * A secret for a process without Settings (the CLI, CI): the environment first, then the keychain.
 * An unreachable keychain is not an error here (CI has none), but its reason is returned so the caller
 * can say why no key was found.
 */
export async function resolveSecret(
  name: SecretName,
  options: ResolveSecretOptions = {},
): Promise<ResolvedSecret> {
  const fromEnv = await (options.env ?? new EnvSecretStore()).get(name);
  if (fromEnv !== null) return { value: fromEnv, source: 'env', keychainProblem: null };
  try {
    const fromKeychain = await (options.keychain ?? new KeyringSecretStore()).get(name);
    if (fromKeychain !== null) return { value: fromKeychain, source: 'keychain', keychainProblem: null };
    return { value: null, source: null, keychainProblem: null };
  } catch (err) {
    if (err instanceof SecretStoreError) return { value: null, source: null, keychainProblem: err.message };
    throw err;
  }
}

/** The API key for the CLI: `SKINDESK_API_KEY`, else the keychain entry the app stored. */
export function resolveApiKey(options: ResolveSecretOptions = {}): Promise<ResolvedSecret> {
  return resolveSecret('api-key', options);
}

// Run by keyring.test.ts with no D-Bus session at all: what KeyringSecretStore does when Linux has no
// Secret Service. It prints how a save and a read ended as one JSON line.
import { KeyringSecretStore, SecretStoreError } from '../../../src/core/secrets/index.ts';

const store = new KeyringSecretStore({ service: process.env.PROBE_SERVICE });

async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'succeeded';
  } catch (err) {
    if (err instanceof SecretStoreError) return err.reason;
    throw err;
  }
}

const seen = {
  set: await outcome(() => store.set('api-key', 'probe-key-nowhere-4444')),
  get: await outcome(() => store.get('api-key')),
};
// A store that answered is not the Secret Service but the kernel keyring: take the key out again.
if (seen.set === 'succeeded' || seen.get === 'succeeded') await store.delete('api-key');
process.stdout.write(`${JSON.stringify(seen)}\n`);

// Run by keyring.test.ts inside a private D-Bus session with its own gnome-keyring-daemon: exercises
// KeyringSecretStore against a real Secret Service and prints what it saw as one JSON line.
import { AsyncEntry } from '@napi-rs/keyring';
import { KeyringSecretStore, SecretStoreError } from '../../../src/core/secrets/index.ts';

const store = new KeyringSecretStore();
const seen: Record<string, unknown> = { service: store.service };
seen.initial = await store.get('api-key');
await store.set('api-key', 'probe-key-first-1111');
seen.afterSet = await store.get('api-key');
await store.set('api-key', 'probe-key-second-2222');
seen.afterReplace = await store.get('api-key');
await store.set('webhook-secret', 'probe-webhook-3333');
seen.webhook = await store.get('webhook-secret');
// read back through an entry that may use the Secret Service only: the value is there, not in a fallback
seen.inSecretService = await new AsyncEntry(store.service, 'webhook-secret', {
  linux: { store: 'secret-service' },
}).getPassword();
seen.deleted = await store.delete('api-key');
seen.deletedAgain = await store.delete('api-key');
seen.afterDelete = await store.get('api-key');
seen.webhookKept = await store.get('webhook-secret');
try {
  await store.set('api-key', 'bad value');
  seen.invalid = 'accepted';
} catch (err) {
  seen.invalid = err instanceof SecretStoreError ? err.reason : String(err);
}
// a second store object sees what the first wrote: the value lives in the keychain, not in the object
seen.otherInstance = await new KeyringSecretStore().get('webhook-secret');
process.stdout.write(`${JSON.stringify(seen)}\n`);

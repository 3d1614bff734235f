import { describe, expect, it } from 'vitest';
import {
  EnvSecretStore,
  MemorySecretStore,
  type SecretStore,
  SecretStoreError,
  resolveApiKey,
  secretState,
} from '../../../src/core/secrets/index.ts';

/** A keychain that is not there, as on a Linux box without a Secret Service. */
class BrokenKeychain implements SecretStore {
  readonly kind = 'keyring';
  async get(): Promise<string | null> {
    throw new SecretStoreError(
      'unavailable',
      'could not read the API key in the system keychain: no Secret Service',
    );
  }
  async set(): Promise<void> {
    throw new Error('not reached');
  }
  async delete(): Promise<boolean> {
    throw new Error('not reached');
  }
}

describe('MemorySecretStore', () => {
  it('sets, replaces and clears each secret on its own', async () => {
    const store = new MemorySecretStore();
    expect(await store.get('api-key')).toBeNull();
    await store.set('api-key', 'key-one-1111');
    await store.set('webhook-secret', 'whsec-2222');
    await store.set('api-key', 'key-two-3333');
    expect(await store.get('api-key')).toBe('key-two-3333');
    expect(await store.delete('api-key')).toBe(true);
    expect(await store.delete('api-key')).toBe(false);
    expect(await store.get('api-key')).toBeNull();
    expect(await store.get('webhook-secret')).toBe('whsec-2222');
  });

  it('refuses values that could not be sent as a header, without quoting them', async () => {
    const store = new MemorySecretStore();
    const bad = 'has a space-SECRETPART';
    const error = await store.set('api-key', bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect((error as SecretStoreError).reason).toBe('invalid_value');
    expect((error as Error).message).not.toContain('SECRETPART');
    await expect(store.set('api-key', '')).rejects.toThrow(/1 to 512 visible ASCII/);
    await expect(store.set('api-key', 'x'.repeat(513))).rejects.toThrow(SecretStoreError);
  });
});

describe('EnvSecretStore', () => {
  it('reads SKINDESK_API_KEY and SKINDESK_WEBHOOK_SECRET, trimmed, empty meaning unset', async () => {
    const store = new EnvSecretStore({ SKINDESK_API_KEY: ' env-key-4444\n', SKINDESK_WEBHOOK_SECRET: '' });
    expect(await store.get('api-key')).toBe('env-key-4444');
    expect(await store.get('webhook-secret')).toBeNull();
  });

  it('is read-only and says where to change the value', async () => {
    const store = new EnvSecretStore({});
    await expect(store.set('api-key', 'abc')).rejects.toThrow(/SKINDESK_API_KEY/);
    await expect(store.delete('webhook-secret')).rejects.toThrow(/SKINDESK_WEBHOOK_SECRET/);
  });
});

describe('resolveApiKey', () => {
  it('prefers the environment over the keychain', async () => {
    const keychain = new MemorySecretStore({ 'api-key': 'keychain-key-1' });
    const env = new EnvSecretStore({ SKINDESK_API_KEY: 'env-key-1' });
    expect(await resolveApiKey({ env, keychain })).toEqual({
      value: 'env-key-1',
      source: 'env',
      keychainProblem: null,
    });
  });

  it('falls back to the keychain', async () => {
    const keychain = new MemorySecretStore({ 'api-key': 'keychain-key-1' });
    const env = new EnvSecretStore({});
    expect(await resolveApiKey({ env, keychain })).toEqual({
      value: 'keychain-key-1',
      source: 'keychain',
      keychainProblem: null,
    });
  });

  it('reports an unreachable keychain instead of failing', async () => {
    const result = await resolveApiKey({ env: new EnvSecretStore({}), keychain: new BrokenKeychain() });
    expect(result.value).toBeNull();
    expect(result.keychainProblem).toMatch(/no Secret Service/);
  });

  it('returns nothing, without a problem, when no key exists anywhere', async () => {
    const result = await resolveApiKey({ env: new EnvSecretStore({}), keychain: new MemorySecretStore() });
    expect(result).toEqual({ value: null, source: null, keychainProblem: null });
  });
});

describe('secretState', () => {
  it('tells only set/not set and the last 4 characters', () => {
    expect(secretState(null)).toEqual({ set: false, last4: null });
    expect(secretState('')).toEqual({ set: false, last4: null });
    expect(secretState('sk_live_abcdef7890')).toEqual({ set: true, last4: '7890' });
  });

  it('hides the hint for short values, where 4 characters would give half away', () => {
    expect(secretState('abcdefg')).toEqual({ set: true, last4: null });
  });
});

// KeyringSecretStore against a real Secret Service. The test starts its own: a private D-Bus session
// (dbus-run-session) with a gnome-keyring-daemon whose login keyring lives in a temporary HOME, so the
// developer's real keychain is never touched and nothing has to be started by hand. And the same store with
// no D-Bus session at all, as on a Linux desktop without GNOME Keyring or KWallet.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const probe = join(import.meta.dirname, 'keyring-probe.ts');
const noSecretServiceProbe = join(import.meta.dirname, 'keyring-no-secret-service-probe.ts');

/** An environment of its own for a probe: no D-Bus session of the caller, no X display to autolaunch one. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_RUNTIME_DIR: home,
  };
}

/** What a probe printed as its last line, after checking that it ran to its end. */
function probeReport(result: SpawnSyncReturns<string>): unknown {
  expect(result.error, 'spawn').toBeUndefined();
  expect(result.status, `probe failed:\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '');
}

function missingTools(): string | null {
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
  );
  if (process.platform !== 'linux')
    return `the Secret Service test runs on Linux only (this is ${process.platform})`;
  return missing.length > 0
    ? `${missing.join(' and ')} not installed (apt install dbus-x11 gnome-keyring)`
    : null;
}

describe('KeyringSecretStore with a real Secret Service', () => {
  it('stores, replaces, reads back and deletes secrets under the service "skindesk"', (ctx) => {
    const reason = missingTools();
    if (reason) {
      console.warn(`SKIPPED keyring test: ${reason}`);
      ctx.skip(reason);
    }
    const home = mkdtempSync(join(tmpdir(), 'skindesk-keyring-'));
    try {
      // An empty unlock password creates no login keyring (the store then finds no collection), so a
      // throw-away random one is piped in.
      const password = randomBytes(12).toString('hex');
      const script = `printf %s "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$NODE" "$PROBE"`;
      const result = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
        encoding: 'utf8',
        timeout: 20_000,
        env: {
          ...isolatedEnv(home),
          KEYRING_PASSWORD: password,
          NODE: process.execPath,
          PROBE: probe,
        },
      });
      expect(probeReport(result)).toEqual({
        service: 'skindesk',
        initial: null,
        afterSet: 'probe-key-first-1111',
        afterReplace: 'probe-key-second-2222',
        webhook: 'probe-webhook-3333',
        inSecretService: 'probe-webhook-3333',
        deleted: true,
        deletedAgain: false,
        afterDelete: null,
        webhookKept: 'probe-webhook-3333',
        invalid: 'invalid_value',
        otherInstance: 'probe-webhook-3333',
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('KeyringSecretStore without a Secret Service', () => {
  // The library's default falls back to the kernel keyring, which forgets the key on reboot while the
  // app would say it was saved: without a Secret Service the store must refuse, so the user is told.
  it('refuses with "unavailable" when Linux has no Secret Service, instead of saving elsewhere', (ctx) => {
    if (process.platform !== 'linux') ctx.skip('the Secret Service exists on Linux only');
    const home = mkdtempSync(join(tmpdir(), 'skindesk-keyring-none-'));
    try {
      const result = spawnSync(process.execPath, [noSecretServiceProbe], {
        encoding: 'utf8',
        timeout: 20_000,
        env: {
          ...isolatedEnv(home),
          PROBE_SERVICE: `skindesk-test-${randomBytes(6).toString('hex')}`,
        },
      });
      expect(probeReport(result)).toEqual({ set: 'unavailable', get: 'unavailable' });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

// The Electron composition root (src/main/index.ts) run against a fake electron module, up to the point
// where it starts the app services: what it hands them. Here: which keychain entry a profile uses.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppCoreOptions } from '../../../src/core/app/app-core.ts';
import { KEYRING_SERVICE, type KeyringSecretStore } from '../../../src/core/secrets/index.ts';

const fake = vi.hoisted(() => {
  const state = { started: [] as unknown[], exited: [] as number[] };
  const noop = () => undefined;
  const app = {
    isPackaged: false,
    setPath: noop,
    enableSandbox: noop,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: () => '/tmp/skindesk-main-test',
    getVersion: () => '0.0.0',
    on: noop,
    quit: noop,
    exit: (code: number) => void state.exited.push(code),
  };
  const defaultSession = {
    setPermissionRequestHandler: noop,
    setPermissionCheckHandler: noop,
    setDevicePermissionHandler: noop,
    on: noop,
    webRequest: { onHeadersReceived: noop },
    protocol: { handle: noop },
  };
  const electron = {
    app,
    session: { defaultSession },
    protocol: { registerSchemesAsPrivileged: noop },
    dialog: { showErrorBox: noop },
    ipcMain: { handle: noop, removeHandler: noop },
    shell: {},
    Notification: {},
    BrowserWindow: {},
    screen: {},
  };
  return { state, electron };
});

vi.mock('electron', () => ({ default: fake.electron, ...fake.electron }));
vi.mock('../../../src/main/logging.ts', () => ({
  createMainLog: () => ({ info: () => undefined, warn: () => undefined, error: () => undefined }),
  electronLog: { errorHandler: { startCatching: () => undefined } },
}));
vi.mock('../../../src/main/updater.ts', () => ({ startUpdater: () => undefined }));
vi.mock('../../../src/demo/index.ts', () => ({ startDemoMarketThread: () => undefined }));
vi.mock('../../../src/core/app/index.ts', async (importOriginal) => {
  const real = await importOriginal<object>();
  return {
    ...real,
    // the services are not started: what main hands them is the subject here
    AppCore: {
      start: (options: unknown) => {
        fake.state.started.push(options);
        return Promise.reject(new Error('not started in this test'));
      },
    },
  };
});

/** Runs src/main/index.ts with `SKINDESK_USER_DATA` set (or not) and answers the options it gave AppCore. */
async function startMain(userData: string | undefined): Promise<AppCoreOptions> {
  vi.resetModules();
  fake.state.started.length = 0;
  if (userData === undefined) vi.stubEnv('SKINDESK_USER_DATA', '');
  else vi.stubEnv('SKINDESK_USER_DATA', userData);
  await import('../../../src/main/index.ts');
  await vi.waitFor(() => expect(fake.state.started).toHaveLength(1));
  return fake.state.started[0] as AppCoreOptions;
}

function keyringService(options: AppCoreOptions): string {
  // (each run imports the modules afresh: another KeyringSecretStore class than this file's)
  expect(options.secrets.kind).toBe('keyring');
  return (options.secrets as KeyringSecretStore).service;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the main process composition', () => {
  it('the default profile keeps its secrets under the keychain service the CLI reads', async () => {
    expect(keyringService(await startMain(undefined))).toBe(KEYRING_SERVICE);
  });

  it('a separate profile (SKINDESK_USER_DATA) has keychain entries of its own', async () => {
    // A key is bound to the market URL in its profile's settings: sharing one entry, a second profile
    // would send the first one's key to its own market, or delete it when it sets another URL.
    const first = keyringService(await startMain('/tmp/skindesk-profile-a'));
    const second = keyringService(await startMain('/tmp/skindesk-profile-b'));
    expect(first).not.toBe(KEYRING_SERVICE);
    expect(second).not.toBe(KEYRING_SERVICE);
    expect(first).not.toBe(second);
    expect(keyringService(await startMain('/tmp/skindesk-profile-a/'))).toBe(first);
  });
});

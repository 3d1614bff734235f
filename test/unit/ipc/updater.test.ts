// The updater of packaged builds, with fake electron and electron-updater modules: it checks only when
// packaged and not disabled, never installs an older version than the running one, and a check or a
// download that fails (offline) is a warning in the log, never an unhandled rejection.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

interface FakeCheckResult {
  updateInfo: { version: string };
  isUpdateAvailable?: boolean;
  downloadPromise: Promise<string[]> | null;
}

const fake = vi.hoisted(() => {
  const notifications: { title: string; body: string }[] = [];
  class Notification {
    static isSupported = () => true;
    readonly #content: { title: string; body: string };
    constructor(content: { title: string; body: string }) {
      this.#content = content;
    }
    show(): void {
      notifications.push(this.#content);
    }
  }
  const autoUpdater = {
    // what electron-updater does by itself once a `channel` is set (AppUpdater's channel setter)
    allowDowngrade: true,
    autoDownload: true,
    logger: null as unknown,
    checks: 0,
    /** What the next check answers (a rejection: the check failed, e.g. offline). */
    nextCheck: (): Promise<FakeCheckResult | null> => Promise.resolve(null),
    checkForUpdates(): Promise<FakeCheckResult | null> {
      this.checks++;
      return this.nextCheck();
    },
    // electron-updater 6's own code, shape for shape: the notification is chained onto the download and
    // that chain is left without a rejection handler
    checkForUpdatesAndNotify(): Promise<FakeCheckResult | null> {
      return this.checkForUpdates().then((it) => {
        if (!it?.downloadPromise) return it;
        void it.downloadPromise.then(() => {
          new Notification({ title: 'A new update is ready to install', body: it.updateInfo.version }).show();
        });
        return it;
      });
    },
  };
  return { autoUpdater, notifications, app: { isPackaged: true }, Notification };
});

vi.mock('electron', () => ({
  default: { app: fake.app, Notification: fake.Notification },
  app: fake.app,
  Notification: fake.Notification,
}));
vi.mock('electron-updater', () => ({ default: { autoUpdater: fake.autoUpdater } }));
vi.mock('../../../src/main/logging.ts', () => ({ electronLog: { name: 'electron-log' } }));

function recordingLog() {
  const warnings: string[] = [];
  return { warnings, log: { info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined } };
}

/** Lets every chained promise settle, and Node report any rejection nobody handled. */
const settle = () => new Promise((r) => setTimeout(r, 20));

afterEach(() => {
  vi.unstubAllEnvs();
  fake.autoUpdater.checks = 0;
  fake.autoUpdater.allowDowngrade = true;
  fake.autoUpdater.autoDownload = true;
  fake.autoUpdater.nextCheck = () => Promise.resolve(null);
  fake.notifications.length = 0;
  fake.app.isPackaged = true;
});

// On Linux only an AppImage installs what it finds (see installsUpdates): the tests that download run as one.
beforeEach(() => {
  if (process.platform === 'linux') vi.stubEnv('APPIMAGE', '/opt/Skindesk.AppImage');
});

describe('the updater', () => {
  it('checks a packaged build, and never offers to downgrade it', async () => {
    vi.stubEnv('SKINDESK_DISABLE_UPDATES', '');
    const { startUpdater } = await import('../../../src/main/updater.ts');
    startUpdater(recordingLog().log);
    expect(fake.autoUpdater.checks).toBe(1);
    expect(fake.autoUpdater.allowDowngrade).toBe(false);
  });

  it('does not check an unpackaged run or when updates are disabled', async () => {
    const { startUpdater } = await import('../../../src/main/updater.ts');
    fake.app.isPackaged = false;
    startUpdater(recordingLog().log);
    fake.app.isPackaged = true;
    vi.stubEnv('SKINDESK_DISABLE_UPDATES', '1');
    startUpdater(recordingLog().log);
    expect(fake.autoUpdater.checks).toBe(0);
  });

  it('offline, a failed check is one warning in the log', async () => {
    const { startUpdater } = await import('../../../src/main/updater.ts');
    fake.autoUpdater.nextCheck = () => Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'));
    const { log, warnings } = recordingLog();
    startUpdater(log);
    await settle();
    expect(warnings).toEqual(['update failed: net::ERR_INTERNET_DISCONNECTED']);
  });

  it('a download cut short is a warning in the log, not an unhandled rejection', async () => {
    const { startUpdater } = await import('../../../src/main/updater.ts');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      fake.autoUpdater.nextCheck = () =>
        Promise.resolve({
          updateInfo: { version: '9.9.9' },
          downloadPromise: Promise.reject(new Error('net::ERR_CONNECTION_RESET')),
        });
      const { log, warnings } = recordingLog();
      startUpdater(log);
      await settle();
      expect(unhandled).toEqual([]);
      expect(warnings).toEqual(['update failed: net::ERR_CONNECTION_RESET']);
      expect(fake.notifications).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a downloaded update is announced by a notification from the main process', async () => {
    const { startUpdater } = await import('../../../src/main/updater.ts');
    fake.autoUpdater.nextCheck = () =>
      Promise.resolve({ updateInfo: { version: '9.9.9' }, downloadPromise: Promise.resolve(['/tmp/update']) });
    const { log, warnings } = recordingLog();
    startUpdater(log);
    await settle();
    expect(warnings).toEqual([]);
    expect(fake.notifications).toEqual([
      { title: 'A new version of Skindesk is ready', body: 'Version 9.9.9 is installed when Skindesk quits.' },
    ]);
  });
});

describe('which builds install their updates', () => {
  it('Windows, macOS and an AppImage do; a Linux package (deb: dpkg as root, no signature) does not', async () => {
    const { installsUpdates } = await import('../../../src/main/updater.ts');
    expect(installsUpdates('win32', {})).toBe(true);
    expect(installsUpdates('darwin', {})).toBe(true);
    expect(installsUpdates('linux', { APPIMAGE: '/home/t/Skindesk.AppImage' })).toBe(true);
    expect(installsUpdates('linux', {})).toBe(false);
  });

  it.runIf(process.platform === 'linux')('a deb build downloads nothing and tells a new version once', async () => {
    vi.stubEnv('APPIMAGE', '');
    const { startUpdater, UPDATE_CHECK_INTERVAL_MS } = await import('../../../src/main/updater.ts');
    vi.useFakeTimers();
    try {
      fake.autoUpdater.nextCheck = () => Promise.resolve({ updateInfo: { version: '9.9.9' }, isUpdateAvailable: true, downloadPromise: null });
      startUpdater(recordingLog().log);
      await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS);
      expect(fake.autoUpdater.autoDownload).toBe(false);
      expect(fake.autoUpdater.checks).toBe(2);
      expect(fake.notifications).toEqual([
        {
          title: 'A new version of Skindesk is available',
          body: 'Version 9.9.9: update Skindesk with your package manager, or download it from the releases page.',
        },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the updater of an app left running', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('looks again every few hours (a start offline is not the last chance), and tells a download once', async () => {
    vi.useFakeTimers();
    const { startUpdater, UPDATE_CHECK_INTERVAL_MS } = await import('../../../src/main/updater.ts');
    fake.autoUpdater.nextCheck = () => Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'));
    const { log, warnings } = recordingLog();
    startUpdater(log);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.autoUpdater.checks).toBe(1);
    expect(warnings).toHaveLength(1);

    // back online: the next look finds and downloads 9.9.9, and the one after finds it downloaded
    fake.autoUpdater.nextCheck = () =>
      Promise.resolve({ updateInfo: { version: '9.9.9' }, downloadPromise: Promise.resolve(['/tmp/update']) });
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS);
    expect(fake.autoUpdater.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_INTERVAL_MS);
    expect(fake.autoUpdater.checks).toBe(3);
    expect(fake.notifications.map((n) => n.body)).toEqual(['Version 9.9.9 is installed when Skindesk quits.']);
    expect(UPDATE_CHECK_INTERVAL_MS).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
  });
});

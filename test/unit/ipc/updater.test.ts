// The updater of packaged builds, with fake electron and electron-updater modules: it checks only when
// packaged and not disabled, and never installs an older version than the running one.
import { afterEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => {
  const autoUpdater = {
    // what electron-updater does by itself once a `channel` is set (AppUpdater's channel setter)
    allowDowngrade: true,
    logger: null as unknown,
    checks: 0,
    checkForUpdatesAndNotify() {
      this.checks++;
      return Promise.resolve(null);
    },
  };
  return { autoUpdater, app: { isPackaged: true } };
});

vi.mock('electron', () => ({ default: { app: fake.app }, app: fake.app }));
vi.mock('electron-updater', () => ({ default: { autoUpdater: fake.autoUpdater } }));
vi.mock('../../../src/main/logging.ts', () => ({ electronLog: { name: 'electron-log' } }));

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

afterEach(() => {
  vi.unstubAllEnvs();
  fake.autoUpdater.checks = 0;
  fake.autoUpdater.allowDowngrade = true;
  fake.app.isPackaged = true;
});

describe('the updater', () => {
  it('checks a packaged build, and never offers to downgrade it', async () => {
    vi.stubEnv('SKINDESK_DISABLE_UPDATES', '');
    const { startUpdater } = await import('../../../src/main/updater.ts');
    startUpdater(log);
    expect(fake.autoUpdater.checks).toBe(1);
    expect(fake.autoUpdater.allowDowngrade).toBe(false);
  });

  it('does not check an unpackaged run or when updates are disabled', async () => {
    const { startUpdater } = await import('../../../src/main/updater.ts');
    fake.app.isPackaged = false;
    startUpdater(log);
    fake.app.isPackaged = true;
    vi.stubEnv('SKINDESK_DISABLE_UPDATES', '1');
    startUpdater(log);
    expect(fake.autoUpdater.checks).toBe(0);
  });
});

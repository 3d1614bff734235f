// Electron smoke tests: the packaged-shape app (out/, as `npm run build` makes it) started by
// Playwright's Electron support. They need the Electron binary; where it is missing (installed with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1) they are reported as SKIPPED with the reason, never as passed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ElectronApplication, type Page, _electron, expect, test } from '@playwright/test';
import { MISSING_ELECTRON_REASON, electronBinary } from '../../scripts/electron-binary.mjs';
import { IPC_CALL_NAMES, IPC_PUSH_NAMES, pushFunctionName } from '../../src/shared/ipc/index.ts';
import { type Display, acquireDisplay } from './display.ts';

const root = resolve(import.meta.dirname, '../..');
const binary = electronBinary(root);
if (!binary) console.log(`SKIPPED Electron smoke tests: ${MISSING_ELECTRON_REASON}`);
test.skip(!binary, MISSING_ELECTRON_REASON);
test.describe.configure({ mode: 'serial' });

let app: ElectronApplication;
let win: Page;
let display: Display | null = null;
let userData: string;

test.beforeAll(async () => {
  const acquired = await acquireDisplay();
  if ('skip' in acquired) {
    console.log(`SKIPPED Electron smoke tests: ${acquired.skip}`);
    test.skip(true, acquired.skip);
    return;
  }
  display = acquired;
  userData = mkdtempSync(join(tmpdir(), 'skindesk-electron-'));
  app = await _electron.launch({
    executablePath: binary as string,
    // Chromium refuses to run as root with its OS sandbox; renderers stay sandboxed by webPreferences
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
    cwd: root,
    env: {
      ...(process.env as Record<string, string>),
      ...display.env,
      SKINDESK_USER_DATA: userData,
      SKINDESK_DISABLE_UPDATES: '1',
      ELECTRON_RUN_AS_NODE: '',
    },
    timeout: 60_000,
  });
  win = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close();
  display?.stop();
  if (userData) rmSync(userData, { recursive: true, force: true });
});

test('the main window opens on app://skindesk and shows the demo market', async () => {
  await expect(win).toHaveTitle('Skindesk');
  expect(win.url()).toBe('app://skindesk/index.html');
  await expect(win.getByTestId('market-badge')).toHaveText('Demo market', { timeout: 30_000 });
  await expect(win.locator('[data-listing-id]').first()).toBeVisible({ timeout: 60_000 });
  await win.screenshot({ path: 'test-results/electron-main-window.png' });
});

test('the window is isolated and sandboxed, with only the contract on window.skindesk', async () => {
  // getLastWebPreferences exists on WebContents but is missing from Electron's type declarations
  const prefs = await app.evaluate(({ BrowserWindow }) => {
    const contents = BrowserWindow.getAllWindows()[0]?.webContents as unknown as {
      getLastWebPreferences(): unknown;
    };
    return contents.getLastWebPreferences();
  });
  expect(prefs).toMatchObject({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webviewTag: false,
  });
  const page = await win.evaluate(() => ({
    keys: Object.keys(window.skindesk ?? {}).sort(),
    require: typeof (globalThis as { require?: unknown }).require,
    process: typeof (globalThis as { process?: unknown }).process,
  }));
  expect(page.keys).toEqual([...IPC_CALL_NAMES, ...IPC_PUSH_NAMES.map(pushFunctionName)].sort());
  expect(page.require).toBe('undefined');
  expect(page.process).toBe('undefined');
});

test('the CSP header is set on app:// responses and blocks inline script', async () => {
  const csp = await win.evaluate(async () =>
    (await fetch(location.href)).headers.get('content-security-policy'),
  );
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  const ran = await win.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
});

test('new windows and navigation away are refused', async () => {
  const opened = await win.evaluate(() => window.open('https://example.com/') === null);
  expect(opened).toBe(true);
  expect(app.windows()).toHaveLength(1);
  await win.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await win.waitForTimeout(500);
  expect(win.url()).toBe('app://skindesk/index.html');
});

test('the window remembers its size', async () => {
  await app.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows()[0]?.setBounds({ width: 1234, height: 777 }),
  );
  await app.close();
  const state = JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8')) as {
    width: number;
    height: number;
  };
  expect(state).toMatchObject({ width: 1234, height: 777 });
});

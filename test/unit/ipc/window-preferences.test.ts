// The one window factory, with a fake electron: every window it makes has the locked-down
// webPreferences, and DevTools only when the factory is told it runs unpackaged.
import { describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => {
  const made: { webPreferences?: Record<string, unknown> }[] = [];
  let nextId = 1;
  class BrowserWindow {
    readonly webContents = { id: nextId++, on: () => undefined };
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      made.push(options);
    }
    on(): this {
      return this;
    }
    once(): this {
      return this;
    }
    loadURL(): Promise<void> {
      return Promise.resolve();
    }
  }
  return { made, electron: { BrowserWindow, screen: { getAllDisplays: () => [] } } };
});
vi.mock('electron', () => ({ default: fake.electron, ...fake.electron }));

async function preferencesOfAWindow(devTools: boolean): Promise<Record<string, unknown>> {
  const { WindowFactory } = await import('../../../src/main/windows.ts');
  const windows = new WindowFactory({
    preloadPath: '/app/out/preload/index.cjs',
    devTools,
    urlFor: (route) => `app://skindesk/index.html${route}`,
    onLoadFailed: () => undefined,
    onRendererGone: () => undefined,
  });
  fake.made.length = 0;
  windows.create('');
  expect(fake.made).toHaveLength(1);
  return fake.made[0]!.webPreferences ?? {};
}

describe('window webPreferences', () => {
  it('isolate and sandbox the page, with no Node, no webview and web security on', async () => {
    expect(await preferencesOfAWindow(true)).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
    });
  });

  it('a packaged build cannot open DevTools; a development run can', async () => {
    expect((await preferencesOfAWindow(false))['devTools']).toBe(false);
    expect((await preferencesOfAWindow(true))['devTools']).toBe(true);
  });
});

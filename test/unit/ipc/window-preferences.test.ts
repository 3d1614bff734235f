// The one window factory, with a fake electron: every window it makes has the locked-down
// webPreferences, DevTools only when the factory is told it runs unpackaged, and a page whose process
// dies is reloaded — but not in a loop (renderer-recovery.ts).
import { describe, expect, it, vi } from 'vitest';
import { RELOADS_PER_WINDOW } from '../../../src/main/renderer-recovery.ts';

type GoneListener = (event: unknown, details: { reason: string; exitCode: number }) => void;
const fake = vi.hoisted(() => {
  const made: { webPreferences?: Record<string, unknown> }[] = [];
  const pages: { reloads: number; gone: GoneListener | null }[] = [];
  let nextId = 1;
  class BrowserWindow {
    readonly #page = { reloads: 0, gone: null as GoneListener | null };
    readonly webContents = {
      id: nextId++,
      on: (event: string, listener: GoneListener) => {
        if (event === 'render-process-gone') this.#page.gone = listener;
      },
      reload: () => void this.#page.reloads++,
    };
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      made.push(options);
      pages.push(this.#page);
    }
    isDestroyed(): boolean {
      return false;
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
  return { made, pages, electron: { BrowserWindow, screen: { getAllDisplays: () => [] } } };
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

describe('a window whose page process dies', () => {
  it('is reloaded and the crash told; a page that keeps dying is left alone after a few reloads', async () => {
    const { WindowFactory } = await import('../../../src/main/windows.ts');
    const told: string[] = [];
    const windows = new WindowFactory({
      preloadPath: '/app/preload.cjs',
      devTools: false,
      urlFor: (route) => `app://skindesk/index.html${route}`,
      onLoadFailed: () => undefined,
      onRendererGone: (reason, exitCode, reloading) => told.push(`${reason} ${exitCode} ${reloading ? 'reload' : 'left'}`),
    });
    windows.create('');
    const page = fake.pages.at(-1)!;
    for (let i = 0; i <= RELOADS_PER_WINDOW; i++) page.gone?.({}, { reason: 'oom', exitCode: 9 });
    expect(page.reloads).toBe(RELOADS_PER_WINDOW);
    expect(told).toEqual([...Array<string>(RELOADS_PER_WINDOW).fill('oom 9 reload'), 'oom 9 left']);
  });
});

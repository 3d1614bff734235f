// A window whose page's process dies is reloaded (auto-buy and alerts run on in the main process, and a
// blank window would hide them), but not in a loop when the page dies again right after each reload.
import { describe, expect, it, vi } from 'vitest';
import { RELOADS_PER_WINDOW, RELOAD_WINDOW_MS, RendererRecovery } from '../../../src/main/renderer-recovery.ts';

type GoneListener = (event: unknown, details: { reason: string; exitCode: number }) => void;
const fake = vi.hoisted(() => {
  const windows: { reloads: number; gone: ((event: unknown, details: { reason: string; exitCode: number }) => void) | null }[] = [];
  let nextId = 1;
  class BrowserWindow {
    readonly #record = { reloads: 0, gone: null as GoneListener | null };
    readonly webContents = {
      id: nextId++,
      on: (event: string, listener: GoneListener) => {
        if (event === 'render-process-gone') this.#record.gone = listener;
      },
      reload: () => void this.#record.reloads++,
    };
    constructor() {
      windows.push(this.#record);
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
  return { windows, electron: { BrowserWindow, screen: { getAllDisplays: () => [] } } };
});
vi.mock('electron', () => ({ default: fake.electron, ...fake.electron }));

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
    const win = fake.windows.at(-1)!;
    for (let i = 0; i <= RELOADS_PER_WINDOW; i++) win.gone?.({}, { reason: 'oom', exitCode: 9 });
    expect(win.reloads).toBe(RELOADS_PER_WINDOW);
    expect(told).toEqual([...Array<string>(RELOADS_PER_WINDOW).fill('oom 9 reload'), 'oom 9 left']);
  });
});

describe('the reload policy', () => {
  it('never reloads a page that exited cleanly', () => {
    expect(new RendererRecovery(() => 0).shouldReload('clean-exit')).toBe(false);
  });

  it('reloads again once the earlier reloads are older than the window', () => {
    let now = 0;
    const recovery = new RendererRecovery(() => now);
    for (let i = 0; i < RELOADS_PER_WINDOW; i++) expect(recovery.shouldReload('crashed')).toBe(true);
    expect(recovery.shouldReload('crashed')).toBe(false);
    now += RELOAD_WINDOW_MS + 1;
    expect(recovery.shouldReload('crashed')).toBe(true);
  });
});

// The Electron glue's two fire-and-forget calls: a page that does not load, and a browser that does not
// open an allowed link, are told (a dialog and the log; the log) instead of becoming unhandled rejections.
import { describe, expect, it, vi } from 'vitest';
import { EXTERNAL_LINK_HOSTS } from '../../../src/core/app/external-links.ts';

type OpenHandler = (details: { url: string }) => { action: string };
const fake = vi.hoisted(() => {
  const state = {
    loadError: new Error('ERR_FILE_NOT_FOUND (-6) loading app://skindesk/index.html'),
    openError: new Error('no handler for https links'),
    webContentsCreated: null as null | ((event: unknown, contents: unknown) => void),
  };
  let nextId = 1;
  class BrowserWindow {
    readonly webContents = { id: nextId++, on: () => undefined };
    on(): this {
      return this;
    }
    once(): this {
      return this;
    }
    loadURL(): Promise<void> {
      return Promise.reject(state.loadError);
    }
  }
  const electron = {
    BrowserWindow,
    screen: { getAllDisplays: () => [] },
    app: {
      on: (event: string, listener: (event: unknown, contents: unknown) => void) => {
        if (event === 'web-contents-created') state.webContentsCreated = listener;
      },
    },
    shell: { openExternal: () => Promise.reject(state.openError) },
    protocol: {},
  };
  return { state, electron };
});
vi.mock('electron', () => ({ default: fake.electron, ...fake.electron }));

const settle = () => new Promise((r) => setImmediate(r));

describe('the Electron glue tells its asynchronous failures', () => {
  it('a window whose page does not load calls onLoadFailed with the address and the reason', async () => {
    const { WindowFactory } = await import('../../../src/main/windows.ts');
    const failures: string[] = [];
    const windows = new WindowFactory({
      preloadPath: '/app/preload.cjs',
      devTools: false,
      urlFor: (route) => `app://skindesk/index.html${route}`,
      onLoadFailed: (url, error) => failures.push(`${url}: ${error.message}`),
      onRendererGone: () => undefined,
    });
    windows.create('#/item/7');
    await settle();
    expect(failures).toEqual([
      'app://skindesk/index.html#/item/7: ERR_FILE_NOT_FOUND (-6) loading app://skindesk/index.html',
    ]);
  });

  it('an allowed link the system cannot open is denied as a window and logged', async () => {
    const { hardenAllWebContents } = await import('../../../src/main/security.ts');
    const warnings: string[] = [];
    hardenAllWebContents({ info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined });
    let openHandler: OpenHandler | null = null;
    fake.state.webContentsCreated?.(
      {},
      { on: () => undefined, setWindowOpenHandler: (handler: OpenHandler) => void (openHandler = handler) },
    );
    const url = `https://${EXTERNAL_LINK_HOSTS[0]}/`;
    expect(openHandler!({ url })).toEqual({ action: 'deny' });
    await settle();
    expect(warnings).toEqual([`could not open ${url} in the browser: no handler for https links`]);
  });
});

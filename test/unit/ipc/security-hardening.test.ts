// Process-wide hardening (src/main/security.ts) with a fake electron: what the app:// protocol answers,
// and what every webContents refuses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => void;
const fake = vi.hoisted(() => {
  const state = { webContentsCreated: null as null | Listener };
  const electron = {
    app: {
      on: (event: string, listener: Listener) => {
        if (event === 'web-contents-created') state.webContentsCreated = listener;
      },
    },
    shell: { openExternal: () => Promise.resolve() },
    protocol: {},
  };
  return { state, electron };
});
vi.mock('electron', () => ({ default: fake.electron, ...fake.electron }));

const rendererDir = mkdtempSync(join(tmpdir(), 'skindesk-renderer-'));
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Skindesk</title>');
afterAll(() => rmSync(rendererDir, { recursive: true, force: true }));

const CSP = "default-src 'self'; script-src 'self'";
const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function appProtocol(): Promise<(request: Request) => Promise<Response>> {
  const { serveRenderer } = await import('../../../src/main/security.ts');
  let handler: ((request: Request) => Promise<Response>) | null = null;
  const session = { protocol: { handle: (_scheme: string, h: typeof handler) => void (handler = h) } };
  serveRenderer(session as unknown as Parameters<typeof serveRenderer>[0], rendererDir, CSP);
  return handler!;
}

/** The listeners hardenAllWebContents puts on a newly created webContents, by event name. */
async function listenersOfNewContents(): Promise<Map<string, Listener>> {
  const { hardenAllWebContents } = await import('../../../src/main/security.ts');
  hardenAllWebContents(silentLog);
  const listeners = new Map<string, Listener>();
  fake.state.webContentsCreated?.(
    {},
    { on: (event: string, listener: Listener) => void listeners.set(event, listener), setWindowOpenHandler: () => undefined },
  );
  return listeners;
}

describe('the app:// protocol', () => {
  it('serves a file with the CSP', async () => {
    const answer = await (await appProtocol())(new Request('app://skindesk/index.html'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toBe(CSP);
  });

  it('answers a missing file, or a path that leaves the folder, under the same CSP and nosniff', async () => {
    const serve = await appProtocol();
    for (const url of ['app://skindesk/missing.js', 'app://skindesk/%2e%2e/%2e%2e/etc/passwd', 'app://other/index.html']) {
      const answer = await serve(new Request(url));
      expect(answer.status, url).toBe(404);
      expect(answer.headers.get('content-security-policy'), url).toBe(CSP);
      expect(answer.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(answer.headers.get('content-type'), url).toBe('text/plain; charset=utf-8');
    }
  });
});

describe('every webContents', () => {
  it('cancels a Web Bluetooth request instead of letting Electron pair the first device', async () => {
    const selectDevice = (await listenersOfNewContents()).get('select-bluetooth-device');
    expect(selectDevice).toBeTypeOf('function');
    const event = { preventDefault: vi.fn() };
    const callback = vi.fn();
    selectDevice!(event, [{ deviceId: 'AA:BB', deviceName: 'Headset' }], callback);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(callback).toHaveBeenCalledWith('');
  });

  it('refuses navigation, redirects and webviews', async () => {
    const listeners = await listenersOfNewContents();
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      listeners.get(name)!(event, 'https://example.com/');
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
  });
});

describe('the session', () => {
  it('refuses every download a page starts (the app writes its exports itself)', async () => {
    const { hardenSession } = await import('../../../src/main/security.ts');
    const listeners = new Map<string, Listener>();
    const session = {
      setPermissionRequestHandler: () => undefined,
      setPermissionCheckHandler: () => undefined,
      setDevicePermissionHandler: () => undefined,
      webRequest: { onHeadersReceived: () => undefined },
      on: (event: string, listener: Listener) => void listeners.set(event, listener),
    };
    const warnings: string[] = [];
    hardenSession(session as unknown as Parameters<typeof hardenSession>[0], CSP, {
      ...silentLog,
      warn: (m) => void warnings.push(m),
    });
    const willDownload = listeners.get('will-download');
    expect(willDownload).toBeTypeOf('function');
    const event = { preventDefault: vi.fn() };
    willDownload!(event, { getFilename: () => 'Skindesk-update.exe' });
    expect(event.preventDefault).toHaveBeenCalled();
    expect(warnings).toEqual(['refused a download started by the page: Skindesk-update.exe']);
  });
});

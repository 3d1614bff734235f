// The renderer's side of the bridge (src/renderer/bridge/skindesk.ts): envelopes become values or
// SkindeskErrors, pushes reach listeners, and a page without window.skindesk gets a clear error.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeMissingError, SkindeskError, call, subscribe } from '../../../src/renderer/bridge/skindesk.ts';
import {
  IPC_CALL_NAMES,
  IPC_PUSHES,
  type IpcHandlers,
  type IpcPushName,
  type IpcTransport,
  createDispatcher,
  createSkindeskApi,
} from '../../../src/shared/ipc/index.ts';

function installBridge(overrides: Partial<Record<string, () => unknown>> = {}) {
  const handlers = Object.fromEntries(
    IPC_CALL_NAMES.map((n) => [n, overrides[n] ?? (() => ({}))]),
  ) as unknown as IpcHandlers;
  const dispatch = createDispatcher(handlers, {
    describeError: (err) => (err as SkindeskError).toPayload(),
  });
  const listeners = new Map<IpcPushName, (payload: unknown) => void>();
  const transport: IpcTransport = {
    invoke: (name, input) => dispatch(name, input),
    listen: (name, listener) => {
      listeners.set(name, listener);
      return () => listeners.delete(name);
    },
  };
  vi.stubGlobal('window', { skindesk: createSkindeskApi(transport) });
  return listeners;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('renderer bridge', () => {
  it('returns the value of a successful call', async () => {
    installBridge({ getAppInfo: () => ({ name: 'Skindesk', version: '1.2.3', platform: 'linux' }) });
    await expect(call('getAppInfo', {})).resolves.toEqual({
      name: 'Skindesk',
      version: '1.2.3',
      platform: 'linux',
    });
  });

  it('throws a SkindeskError with the code and issues of a refused call', async () => {
    installBridge();
    const error = await call('getListing', { id: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkindeskError);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', issues: [{ path: 'id' }] });
  });

  it('carries the marketplace code of a handler failure', async () => {
    installBridge({
      openExternal: () => {
        throw new SkindeskError({ code: 'MARKET', message: 'gone', apiCode: 'LISTING_NOT_FOUND' });
      },
    });
    await expect(call('openExternal', { url: 'https://steamcommunity.com/' })).rejects.toMatchObject({
      code: 'MARKET',
      apiCode: 'LISTING_NOT_FOUND',
    });
  });

  it('delivers pushes and unsubscribes', () => {
    const listeners = installBridge();
    const got: unknown[] = [];
    const off = subscribe('notification', (n) => got.push(n.title));
    listeners.get('notification')?.(IPC_PUSHES.notification.example);
    off();
    expect(got).toEqual(['Demo market']);
    expect(listeners.has('notification')).toBe(false);
  });

  it('says clearly when the page has no bridge', async () => {
    vi.stubGlobal('window', {});
    await expect(call('getStatus', {})).rejects.toBeInstanceOf(BridgeMissingError);
    expect(() => subscribe('syncStatus', () => {})).toThrow(/window\.skindesk is missing/);
  });
});

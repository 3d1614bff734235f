// The IPC sender check, with fake Electron events: only the top frame of one of our windows, showing our
// own page, may call. Also drives the real registration loop with a fake ipcMain.
import { describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN } from '../../../src/main/app-protocol.ts';
import { type IpcMainLike, guardedHandler, registerIpcHandlers } from '../../../src/main/ipc-guard.ts';
import {
  type FrameLike,
  type IpcEventLike,
  type SenderPolicy,
  checkSender,
} from '../../../src/main/sender-policy.ts';
import { IPC_CALL_NAMES, type IpcDispatch, callChannel } from '../../../src/shared/ipc/index.ts';

const OUR_WINDOW = 7;
const policy: SenderPolicy = {
  origins: [APP_ORIGIN],
  isOurWindow: (id) => id === OUR_WINDOW,
};

function frame(url: string, parent: FrameLike | null = null): FrameLike {
  return { url, parent };
}

/** An event from the main frame of webContents `id` showing `url`. */
function eventFrom(url: string, id = OUR_WINDOW): IpcEventLike {
  const main = frame(url);
  return { senderFrame: main, sender: { id, mainFrame: main } };
}

describe('checkSender', () => {
  it('accepts the main frame of our window on app://skindesk', () => {
    expect(checkSender(eventFrom('app://skindesk/index.html'), policy)).toEqual({ ok: true });
    expect(checkSender(eventFrom('app://skindesk/index.html#/item/5'), policy)).toEqual({ ok: true });
  });

  it.each([
    ['a web page', 'https://evil.example/'],
    ['a file URL', 'file:///etc/passwd'],
    ['another app:// host', 'app://other/index.html'],
    ['a look-alike host', 'app://skindesk.evil/index.html'],
    ['credentials in the URL', 'app://user:pw@skindesk/index.html'],
    ['the dev server when not allowed', 'http://localhost:5173/'],
    ['devtools', 'devtools://devtools/bundled/inspector.html'],
    ['about:blank', 'about:blank'],
    ['garbage', 'not a url'],
  ])('refuses %s', (_label, url) => {
    const verdict = checkSender(eventFrom(url), policy);
    expect(verdict.ok).toBe(false);
  });

  it('refuses a sub-frame inside our own page', () => {
    const main = frame('app://skindesk/index.html');
    const child = frame('app://skindesk/index.html', main);
    const verdict = checkSender({ senderFrame: child, sender: { id: OUR_WINDOW, mainFrame: main } }, policy);
    expect(verdict).toEqual({ ok: false, reason: expect.stringMatching(/sub-frame/) });
  });

  it('refuses a frame that is not the main frame even without a parent link', () => {
    const main = frame('app://skindesk/index.html');
    const other = frame('app://skindesk/index.html');
    expect(checkSender({ senderFrame: other, sender: { id: OUR_WINDOW, mainFrame: main } }, policy).ok).toBe(
      false,
    );
  });

  it('recognises the main frame by process and routing id when Electron hands out another wrapper', () => {
    const main = { url: 'app://skindesk/index.html', parent: null, processId: 4, routingId: 1 };
    const sameFrameOtherWrapper = { ...main };
    const otherFrame = { ...main, routingId: 2 };
    expect(
      checkSender({ senderFrame: sameFrameOtherWrapper, sender: { id: OUR_WINDOW, mainFrame: main } }, policy)
        .ok,
    ).toBe(true);
    expect(
      checkSender({ senderFrame: otherFrame, sender: { id: OUR_WINDOW, mainFrame: main } }, policy).ok,
    ).toBe(false);
  });

  it('refuses a webContents that is not one of our windows, even showing our page', () => {
    expect(checkSender(eventFrom('app://skindesk/index.html', 99), policy)).toEqual({
      ok: false,
      reason: expect.stringMatching(/not one of our windows/),
    });
  });

  it('refuses when the frame is gone', () => {
    const main = frame('app://skindesk/index.html');
    expect(checkSender({ senderFrame: null, sender: { id: OUR_WINDOW, mainFrame: main } }, policy).ok).toBe(
      false,
    );
  });

  it('accepts the dev server only when the policy lists it', () => {
    const dev: SenderPolicy = {
      ...policy,
      origins: [APP_ORIGIN, { protocol: 'http:', host: 'localhost:5173' }],
    };
    expect(checkSender(eventFrom('http://localhost:5173/'), dev).ok).toBe(true);
    expect(checkSender(eventFrom('http://localhost:5174/'), dev).ok).toBe(false);
  });
});

describe('guarded IPC handlers', () => {
  it('never dispatches for a foreign frame and answers FORBIDDEN_SENDER', async () => {
    const dispatch = vi.fn<IpcDispatch>(async () => ({ ok: true, value: {} }));
    const refusals: string[] = [];
    const handler = guardedHandler(
      'getSettings',
      dispatch,
      policy,
      (call, reason) => refusals.push(`${call}: ${reason}`),
      () => {},
    );
    const response = await handler(eventFrom('https://evil.example/'), {});
    expect(response).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(dispatch).not.toHaveBeenCalled();
    expect(refusals).toEqual([expect.stringMatching(/^getSettings: /)]);
  });

  it('dispatches a trusted call with its single argument', async () => {
    const dispatch = vi.fn<IpcDispatch>(async () => ({ ok: true, value: 'done' }));
    const handler = guardedHandler('getListing', dispatch, policy, () => {}, () => {});
    expect(await handler(eventFrom('app://skindesk/index.html'), { id: 3 })).toEqual({
      ok: true,
      value: 'done',
    });
    expect(dispatch).toHaveBeenCalledWith('getListing', { id: 3 });
  });

  it('answers INTERNAL, never the thrown words, when the dispatcher throws, and logs the error', async () => {
    const thrown = new Error('cannot open /home/trader/.config/Skindesk/skindesk.db with key sk_live_123');
    const dispatch = vi.fn<IpcDispatch>(async () => {
      throw thrown;
    });
    const failures: [string, unknown][] = [];
    const handler = guardedHandler('getListing', dispatch, policy, () => {}, (call, error) => failures.push([call, error]));
    const response = await handler(eventFrom('app://skindesk/index.html'), { id: 3 });
    expect(response).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(response)).not.toMatch(/trader|sk_live|skindesk\.db/);
    expect(failures).toEqual([['getListing', thrown]]);
  });

  it('refuses extra arguments', async () => {
    const dispatch = vi.fn<IpcDispatch>();
    const handler = guardedHandler('getListing', dispatch, policy, () => {}, () => {});
    const response = await handler(eventFrom('app://skindesk/index.html'), { id: 3 }, 'extra');
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('registers exactly one guarded handler per contract call, and removes them all', async () => {
    const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => {
        expect(handlers.has(channel), `${channel} registered twice`).toBe(false);
        handlers.set(channel, listener);
      },
      removeHandler: (channel) => handlers.delete(channel),
    };
    const dispatch = vi.fn<IpcDispatch>(async () => ({ ok: true, value: null }));
    const unregister = registerIpcHandlers(ipcMain, dispatch, policy, () => {}, () => {});
    expect([...handlers.keys()].sort()).toEqual(IPC_CALL_NAMES.map(callChannel).sort());
    for (const [channel, handler] of handlers) {
      const response = await handler(eventFrom('app://evil/index.html'), {});
      expect(response, channel).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
    expect(dispatch).not.toHaveBeenCalled();
    unregister();
    expect(handlers.size).toBe(0);
  });
});

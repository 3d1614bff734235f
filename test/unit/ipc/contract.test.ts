// The IPC contract itself: every call rejects bad input before its handler runs (fuzzed per call from its
// own schema), answers are checked against the output schema, and window.skindesk is generated from the
// same table for any transport.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  IPC_CALLS,
  IPC_CALL_NAMES,
  IPC_PUSHES,
  IPC_PUSH_NAMES,
  type IpcCallName,
  type IpcHandlers,
  type IpcPushName,
  type IpcTransport,
  SkindeskError,
  createDispatcher,
  createSkindeskApi,
  pushFunctionName,
} from '../../../src/shared/ipc/index.ts';

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  Number.NaN,
  2 ** 60,
  '',
  'x',
  'x'.repeat(5000),
  'javascript:alert(1)',
  true,
  [],
  [1, 2],
  {},
  { nested: { deep: true } },
];

/** Inputs that the call's schema must reject: odd whole values, odd values per field, unknown keys, missing keys. */
function invalidInputsFor(name: IpcCallName): unknown[] {
  const schema = IPC_CALLS[name].input as z.ZodType;
  const example = IPC_CALLS[name].example as Record<string, unknown>;
  const candidates: unknown[] = [
    ...ODD_VALUES.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
  ];
  candidates.push({ ...example, unexpected_field: 1 });
  candidates.push(Object.assign(Object.create(null), example, { __proto__: { polluted: true } }));
  if (schema instanceof z.ZodObject) {
    for (const key of Object.keys(schema.shape)) {
      for (const odd of ODD_VALUES) candidates.push({ ...example, [key]: odd });
      const { [key]: _dropped, ...without } = example;
      candidates.push(without);
    }
  }
  return candidates.filter((candidate) => !schema.safeParse(candidate).success);
}

function spyHandlers() {
  const spies = Object.fromEntries(
    IPC_CALL_NAMES.map((n) => [n, vi.fn(async () => ({}))]),
  ) as unknown as Record<IpcCallName, ReturnType<typeof vi.fn>>;
  return { spies, handlers: spies as unknown as IpcHandlers };
}

const describeError = (err: unknown) =>
  err instanceof SkindeskError
    ? err.toPayload()
    : { code: 'INTERNAL' as const, message: 'unexpected', apiCode: null, issues: [], outcomeUnknown: false };

describe('the contract', () => {
  it('declares calls and pushes', () => {
    expect(IPC_CALL_NAMES.length).toBeGreaterThanOrEqual(10);
    expect(IPC_PUSH_NAMES).toEqual(
      expect.arrayContaining([
        'bookChanged',
        'syncStatus',
        'backfillProgress',
        'tradesUpdated',
        'notification',
        'settingsChanged',
      ]),
    );
  });

  it.each(IPC_CALL_NAMES)('%s: its example input is valid and JSON-safe', (name) => {
    const example = IPC_CALLS[name].example;
    expect((IPC_CALLS[name].input as z.ZodType).safeParse(example).success).toBe(true);
    expect(JSON.parse(JSON.stringify(example))).toEqual(example);
  });

  it.each(IPC_PUSH_NAMES)('%s: its example payload is valid and JSON-safe', (name) => {
    const example = IPC_PUSHES[name].example;
    expect((IPC_PUSHES[name].payload as z.ZodType).parse(example)).toEqual(example);
    expect(JSON.parse(JSON.stringify(example))).toEqual(example);
  });

  it('marks the calls that carry a secret', () => {
    const sensitive = IPC_CALL_NAMES.filter(
      (n) => (IPC_CALLS[n] as { sensitiveInput?: boolean }).sensitiveInput,
    );
    expect(sensitive.sort()).toEqual(['setApiKey', 'setMarket', 'setWebhookSecret']);
  });
});

describe('dispatch rejects bad input before the handler runs', () => {
  it.each(IPC_CALL_NAMES)('%s', async (name) => {
    const { spies, handlers } = spyHandlers();
    const dispatch = createDispatcher(handlers, { describeError });
    const invalid = invalidInputsFor(name);
    expect(invalid.length, 'fuzz inputs generated').toBeGreaterThanOrEqual(8);
    for (const input of invalid) {
      const response = await dispatch(name, input);
      expect(response.ok, `accepted ${JSON.stringify(input)?.slice(0, 80)}`).toBe(false);
      if (!response.ok) {
        expect(response.error.code).toBe('INVALID_INPUT');
        expect(response.error.issues.length).toBeGreaterThan(0);
      }
    }
    expect(spies[name]).not.toHaveBeenCalled();
  });

  it('never quotes a rejected secret back', async () => {
    const { handlers } = spyHandlers();
    const dispatch = createDispatcher(handlers, { describeError });
    const secret = `${'S3CRET'.repeat(100)}`; // too long: rejected
    const response = await dispatch('setApiKey', { apiKey: secret });
    expect(response.ok).toBe(false);
    expect(JSON.stringify(response)).not.toContain('S3CRET');
  });

  it('refuses names outside the contract, including prototype names', async () => {
    const { handlers } = spyHandlers();
    const dispatch = createDispatcher(handlers, { describeError });
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 42, null]) {
      const response = await dispatch(name, {});
      expect(response).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
    }
  });
});

describe('dispatch runs valid calls and checks their answers', () => {
  it('passes the parsed input (defaults filled) and returns the answer', async () => {
    const { spies, handlers } = spyHandlers();
    spies.queryBook!.mockResolvedValue({
      rows: [],
      next: null,
      total: 0,
      version: 3,
      lastSeq: '9007199254740993',
    });
    const dispatch = createDispatcher(handlers, { describeError });
    const response = await dispatch('queryBook', { filter: { app_id: 730 } });
    expect(response).toEqual({
      ok: true,
      value: { rows: [], next: null, total: 0, version: 3, lastSeq: '9007199254740993' },
    });
    expect(spies.queryBook).toHaveBeenCalledWith({
      filter: { app_id: 730 },
      sort: { field: 'created_at', dir: 'desc' },
      limit: 200,
      count: false,
    });
  });

  it('turns an answer outside the output schema into INTERNAL and reports it', async () => {
    const { spies, handlers } = spyHandlers();
    spies.getAppInfo!.mockResolvedValue({ name: 'Skindesk', version: 1 });
    const onFailure = vi.fn();
    const dispatch = createDispatcher(handlers, { describeError, onFailure });
    const response = await dispatch('getAppInfo', {});
    expect(response).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(onFailure).toHaveBeenCalledOnce();
  });

  it('passes a SkindeskError thrown by a handler through describeError', async () => {
    const { spies, handlers } = spyHandlers();
    spies.openExternal!.mockRejectedValue(
      new SkindeskError({ code: 'REFUSED', message: 'not on the allowlist' }),
    );
    const dispatch = createDispatcher(handlers, { describeError });
    expect(await dispatch('openExternal', { url: 'https://example.com/' })).toEqual({
      ok: false,
      error: {
        code: 'REFUSED',
        message: 'not on the allowlist',
        apiCode: null,
        issues: [],
        outcomeUnknown: false,
      },
    });
  });
});

describe('createSkindeskApi', () => {
  /** A transport that goes straight to a dispatcher and lets the test fire pushes. */
  function loopback(handlers: IpcHandlers) {
    const dispatch = createDispatcher(handlers, { describeError });
    const listeners = new Map<IpcPushName, Set<(payload: unknown) => void>>();
    const transport: IpcTransport = {
      invoke: (name, input) => dispatch(name, JSON.parse(JSON.stringify(input))),
      listen: (name, listener) => {
        const set = listeners.get(name) ?? new Set();
        listeners.set(name, set);
        set.add(listener);
        return () => set.delete(listener);
      },
    };
    const fire = (name: IpcPushName, payload: unknown) => listeners.get(name)?.forEach((l) => l(payload));
    return { transport, fire, listeners };
  }

  it('has exactly one function per call and one on<Push> per push, frozen', () => {
    const api = createSkindeskApi(loopback(spyHandlers().handlers).transport);
    const expected = [...IPC_CALL_NAMES, ...IPC_PUSH_NAMES.map(pushFunctionName)].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    expect(Object.isFrozen(api)).toBe(true);
    for (const key of expected)
      expect(typeof (api as unknown as Record<string, unknown>)[key]).toBe('function');
  });

  it('round-trips a call and defaults a missing input to {}', async () => {
    const { spies, handlers } = spyHandlers();
    spies.getAppInfo!.mockResolvedValue({ name: 'Skindesk', version: '0.1.0', platform: 'linux' });
    const api = createSkindeskApi(loopback(handlers).transport);
    expect(await api.getAppInfo()).toEqual({
      ok: true,
      value: { name: 'Skindesk', version: '0.1.0', platform: 'linux' },
    });
  });

  it('delivers valid pushes, drops malformed ones, and unsubscribes', () => {
    const { transport, fire } = loopback(spyHandlers().handlers);
    const api = createSkindeskApi(transport);
    const got: unknown[] = [];
    const off = api.onBookChanged((p) => got.push(p));
    fire('bookChanged', IPC_PUSHES.bookChanged.example);
    fire('bookChanged', { version: 'not a number' });
    off();
    fire('bookChanged', IPC_PUSHES.bookChanged.example);
    expect(got).toEqual([IPC_PUSHES.bookChanged.example]);
  });

  it('reports a transport failure or a malformed answer as DISCONNECTED, never throwing', async () => {
    const broken: IpcTransport = {
      invoke: async (name) => {
        if (name === 'getStatus') throw new Error('socket closed');
        return { ok: true, value: { wrong: true } };
      },
      listen: () => () => {},
    };
    const api = createSkindeskApi(broken);
    expect(await api.getStatus()).toMatchObject({
      ok: false,
      error: { code: 'DISCONNECTED', message: /socket closed/ },
    });
    expect(await api.getAppInfo()).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
  });
});

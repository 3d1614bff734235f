/**
 * `window.skindesk`, generated from the contract for any transport: the sandboxed preload builds it over
 * Electron IPC, the browser test host's bridge script over a WebSocket. Same function names, same
 * envelopes, so the renderer cannot tell which one it runs on.
 *
 * Functions resolve to envelopes ({ ok, value } | { ok: false, error }) instead of throwing, because an
 * Error loses its fields crossing the contextBridge; src/renderer/bridge unwraps them into SkindeskError.
 */
import type { z } from 'zod';
import {
  IPC_CALLS,
  IPC_CALL_NAMES,
  IPC_PUSHES,
  IPC_PUSH_NAMES,
  type IpcCallName,
  type IpcInput,
  type IpcOutput,
  type IpcPushName,
  type IpcPushPayload,
} from './contract.ts';
import { type IpcResponse, ipcResponse } from './errors.ts';

/** What a transport must do: send one call and answer its envelope; deliver pushes by name. */
export interface IpcTransport {
  invoke(name: IpcCallName, input: unknown): Promise<unknown>;
  listen(name: IpcPushName, listener: (payload: unknown) => void): () => void;
}

/** Calls whose input has only optional fields may be called without an argument. */
type AllOptional<T> = Record<never, never> extends T ? true : false;
type CallFunction<N extends IpcCallName> =
  AllOptional<IpcInput<N>> extends true
    ? (input?: IpcInput<N>) => Promise<IpcResponse<IpcOutput<N>>>
    : (input: IpcInput<N>) => Promise<IpcResponse<IpcOutput<N>>>;

export type PushSubscriber<P extends IpcPushName> = (
  listener: (payload: IpcPushPayload<P>) => void,
) => () => void;

/** `on` + the push name: `onBookChanged`, `onSyncStatus`, ... */
export type PushFunctionName<P extends IpcPushName> = `on${Capitalize<P>}`;

export type SkindeskApi = { readonly [N in IpcCallName]: CallFunction<N> } & {
  readonly [P in IpcPushName as PushFunctionName<P>]: PushSubscriber<P>;
};

export function pushFunctionName<P extends IpcPushName>(name: P): PushFunctionName<P> {
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as PushFunctionName<P>;
}

function transportFailure(message: string): IpcResponse<never> {
  return {
    ok: false,
    error: { code: 'DISCONNECTED', message, apiCode: null, issues: [], outcomeUnknown: false },
  };
}

/**
 * Builds the API object. The answer of every call is checked against the envelope and the call's output
 * schema, and every push against its payload schema: the renderer trusts nothing it did not parse.
 */
export function createSkindeskApi(transport: IpcTransport): SkindeskApi {
  const api: Record<string, unknown> = {};
  for (const name of IPC_CALL_NAMES) {
    const output: z.ZodType = IPC_CALLS[name].output;
    api[name] = async (input: unknown = {}): Promise<IpcResponse> => {
      let raw: unknown;
      try {
        raw = await transport.invoke(name, input);
      } catch (err) {
        return transportFailure(
          `the app did not answer ${name}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      const envelope = ipcResponse.safeParse(raw);
      if (!envelope.success) return transportFailure(`the app answered ${name} with a malformed envelope`);
      if (!envelope.data.ok) return envelope.data;
      const value = output.safeParse(envelope.data.value);
      if (!value.success)
        return transportFailure(`the app answered ${name} with data that does not match the contract`);
      return { ok: true, value: value.data };
    };
  }
  for (const name of IPC_PUSH_NAMES) {
    const payload: z.ZodType = IPC_PUSHES[name].payload;
    api[pushFunctionName(name)] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function')
        throw new TypeError(`${pushFunctionName(name)} needs a listener function`);
      return transport.listen(name, (raw) => {
        const parsed = payload.safeParse(raw);
        // A malformed push is dropped, not delivered: the next one carries the current state again.
        if (parsed.success) listener(parsed.data);
      });
    };
  }
  return Object.freeze(api) as SkindeskApi;
}

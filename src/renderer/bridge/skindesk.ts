/**
 * Typed access to `window.skindesk`, the only way the renderer reaches the app. The API (defined by the
 * preload in Electron, by the bridge script in the browser test host) answers envelopes; these helpers
 * turn failures back into SkindeskError so components can use try/catch and show `error.message`.
 */
import {
  type IpcCallName,
  type IpcInput,
  type IpcOutput,
  type IpcPushName,
  type IpcPushPayload,
  type IpcResponse,
  type SkindeskApi,
  SkindeskError,
  pushFunctionName,
} from '../../shared/ipc/index.ts';

declare global {
  interface Window {
    readonly skindesk?: SkindeskApi;
  }
}

export class BridgeMissingError extends SkindeskError {
  constructor() {
    super({
      code: 'DISCONNECTED',
      message: 'Skindesk is not connected to its app (window.skindesk is missing).',
    });
  }
}

export function bridge(): SkindeskApi {
  const api = typeof window === 'undefined' ? undefined : window.skindesk;
  if (!api) throw new BridgeMissingError();
  return api;
}

export function hasBridge(): boolean {
  return typeof window !== 'undefined' && window.skindesk !== undefined;
}

/** Calls the app; resolves with the value or throws SkindeskError. */
export async function call<N extends IpcCallName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> {
  const fn = bridge()[name] as unknown as (input: IpcInput<N>) => Promise<IpcResponse<IpcOutput<N>>>;
  const response = await fn(input);
  if (!response.ok) throw new SkindeskError(response.error);
  return response.value as IpcOutput<N>;
}

/** Listens to a push; returns the unsubscribe. */
export function subscribe<P extends IpcPushName>(
  name: P,
  listener: (payload: IpcPushPayload<P>) => void,
): () => void {
  const api = bridge() as unknown as Record<string, (l: (p: IpcPushPayload<P>) => void) => () => void>;
  const on = api[pushFunctionName(name)];
  if (!on) throw new BridgeMissingError();
  return on(listener);
}

export { SkindeskError };

/**
 * The glue between Electron's ipcMain and the contract's dispatcher: one handler per call, each checking
 * its sender first (sender-policy.ts). Written against a minimal `handle` interface so tests can drive it
 * with fake events; main.ts hands it the real ipcMain.
 */
import {
  IPC_CALL_NAMES,
  type IpcCallName,
  type IpcDispatch,
  type IpcResponse,
  SkindeskError,
  callChannel,
} from '../shared/ipc/index.ts';
import { type IpcEventLike, type SenderPolicy, checkSender } from './sender-policy.ts';

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export type RefusalLog = (call: IpcCallName, reason: string, url: string | null) => void;

/** The handler for one call: sender check, then dispatch. Exactly one argument is accepted. */
export function guardedHandler(
  name: IpcCallName,
  dispatch: IpcDispatch,
  policy: SenderPolicy,
  onRefusal: RefusalLog,
): (event: IpcEventLike, ...args: unknown[]) => Promise<IpcResponse> {
  return async (event, ...args) => {
    const verdict = checkSender(event, policy);
    if (!verdict.ok) {
      onRefusal(name, verdict.reason, event.senderFrame?.url ?? null);
      return {
        ok: false,
        error: new SkindeskError({ code: 'FORBIDDEN_SENDER', message: verdict.reason }).toPayload(),
      };
    }
    if (args.length > 1) {
      return {
        ok: false,
        error: new SkindeskError({
          code: 'INVALID_INPUT',
          message: `${name} takes one argument`,
        }).toPayload(),
      };
    }
    return dispatch(name, args[0]);
  };
}

/** Registers every call of the contract (a loop over it: no hand-written channel). Returns the unregister. */
export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  dispatch: IpcDispatch,
  policy: SenderPolicy,
  onRefusal: RefusalLog,
): () => void {
  for (const name of IPC_CALL_NAMES) {
    ipcMain.handle(callChannel(name), guardedHandler(name, dispatch, policy, onRefusal));
  }
  return () => {
    for (const name of IPC_CALL_NAMES) ipcMain.removeHandler(callChannel(name));
  };
}

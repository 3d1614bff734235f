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
/** Where a call that threw past the dispatcher (which answers every failure it knows) is told. */
export type FailureLog = (call: IpcCallName, error: unknown) => void;

/**
 * The handler for one call: sender check, then dispatch. Exactly one argument is accepted. The
 * dispatcher answers every failure as a typed error; should it throw all the same, the page gets
 * INTERNAL and the log the error: a rejection would reach the page as Electron's own message (the
 * error's words unredacted) and its stack go to stderr.
 */
export function guardedHandler(
  name: IpcCallName,
  dispatch: IpcDispatch,
  policy: SenderPolicy,
  onRefusal: RefusalLog,
  onFailure: FailureLog,
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
    try {
      return await dispatch(name, args[0]);
    } catch (error) {
      onFailure(name, error);
      return {
        ok: false,
        error: new SkindeskError({ code: 'INTERNAL', message: `${name} failed inside the app (the log has the details)` }).toPayload(),
      };
    }
  };
}

/** Registers every call of the contract (a loop over it: no hand-written channel). Returns the unregister. */
export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  dispatch: IpcDispatch,
  policy: SenderPolicy,
  onRefusal: RefusalLog,
  onFailure: FailureLog,
): () => void {
  for (const name of IPC_CALL_NAMES) {
    ipcMain.handle(callChannel(name), guardedHandler(name, dispatch, policy, onRefusal, onFailure));
  }
  return () => {
    for (const name of IPC_CALL_NAMES) ipcMain.removeHandler(callChannel(name));
  };
}

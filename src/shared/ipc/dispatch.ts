/**
 * The server side of the contract, shared by Electron main and the browser test host: parse the input
 * with the call's schema (invalid → INVALID_INPUT, and the handler never runs), run the handler, check
 * its answer against the output schema, and wrap everything in an envelope. Sender checks are the
 * transport's job and happen before dispatch.
 */
import type { z } from 'zod';
import {
  IPC_CALLS,
  type IpcCallName,
  type IpcOutput,
  type IpcParsedInput,
  isIpcCallName,
} from './contract.ts';
import { type IpcErrorPayload, type IpcResponse, SkindeskError, describeIssues } from './errors.ts';

export type IpcHandler<N extends IpcCallName> = (
  input: IpcParsedInput<N>,
) => Promise<IpcOutput<N>> | IpcOutput<N>;
/** One handler per call of the contract: a missing one is a type error. */
export type IpcHandlers = { readonly [N in IpcCallName]: IpcHandler<N> };

export interface DispatchOptions {
  /** Turns an error thrown by a handler into the payload the renderer sees (never quoting a secret). */
  describeError(error: unknown, call: IpcCallName): IpcErrorPayload;
  /** Told about handler failures and contract violations (for the log). */
  onFailure?(call: IpcCallName, error: unknown): void;
}

export type IpcDispatch = (name: unknown, rawInput: unknown) => Promise<IpcResponse>;

function failure(init: ConstructorParameters<typeof SkindeskError>[0]): IpcResponse<never> {
  return { ok: false, error: new SkindeskError(init).toPayload() };
}

export function createDispatcher(handlers: IpcHandlers, options: DispatchOptions): IpcDispatch {
  return async (name, rawInput) => {
    if (!isIpcCallName(name)) {
      return failure({
        code: 'UNKNOWN_CALL',
        message: `there is no call named ${JSON.stringify(String(name).slice(0, 60))}`,
      });
    }
    const def = IPC_CALLS[name];
    const input = (def.input as z.ZodType).safeParse(rawInput);
    if (!input.success) {
      return failure({
        code: 'INVALID_INPUT',
        message: `invalid input for ${name}`,
        issues: describeIssues(input.error),
      });
    }
    let value: unknown;
    try {
      const handler = handlers[name] as (input: unknown) => unknown;
      value = await handler(input.data);
    } catch (err) {
      options.onFailure?.(name, err);
      return { ok: false, error: options.describeError(err, name) };
    }
    const output = (def.output as z.ZodType).safeParse(value);
    if (!output.success) {
      options.onFailure?.(
        name,
        new Error(`${name} answered outside its contract: ${JSON.stringify(describeIssues(output.error))}`),
      );
      return failure({ code: 'INTERNAL', message: `the app produced an invalid answer to ${name}` });
    }
    return { ok: true, value: output.data };
  };
}

/**
 * Errors that cross the IPC boundary. An Error object does not survive Electron's contextBridge (its own
 * properties are dropped) nor JSON, so every call answers with an envelope and the failure side carries a
 * plain, typed payload; the renderer turns it back into a SkindeskError.
 */
import { z } from 'zod';

export const IPC_ERROR_CODES = [
  /** The input did not match the call's schema; the handler never ran. */
  'INVALID_INPUT',
  /** The call came from a frame or connection that is not our app's window. */
  'FORBIDDEN_SENDER',
  /** No call of that name in the contract. */
  'UNKNOWN_CALL',
  /** The marketplace refused or could not be reached; `apiCode` holds the spec's code when it sent one. */
  'MARKET',
  /** The OS keychain could not be used (or the value was refused). */
  'SECRET_STORE',
  /** The call was understood but is refused by a rule (an URL not on the allowlist, say). */
  'REFUSED',
  /** Not possible right now (the book is still opening, this host cannot do it). */
  'UNAVAILABLE',
  /** The bridge lost its connection to the app (browser test host only). */
  'DISCONNECTED',
  /** A bug: the app failed in a way it did not foresee. The log has the details. */
  'INTERNAL',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export const ipcErrorPayload = z.strictObject({
  code: z.enum(IPC_ERROR_CODES),
  /** Plain words for people; never contains a secret. */
  message: z.string(),
  /** The marketplace's error code (LISTING_NOT_FOUND, RATE_LIMITED, ...) for `MARKET` errors. */
  apiCode: z.string().nullable().default(null),
  /** For INVALID_INPUT: where the input is wrong. */
  issues: z.array(z.strictObject({ path: z.string(), message: z.string() })).default([]),
  /** For MARKET errors whose outcome is not known (a purchase that may have gone through). */
  outcomeUnknown: z.boolean().default(false),
});
export type IpcErrorPayload = z.infer<typeof ipcErrorPayload>;
export type IpcErrorInit = z.input<typeof ipcErrorPayload>;

/** The error a renderer sees when a call fails; also what handlers throw to refuse with a chosen code. */
export class SkindeskError extends Error {
  override readonly name = 'SkindeskError';
  readonly code: IpcErrorCode;
  readonly apiCode: string | null;
  readonly issues: readonly { path: string; message: string }[];
  readonly outcomeUnknown: boolean;

  constructor(init: IpcErrorInit) {
    super(init.message);
    this.code = init.code;
    this.apiCode = init.apiCode ?? null;
    this.issues = init.issues ?? [];
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  toPayload(): IpcErrorPayload {
    return {
      code: this.code,
      message: this.message,
      apiCode: this.apiCode,
      issues: [...this.issues],
      outcomeUnknown: this.outcomeUnknown,
    };
  }
}

/** Every call answers with this envelope, over Electron IPC and over the test host's WebSocket alike. */
export const ipcResponse = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ ok: z.literal(false), error: ipcErrorPayload }),
]);
export type IpcResponse<T = unknown> = { ok: true; value: T } | { ok: false; error: IpcErrorPayload };

/** Zod issues in the form sent to the renderer: a dotted path and the message, never the rejected value. */
export function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
  }));
}

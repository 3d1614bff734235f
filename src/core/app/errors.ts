/**
 * Turns whatever a handler threw into what the renderer may see: a typed code and plain words, never a
 * secret (every message passes the redactor) and never a stack trace.
 */
import { ApiError } from '../api/errors.ts';
import { SecretStoreError } from '../secrets/store.ts';
import { isDamagedDatabaseError } from '../store/damage.ts';
import { type IpcErrorPayload, SkindeskError } from '../../shared/ipc/index.ts';
import { secretStoreErrorWords } from './keychain-words.ts';
import type { Redactor } from './redaction.ts';

export function describeAppError(error: unknown, redactor: Redactor): IpcErrorPayload {
  if (error instanceof SkindeskError) {
    const payload = error.toPayload();
    return { ...payload, message: redactor.redact(payload.message) };
  }
  if (error instanceof ApiError) {
    // the explanation is plain words whatever the failure; the technical message goes to the log
    return {
      code: 'MARKET',
      message: redactor.redact(error.explanation),
      apiCode: error.code,
      issues: [],
      outcomeUnknown: error.outcomeUnknown,
    };
  }
  if (error instanceof SecretStoreError) {
    return {
      code: 'SECRET_STORE',
      message: redactor.redact(secretStoreErrorWords(error)),
      apiCode: null,
      issues: [],
      outcomeUnknown: false,
    };
  }
  if (isDamagedDatabaseError(error)) {
    return {
      code: 'INTERNAL',
      message: `Skindesk could not read its database (${redactor.redact((error as Error).message)}); a notice says what it does about it.`,
      apiCode: null,
      issues: [],
      outcomeUnknown: false,
    };
  }
  return {
    code: 'INTERNAL',
    message: 'Something went wrong inside Skindesk; the log has the details.',
    apiCode: null,
    issues: [],
    outcomeUnknown: false,
  };
}

import type { ErrorCode } from '../../shared/api/index.ts';

/**
 * A refusal the marketplace answers with one of the contract's error codes (src/shared/api/errors.ts).
 * Thrown by the market model; the HTTP layer turns it into the status and body of ERROR_STATUS/errorBody.
 */
export class MarketError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'MarketError';
    this.code = code;
    this.details = details;
  }
}

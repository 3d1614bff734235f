/**
 * The one error type of the REST client. Every failure of a call becomes an ApiError whose `kind` says
 * what happened (the server refused with a code, rate limiting, the network, a timeout, a 5xx, a
 * response that broke the contract, or a request we refused to send). Its message is the technical detail
 * naming the route, for the log; its explanation is plain words for people, whatever the failure. No
 * ApiError ever carries the API key: messages are redacted when built, and the raw
 * causes (whose text can quote request headers) are reduced to a redacted code and message.
 */
import { ERROR_EXPLANATIONS, isErrorCode } from '../../shared/api/index.ts';

export type ApiErrorKind =
  | 'api'
  | 'rate_limited'
  | 'network'
  | 'timeout'
  | 'server'
  | 'invalid_response'
  | 'invalid_request';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** `METHOD /path` of the call, e.g. `POST /public/v1/purchase`. */
  route: string;
  message: string;
  code?: string | null;
  /** The marketplace's own words in its error body (already redacted). */
  serverMessage?: string | null;
  status?: number | null;
  retryAfterMs?: number | null;
  details?: Record<string, unknown> | null;
  /** Whether the server may have received (and acted on) the request. */
  maybeDelivered?: boolean;
  /** Low-level cause, e.g. `ECONNRESET: socket hang up` (already redacted). */
  causeText?: string | null;
  /** Plain words chosen where the error is raised, for a failure its kind does not tell (not connected yet). */
  explanation?: string | null;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** The spec's error code (`LISTING_NOT_FOUND`, `RATE_LIMITED`, …) when the server sent one. */
  readonly code: string | null;
  /** The marketplace's own words that came with the code, if any. */
  readonly serverMessage: string | null;
  readonly status: number | null;
  readonly route: string;
  /** For `rate_limited`: how long the server asked us to wait. */
  readonly retryAfterMs: number | null;
  readonly details: Record<string, unknown> | null;
  /**
   * False only when the request certainly never reached the server (refused connection, unknown host,
   * refused locally). Writes whose outcome matters (purchases) must be reconciled when this is true and
   * the kind is `network`, `timeout`, `server` or `invalid_response`.
   */
  readonly maybeDelivered: boolean;
  readonly causeText: string | null;
  readonly #explanation: string | null;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.code = init.code ?? null;
    this.serverMessage = init.serverMessage || null;
    this.status = init.status ?? null;
    this.route = init.route;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.details = init.details ?? null;
    this.maybeDelivered = init.maybeDelivered ?? false;
    this.causeText = init.causeText ?? null;
    this.#explanation = init.explanation || null;
  }

  /**
   * The outcome of the call is not known: the server may or may not have applied it. Never for a read
   * (GET): it applies nothing, so a lost answer is just a failed read, not "the marketplace may have done it".
   */
  get outcomeUnknown(): boolean {
    return (
      this.maybeDelivered &&
      !this.route.startsWith('GET ') &&
      (this.kind === 'network' || this.kind === 'timeout' || this.kind === 'server' || this.kind === 'invalid_response')
    );
  }

  /**
   * Plain words for people (UI, CLI), whatever the failure: the contract's explanation when the code is
   * one it knows, else what the kind of failure (and a refusal's HTTP status) means. Never the technical
   * message, which the log keeps.
   */
  get explanation(): string {
    if (this.#explanation !== null) return this.#explanation;
    if (this.kind === 'rate_limited') return this.#rateLimitedWords();
    if (this.code !== null && isErrorCode(this.code)) return ERROR_EXPLANATIONS[this.code];
    switch (this.kind) {
      case 'network':
        return 'The marketplace could not be reached.';
      case 'timeout':
        return 'The marketplace did not answer in time.';
      case 'server':
        return refusalWords(null, this.status ?? 500);
      case 'invalid_response':
        return 'The marketplace answered with something Skindesk does not understand.';
      case 'invalid_request': {
        // Skindesk's own reason (no API key set, a value the contract refuses), without the request line
        const reason = this.message.startsWith(`${this.route}: `) ? this.message.slice(this.route.length + 2) : this.message;
        return `Skindesk did not send the request: ${reason.replace(/\.$/, '')}.`;
      }
      case 'api':
        return refusalWords(this.code, this.status, this.serverMessage);
    }
  }

  /** A 429 reaches a caller only once nothing more will be sent (a write is never resent, a GET gave up). */
  #rateLimitedWords(): string {
    if (this.retryAfterMs === null || this.retryAfterMs < 1000) return ERROR_EXPLANATIONS.RATE_LIMITED;
    return `The marketplace refused the request: too many in a short time. Nothing was done; try again in ${Math.ceil(this.retryAfterMs / 1000)} s.`;
  }

  /**
   * The same error with `secrets` taken out of every text it carries (message, the marketplace's words,
   * details, cause, explanation): for a value the caller sent that the marketplace may echo back (a
   * two-factor code). The client already takes the API key out of every error it builds.
   */
  redacted(secrets: readonly string[]): ApiError {
    return new ApiError({
      kind: this.kind,
      route: this.route,
      status: this.status,
      code: this.code,
      message: redact(this.message, secrets),
      serverMessage: this.serverMessage === null ? null : redact(this.serverMessage, secrets),
      retryAfterMs: this.retryAfterMs,
      details: this.details === null ? null : (redactDeep(this.details, secrets) as Record<string, unknown>),
      maybeDelivered: this.maybeDelivered,
      causeText: this.causeText === null ? null : redact(this.causeText, secrets),
      explanation: this.#explanation === null ? null : redact(this.#explanation, secrets),
    });
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      code: this.code,
      serverMessage: this.serverMessage,
      status: this.status,
      route: this.route,
      message: this.message,
      retryAfterMs: this.retryAfterMs,
      details: this.details,
      maybeDelivered: this.maybeDelivered,
      causeText: this.causeText,
    };
  }
}

/**
 * A refusal in plain words: the contract's explanation of its code, else the code itself (with the
 * marketplace's own words), else what its HTTP status means. Also for codes that come without an
 * ApiError (a failed row of a bulk edit).
 */
export function refusalWords(code: string | null, status: number | null, serverMessage?: string | null): string {
  if (code !== null && isErrorCode(code)) return ERROR_EXPLANATIONS[code];
  if (code !== null) return `The marketplace refused the request with the code ${code}${serverMessage ? ` (“${serverMessage}”)` : ''}.`;
  if (status === 401) return 'The marketplace refused the API key: it is missing, wrong or revoked.';
  if (status === 403) return 'The marketplace refused the API key: it is not allowed to do this.';
  if (status === 404) return 'The marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong).';
  if (status === 409) return 'The marketplace refused: something changed in the meantime; refresh and try again.';
  if (status === 429) return ERROR_EXPLANATIONS.RATE_LIMITED;
  if (status !== null && status >= 500) return 'The marketplace is failing on its side (a server error).';
  if (status === 400 || status === 422) return 'The marketplace refused the request as not valid.';
  return 'The marketplace refused the request.';
}

/**
 * A failure as a clause inside a sentence ("reading the book failed (the marketplace could not be
 * reached)"): an ApiError's plain-words explanation, else the error's message. `withCause` adds the
 * system's own reason of a network failure ("ECONNREFUSED: …"), `withCode` the spec's code when the
 * contract explains it (an unknown code is named in the words already), for the places a person may act
 * on them (the connect message, the CLI's failure lines).
 */
export function failureReason(err: unknown, opts: { withCause?: boolean; withCode?: boolean } = {}): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const plain = err.explanation.replace(/\.$/, '');
  const clause = plain.startsWith('Skindesk') ? plain : plain.charAt(0).toLowerCase() + plain.slice(1);
  const extra = [opts.withCause ? err.causeText : null, opts.withCode && err.code !== null && isErrorCode(err.code) ? err.code : null].filter(
    (x): x is string => !!x,
  );
  return extra.length > 0 ? `${clause} (${extra.join('; ')})` : clause;
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

const REDACTED = '[redacted]';

/**
 * Removes every secret from a text. Also removes the secret's URL-encoded and JSON-escaped forms, and
 * anything after `Bearer ` (a header echoed back by a server or a library error names the key that way).
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      if (form) out = out.split(form).join(REDACTED);
    }
  }
  return out.replace(/Bearer\s+[^\s"',;]+/gi, `Bearer ${REDACTED}`);
}

/** Redacts every string inside a JSON-like value (error details echoed back by the server). */
export function redactDeep(value: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, secrets)]));
  }
  return value;
}

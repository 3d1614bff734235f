/**
 * The REST client: one typed method per endpoint of the contract, every request checked against the
 * contract before it is sent and every response parsed with the contract's schema, all traffic paced by
 * the rate governor. Failures are ApiErrors (see errors.ts); the API key never appears in any of them.
 *
 * Retry policy, deliberately narrow: a GET answered 429 waits for Retry-After (the governor blocks the
 * endpoint) and is sent again, up to `rateLimitRetries` times. Nothing else is retried here, and writes
 * (POST, PATCH) are never retried: a purchase retried after a timeout can buy twice. Purchases that must
 * survive ambiguity go through the journal (purchase-journal.ts, purchaser.ts).
 */
import type { z } from 'zod';
import {
  ENDPOINTS,
  buildPath,
  type listingEdit,
  parseJsonWithInt64,
  rateLimitKey,
  type BodyOf,
  type BulkResult,
  type EndpointName,
  type QueryOf,
  type ResponseOf,
} from '../../shared/api/index.ts';
import { BookBodyError, type BookReadProgress, type StreamedBook, readBookBody } from './book-stream.ts';
import { type Clock, systemClock } from './clock.ts';
import { summarizeIssues } from '../../shared/contract-issues.ts';
import { ApiError, redact, redactDeep } from './errors.ts';
import { type CachedBody, EtagCache, type EtagCacheOptions } from './etag-cache.ts';
import {
  type ExportFormat,
  type ExportProgress,
  type ExportResult,
  ExportFileError,
  ExportFormatError,
  writeExport,
} from './export-stream.ts';
import { type GovernorStats, type Priority, RateGovernor, type ServerRateInfo, readRateHeaders } from './governor.ts';
import { requestFetch } from './transport.ts';
import {
  type NewestFirstName,
  type NewestFirstOptions,
  type OffsetPagedName,
  type PageOptions,
  type RowOf,
  cursorPages,
  offsetPages,
  offsetRows,
  readNewestFirst,
} from './pagers.ts';

/** Offset-paged routes walked page after page as they are; the newest-first histories go through `newestFirst`. */
type PlainPagedName = Exclude<OffsetPagedName, NewestFirstName>;
import { validateInSlices } from './sliced-validation.ts';

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string | null;
  /** WebSocket URL; discovered from the info route when absent. */
  wsUrl?: string;
  /**
   * Per request: the longest wait for the answer's headers, then the longest silence between two chunks
   * of its body (default 10 000). A body that keeps arriving is never cut off, however long it takes:
   * a whole book is ~160 MB, minutes on a slow line.
   */
  timeoutMs?: number;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Share one governor between clients that use the same key (the server counts per key). */
  governor?: RateGovernor;
  /** How many times a GET answered 429 is sent again after Retry-After (default 5). */
  rateLimitRetries?: number;
  /** The ETag cache's budgets (see etag-cache.ts: big bodies are held weakly, never pinned). */
  etagCache?: EtagCacheOptions;
}

export interface CallOptions {
  priority?: Priority;
  signal?: AbortSignal;
  /** For ETag routes: skip the cache and ask for a full body. */
  fresh?: boolean;
  /** Overrides the client's timeout (time to the headers, then silence between body chunks) for this call. */
  timeoutMs?: number;
  /**
   * Overrides the client's `rateLimitRetries` for this call: 0 for a read that is not worth a wait for
   * Retry-After (a best-effort lookup on the way to a purchase), whose 429 then fails at once.
   */
  rateLimitRetries?: number;
}

export interface CallInput<N extends EndpointName> {
  query?: QueryOf<N>;
  body?: BodyOf<N>;
  id?: number;
}

export interface CallResult<N extends EndpointName> {
  data: ResponseOf<N>;
  /** True when the server answered 304 and `data` is the body cached from an earlier 200. */
  fromCache: boolean;
  etag: string | null;
  status: number;
}

export interface BookResult {
  /** The exact seq and the listings in columns (book-stream.ts: the body is never held whole). */
  snapshot: StreamedBook;
  /**
   * True when the server answered 304 Not Modified: `snapshot` is the very object returned by an earlier
   * call (same `seq`), so a caller that already loaded it has nothing to do.
   */
  fromCache: boolean;
  etag: string | null;
}

type Query = Record<string, string | undefined>;
/** One entry of a bulk PATCH /list body. */
export type ListingEditInput = z.input<typeof listingEdit>;
type ListingsCursorQuery = Omit<NonNullable<QueryOf<'listings'>>, 'page'>;

/** Causes that prove the request never left this machine. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

/** Header values must be visible ASCII; anything else would make fetch throw an error quoting the key. */
const API_KEY_PATTERN = /^[\x21-\x7e]{1,512}$/;

function routeOf(name: EndpointName): string {
  return rateLimitKey(name);
}

function causeOf(err: unknown): { code: string | null; message: string } {
  let node: unknown = err;
  // fetch wraps the socket error: TypeError('fetch failed', { cause: Error{ code: 'ECONNRESET' } }).
  for (let depth = 0; depth < 4 && node instanceof Error; depth++) {
    const code = (node as { code?: unknown }).code;
    if (typeof code === 'string') return { code, message: node.message };
    if (!(node.cause instanceof Error)) break;
    node = node.cause;
  }
  return { code: null, message: err instanceof Error ? err.message : String(err) };
}

/**
 * A request's timer: fires `timeoutMs` after it was last armed. Armed when the request is sent and again
 * on every chunk of the body, so it limits the wait for the headers and then each silence in the body,
 * never the body's total time (which depends on its size and the line, not on whether the server is alive).
 */
interface IdleTimeout {
  /** (Re)arms the timer; call it on every chunk received. */
  touch(): void;
  cancel(): void;
  /** True once it fired (the request was aborted by it, not by the caller). */
  readonly fired: boolean;
}

function idleTimeout(clock: Clock, timeoutMs: number, controller: AbortController): IdleTimeout {
  let cancelTimer = () => {};
  let fired = false;
  const touch = () => {
    cancelTimer();
    cancelTimer = clock.setTimer(timeoutMs, () => {
      fired = true;
      controller.abort();
    });
  };
  touch();
  return {
    touch,
    cancel: () => cancelTimer(),
    get fired() {
      return fired;
    },
  };
}

/** A whole body as text, the timer pushed back on every chunk (`response.text()` would give no hook). */
async function readText(response: Response, onChunk: () => void): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) {
    onChunk();
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What an error response says, read leniently. The spec shows only the codes (§7: "the JSON body shape
 * of an error response: not shown"), so only `error.code` is needed: a body without `message` (or with
 * `details` of another shape) keeps its code, where checking it against our own `errorBody` dropped the
 * code with the rest. `{ "error": "CODE" }`, the form bulk results use, is read as that code, and so is
 * a `code` at the top level (`{ "code": "CODE", "message": … }`, the other common shape): a code in
 * either place was dropped before, and a refusal the contract explains read as a bare HTTP status.
 * Anything else (not JSON, a proxy's HTML page): no code, and the status alone classifies the answer.
 */
function readErrorBody(text: string): { code: string | null; message: string; details: Record<string, unknown> | null } {
  const none = { code: null, message: '', details: null };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return none;
  }
  if (!isRecord(raw)) return none;
  const error = raw.error;
  if (isRecord(error) && typeof error.code === 'string' && error.code !== '') return fieldsOf(error.code, error);
  // the spec's codes are uppercase identifiers: a number, or a sentence, in these places is no code
  if (typeof raw.code === 'string' && ERROR_CODE_TEXT.test(raw.code)) return fieldsOf(raw.code, raw);
  if (typeof error === 'string' && ERROR_CODE_TEXT.test(error)) return { ...none, code: error };
  return none;
}

const ERROR_CODE_TEXT = /^[A-Z][A-Z0-9_]*$/;

function fieldsOf(code: string, holder: Record<string, unknown>): { code: string; message: string; details: Record<string, unknown> | null } {
  return {
    code,
    message: typeof holder.message === 'string' ? holder.message : '',
    details: isRecord(holder.details) ? holder.details : null,
  };
}

export class ApiClient {
  readonly baseUrl: string;
  readonly governor: RateGovernor;
  readonly clock: Clock;
  readonly #apiKey: string | null;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #rateLimitRetries: number;
  readonly #cache: EtagCache;
  #wsUrl: string | null;
  #serverOffsetMs: number | null = null;

  constructor(opts: ApiClientOptions) {
    let base: URL;
    try {
      base = new URL(opts.baseUrl);
    } catch {
      throw new TypeError('baseUrl is not a valid URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError('baseUrl must be http or https');
    if (opts.apiKey !== null && !API_KEY_PATTERN.test(opts.apiKey)) {
      // Never quote the key: say only what is wrong with it.
      throw new TypeError('the API key must be 1 to 512 visible ASCII characters without spaces');
    }
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.#apiKey = opts.apiKey;
    this.#wsUrl = opts.wsUrl ?? null;
    this.#fetch = opts.fetch ?? requestFetch;
    this.clock = opts.clock ?? systemClock;
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    this.#rateLimitRetries = opts.rateLimitRetries ?? 5;
    this.#cache = new EtagCache(opts.etagCache);
    this.governor = opts.governor ?? new RateGovernor({ clock: this.clock });
    for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
      this.governor.define(rateLimitKey(name), ENDPOINTS[name].rateLimit);
    }
  }

  get hasApiKey(): boolean {
    return this.#apiKey !== null;
  }

  /** Headroom per endpoint, 429s received, waits: for the status bar and the soak suite. */
  governorStats(): GovernorStats {
    return this.governor.stats();
  }

  /** How long a call to `name` made now would wait for the rate budget before it is sent (ms). */
  budgetWaitMs(name: EndpointName): number {
    return this.governor.waitMs(rateLimitKey(name));
  }

  /** Server clock minus ours, from the last response's Date header (second resolution); null until seen. */
  serverTimeOffsetMs(): number | null {
    return this.#serverOffsetMs;
  }

  /** Generic typed call of any endpoint; see `callDetailed` for the cache flag. */
  async call<N extends EndpointName>(name: N, input: CallInput<N> = {}, opts: CallOptions = {}): Promise<ResponseOf<N>> {
    return (await this.callDetailed(name, input, opts)).data;
  }

  async callDetailed<N extends EndpointName>(
    name: N,
    input: CallInput<N> = {},
    opts: CallOptions = {},
  ): Promise<CallResult<N>> {
    const def = ENDPOINTS[name];
    const route = routeOf(name);
    const { url, init } = this.#prepare(name, input);
    const cacheKey = url;
    const cached = def.etag && !opts.fresh ? this.#cache.get(cacheKey) : undefined;
    const answer = await this.#request(name, url, init, opts, cached, readText);
    if (answer.kind === 'cached') {
      return { data: answer.cached.value as ResponseOf<N>, fromCache: true, etag: answer.cached.etag, status: answer.status };
    }
    const { status, headers, body: text } = answer;
    const data = await this.#parseBody(name, route, status, text);
    this.#checkBulkForm(name, route, status, input.body, data);
    const etag = headers.get('etag');
    if (def.etag && etag) {
      this.#cache.set(cacheKey, { etag, value: data, bytes: text.length, storedAt: this.clock.now() });
    }
    return { data, fromCache: false, etag, status };
  }

  /**
   * Sends until answered: a GET answered 429 goes again (up to `rateLimitRetries`, the governor waiting
   * Retry-After), a 304 answers with `cached` (sent as If-None-Match), any other non-2xx is an ApiError.
   * A 2xx body is read by `readOk`, which calls `onChunk` on every chunk to push back the idle timeout.
   */
  async #request<T>(
    name: EndpointName,
    url: string,
    init: RequestInit,
    opts: CallOptions,
    cached: CachedBody | undefined,
    readOk: (response: Response, onChunk: () => void) => Promise<T>,
  ): Promise<{ kind: 'body'; status: number; headers: Headers; body: T } | { kind: 'cached'; status: number; cached: CachedBody }> {
    const route = routeOf(name);
    if (cached) (init.headers as Record<string, string>)['if-none-match'] = cached.etag;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#exchange(name, url, init, opts, readOk);
      if (answer.ok) return { kind: 'body', status: answer.status, headers: answer.headers, body: answer.body };
      const { status, headers, text } = answer;
      if (status === 429) {
        const error = this.#errorFromResponse(route, status, headers, text);
        if (ENDPOINTS[name].method === 'GET' && attempt < (opts.rateLimitRetries ?? this.#rateLimitRetries)) continue; // the governor waits Retry-After
        throw error;
      }
      if (status === 304) {
        if (!cached) {
          throw new ApiError({ kind: 'invalid_response', route, status, message: `${route}: 304 without a cached body to revalidate`, maybeDelivered: true });
        }
        return { kind: 'cached', status, cached };
      }
      throw this.#errorFromResponse(route, status, headers, text);
    }
  }

  /** Checks the input against the contract and builds the request; throws `invalid_request` before anything is sent. */
  #prepare<N extends EndpointName>(name: N, input: CallInput<N>): { url: string; init: RequestInit } {
    const def = ENDPOINTS[name];
    const route = routeOf(name);
    const refuse = (message: string, details?: Record<string, unknown>) =>
      new ApiError({ kind: 'invalid_request', route, message: `${route}: ${message}`, details: details ?? null });

    let path: string;
    try {
      path = buildPath(name, { id: input.id });
    } catch (err) {
      throw refuse((err as Error).message);
    }
    let query: Query = {};
    if (def.query) {
      const parsed = (def.query as z.ZodType).safeParse(input.query ?? {});
      if (!parsed.success) throw refuse(`invalid query: ${summarizeIssues(parsed.error)}`, { issues: parsed.error.issues });
      query = parsed.data as Query;
    } else if (input.query !== undefined && Object.keys(input.query as object).length > 0) {
      throw refuse('this route takes no query parameters');
    }
    let body: string | undefined;
    if (def.body) {
      const parsed = (def.body as z.ZodType).safeParse(input.body);
      if (!parsed.success) throw refuse(`invalid body: ${summarizeIssues(parsed.error)}`, { issues: parsed.error.issues });
      body = JSON.stringify(parsed.data);
    } else if (input.body !== undefined) {
      throw refuse('this route takes no body');
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (def.auth) {
      if (this.#apiKey === null) throw refuse('no API key is set (SKINDESK_API_KEY or the keychain)');
      headers.authorization = `Bearer ${this.#apiKey}`;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    const params = new URLSearchParams();
    for (const key of Object.keys(query).sort()) {
      const value = query[key];
      if (value !== undefined) params.set(key, value);
    }
    const qs = params.toString();
    return {
      url: `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`,
      init: { method: def.method, headers, body },
    };
  }

  /**
   * One governed round trip: waits for the endpoint's turn, sends, reads the whole body (a 2xx body with
   * `readOk`, any other as text) under an idle timeout (see IdleTimeout), feeds the rate headers back to
   * the governor.
   */
  async #exchange<T>(
    name: EndpointName,
    url: string,
    init: RequestInit,
    opts: CallOptions,
    readOk: (response: Response, onChunk: () => void) => Promise<T>,
  ): Promise<
    { ok: true; status: number; headers: Headers; body: T } | { ok: false; status: number; headers: Headers; text: string }
  > {
    const route = routeOf(name);
    const permit = await this.governor.acquire(rateLimitKey(name), opts.priority ?? 'interactive', opts.signal);
    const controller = new AbortController();
    const timeoutMs = opts.timeoutMs ?? this.#timeoutMs;
    const timer = idleTimeout(this.clock, timeoutMs, controller);
    const onChunk = () => timer.touch();
    const onCallerAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let response: Response | undefined;
    try {
      response = await this.#fetch(url, { ...init, signal: controller.signal });
      this.#noteServerDate(response.headers);
      const { status, headers } = response;
      const answer =
        status >= 200 && status <= 299
          ? { ok: true as const, status, headers, body: await readOk(response, onChunk) }
          : { ok: false as const, status, headers, text: await readText(response, onChunk) };
      permit.complete(this.#rateInfo(status, headers));
      return answer;
    } catch (err) {
      if (response) permit.complete(this.#rateInfo(response.status, response.headers));
      else permit.complete();
      if (err instanceof ApiError) throw err; // the body broke the contract: no transport failure
      if (opts.signal?.aborted && !timer.fired) throw opts.signal.reason ?? err;
      throw this.#transportError(route, err, timer.fired ? timeoutMs : null, response !== undefined);
    } finally {
      timer.cancel();
      opts.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  #transportError(route: string, err: unknown, timedOutAfterMs: number | null, gotHeaders: boolean): ApiError {
    if (timedOutAfterMs !== null) {
      return new ApiError({
        kind: 'timeout',
        route,
        message: gotHeaders
          ? `${route}: the answer stopped: nothing received for ${timedOutAfterMs} ms`
          : `${route}: no answer within ${timedOutAfterMs} ms`,
        maybeDelivered: true,
      });
    }
    const cause = causeOf(err);
    const causeText = this.#redact(cause.code ? `${cause.code}: ${cause.message}` : cause.message);
    return new ApiError({
      kind: 'network',
      route,
      message: `${route}: network failure (${causeText})`,
      maybeDelivered: gotHeaders || cause.code === null || !NOT_SENT_CODES.has(cause.code),
      causeText,
    });
  }

  #errorFromResponse(route: string, status: number, headers: Headers, text: string): ApiError {
    const { code, message: serverMessage, details } = readErrorBody(text);
    const info = this.#rateInfo(status, headers);
    const kind = status === 429 ? 'rate_limited' : status >= 500 ? 'server' : 'api';
    const label = code ? `${code} (HTTP ${status})` : `HTTP ${status}`;
    const message = this.#redact(`${route}: ${label}${serverMessage ? ` — ${serverMessage}` : ''}`);
    return new ApiError({
      kind,
      route,
      status,
      code: code ?? (status === 429 ? 'RATE_LIMITED' : null),
      message,
      serverMessage: serverMessage ? this.#redact(serverMessage).trim().slice(0, 200) : null,
      retryAfterMs: info.retryAfterMs,
      details: details ? (redactDeep(details, [this.#apiKey]) as Record<string, unknown>) : null,
      maybeDelivered: status >= 500,
    });
  }

  /**
   * PATCH /list and POST /delist answer a single request with the listing (or its id) and a bulk one
   * with one result per row in the order sent; the contract's schema takes either. An answer of the
   * other form, or with another number of results than rows sent, cannot be read for this request
   * (a row's result would be another row's), so it is `invalid_response`, like any broken answer.
   */
  #checkBulkForm(name: EndpointName, route: string, status: number, body: unknown, data: unknown): void {
    if (name !== 'editListing' && name !== 'delist') return;
    const rows = isRecord(body) ? (name === 'editListing' ? body.listings : body.listing_ids) : undefined;
    const results = isRecord(data) ? data.results : undefined;
    if (!Array.isArray(rows)) {
      if (results !== undefined) throw this.#invalidResponse(route, status, 'a single request was answered with bulk results');
      return;
    }
    if (!Array.isArray(results)) throw this.#invalidResponse(route, status, 'a bulk request was answered without results');
    if (results.length !== rows.length) {
      throw this.#invalidResponse(route, status, `${results.length} results for ${rows.length} rows sent`);
    }
  }

  #invalidResponse(route: string, status: number, message: string): ApiError {
    return new ApiError({ kind: 'invalid_response', route, status, message: this.#redact(`${route}: ${message}`), maybeDelivered: true });
  }

  async #parseBody<N extends EndpointName>(name: N, route: string, status: number, text: string): Promise<ResponseOf<N>> {
    const def = ENDPOINTS[name];
    const invalid = (message: string) => this.#invalidResponse(route, status, message);
    let raw: unknown;
    try {
      raw = def.int64Keys.length > 0 ? parseJsonWithInt64(text, def.int64Keys) : JSON.parse(text);
    } catch {
      throw invalid('the response is not valid JSON');
    }
    // a big array (prices/all) is checked a slice per turn of the event loop
    const parsed = await validateInSlices(def.response as z.ZodType, raw);
    if (!parsed.success) throw invalid(`the response does not match the contract: ${summarizeIssues(parsed)}`);
    return parsed.data as ResponseOf<N>;
  }

  /** The response's rate headers, the server's reset time turned into ours (the offset from its Date header). */
  #rateInfo(status: number, headers: Headers): ServerRateInfo {
    return readRateHeaders(status, headers, this.clock.now(), this.#serverOffsetMs);
  }

  /**
   * The server's clock is its Date header plus the response's `Age`: a cache (the spec caches prices/all
   * 60 s, the book 10 s, the averages 10 min) hands out the Date of when the copy was made, up to ten
   * minutes old. Taken as it is, that put the server minutes behind us: a webhook signed just now read as
   * "from the future" and was refused, and an X-RateLimit-Reset was waited for minutes too long.
   */
  #noteServerDate(headers: Headers): void {
    const date = headers.get('date');
    if (!date) return;
    const ms = Date.parse(date);
    if (Number.isNaN(ms)) return;
    const age = headers.get('age');
    const ageMs = age !== null && /^\s*\d{1,10}\s*$/.test(age) ? Number(age) * 1000 : 0;
    this.#serverOffsetMs = ms + ageMs - this.clock.now();
  }

  #redact(text: string): string {
    return redact(text, [this.#apiKey]);
  }

  // ---- discovery ------------------------------------------------------------------------------

  /**
   * The WebSocket URL: the one given in the options, else built from the info route's `websocket.path`
   * on the REST host (http → ws, https → wss). Cached after the first discovery.
   */
  async discoverWsUrl(opts: CallOptions = {}): Promise<string> {
    if (this.#wsUrl) return this.#wsUrl;
    const info = await this.info(opts);
    const path = info.websocket.path;
    let url: URL;
    if (/^wss?:\/\//i.test(path)) {
      url = new URL(path);
      // The feed is opened with the key: never in clear beside an https market (the spec's feed is
      // wss://; its host may be the market's own WebSocket host, so another host is not refused).
      const base = new URL(this.baseUrl);
      if (base.protocol === 'https:' && url.protocol !== 'wss:') {
        const route = routeOf('info');
        throw new ApiError({
          kind: 'invalid_response',
          route,
          status: 200,
          message: `${route}: it names an unencrypted WebSocket (ws://${url.host}) for an https market: the key is not sent in clear`,
        });
      }
    } else {
      url = new URL(this.baseUrl);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      url.pathname = path.startsWith('/') ? path : `/${path}`;
      url.search = '';
    }
    this.#wsUrl = url.href;
    return this.#wsUrl;
  }

  // ---- typed methods, one per endpoint --------------------------------------------------------

  info(opts?: CallOptions) {
    return this.call('info', {}, opts);
  }
  listings(query: QueryOf<'listings'>, opts?: CallOptions) {
    return this.call('listings', { query }, opts);
  }
  listing(id: number, opts?: CallOptions) {
    return this.call('listing', { id }, opts);
  }
  prices(query: QueryOf<'prices'>, opts?: CallOptions) {
    return this.call('prices', { query }, opts);
  }
  /** Cached by ETag: an unchanged set comes back from the cache after a 304. */
  pricesAll(query: QueryOf<'pricesAll'> = {}, opts?: CallOptions) {
    return this.call('pricesAll', { query }, opts);
  }
  /**
   * The whole book with its exact `seq` (a bigint), the body read as a stream into columns and checked
   * against the contract piece by piece (book-stream.ts). Conditional by ETag unless `fresh`;
   * `fromCache` tells a 304 (the snapshot already returned before) from a new one. The cached copy is
   * the columns, held weakly beyond the ETag cache's budget like any big body.
   */
  async book(
    query: QueryOf<'book'> = {},
    opts: CallOptions & { onProgress?: (progress: BookReadProgress) => void } = {},
  ): Promise<BookResult> {
    const name = 'book';
    const route = routeOf(name);
    const { url, init } = this.#prepare(name, { query });
    // Its own cache entry: call('book') caches the parsed body, this one the columns.
    const cacheKey = `${url} (columns)`;
    const cached = opts.fresh ? undefined : this.#cache.get(cacheKey);
    const answer = await this.#request(name, url, init, opts, cached, async (response, onChunk) => {
      const onProgress = opts.onProgress;
      try {
        return await readBookBody(response.body, undefined, (progress) => {
          onChunk();
          onProgress?.(progress);
        });
      } catch (err) {
        if (err instanceof BookBodyError) throw this.#invalidResponse(route, response.status, err.message);
        throw err;
      }
    });
    if (answer.kind === 'cached') {
      return { snapshot: answer.cached.value as StreamedBook, fromCache: true, etag: answer.cached.etag };
    }
    const snapshot = answer.body;
    const etag = answer.headers.get('etag');
    if (etag) this.#cache.set(cacheKey, { etag, value: snapshot, bytes: snapshot.listings.bytes, storedAt: this.clock.now() });
    return { snapshot, fromCache: false, etag };
  }
  sales(query: QueryOf<'sales'> = {}, opts?: CallOptions) {
    return this.call('sales', { query }, opts);
  }
  /** Cached by ETag like pricesAll. */
  salesAverages(query: QueryOf<'salesAverages'> = {}, opts?: CallOptions) {
    return this.call('salesAverages', { query }, opts);
  }
  /**
   * One raw purchase call, never retried. Use `Purchaser.buy` (journaled, reconciled) for anything that
   * must not buy twice or lose track of an outcome.
   */
  purchase(body: BodyOf<'purchase'>, opts?: CallOptions) {
    return this.call('purchase', { body }, opts);
  }
  steamInventory(query: QueryOf<'steamInventory'>, opts?: CallOptions) {
    return this.call('steamInventory', { query }, opts);
  }
  sell(body: BodyOf<'sell'>, opts?: CallOptions) {
    return this.call('sell', { body }, opts);
  }
  list(body: BodyOf<'list'>, opts?: CallOptions) {
    return this.call('list', { body }, opts);
  }
  editListing(body: BodyOf<'editListing'>, opts?: CallOptions) {
    return this.call('editListing', { body }, opts);
  }
  delist(body: BodyOf<'delist'>, opts?: CallOptions) {
    return this.call('delist', { body }, opts);
  }
  /** Bulk edit (up to 50): one result per edit, in the order sent; a failed row carries its code. */
  async editListings(edits: ListingEditInput[], opts?: CallOptions): Promise<BulkResult[]> {
    return this.#bulkResults('editListing', await this.call('editListing', { body: { listings: edits } }, opts));
  }
  /** Bulk delist (up to 50): one result per id, in the order sent. */
  async delistMany(listingIds: number[], opts?: CallOptions): Promise<BulkResult[]> {
    return this.#bulkResults('delist', await this.call('delist', { body: { listing_ids: listingIds } }, opts));
  }
  #bulkResults(name: EndpointName, response: unknown): BulkResult[] {
    const results = (response as { results?: unknown }).results;
    if (!Array.isArray(results)) {
      const route = routeOf(name);
      throw new ApiError({ kind: 'invalid_response', route, status: 200, message: `${route}: a bulk request was answered without results`, maybeDelivered: true });
    }
    return results as BulkResult[];
  }
  myListings(query: QueryOf<'myListings'>, opts?: CallOptions) {
    return this.call('myListings', { query }, opts);
  }
  myListingsValue(query: QueryOf<'myListingsValue'> = {}, opts?: CallOptions) {
    return this.call('myListingsValue', { query }, opts);
  }
  backpack(query: QueryOf<'backpack'>, opts?: CallOptions) {
    return this.call('backpack', { query }, opts);
  }
  deposit(body: BodyOf<'deposit'>, opts?: CallOptions) {
    return this.call('deposit', { body }, opts);
  }
  withdraw(body: BodyOf<'withdraw'>, opts?: CallOptions) {
    return this.call('withdraw', { body }, opts);
  }
  trades(query: QueryOf<'trades'>, opts?: CallOptions) {
    return this.call('trades', { query }, opts);
  }
  user(opts?: CallOptions) {
    return this.call('user', {}, opts);
  }
  orders(query: QueryOf<'orders'>, opts?: CallOptions) {
    return this.call('orders', { query }, opts);
  }
  transactions(query: QueryOf<'transactions'> = {}, opts?: CallOptions) {
    return this.call('transactions', { query }, opts);
  }
  cryptoWithdraw(body: BodyOf<'cryptoWithdraw'>, opts?: CallOptions) {
    return this.call('cryptoWithdraw', { body }, opts);
  }
  cryptoWithdrawal(id: number, opts?: CallOptions) {
    return this.call('cryptoWithdrawal', { id }, opts);
  }

  // ---- paging ---------------------------------------------------------------------------------

  /** Every page of an offset-paged route, from page 1 until `total_pages` (background priority by default). */
  pages<N extends PlainPagedName>(name: N, query: Omit<NonNullable<QueryOf<N>>, 'page'>, options?: PageOptions) {
    return offsetPages(this.#pageCaller, name, query, options);
  }
  /** The rows of every page of an offset-paged route, one at a time. */
  rows<N extends PlainPagedName>(
    name: N,
    query: Omit<NonNullable<QueryOf<N>>, 'page'>,
    options?: PageOptions,
  ): AsyncGenerator<RowOf<N>, void, undefined> {
    return offsetRows(this.#pageCaller, name, query, options);
  }
  /**
   * The orders or the ledger, newest first, each row once and none skipped while the history grows
   * underneath (pagers.ts readNewestFirst says how); `complete` says whether the read reached the end
   * or a row older than wanted.
   */
  newestFirst<N extends NewestFirstName>(
    name: N,
    query: Omit<NonNullable<QueryOf<N>>, 'page'>,
    options?: NewestFirstOptions<RowOf<N>>,
  ) {
    return readNewestFirst(this.#pageCaller, name, query, options);
  }
  /** `GET /listings` by cursor, following `next_cursor` until null: stable while the book changes. */
  listingsByCursor(query: ListingsCursorQuery, options?: PageOptions) {
    return cursorPages(this.#pageCaller, query, options);
  }

  readonly #pageCaller = <N extends EndpointName>(
    name: N,
    input: { query?: QueryOf<N> },
    opts: { priority: Priority; signal?: AbortSignal },
  ): Promise<ResponseOf<N>> => this.call(name, input, opts);

  // ---- export ---------------------------------------------------------------------------------

  /**
   * Streams `GET /orders/export` into `file` (CSV or JSON by `query.format`, CSV by default), checking
   * each row against the contract and reporting progress per chunk; the body is never held in memory
   * whole. The timeout applies to the wait for the headers and then to every silence between chunks.
   */
  async exportOrders(
    file: string,
    query: QueryOf<'ordersExport'> = {},
    onProgress?: (progress: ExportProgress) => void,
    opts: CallOptions = {},
  ): Promise<ExportResult> {
    const name = 'ordersExport';
    const route = routeOf(name);
    const { url, init } = this.#prepare(name, { query });
    (init.headers as Record<string, string>).accept = 'text/csv, application/json';
    const format: ExportFormat = query.format ?? 'csv';
    for (let attempt = 0; ; attempt++) {
      const permit = await this.governor.acquire(rateLimitKey(name), opts.priority ?? 'background', opts.signal);
      const controller = new AbortController();
      const timeoutMs = opts.timeoutMs ?? this.#timeoutMs;
      const timer = idleTimeout(this.clock, timeoutMs, controller);
      const onCallerAbort = () => controller.abort(opts.signal?.reason);
      opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
      let response: Response | undefined;
      try {
        response = await this.#fetch(url, { ...init, signal: controller.signal });
        this.#noteServerDate(response.headers);
        permit.complete(this.#rateInfo(response.status, response.headers));
        if (response.status !== 200) {
          const text = await readText(response, () => timer.touch());
          const error = this.#errorFromResponse(route, response.status, response.headers, text);
          if (response.status === 429 && attempt < (opts.rateLimitRetries ?? this.#rateLimitRetries)) continue;
          throw error;
        }
        if (!response.body) throw new ApiError({ kind: 'invalid_response', route, status: 200, message: `${route}: empty body` });
        const length = Number(response.headers.get('content-length'));
        return await writeExport(response.body, file, {
          format,
          totalBytes: Number.isFinite(length) && length > 0 ? length : null,
          onProgress,
          onChunk: () => timer.touch(),
        });
      } catch (err) {
        if (!response) permit.complete();
        if (err instanceof ApiError) throw err;
        if (err instanceof ExportFormatError) {
          throw new ApiError({ kind: 'invalid_response', route, status: 200, message: this.#redact(`${route}: ${err.message}`), maybeDelivered: true });
        }
        if (err instanceof TypeError && /decode|encoded data/i.test(err.message)) {
          throw new ApiError({ kind: 'invalid_response', route, status: 200, message: `${route}: the export is not valid UTF-8`, maybeDelivered: true });
        }
        if (err instanceof ExportFileError) throw err; // a local disk problem, not the network's
        if (opts.signal?.aborted && !timer.fired) throw opts.signal.reason ?? err;
        throw this.#transportError(route, err, timer.fired ? timeoutMs : null, response !== undefined);
      } finally {
        timer.cancel();
        opts.signal?.removeEventListener('abort', onCallerAbort);
      }
    }
  }
}

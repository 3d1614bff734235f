/**
 * The REST side of the demo market: one request handler for every route of spec part 4. Order of checks
 * per request: route → rate limit (per API key, or per IP without a valid key — spec part 8 and §5.4;
 * X-RateLimit-* headers on every limited route) → authentication (401) → query and body validated by the contract's own schemas
 * (400 VALIDATION_ERROR; a body is read only when sent as application/json; the bulk edit and delist
 * bodies only as an envelope, their rows one by one in the route: bulk-bodies.ts) → the route.
 * Refusals are MarketErrors, answered with ERROR_STATUS/errorBody.
 *
 * Chaos (src/demo/chaos), when switched on: after the rate limit a request may meet a 429 storm, an
 * injected 500 or a hang (nothing applied); after its route, the answer may be delayed, or — for a
 * purchase or a crypto withdrawal — lost after it was applied. Every 429 written out is noted in the rate limiter, so
 * a caller that comes back before its Retry-After ran out is counted.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import {
  ENDPOINTS,
  ENDPOINT_NAMES,
  ERROR_STATUS,
  LISTING_EVENT_NAMES,
  WEBHOOK_EVENTS,
  WS_PATH,
  matchEndpoint,
  rateLimitKey,
  webhookHeaderNames,
  type EndpointName,
  type ErrorBody,
} from '../../shared/api/index.ts';
import type { ChaosController } from '../chaos/controller.ts';
import { MarketError } from '../market/errors.ts';
import type { Market } from '../market/market.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { SERVER_BODIES } from './bulk-bodies.ts';
import { drained, type RouteContext, type RouteReply, type RouteTable } from './route-kit.ts';
import { bearerKey } from './ws-feed.ts';

export const API_VERSION = '1.0.0-demo';
const MAX_BODY_BYTES = 1024 * 1024;

export function infoBody() {
  return {
    version: API_VERSION,
    websocket: { path: WS_PATH, auth: 'Authorization: Bearer <API_KEY> header, or api_key=<API_KEY> query parameter' },
    events: [...LISTING_EVENT_NAMES],
    rest: ENDPOINT_NAMES.map((name) => `${ENDPOINTS[name].method} ${ENDPOINTS[name].path}`),
    webhooks: { events: [...WEBHOOK_EVENTS], headers: Object.values(webhookHeaderNames()) },
  };
}

/**
 * Whose window a request counts in. Spec part 8: "per API key and per endpoint (per IP when
 * unauthenticated)": a rerolled key starts afresh. The key itself never goes into the limiter (its
 * audit is written into soak reports), only a short digest of it, after the account it belongs to so an
 * account's audit still gathers every key it has had.
 */
export function rateLimitCaller(account: { id: number } | null, key: string | null, ip: string | undefined): string {
  if (!account || key === null) return `ip:${ip ?? 'unknown'}`;
  return `account:${account.id} key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function validation(message: string, issues: { path: string; message: string }[]): MarketError {
  return new MarketError('VALIDATION_ERROR', message, { issues });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw validation('the request body is larger than 1 MiB', []);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, err: MarketError, headers: Record<string, string> = {}): void {
  const body: ErrorBody = { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
  sendJson(res, ERROR_STATUS[err.code], body, headers);
}

/** The media type is application/json (parameters such as charset allowed, letter case ignored). */
function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** If-None-Match matches an ETag (weak comparison, lists and `*` allowed). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

async function writeChunks(res: ServerResponse, chunks: readonly Buffer[]): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
}

export function createRequestHandler(market: Market, routes: RouteTable, limiter: RateLimiter, chaos: ChaosController | null = null) {
  /**
   * Sends a 429 and tells the limiter, so early retries can be counted. The wait is counted from `now`,
   * just before the answer is written: the caller cannot have it sooner, so its own wait ends no earlier.
   * A 429 is a refusal whatever caused it (spec part 8), so its rate-limit headers say nothing remains
   * and the window reopens at the first whole second not before the end of the wait the early-retry
   * check holds the caller to: a client that waits until X-RateLimit-Reset honours the Retry-After too.
   * The window's own end (resetAt, rounded up) can lie up to a second before now + Retry-After rounded
   * up, and a client waiting only for it was counted as coming back early.
   */
  function sendRateLimited(res: ServerResponse, key: string, err: MarketError, retryAfter: number, headers: Record<string, string>, now: number): void {
    const waitEnds = limiter.noteRetryAfter(key, now, retryAfter);
    sendError(res, err, {
      ...headers,
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(waitEnds / 1000)),
      'Retry-After': String(retryAfter),
    });
  }


  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const method = req.method ?? 'GET';
    const match = matchEndpoint(method, url.pathname);
    if (!match) {
      const message = url.pathname === WS_PATH ? `${WS_PATH} accepts WebSocket upgrades only` : `no route ${method} ${url.pathname}`;
      sendError(res, new MarketError('NOT_FOUND', message));
      return;
    }
    const name: EndpointName = match.name;
    const def = ENDPOINTS[name];
    const key = bearerKey(req.headers.authorization);
    const account = key ? (market.accountByKey(key) ?? null) : null;
    const headers: Record<string, string> = {};
    // The info route takes no authentication (§4.1), so a key sent with it does not make it an
    // authenticated request: it is counted by IP like any unauthenticated one (§5.4).
    const limitKey = `${rateLimitCaller(def.auth ? account : null, key, req.socket.remoteAddress)} ${rateLimitKey(name)}`;
    if (def.rateLimit) {
      // one moment for the decision and its 429's wait
      const now = Date.now();
      const decision = limiter.take(limitKey, def.rateLimit, now);
      headers['X-RateLimit-Limit'] = String(decision.limit);
      headers['X-RateLimit-Remaining'] = String(decision.remaining);
      headers['X-RateLimit-Reset'] = String(Math.ceil(decision.resetAt / 1000));
      if (!decision.allowed) {
        const err = new MarketError('RATE_LIMITED', `rate limit of ${decision.limit} requests exceeded; retry in ${decision.retryAfter} s`, { retry_after: decision.retryAfter });
        sendRateLimited(res, limitKey, err, decision.retryAfter, headers, now);
        return;
      }
    }
    if (chaos) {
      const fault = chaos.beforeRoute(name, def.rateLimit !== null);
      if (fault.kind === 'storm') {
        // The limiter's own headers (requests left, its window's end) would tell a client that paces by
        // them to come straight back: sendRateLimited gives the storm's 429 those of a refusal.
        const err = new MarketError('RATE_LIMITED', `the service is shedding load; retry in ${fault.retryAfterSeconds} s`, { retry_after: fault.retryAfterSeconds });
        sendRateLimited(res, limitKey, err, fault.retryAfterSeconds, headers, Date.now());
        return;
      }
      if (fault.kind === 'error') {
        sendError(res, new MarketError('INTERNAL_ERROR', 'internal error (injected by the demo market\'s chaos switches)'), headers);
        return;
      }
      if (fault.kind === 'hang') {
        await chaos.sleep(fault.ms);
        res.destroy();
        return;
      }
    }
    try {
      if (name === 'info') {
        sendJson(res, 200, infoBody(), headers);
        return;
      }
      if (def.auth && !account) {
        sendError(res, new MarketError('UNAUTHORIZED', key ? 'the API key is not valid' : 'send Authorization: Bearer <API_KEY>'), headers);
        return;
      }

      let query: unknown;
      if (def.query) {
        // A query parameter is one string (spec §1.6); a repeated one is not silently narrowed to its last value.
        const repeated = [...new Set([...url.searchParams.keys()].filter((k, i, all) => all.indexOf(k) !== i))];
        if (repeated.length > 0) {
          throw validation('invalid query parameters', repeated.map((k) => ({ path: k, message: 'sent more than once' })));
        }
        const parsed = def.query.safeParse(Object.fromEntries(url.searchParams));
        if (!parsed.success) throw validation('invalid query parameters', issuesOf(parsed.error));
        query = parsed.data;
      }
      let body: unknown;
      const bodySchema: z.ZodType | null = name in SERVER_BODIES ? SERVER_BODIES[name as keyof typeof SERVER_BODIES] : def.body;
      if (bodySchema) {
        // Spec §1.5: request bodies are JSON (application/json). A service parses a body by its declared
        // type, so one sent as text/plain (fetch's default for a string) or untyped is not read as JSON.
        if (!isJsonContentType(req.headers['content-type'])) {
          throw validation('the request body must be sent as Content-Type: application/json', [{ path: 'content-type', message: `got ${req.headers['content-type'] ?? 'none'}` }]);
        }
        const text = await readBody(req);
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          throw validation(text.trim() === '' ? 'a JSON body is required' : 'the body is not valid JSON', []);
        }
        const parsed = bodySchema.safeParse(raw);
        if (!parsed.success) throw validation('invalid request body', issuesOf(parsed.error));
        body = parsed.data;
      }

      const route = routes[name as Exclude<EndpointName, 'info'>] as (ctx: RouteContext<EndpointName>) => RouteReply;
      const reply = route({ account: account!, query, body, id: match.id ?? 0, req } as RouteContext<EndpointName>);
      if (chaos) {
        const plan = chaos.answerPlan(name);
        if (plan.lose) {
          // Applied (the route ran), but the answer never arrives: at once, or after a client time-out.
          await chaos.sleep(plan.lose.holdMs);
          res.destroy();
          return;
        }
        if (plan.delayMs > 0 && !(await chaos.sleep(plan.delayMs))) {
          res.destroy();
          return;
        }
      }
      await send(req, res, reply, headers);
    } catch (err) {
      // Refusals keep the rate-limit headers the request already earned.
      if (err instanceof MarketError && !res.headersSent) sendError(res, err, headers);
      else throw err;
    }
  }

  async function send(req: IncomingMessage, res: ServerResponse, reply: RouteReply, headers: Record<string, string>): Promise<void> {
    switch (reply.kind) {
      case 'json':
        sendJson(res, reply.status ?? 200, reply.body, headers);
        return;
      case 'cached': {
        const common = { ...headers, ETag: reply.body.etag, 'Cache-Control': `private, max-age=${reply.maxAgeSeconds}` };
        if (etagMatches(req.headers['if-none-match'], reply.body.etag)) {
          res.writeHead(304, common);
          res.end();
          return;
        }
        res.writeHead(200, { ...common, ...reply.bodyHeaders, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': reply.body.length });
        await writeChunks(res, reply.body.chunks);
        res.end();
        return;
      }
      case 'stream':
        res.writeHead(200, {
          ...headers,
          'Content-Type': reply.contentType,
          ...(reply.filename ? { 'Content-Disposition': `attachment; filename="${reply.filename}"` } : {}),
        });
        await reply.write(res);
        res.end();
        return;
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof MarketError) {
        sendError(res, err);
        return;
      }
      process.stderr.write(`demo market: internal error on ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}: ${(err as Error).stack ?? String(err)}\n`);
      sendError(res, new MarketError('INTERNAL_ERROR', 'internal error'));
    });
  };
}

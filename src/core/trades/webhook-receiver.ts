/**
 * The local webhook endpoint for trade events (spec §6.2). The user exposes it through an https tunnel
 * and pastes the tunnel's URL into the marketplace's developer settings; anyone on the internet can
 * then reach it, so every request is treated as hostile until its signature says otherwise.
 *
 * Order of checks, and why:
 * 1. Read the raw body under a size limit: the signature covers the exact bytes sent, and parsing first
 *    would let a forger make us do work (and would normalise away what was signed).
 * 2. Verify `sha256=HMAC(secret, "<timestamp>.<raw body>")` in constant time. A forged delivery is
 *    counted as forged even when it is also stale or malformed: its content cannot be trusted to say so.
 * 3. Reject timestamps outside the tolerance (5 minutes, both directions): a captured delivery cannot be
 *    replayed later, and one signed "in the future" is not honest either.
 * 4. Parse; unknown event names are acknowledged and ignored (the event set grows, §6.2 rule 8), whatever
 *    the rest of their envelope holds.
 * 5. Deduplicate by the delivery id in the signed body (the header is not covered by the signature, so
 *    it cannot be the only key) and by the `Delivery` header, the spec's idempotency key (§6.2 rule 3);
 *    a replay inside the tolerance is answered 2xx (so the service's own retry of a delivery whose
 *    answer it lost stops) but not applied again.
 * 6. Answer 2xx at once, then hand the trade to `onTrade` asynchronously, in arrival order: the service
 *    times out after 10 s, and a slow consumer must not turn successes into failed deliveries.
 *
 * The signing secret is never logged, never echoed in a response, never put in an error message.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LIMITS,
  SIGNATURE_SCHEME,
  type Trade,
  WEBHOOK_EVENTS,
  signedPayload,
  tradeUpdatedBody,
  webhookBody,
  webhookHeaderNames,
  webhookSignatureHeader,
  webhookTimestampHeader,
} from '../../shared/api/index.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { DeliveryLog } from './delivery-log.ts';

/** The header's ids share the delivery log with the body's, under a prefix of their own. */
const DELIVERY_HEADER_KEY = 'header:';

export const REJECTION_REASONS = ['forged', 'stale', 'replayed', 'malformed', 'unknown_event', 'too_large'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface DeliveryMeta {
  deliveryId: string;
  event: string;
  /** Unix seconds from the signed timestamp header. */
  signedAt: number;
  /** `X-…-Attempt` as sent (1 on the first try); informational only, it is not signed. */
  attempt: number | null;
  receivedAt: number;
}

export interface WebhookReceiverOptions {
  /**
   * The signing secret, or several while a key reroll settles (retries queued before the reroll are
   * still signed with the old one). Never logged.
   */
  secret: string | readonly string[];
  /** Called once per accepted `trade.updated` delivery, after the 2xx was sent, in arrival order. */
  onTrade: (trade: Trade, meta: DeliveryMeta) => void | Promise<void>;
  /** Default 127.0.0.1: the tunnel client connects locally; nothing else should. */
  host?: string;
  /** Default 0 (a free port; read it from `address()`). */
  port?: number;
  /** Path the receiver answers on (default `/webhook`); other paths get 404. */
  path?: string;
  /** The header prefix (default `X-Service-`), one setting because the real service uses its own name. */
  headerPrefix?: string;
  /** Signature timestamp tolerance, each direction (default 5 minutes). */
  toleranceMs?: number;
  /** Largest body accepted (default 1 MiB; a trade row with 500 items is far below). */
  maxBodyBytes?: number;
  /** Accepted delivery ids; pass one with a database so replays are caught across restarts. */
  deliveryLog?: DeliveryLog;
  clock?: Pick<Clock, 'now'>;
  /**
   * The marketplace's clock minus ours (the REST client measures it), null while unknown: signatures are
   * timed by the marketplace's clock, so a computer whose clock is minutes off would otherwise refuse
   * every genuine delivery as stale — and 20 failed deliveries in a row remove the webhook URL.
   */
  serverOffsetMs?: () => number | null;
  /** One line per rejection or processing failure; never contains the secret. */
  log?: (line: string) => void;
}

export interface WebhookReceiverStats {
  received: number;
  accepted: number;
  processed: number;
  processingErrors: number;
  rejected: Record<RejectionReason, number>;
  lastProcessingError: string | null;
}

export interface WebhookReceiverEvents {
  /** `onTrade` threw or rejected; the delivery was already acknowledged. */
  processing_error: [Error, DeliveryMeta];
  rejected: [RejectionReason];
}

class Rejection extends Error {
  readonly reason: RejectionReason;
  readonly status: number;
  constructor(reason: RejectionReason, status: number, message: string) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

const HEX_SIGNATURE_BYTES = 32;

export class WebhookReceiver extends EventEmitter<WebhookReceiverEvents> {
  readonly #server: Server;
  readonly #options: WebhookReceiverOptions;
  readonly #headers: ReturnType<typeof webhookHeaderNames>;
  readonly #deliveries: DeliveryLog;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #toleranceMs: number;
  readonly #maxBodyBytes: number;
  readonly #path: string;
  #secrets: Buffer[];
  #queue: Promise<void> = Promise.resolve();
  readonly #stats: WebhookReceiverStats = {
    received: 0,
    accepted: 0,
    processed: 0,
    processingErrors: 0,
    rejected: Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0])) as Record<RejectionReason, number>,
    lastProcessingError: null,
  };

  constructor(options: WebhookReceiverOptions) {
    super();
    this.#options = options;
    this.#secrets = toSecretBuffers(options.secret);
    // Node lower-cases incoming header names.
    this.#headers = lowerCased(webhookHeaderNames(options.headerPrefix));
    this.#deliveries = options.deliveryLog ?? new DeliveryLog();
    this.#clock = options.clock ?? systemClock;
    this.#toleranceMs = options.toleranceMs ?? LIMITS.webhookSignatureToleranceMs;
    this.#maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.#path = options.path ?? '/webhook';
    this.#server = createServer((req, res) => this.#handle(req, res));
    // The service gives up after 10 s; a client that trickles bytes longer than that is not the service.
    this.#server.requestTimeout = LIMITS.webhookTimeoutMs;
    this.#server.headersTimeout = LIMITS.webhookTimeoutMs;
  }

  /** Starts listening; resolves with the bound address. */
  listen(): Promise<{ host: string; port: number; url: string }> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.#server.once('error', onError);
      this.#server.listen(this.#options.port ?? 0, this.#options.host ?? '127.0.0.1', () => {
        this.#server.off('error', onError);
        resolve(this.address());
      });
    });
  }

  address(): { host: string; port: number; url: string } {
    const addr = this.#server.address() as AddressInfo | null;
    if (!addr) throw new Error('the webhook receiver is not listening');
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    return { host: addr.address, port: addr.port, url: `http://${host}:${addr.port}${this.#path}` };
  }

  /** Replaces the signing secret(s), e.g. after the API key was rerolled. */
  setSecret(secret: string | readonly string[]): void {
    this.#secrets = toSecretBuffers(secret);
  }

  stats(): WebhookReceiverStats {
    return { ...this.#stats, rejected: { ...this.#stats.rejected } };
  }

  /** Resolves when every accepted delivery so far has been handed to `onTrade` and settled. */
  drain(): Promise<void> {
    return this.#queue;
  }

  /** Stops accepting connections and waits for the deliveries already accepted. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    await this.drain();
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== this.#path) {
      respond(res, 404, { error: 'not_found' });
      req.resume();
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      respond(res, 405, { error: 'method_not_allowed' });
      req.resume();
      return;
    }
    this.#stats.received++;
    this.#readBody(req)
      .then((raw) => this.#accept(req, raw))
      .then((outcome) => {
        if (outcome.kind === 'accepted') {
          respond(res, 200, { status: 'accepted' });
          this.#enqueue(outcome.trade, outcome.meta);
        } else {
          // Both are successes for the sender: the delivery needs no retry.
          respond(res, 200, { status: outcome.kind === 'duplicate' ? 'duplicate' : 'ignored' });
        }
      })
      .catch((err: unknown) => {
        if (err instanceof Rejection) {
          this.#reject(err.reason, err.message);
          if (err.reason === 'too_large') res.setHeader('connection', 'close');
          respond(res, err.status, { error: err.reason });
          return;
        }
        // Not reachable by input (every input failure is a Rejection); surface it instead of hiding it.
        this.#options.log?.(`webhook: internal failure handling a delivery: ${(err as Error).message}`);
        respond(res, 500, { error: 'internal' });
      });
  }

  #readBody(req: IncomingMessage): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.#maxBodyBytes) {
        req.resume();
        reject(new Rejection('too_large', 413, `body of ${declared} bytes is over the ${this.#maxBodyBytes}-byte limit`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > this.#maxBodyBytes) {
          done = true;
          reject(new Rejection('too_large', 413, `body over the ${this.#maxBodyBytes}-byte limit`));
          req.resume();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (done) return;
        done = true;
        resolve(Buffer.concat(chunks, size));
      });
      req.on('error', (err) => {
        if (done) return;
        done = true;
        reject(new Rejection('malformed', 400, `request aborted: ${err.message}`));
      });
      // A sender that hangs up mid-body: settle, so no handler waits forever.
      req.on('close', () => {
        if (done) return;
        done = true;
        reject(new Rejection('malformed', 400, 'connection closed before the body ended'));
      });
    });
  }

  #accept(
    req: IncomingMessage,
    raw: Buffer,
  ): { kind: 'accepted'; trade: Trade; meta: DeliveryMeta } | { kind: 'duplicate' | 'ignored' } {
    const now = this.#clock.now();
    const signatureHeader = headerValue(req, this.#headers.signature);
    const timestampHeader = headerValue(req, this.#headers.timestamp);
    if (signatureHeader === null || !webhookSignatureHeader.safeParse(signatureHeader).success) {
      throw new Rejection('forged', 401, 'missing or malformed signature header');
    }
    if (timestampHeader === null || !webhookTimestampHeader.safeParse(timestampHeader).success) {
      throw new Rejection('malformed', 400, 'missing or malformed timestamp header');
    }
    if (!this.#signatureMatches(timestampHeader, raw, signatureHeader)) {
      throw new Rejection('forged', 401, 'signature does not match');
    }
    const signedAtMs = Number(timestampHeader) * 1000;
    const marketNow = now + (this.#options.serverOffsetMs?.() ?? 0);
    if (Math.abs(marketNow - signedAtMs) > this.#toleranceMs) {
      const direction = signedAtMs < marketNow ? 'old' : 'far in the future';
      throw new Rejection('stale', 401, `signature timestamp is ${Math.round(Math.abs(marketNow - signedAtMs) / 1000)} s ${direction}`);
    }

    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new Rejection('malformed', 400, 'body is not JSON');
    }
    // The event's name first: an event we do not know is acknowledged whatever else its envelope holds
    // (a later event may shape it otherwise); refused, the service would retry it six times and count a
    // failure towards removing the URL.
    const event = eventNameOf(json);
    if (event === null) throw new Rejection('malformed', 400, 'body is not a webhook envelope');
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
      this.#reject('unknown_event', `ignored unknown event ${JSON.stringify(event.slice(0, 64))}`);
      return { kind: 'ignored' };
    }
    if (!webhookBody.safeParse(json).success) throw new Rejection('malformed', 400, 'body is not a webhook envelope');
    const body = tradeUpdatedBody.safeParse(json);
    if (!body.success) throw new Rejection('malformed', 400, 'trade.updated body does not match the contract');

    const meta: DeliveryMeta = {
      deliveryId: body.data.id,
      event: body.data.event,
      signedAt: Number(timestampHeader),
      attempt: parseAttempt(headerValue(req, this.#headers.attempt)),
      receivedAt: now,
    };
    // Both keys are recorded, so a delivery is a duplicate when either was seen: the signed body id
    // (a header could be changed on a captured delivery) and the spec's idempotency key, the header
    // (a retry that carried a new body id would otherwise be applied again).
    const deliveryHeader = headerValue(req, this.#headers.delivery);
    const newBody = this.#deliveries.accept(body.data.id, now);
    const newHeader = deliveryHeader === null || this.#deliveries.accept(`${DELIVERY_HEADER_KEY}${deliveryHeader}`, now);
    if (!newBody || !newHeader) {
      const seen = newBody ? `delivery header ${JSON.stringify(deliveryHeader?.slice(0, 64))}` : `delivery ${JSON.stringify(body.data.id.slice(0, 64))}`;
      this.#reject('replayed', `${seen} was already accepted`);
      return { kind: 'duplicate' };
    }
    this.#stats.accepted++;
    return { kind: 'accepted', trade: body.data.data, meta };
  }

  #signatureMatches(timestamp: string, raw: Buffer, header: string): boolean {
    const given = Buffer.from(header.slice(SIGNATURE_SCHEME.length), 'hex');
    if (given.length !== HEX_SIGNATURE_BYTES) return false;
    let match = false;
    // Every secret is tried (no early exit), so timing does not reveal which one matched.
    for (const secret of this.#secrets) {
      const hmac = createHmac('sha256', secret);
      // Byte for byte signedPayload(timestamp, body), without decoding the raw body first.
      hmac.update(signedPayload(timestamp, ''), 'utf8');
      hmac.update(raw);
      if (timingSafeEqual(hmac.digest(), given)) match = true;
    }
    return match;
  }

  #reject(reason: RejectionReason, detail: string): void {
    this.#stats.rejected[reason]++;
    this.#options.log?.(`webhook: ${reason}: ${detail}`);
    this.emit('rejected', reason);
  }

  #enqueue(trade: Trade, meta: DeliveryMeta): void {
    this.#queue = this.#queue.then(async () => {
      try {
        await this.#options.onTrade(trade, meta);
        this.#stats.processed++;
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        this.#stats.processingErrors++;
        this.#stats.lastProcessingError = error.message;
        this.#options.log?.(`webhook: processing delivery ${meta.deliveryId} failed: ${error.message}`);
        this.emit('processing_error', error, meta);
      }
    });
  }
}

function toSecretBuffers(secret: string | readonly string[]): Buffer[] {
  const list = typeof secret === 'string' ? [secret] : [...secret];
  if (list.length === 0 || list.some((s) => s.length === 0)) {
    throw new TypeError('the webhook signing secret must be a non-empty string');
  }
  return list.map((s) => Buffer.from(s, 'utf8'));
}

function lowerCased<T extends Record<string, string>>(names: T): T {
  return Object.fromEntries(Object.entries(names).map(([k, v]) => [k, v.toLowerCase()])) as T;
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (typeof value === 'string') return value.trim();
  // A repeated header is ambiguous: refuse rather than pick one.
  return null;
}

/** The `event` of a JSON object, or null when there is none to read. */
function eventNameOf(json: unknown): string | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const event = (json as { event?: unknown }).event;
  return typeof event === 'string' && event !== '' ? event : null;
}

function parseAttempt(value: string | null): number | null {
  if (value === null || !/^\d{1,3}$/.test(value)) return null;
  return Number(value);
}

function respond(res: ServerResponse, status: number, body: Record<string, string>): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * One WebSocket connection to the listing feed (spec §6.1): Bearer header, the subscribe op, parsed
 * frames, and liveness. The spec has no server heartbeat, so we ping and terminate a socket that has
 * sent nothing (no frame, no pong) for longer than `livenessTimeoutMs`: a pulled cable or a half-open
 * connection is noticed in seconds, not when the OS gives up. The silence is timed on the monotonic clock:
 * on the wall clock a time set back disabled the check for as long as the step, and one set forward
 * terminated a healthy socket.
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { FrameParseError, WS_CLOSE, parseServerFrame, type ServerFrame, type SubscribeOp } from '../../shared/api/index.ts';

export interface FeedOptions {
  url: string;
  apiKey: string;
  subscribe: SubscribeOp;
  pingIntervalMs: number;
  livenessTimeoutMs: number;
  /** Opening handshake limit. */
  connectTimeoutMs: number;
  /**
   * Hand each text frame over unparsed (`text`) instead of parsed (`frame`): the relay host passes most
   * frames on to the sync worker as they are, and that thread parses them.
   */
  rawFrames?: boolean;
}

export interface FeedClose {
  /** The WebSocket close code (4401, 4429, 1006...), or null when we ended it ourselves. */
  code: number | null;
  reason: string;
  /** Terminated by us because the socket went silent. */
  silent: boolean;
  /** Why the connection was never made, in words (refused, no such host, an HTTP answer); absent once open. */
  failure?: string;
  /** The handshake was answered 429 or 503: the marketplace asks for a slower pace, like a 4429. */
  throttled?: boolean;
}

export type FeedEvents = {
  open: [];
  frame: [frame: ServerFrame];
  /** A text frame, unparsed (rawFrames only). */
  text: [text: string];
  /** A frame that breaks the contract: its effect on the book is unknown. */
  invalidFrame: [error: FrameParseError];
  close: [close: FeedClose];
};

/** What the sync engine needs of a feed connection: a WebSocket here, or a relay of one (relay.ts). */
export interface FeedLink {
  open(): void;
  close(): void;
  on<K extends keyof FeedEvents>(event: K, listener: (...args: FeedEvents[K]) => void): unknown;
}

/**
 * Parses one text frame and emits it as `frame`, or as `invalidFrame` when it breaks the contract (its
 * effect on the book is then unknown); any other error is a bug and is thrown. Shared by the socket and
 * by the worker's side of a relayed feed (relay.ts), which parses the texts the host passed on.
 */
export function emitParsedFrame(feed: EventEmitter<FeedEvents>, text: string): void {
  let frame: ServerFrame;
  try {
    frame = parseServerFrame(text);
  } catch (err) {
    if (!(err instanceof FrameParseError)) throw err;
    feed.emit('invalidFrame', err);
    return;
  }
  feed.emit('frame', frame);
}

interface ConnectFailure {
  words: string;
  keyRefused: boolean;
  /** Answered 429 (too many requests) or 503 (overloaded): retried at the longer pace of a 4429. */
  throttled: boolean;
}

/** A system error met while connecting, in words (its code follows in brackets). */
const CONNECT_ERROR_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: "the feed's address was not found",
  EAI_AGAIN: "the feed's address could not be looked up",
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
};

/** Why the handshake failed, from ws's error: a system error's code, or the HTTP status it was answered with. */
function connectFailure(err: NodeJS.ErrnoException): ConnectFailure {
  const http = /Unexpected server response: (\d{3})/.exec(err.message);
  if (http) {
    const status = Number(http[1]);
    const keyRefused = status === 401 || status === 403;
    const throttled = status === 429 || status === 503;
    return { words: keyRefused ? `the marketplace refused the API key (HTTP ${status})` : `the marketplace answered HTTP ${status}`, keyRefused, throttled };
  }
  const words = err.code !== undefined ? CONNECT_ERROR_WORDS[err.code] : undefined;
  if (words) return { words: `${words} (${err.code})`, keyRefused: false, throttled: false };
  return { words: /handshake has timed out/i.test(err.message) ? 'the handshake timed out' : err.message, keyRefused: false, throttled: false };
}

export class FeedConnection extends EventEmitter<FeedEvents> implements FeedLink {
  readonly #options: FeedOptions;
  #ws: WebSocket | null = null;
  /** performance.now() of the last frame, pong or ping heard. */
  #lastHeardAt = 0;
  #pingTimer: NodeJS.Timeout | null = null;
  #connectTimer: NodeJS.Timeout | null = null;
  #silent = false;
  #closedByUs = false;
  #closed = false;

  constructor(options: FeedOptions) {
    super();
    this.#options = options;
  }

  open(): void {
    const ws = new WebSocket(this.#options.url, {
      headers: { authorization: `Bearer ${this.#options.apiKey}` },
      handshakeTimeout: this.#options.connectTimeoutMs,
      perMessageDeflate: false,
    });
    this.#ws = ws;
    this.#lastHeardAt = performance.now();
    this.#connectTimer = setTimeout(() => {
      this.#silent = true;
      ws.terminate();
    }, this.#options.connectTimeoutMs + 1000);
    ws.on('open', () => {
      if (this.#connectTimer) clearTimeout(this.#connectTimer);
      this.#heard();
      ws.send(JSON.stringify(this.#options.subscribe));
      this.#pingTimer = setInterval(() => this.#checkLiveness(), this.#options.pingIntervalMs);
      this.emit('open');
    });
    ws.on('pong', () => this.#heard());
    ws.on('ping', () => this.#heard());
    ws.on('message', (data, isBinary) => {
      this.#heard();
      if (isBinary) {
        this.emit('invalidFrame', new FrameParseError('binary frame', '<binary>'));
        return;
      }
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      if (this.#options.rawFrames) {
        this.emit('text', text);
        return;
      }
      emitParsedFrame(this, text);
    });
    // 'error' always precedes 'close'; the close carries what callers need, with the reason a connection
    // was never made (every such failure closes with 1006, which says nothing).
    let opened = false;
    let failure: ConnectFailure | null = null;
    ws.once('open', () => (opened = true));
    ws.on('error', (err: NodeJS.ErrnoException) => {
      if (!opened) failure ??= connectFailure(err);
    });
    ws.on('close', (code, reason) => {
      this.#stopTimers();
      if (this.#closed) return;
      this.#closed = true;
      const ours = this.#closedByUs || this.#silent;
      this.emit('close', {
        // a key refused at the handshake (HTTP 401/403) is the same refusal as a 4401 after it
        code: ours ? null : failure?.keyRefused ? WS_CLOSE.unauthorized : code,
        reason: this.#silent ? 'the feed went silent' : reason.toString('utf8'),
        silent: this.#silent,
        ...(failure && !ours ? { failure: failure.words, throttled: failure.throttled } : {}),
      });
    });
  }

  /** Closes the socket normally (stop, or a deliberate reconnect). */
  close(): void {
    this.#closedByUs = true;
    this.#stopTimers();
    const ws = this.#ws;
    if (!ws) return;
    if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
    else if (ws.readyState === WebSocket.OPEN) {
      ws.close(1000, 'client closing');
      // A peer that never answers the close handshake must not keep us waiting.
      setTimeout(() => ws.terminate(), 1000).unref();
    }
  }

  #heard(): void {
    this.#lastHeardAt = performance.now();
  }

  #checkLiveness(): void {
    const ws = this.#ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.#lastHeardAt > this.#options.livenessTimeoutMs) {
      this.#silent = true;
      ws.terminate();
      return;
    }
    ws.ping();
  }

  #stopTimers(): void {
    if (this.#pingTimer) clearInterval(this.#pingTimer);
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
    this.#pingTimer = null;
    this.#connectTimer = null;
  }
}

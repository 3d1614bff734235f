/**
 * Shared by the demo market's integration tests: a started market (small, still, seeded), a tiny HTTP
 * client that keeps status, headers and raw text, contract-schema parsing, and a WebSocket client that
 * records every frame and close code.
 */
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { z } from 'zod';
import { errorBody, parseJsonWithInt64, type ErrorCode } from '../../../src/shared/api/index.ts';
import { startDemoMarket, type DemoMarket, type DemoMarketOptions } from '../../../src/demo/index.ts';

/** A small market with no background activity: tests drive it through the harness. */
export function startTestMarket(options: DemoMarketOptions = {}): Promise<DemoMarket> {
  return startDemoMarket({
    port: 0,
    listings: 2_000,
    rate: 0,
    seed: 7,
    timeScale: 1,
    reorder: 0,
    duplicate: 0,
    rateLimits: false,
    ...options,
  });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON (int64 `seq` as bigint); undefined when the body is not JSON. */
  json: unknown;
}

export class Api {
  readonly baseUrl: string;
  key: string | null;

  constructor(baseUrl: string, key: string | null) {
    this.baseUrl = baseUrl;
    this.key = key;
  }

  async call(method: string, path: string, options: { query?: Record<string, string | number>; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...options.headers };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), redirect: 'manual' });
    const text = new TextDecoder().decode(await res.arrayBuffer());
    let json: unknown;
    try {
      json = text === '' ? undefined : parseJsonWithInt64(text, ['seq']);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  get(path: string, query?: Record<string, string | number>, headers?: Record<string, string>) {
    return this.call('GET', path, { ...(query ? { query } : {}), ...(headers ? { headers } : {}) });
  }
  post(path: string, body: unknown) {
    return this.call('POST', path, { body });
  }
  patch(path: string, body: unknown) {
    return this.call('PATCH', path, { body });
  }
}

export const api = (market: DemoMarket, key: string | null = market.apiKey) => new Api(market.baseUrl, key);

/** Parses with a contract schema; a mismatch fails the test with the issues. */
export function parseAs<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`response does not match the contract: ${JSON.stringify(result.error.issues.slice(0, 5))}`);
  return result.data;
}

/** Asserts an error answer: status, code and body shape (errors.ts). */
export function expectError(res: ApiResponse, code: ErrorCode, status?: number): { code: string; message: string; details?: Record<string, unknown> } {
  const body = parseAs(errorBody, res.json);
  expect(body.error.code, `${res.status} ${res.text.slice(0, 300)}`).toBe(code);
  if (status !== undefined) expect(res.status).toBe(status);
  return body.error;
}

export function expectOk(res: ApiResponse, status = 200): unknown {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  return res.json;
}

/** Polls `check` until it returns a value (not undefined), within `ms`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 5_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface SocketClient {
  ws: WebSocket;
  /** Raw text frames in arrival order. */
  texts: string[];
  closed: Promise<{ code: number; reason: string }>;
  /** Waits for a frame (raw text) matching `predicate` that arrived after `from` frames. */
  waitFor(predicate: (frame: Record<string, unknown>, text: string) => boolean, ms?: number, from?: number): Promise<{ frame: Record<string, unknown>; text: string; index: number }>;
  send(value: unknown): void;
  close(): Promise<void>;
}

export function connectSocket(url: string, options: { key?: string | null; via?: 'header' | 'query' } = {}): SocketClient {
  const target = new URL(url);
  const headers: Record<string, string> = {};
  if (options.key) {
    if (options.via === 'query') target.searchParams.set('api_key', options.key);
    else headers.authorization = `Bearer ${options.key}`;
  }
  const ws = new WebSocket(target, { headers });
  const texts: string[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    texts.push(data.toString());
    for (const w of [...waiters]) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on('error', () => {});
  });
  return {
    ws,
    texts,
    closed,
    waitFor(predicate, ms = 5_000, from = 0) {
      return new Promise((resolve, reject) => {
        const scan = () => {
          for (let i = from; i < texts.length; i++) {
            const text = texts[i]!;
            const frame = parseJsonWithInt64(text, ['seq']) as Record<string, unknown>;
            if (predicate(frame, text)) {
              clearTimeout(timer);
              waiters.delete(scan);
              resolve({ frame, text, index: i });
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(scan);
          reject(new Error(`no matching frame within ${ms} ms (${texts.length} frames seen)`));
        }, ms);
        waiters.add(scan);
        scan();
      });
    },
    send(value) {
      ws.send(typeof value === 'string' ? value : JSON.stringify(value));
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      await closed;
    },
  };
}

/**
 * A purpose-built HTTP server for client tests: each test scripts the answers per endpoint and reads
 * back what was requested. Loopback only, random port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { matchEndpoint, type EndpointName } from '../../../src/shared/api/index.ts';
import { TS, leanListingExample } from '../shared/fixtures.ts';

export { TS };
/** The key the client tests' clients send. */
export const TEST_KEY = 'sk_live_9f8e7d6c5b4a';

export interface RecordedRequest {
  name: EndpointName | null;
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests to one endpoint. */
  calls(name: EndpointName): RecordedRequest[];
  on(name: EndpointName, handler: Handler): void;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code, message } }, headers);
}

export interface FakeServerOptions {
  /** The server's clock, sent in every answer's Date header (default: the real one). */
  now?: () => number;
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const handlers = new Map<EndpointName, Handler>();
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    if (options.now) res.setHeader('date', new Date(options.now()).toUTCString());
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const match = matchEndpoint(req.method ?? 'GET', url.pathname);
      const recorded: RecordedRequest = {
        name: match?.name ?? null,
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const handler = match ? handlers.get(match.name) : undefined;
      if (!handler) {
        sendError(res, 404, 'NOT_FOUND', 'no handler');
        return;
      }
      Promise.resolve(handler(recorded, res)).catch((err: unknown) => {
        if (!res.headersSent) sendError(res, 500, 'INTERNAL_ERROR', String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    calls: (name) => requests.filter((r) => r.name === name),
    on: (name, handler) => void handlers.set(name, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A lean listing row as the API sends it: the contract example under another id. */
export const leanRow = (id: number, extra: Record<string, unknown> = {}) => ({ ...leanListingExample, id, ...extra });

/** A fresh fake server and a client of it (the test key, a 2 s timeout): what each client test starts from. */
async function serverAndClient(): Promise<{ server: FakeServer; client: ApiClient }> {
  const server = await startFakeServer();
  return { server, client: new ApiClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY, timeoutMs: 2000 }) };
}

/**
 * A fresh fake server and client (serverAndClient) for every test of the enclosing file or describe
 * block: handed to `take` before each test, the server closed after it.
 */
export function serverAndClientForEachTest(take: (made: { server: FakeServer; client: ApiClient }) => void): void {
  let server: FakeServer | null = null;
  beforeEach(async () => {
    const made = await serverAndClient();
    server = made.server;
    take(made);
  });
  afterEach(async () => {
    await server?.close();
    server = null;
  });
}

export const metadataFor = (page: number, totalPages: number, totalItems: number, limit: number) => ({
  total_pages: totalPages,
  total_items: totalItems,
  current_page: page,
  current_limit: limit,
});

/** The ApiError a call fails with (fails the test when it resolves or throws something else). */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

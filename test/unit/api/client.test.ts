import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { requestFetch } from '../../../src/core/api/transport.ts';
import type { ApiError } from '../../../src/core/api/errors.ts';
import type { ExportProgress } from '../../../src/core/api/export-stream.ts';
import { fullListingExample } from '../shared/fixtures.ts';
import {
  failure,
  leanRow as lean,
  metadataFor,
  sendError,
  sendJson,
  serverAndClientForEachTest,
  startFakeServer,
  TEST_KEY as KEY,
  TS,
  type FakeServer,
} from './fake-server.ts';


let server: FakeServer;
let client: ApiClient;
serverAndClientForEachTest((made) => {
  ({ server, client } = made);
});

describe('requests are checked against the contract before sending', () => {
  it('refuses a query the contract rejects, and sends nothing', async () => {
    const error = await failure(client.prices({ page: '1', limit: '7' as '5' }));
    expect(error.kind).toBe('invalid_request');
    expect(error.route).toBe('GET /public/v1/prices');
    expect(error.message).toContain('limit');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an invalid body (strict: unknown fields) and a missing id', async () => {
    const body = { items: [{ listing_id: 1, amount: 1, max_price: 100, extra: true }] };
    expect((await failure(client.call('purchase', { body: body as never }))).kind).toBe('invalid_request');
    expect((await failure(client.call('listing', {}))).kind).toBe('invalid_request');
    expect(server.requests).toHaveLength(0);
  });

  it('sends the bearer key, JSON body and query strings', async () => {
    server.on('prices', (_req, res) => sendJson(res, 200, { prices: [], metadata: metadataFor(1, 0, 0, 5) }));
    await client.prices({ page: '2', limit: '5', app_id: '730' });
    const req = server.calls('prices')[0];
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(Object.fromEntries(req?.url.searchParams ?? [])).toEqual({ page: '2', limit: '5', app_id: '730' });
  });

  it('does not send the key to the unauthenticated info route', async () => {
    server.on('info', (_req, res) =>
      sendJson(res, 200, { version: '1.0', websocket: { path: '/public/v1/ws', auth: 'bearer' }, events: [], rest: [] }),
    );
    await client.info();
    expect(server.calls('info')[0]?.headers.authorization).toBeUndefined();
  });
});

describe('compressed answers', () => {
  it('a body sent with Content-Encoding gzip, deflate or br is decoded (JSON routes and the streamed book)', async () => {
    const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
    for (const [coding, encode] of Object.entries(encoders)) {
      server.on('prices', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(encode(JSON.stringify({ prices: [], metadata: metadataFor(1, 0, 0, 5) })));
      });
      expect((await client.prices({ page: '1', limit: '5' })).metadata.current_page).toBe(1);
      server.on('book', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(encode(`{"seq":9007199254740993,"listings":[${JSON.stringify(lean(7))}]}`));
      });
      const { snapshot } = await client.book({}, { fresh: true });
      expect(snapshot.seq).toBe(9007199254740993n);
      expect(snapshot.listings.length).toBe(1);
    }
  });

  it('a compressed read given up stops the download (the connection is closed, not left streaming)', async () => {
    let closed = false;
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.write(gzipSync(Buffer.alloc(1 << 20, 'a')).subarray(0, 100));
      res.on('close', () => (closed = true));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const response = await requestFetch(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/`);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await reader.cancel();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(closed).toBe(true);
    } finally {
      raw.closeAllConnections();
      raw.close();
    }
  });

  it('a compressed body cut short fails the call (never hangs, never a partial value)', async () => {
    const whole = gzipSync(JSON.stringify({ prices: [], metadata: metadataFor(1, 0, 0, 5) }));
    server.on('prices', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(whole.subarray(0, Math.floor(whole.length / 2)));
    });
    const error = await failure(client.prices({ page: '1', limit: '5' }));
    expect(['network', 'invalid_response']).toContain(error.kind);
    expect(error.maybeDelivered).toBe(true);
  });
});

describe('responses are parsed with the contract', () => {
  it('a response that breaks the contract is a typed error naming the route', async () => {
    server.on('listing', (_req, res) => sendJson(res, 200, { ...lean(5), price: '12.50' }));
    const error = await failure(client.listing(5));
    expect(error.kind).toBe('invalid_response');
    expect(error.route).toBe('GET /public/v1/listings/:id');
    expect(error.message).toContain('price');
  });

  it('non-JSON is invalid_response too', async () => {
    server.on('user', (_req, res) => sendJson(res, 200, '<html>hello</html>'));
    expect((await failure(client.user())).kind).toBe('invalid_response');
  });

  it('parses /book losslessly: a seq beyond 2^53 keeps every digit', async () => {
    const seq = '1900000000000000123';
    server.on('book', (_req, res) => sendJson(res, 200, `{"seq":${seq},"listings":[${JSON.stringify(lean(1))}]}`));
    const { snapshot, fromCache } = await client.book();
    expect(snapshot.seq).toBe(1900000000000000123n);
    expect(fromCache).toBe(false);
  });
});

describe('bulk and single answers match what was sent', () => {
  it('a bulk delist answered with fewer results than ids sent is invalid_response (the rows would shift)', async () => {
    server.on('delist', (_req, res) => sendJson(res, 200, { results: [{ ok: true }, { ok: false, error: 'LISTING_NOT_FOUND' }] }));
    const error = await failure(client.delistMany([41, 42, 43]));
    expect(error).toMatchObject({ kind: 'invalid_response', route: 'POST /public/v1/delist', maybeDelivered: true });
    expect(error.message).toContain('2 results for 3');
  });

  it('a single edit or delist answered with bulk results is invalid_response, not a listing without a price', async () => {
    server.on('editListing', (_req, res) => sendJson(res, 200, { results: [{ ok: false, error: 'LISTING_NOT_FOUND' }] }));
    const edit = await failure(client.editListing({ listing_id: 41, price: 1200 }));
    expect(edit).toMatchObject({ kind: 'invalid_response', route: 'PATCH /public/v1/list' });
    server.on('delist', (_req, res) => sendJson(res, 200, { results: [{ ok: true }] }));
    expect((await failure(client.delist({ listing_id: 41 }))).kind).toBe('invalid_response');
  });

  it('answers of the form sent pass', async () => {
    server.on('delist', (_req, res) => sendJson(res, 200, { results: [{ ok: true }, { ok: false, error: 'LISTING_NOT_FOUND' }] }));
    expect(await client.delistMany([41, 42])).toEqual([{ ok: true }, { ok: false, error: 'LISTING_NOT_FOUND' }]);
    server.on('editListing', (_req, res) => sendJson(res, 200, lean(41, { price: 1200 })));
    expect(await client.editListing({ listing_id: 41, price: 1200 })).toMatchObject({ id: 41, price: 1200 });
    server.on('delist', (_req, res) => sendJson(res, 200, { listing_id: 41 }));
    expect(await client.delist({ listing_id: 41 })).toEqual({ listing_id: 41 });
  });
});

describe('errors are typed by the spec codes and kinds', () => {
  it('API error codes keep code, status and message', async () => {
    server.on('listing', (_req, res) => sendError(res, 404, 'LISTING_NOT_FOUND', 'listing 5 is gone'));
    const error = await failure(client.listing(5));
    expect(error).toMatchObject({ kind: 'api', code: 'LISTING_NOT_FOUND', status: 404 });
    expect(error.message).toContain('listing 5 is gone');
    expect(error.explanation).toContain('listing is gone');
  });

  it('an error body without a message keeps its code (the spec shows only the code); the message names it', async () => {
    server.on('listing', (_req, res) => sendJson(res, 404, { error: { code: 'LISTING_NOT_FOUND' } }));
    const error = await failure(client.listing(5));
    expect(error).toMatchObject({ kind: 'api', code: 'LISTING_NOT_FOUND', status: 404 });
    expect(error.message).toBe('GET /public/v1/listings/:id: LISTING_NOT_FOUND (HTTP 404)');
    expect(error.explanation).toContain('listing is gone');
  });

  it('other error bodies the spec allows keep their code too: message or details of another type, the code alone', async () => {
    const bodies: unknown[] = [
      { error: { code: 'LISTING_PRICE_CHANGED', message: null, details: 'line 0' } },
      { error: { code: 'LISTING_PRICE_CHANGED', message: 7 } },
      { error: 'LISTING_PRICE_CHANGED' },
    ];
    for (const body of bodies) {
      server.on('purchase', (_req, res) => sendJson(res, 409, body));
      const error = await failure(client.purchase({ items: [{ listing_id: 1, amount: 1, max_price: 100 }] }));
      expect(error, JSON.stringify(body)).toMatchObject({ kind: 'api', code: 'LISTING_PRICE_CHANGED', status: 409, details: null });
    }
    // not an error body: no code is made up
    server.on('listing', (_req, res) => sendJson(res, 404, { error: 'not found' }));
    expect(await failure(client.listing(5))).toMatchObject({ kind: 'api', code: null, status: 404 });
  });

  it('an error body with the code at the top level (no "error" wrapper) keeps its code and words', async () => {
    const bodies: unknown[] = [
      { code: 'LISTING_PRICE_CHANGED', message: 'the price went up' },
      { error: 'Conflict', code: 'LISTING_PRICE_CHANGED', message: 'the price went up', details: { line: 0 } },
    ];
    for (const body of bodies) {
      server.on('purchase', (_req, res) => sendJson(res, 409, body));
      const error = await failure(client.purchase({ items: [{ listing_id: 1, amount: 1, max_price: 100 }] }));
      expect(error, JSON.stringify(body)).toMatchObject({ kind: 'api', code: 'LISTING_PRICE_CHANGED', status: 409, serverMessage: 'the price went up' });
      expect(error.explanation).toContain('raised the price');
    }
    // a code the contract does not know is named, not dropped
    server.on('listing', (_req, res) => sendJson(res, 403, { code: 'ACCOUNT_SUSPENDED', message: 'contact support' }));
    const unknown = await failure(client.listing(5));
    expect(unknown).toMatchObject({ kind: 'api', code: 'ACCOUNT_SUSPENDED', status: 403 });
    expect(unknown.explanation).toContain('ACCOUNT_SUSPENDED');
    // a number or a sentence in `code` is not a code of the spec's (uppercase identifiers)
    server.on('listing', (_req, res) => sendJson(res, 404, { code: 404, message: 'not found' }));
    expect(await failure(client.listing(5))).toMatchObject({ kind: 'api', code: null, status: 404 });
  });

  it('5xx is kind server; a write answered 5xx is not retried', async () => {
    server.on('purchase', (_req, res) => sendError(res, 503, 'INTERNAL_ERROR', 'down for a moment'));
    const error = await failure(client.purchase({ items: [{ listing_id: 1, amount: 1, max_price: 100 }] }));
    expect(error).toMatchObject({ kind: 'server', status: 503, maybeDelivered: true });
    expect(error.outcomeUnknown).toBe(true);
    expect(server.calls('purchase')).toHaveLength(1);
  });

  it('a 429 on a write is not retried', async () => {
    server.on('purchase', (_req, res) => sendError(res, 429, 'RATE_LIMITED', 'slow down', { 'retry-after': '1' }));
    const error = await failure(client.purchase({ items: [{ listing_id: 1, amount: 1, max_price: 100 }] }));
    expect(error).toMatchObject({ kind: 'rate_limited', code: 'RATE_LIMITED', retryAfterMs: 1000 });
    expect(server.calls('purchase')).toHaveLength(1);
  });

  it('a server that never answers is a timeout', async () => {
    const slow = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 150 });
    server.on('user', () => undefined);
    const error = await failure(slow.user());
    expect(error).toMatchObject({ kind: 'timeout', maybeDelivered: true });
  });

  it('a body that keeps arriving is read past the limit, which counts only silences (ManualClock: 16 s)', async () => {
    const clock = new ManualClock();
    const patient = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, clock });
    const text = JSON.stringify({ prices: [], generated_at: TS });
    server.on('pricesAll', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const piece of text.match(/[\s\S]{1,8}/g) as string[]) {
        await clock.advance(2000);
        res.write(piece);
        await new Promise((r) => setTimeout(r, 20));
      }
      res.end();
    });
    expect(await patient.pricesAll()).toEqual({ prices: [], generated_at: TS });
    expect(clock.now() - Date.UTC(2026, 0, 1)).toBeGreaterThan(10_000);
  });

  it('a per-call timeout overrides the client default', async () => {
    server.on('user', () => undefined);
    const error = await failure(client.user({ timeoutMs: 120 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('120 ms');
  });

  it('a dropped connection is a network failure that may have been delivered', async () => {
    server.on('user', (_req, res) => void res.socket?.destroy());
    const error = await failure(client.user());
    expect(error).toMatchObject({ kind: 'network', maybeDelivered: true });
  });

  it('a refused connection is a network failure that was certainly not delivered', async () => {
    const closed = await startFakeServer();
    const url = closed.baseUrl;
    await closed.close();
    const error = await failure(new ApiClient({ baseUrl: url, apiKey: KEY }).user());
    expect(error).toMatchObject({ kind: 'network', maybeDelivered: false });
    expect(error.causeText).toContain('ECONNREFUSED');
  });
});

describe('429 on a GET waits for Retry-After and retries (fake clock)', () => {
  it('retries after exactly the server-given delay, and the governor counts the 429', async () => {
    const clock = new ManualClock();
    const sentAt: number[] = [];
    const fakeFetch: typeof fetch = async () => {
      sentAt.push(clock.now());
      if (sentAt.length === 1) {
        return new Response(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down' } }), {
          status: 429,
          headers: { 'retry-after': '7' },
        });
      }
      return Response.json({ id: 1, steam_id: '765', name: 'me', balance: 0 });
    };
    const fake = new ApiClient({ baseUrl: 'http://market.test', apiKey: KEY, fetch: fakeFetch, clock });
    const user = fake.user();
    for (let i = 0; i < 10; i++) await clock.advance(1000);
    await expect(user).resolves.toMatchObject({ name: 'me' });
    expect(sentAt).toHaveLength(2);
    expect((sentAt[1] as number) - (sentAt[0] as number)).toBeGreaterThanOrEqual(7000);
    const stats = fake.governorStats().endpoints.find((e) => e.key === 'GET /public/v1/user');
    expect(stats).toMatchObject({ rateLimited: 1, sent: 2 });
  });

  it('gives up after rateLimitRetries and throws rate_limited', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const fakeFetch: typeof fetch = async () => {
      calls += 1;
      return new Response('{}', { status: 429, headers: { 'retry-after': '1' } });
    };
    const fake = new ApiClient({ baseUrl: 'http://market.test', apiKey: KEY, fetch: fakeFetch, clock, rateLimitRetries: 2 });
    const result = fake.user().catch((e: unknown) => e);
    for (let i = 0; i < 10; i++) await clock.advance(1000);
    const error = (await result) as ApiError;
    expect(error.kind).toBe('rate_limited');
    expect(calls).toBe(3);
  });

  it('a call with rateLimitRetries 0 fails at its first 429, without waiting (the clock never moves)', async () => {
    let calls = 0;
    const fakeFetch: typeof fetch = async () => {
      calls += 1;
      return new Response('{}', { status: 429, headers: { 'retry-after': '7' } });
    };
    const clock = new ManualClock();
    const fake = new ApiClient({ baseUrl: 'http://market.test', apiKey: KEY, fetch: fakeFetch, clock });
    const result = fake.user({ rateLimitRetries: 0 }).catch((e: unknown) => e);
    // a moment of the still clock: answered by then, or its retry queued for the Retry-After
    await clock.advance(0);
    expect(fake.governorStats().totals.queued).toBe(0);
    const error = (await result) as ApiError;
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000 });
    expect(calls).toBe(1);
    // the governor still honours the Retry-After for the calls that follow
    expect(fake.budgetWaitMs('user')).toBe(7000);
  });
});

describe('X-RateLimit-Reset is read on the server\'s clock (Date header)', () => {
  it.each([
    ['ahead of', -300_000],
    ['behind', 300_000],
  ])('a local clock 5 minutes %s the server waits the 40 s the server means', async (_how, offsetMs) => {
    const serverNow = Date.UTC(2026, 0, 1, 12, 0, 0);
    const clock = new ManualClock(serverNow - offsetMs);
    const fakeFetch: typeof fetch = async () =>
      Response.json(
        { id: 1, steam_id: '765', name: 'me', balance: 0 },
        {
          headers: {
            date: new Date(serverNow).toUTCString(),
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(serverNow / 1000 + 40),
          },
        },
      );
    const fake = new ApiClient({ baseUrl: 'http://market.test', apiKey: KEY, fetch: fakeFetch, clock });
    await fake.user();
    expect(fake.serverTimeOffsetMs()).toBe(offsetMs);
    // not 0 (Remaining: 0 ignored by a clock ahead) nor 5 min 40 s (a clock behind)
    expect(fake.budgetWaitMs('user')).toBe(40_000 + 100); // + the governor's default jitter margin
  });
});

describe("the server's clock is read from a fresh Date, not a cached copy's", () => {
  it('a response served from a cache (Age: 590) is 590 s older than its Date: the offset counts it', async () => {
    const serverNow = Date.UTC(2026, 0, 1, 12, 0, 0);
    const clock = new ManualClock(serverNow);
    // the averages built ten minutes ago and served by a cache since, with the Date of when they were built
    const builtAt = serverNow - 590_000;
    const fakeFetch: typeof fetch = async () =>
      Response.json(
        { averages: [], window_days: 30, generated_at: new Date(builtAt).toISOString() },
        {
          headers: {
            date: new Date(builtAt).toUTCString(),
            age: '590',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(serverNow / 1000 + 20),
          },
        },
      );
    const fake = new ApiClient({ baseUrl: 'http://market.test', apiKey: KEY, fetch: fakeFetch, clock });
    await fake.salesAverages();
    // the clocks agree: not ten minutes apart (webhooks signed now would read as from the future)
    expect(fake.serverTimeOffsetMs()).toBe(0);
    expect(fake.budgetWaitMs('salesAverages')).toBe(20_000 + 100);
  });

  it('an Age that is not a number of seconds is not used', async () => {
    const serverNow = Date.UTC(2026, 0, 1, 12, 0, 0);
    const clock = new ManualClock(serverNow);
    const fakeFetch: typeof fetch = async () =>
      Response.json({ id: 1, steam_id: '765', name: 'me', balance: 0 }, { headers: { date: new Date(serverNow).toUTCString(), age: 'soon' } });
    const fake = new ApiClient({ baseUrl: 'http://market.test', apiKey: KEY, fetch: fakeFetch, clock });
    await fake.user();
    expect(fake.serverTimeOffsetMs()).toBe(0);
  });
});

describe('ETag cache', () => {
  it.each([
    ['pricesAll', { prices: [], generated_at: TS }],
    ['salesAverages', { averages: [], window_days: 30, generated_at: TS }],
  ] as const)('%s sends If-None-Match and answers a 304 with the cached body', async (name, body) => {
    server.on(name, (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' });
        res.end();
      } else sendJson(res, 200, body, { etag: '"v1"' });
    });
    const first = await client.callDetailed(name, { query: { app_id: '730' } });
    const second = await client.callDetailed(name, { query: { app_id: '730' } });
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect(second.data).toEqual(first.data);
    expect(server.calls(name).map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"']);
  });

  it('book: a 304 returns the same snapshot (same seq) flagged fromCache; fresh skips the cache', async () => {
    let version = 1;
    server.on('book', (req, res) => {
      const etag = `"b${version}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        res.end();
        return;
      }
      sendJson(res, 200, `{"seq":${9007199254740993n + BigInt(version)},"listings":[]}`, { etag });
    });
    const a = await client.book();
    const b = await client.book();
    expect(b.fromCache).toBe(true);
    expect(b.snapshot).toBe(a.snapshot);
    expect(b.snapshot.seq).toBe(9007199254740994n);
    const c = await client.book({}, { fresh: true });
    expect(c.fromCache).toBe(false);
    expect(server.calls('book')[2]?.headers['if-none-match']).toBeUndefined();
    version = 2;
    const d = await client.book();
    expect(d).toMatchObject({ fromCache: false, etag: '"b2"' });
    expect(d.snapshot.seq).toBe(9007199254740995n);
  });

  it('caches per query: another app_id is another entry', async () => {
    server.on('pricesAll', (_req, res) => sendJson(res, 200, { prices: [], generated_at: TS }, { etag: '"x"' }));
    await client.pricesAll({ app_id: '730' });
    await client.pricesAll({ app_id: '570' });
    expect(server.calls('pricesAll').map((r) => r.headers['if-none-match'])).toEqual([undefined, undefined]);
  });
});

describe('WebSocket URL discovery', () => {
  it('builds the ws URL from the info route on the REST host', async () => {
    server.on('info', (_req, res) =>
      sendJson(res, 200, { version: '1', websocket: { path: '/public/v1/ws', auth: 'bearer' }, events: [], rest: [] }),
    );
    expect(await client.discoverWsUrl()).toBe(`${server.baseUrl.replace('http:', 'ws:')}/public/v1/ws`);
    await client.discoverWsUrl();
    expect(server.calls('info')).toHaveLength(1);
  });

  it('never takes a feed address that would carry the key in clear beside an https market', async () => {
    let answerPath = '';
    const tlsClient = new ApiClient({ baseUrl: 'https://market.example', apiKey: KEY, fetch: (async () =>
      new Response(JSON.stringify({ version: '1', websocket: { path: answerPath, auth: 'bearer' }, events: [], rest: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })) as typeof fetch });
    answerPath = 'ws://market.example/public/v1/ws';
    await expect(tlsClient.discoverWsUrl()).rejects.toMatchObject({ kind: 'invalid_response', route: 'GET /public/v1' });
    answerPath = 'wss://ws.market.example/public/v1/ws'; // the market's own wss host: fine
    expect(await tlsClient.discoverWsUrl()).toBe('wss://ws.market.example/public/v1/ws');
  });

  it('uses the configured ws URL without asking', async () => {
    const configured = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, wsUrl: 'wss://feed.example/public/v1/ws' });
    expect(await configured.discoverWsUrl()).toBe('wss://feed.example/public/v1/ws');
    expect(server.requests).toHaveLength(0);
  });
});

describe('paging', () => {
  it('offset pages walk page 1..total_pages at background priority', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1, app_id: 730, market_hash_name: 'Case', amount: 1, commodity: true, market_price: 10, trade_locked_until: null,
    }));
    server.on('backpack', (req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      const limit = Number(req.url.searchParams.get('limit'));
      sendJson(res, 200, { items: rows.slice((page - 1) * limit, page * limit), metadata: metadataFor(page, 3, 12, limit) });
    });
    const seen: number[] = [];
    for await (const row of client.rows('backpack', { limit: '5' })) seen.push(row.id);
    expect(seen).toEqual(rows.map((r) => r.id));
    expect(server.calls('backpack').map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2', '3']);
  });

  it('cursor paging of /listings follows next_cursor until null', async () => {
    const full = (id: number) => ({ ...fullListingExample, id });
    server.on('listings', (req, res) => {
      const cursor = req.url.searchParams.get('cursor');
      const pages: Record<string, { ids: number[]; next: number | null }> = {
        none: { ids: [30, 29], next: 29 },
        '29': { ids: [28, 27], next: 27 },
        '27': { ids: [26], next: null },
      };
      const page = pages[cursor ?? 'none'] as { ids: number[]; next: number | null };
      sendJson(res, 200, { listings: page.ids.map(full), next_cursor: page.next, metadata: metadataFor(1, 1, 5, 500) });
    });
    const ids: number[] = [];
    for await (const page of client.listingsByCursor({ limit: '500', app_id: '730' })) ids.push(...page.listings.map((l) => l.id));
    expect(ids).toEqual([30, 29, 28, 27, 26]);
    expect(server.calls('listings').map((r) => r.url.searchParams.get('cursor'))).toEqual([null, '29', '27']);
  });
});

describe('orders/export streams to a file', () => {
  const exportRow = (i: number) => ({
    order_item_id: i, order_id: i, side: 'sold', app_id: 730, market_hash_name: `Sticker | "Quote", comma ${i}`,
    amount: 1, unit_price: 200, total_value: 200, fee: 4, net: 196, created_at: TS, settled_at: null,
  });
  const columns = Object.keys(exportRow(1));
  const csvCell = (v: unknown) => (v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skindesk-export-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes the body in small chunks with pauses, as a real streamed download arrives. */
  function streamBody(chunks: string[], contentType: string) {
    return async (_req: unknown, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': contentType });
      for (const chunk of chunks) {
        res.write(chunk);
        await new Promise((r) => setTimeout(r, 2));
      }
      res.end();
    };
  }

  it('CSV: every row checked, progress reported per chunk, the file written whole', async () => {
    const lines = [columns.join(','), ...Array.from({ length: 300 }, (_, i) => columns.map((c) => csvCell(exportRow(i + 1)[c as keyof ReturnType<typeof exportRow>])).join(','))];
    const text = `${lines.join('\r\n')}\r\n`;
    const chunks = text.match(/[\s\S]{1,997}/g) as string[];
    server.on('ordersExport', streamBody(chunks, 'text/csv'));
    const progress: ExportProgress[] = [];
    const file = join(dir, 'orders.csv');
    const result = await client.exportOrders(file, { format: 'csv', side: 'sold' }, (p) => progress.push(p));
    expect(result).toMatchObject({ rows: 300, bytes: Buffer.byteLength(text), format: 'csv' });
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(progress.length).toBeGreaterThan(5);
    expect(progress.at(-1)?.rows).toBe(300);
    expect(server.calls('ordersExport')[0]?.url.searchParams.get('side')).toBe('sold');
  });

  it('JSON: rows checked one object at a time', async () => {
    const text = JSON.stringify({ orders: Array.from({ length: 50 }, (_, i) => exportRow(i + 1)) }, null, 1);
    server.on('ordersExport', streamBody(text.match(/[\s\S]{1,333}/g) as string[], 'application/json'));
    const file = join(dir, 'orders.json');
    const result = await client.exportOrders(file, { format: 'json' });
    expect(result.rows).toBe(50);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(text));
  });

  it('a row that breaks the contract fails the export and leaves no file', async () => {
    const bad = { ...exportRow(2), unit_price: -5 };
    const text = JSON.stringify({ orders: [exportRow(1), bad] });
    server.on('ordersExport', streamBody([text], 'application/json'));
    const file = join(dir, 'bad.json');
    const error = await failure(client.exportOrders(file, { format: 'json' }));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('row 2');
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a truncated download fails and leaves no file', async () => {
    server.on('ordersExport', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"orders":[');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const error = await failure(client.exportOrders(join(dir, 'cut.json'), { format: 'json' }));
    expect(['network', 'invalid_response']).toContain(error.kind);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the API key never appears in an error', () => {
  it('not in message, stack, JSON or details — whatever the failure', async () => {
    server.on('listing', (_req, res) => sendError(res, 404, 'LISTING_NOT_FOUND', `no listing for key ${KEY} (Bearer ${KEY})`));
    server.on('user', (_req, res) => sendJson(res, 200, { id: 1, steam_id: KEY, name: KEY, balance: 'x' }));
    server.on('purchase', (_req, res) => sendJson(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'boom', details: { header: `Bearer ${KEY}`, key: encodeURIComponent(KEY) } } }));
    server.on('orders', (_req, res) => void res.socket?.destroy());
    server.on('trades', () => undefined);
    const slow = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 100 });
    const errors = [
      await failure(client.listing(9)),
      await failure(client.user()),
      await failure(client.purchase({ items: [{ listing_id: 1, amount: 1, max_price: 1 }] })),
      await failure(client.orders({ page: '1', limit: '5' })),
      await failure(slow.trades({ page: '1', limit: '500' })),
      await failure(client.prices({ page: '0', limit: '5' })),
      await failure(new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY }).user()),
    ];
    expect(errors.map((e) => e.kind)).toEqual(['api', 'invalid_response', 'server', 'network', 'timeout', 'invalid_request', 'network']);
    for (const error of errors) {
      const everything = [error.message, error.stack ?? '', JSON.stringify(error), String(error), error.explanation].join('\n');
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain(encodeURIComponent(KEY));
    }
  });

  it('a key that could not be sent as a header is refused without quoting it', () => {
    const bad = 'secret-with\nnewline';
    let message = '';
    try {
      new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: bad });
    } catch (err) {
      message = `${(err as Error).message}\n${(err as Error).stack ?? ''}`;
    }
    expect(message).toContain('API key');
    expect(message).not.toContain('secret-with');
  });
});

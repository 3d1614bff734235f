/**
 * Every ApiError explains itself in plain words a trader understands, by the kind of failure, also when
 * the marketplace's refusal has no code the contract explains; the technical detail stays in `message`.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { ERROR_EXPLANATIONS } from '../../../src/shared/api/index.ts';
import { failure, sendJson, serverAndClientForEachTest, TEST_KEY as KEY, type FakeServer } from './fake-server.ts';

let server: FakeServer;
let client: ApiClient;
serverAndClientForEachTest((made) => {
  ({ server, client } = made);
});

const raw =
  (status: number, body: string, type = 'text/plain') =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

/** Words for people name no route, no HTTP status and no stack of technical labels. */
function expectPlain(words: string): void {
  expect(words).not.toMatch(/\/public\/v1|HTTP \d|^(GET|POST|PATCH|DELETE) /);
  expect(words).toMatch(/^[A-Z].*\.$/);
}

describe('ApiError.explanation: plain words for every kind of failure', () => {
  it('a 404 without a body: not found', async () => {
    server.on('user', raw(404, ''));
    const error = await failure(client.user());
    expect(error.message).toBe('GET /public/v1/user: HTTP 404');
    expect(error.explanation).toBe(
      'The marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong).',
    );
    expectPlain(error.explanation);
  });

  it('a 401 and a 403 without a code: the key refused', async () => {
    server.on('user', raw(401, ''));
    const unauthorized = await failure(client.user());
    expect(unauthorized.explanation).toBe(
      'The marketplace refused the API key: it is missing, wrong or revoked.',
    );
    server.on('user', raw(403, '<html>Forbidden</html>', 'text/html'));
    const forbidden = await failure(client.user());
    expect(forbidden.explanation).toBe('The marketplace refused the API key: it is not allowed to do this.');
  });

  it('a codeless 409: a conflict', async () => {
    server.on('user', raw(409, ''));
    const error = await failure(client.user());
    expect(error.explanation).toBe(
      'The marketplace refused: something changed in the meantime; refresh and try again.',
    );
  });

  it('a codeless 400 and another 4xx: refused', async () => {
    server.on('user', (_req, res) => sendJson(res, 400, {}));
    expect((await failure(client.user())).explanation).toBe(
      'The marketplace refused the request as not valid.',
    );
    server.on('user', raw(410, ''));
    expect((await failure(client.user())).explanation).toBe('The marketplace refused the request.');
  });

  it('a 500 with an HTML page, and a 503: the marketplace failing', async () => {
    server.on('user', raw(500, '<html><body>Internal Server Error</body></html>', 'text/html'));
    const error = await failure(client.user());
    expect(error.kind).toBe('server');
    expect(error.message).toBe('GET /public/v1/user: HTTP 500');
    expect(error.explanation).toBe('The marketplace is failing on its side (a server error).');
    server.on('user', raw(503, ''));
    expect((await failure(client.user())).explanation).toBe(
      'The marketplace is failing on its side (a server error).',
    );
  });

  it('a 429 without a code: refused, nothing done', async () => {
    const slow = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, rateLimitRetries: 0 });
    server.on('user', raw(429, '', 'text/plain'));
    const error = await failure(slow.user());
    expect(error.explanation).toBe(ERROR_EXPLANATIONS.RATE_LIMITED);
    expect(error.explanation).toBe('The marketplace refused the request: too many in a short time. Nothing was done; try again shortly.');
  });

  it('a write answered 429 is not sent again, and the words say so, with the wait the marketplace gave', async () => {
    let sends = 0;
    server.on('delist', (_req, res) => {
      sends++;
      sendJson(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '12' });
    });
    const error = await failure(client.call('delist', { body: { listing_id: 5 } } as never));
    expect(sends).toBe(1);
    expect(error.kind).toBe('rate_limited');
    expect(error.explanation).toBe('The marketplace refused the request: too many in a short time. Nothing was done; try again in 12 s.');
    expectPlain(error.explanation);
  });

  it('a code the contract does not know: refused with that code, and the marketplace’s own words', async () => {
    server.on('user', (_req, res) =>
      sendJson(res, 400, { error: { code: 'ITEM_IN_TRADE_HOLD', message: 'items locked' } }),
    );
    const error = await failure(client.user());
    expect(error.message).toBe('GET /public/v1/user: ITEM_IN_TRADE_HOLD (HTTP 400) — items locked');
    expect(error.explanation).toBe(
      'The marketplace refused the request with the code ITEM_IN_TRADE_HOLD (“items locked”).',
    );
    expectPlain(error.explanation);
  });

  it('a code the contract knows: its own explanation, as before', async () => {
    server.on('user', (_req, res) => sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'x' } }));
    expect((await failure(client.user())).explanation).toBe(ERROR_EXPLANATIONS.NOT_FOUND);
  });

  it('a malformed answer: something this app does not understand', async () => {
    server.on('user', raw(200, 'not json', 'application/json'));
    const error = await failure(client.user());
    expect(error.kind).toBe('invalid_response');
    expect(error.explanation).toBe('The marketplace answered with something Skindesk does not understand.');
  });

  it('a network failure and a timeout: the marketplace unreachable or silent', async () => {
    const down = await failure(new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY }).user());
    expect(down.kind).toBe('network');
    expect(down.explanation).toBe('The marketplace could not be reached.');
    server.on('user', () => undefined);
    const slow = await failure(
      new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 100 }).user(),
    );
    expect(slow.kind).toBe('timeout');
    expect(slow.explanation).toBe('The marketplace did not answer in time.');
  });

  it('a request Skindesk refused to send: its own reason, without the request line', async () => {
    const keyless = new ApiClient({ baseUrl: server.baseUrl, apiKey: null });
    const error = await failure(keyless.user());
    expect(error.kind).toBe('invalid_request');
    expect(error.explanation).toBe(
      'Skindesk did not send the request: no API key is set (SKINDESK_API_KEY or the keychain).',
    );
    expectPlain(error.explanation);
  });

  it('an error built without a status or code still reads as a refusal, never as its message', () => {
    const error = new ApiError({
      kind: 'api',
      route: 'POST /public/v1/withdraw',
      message: 'POST /public/v1/withdraw: HTTP 400',
    });
    expect(error.explanation).toBe('The marketplace refused the request.');
  });

  it('never quotes the API key, also through the marketplace’s own words', async () => {
    server.on('user', (_req, res) =>
      sendJson(res, 400, { error: { code: 'KEY_ODD', message: `bad key ${KEY} (Bearer ${KEY})` } }),
    );
    const error = await failure(client.user());
    expect(error.explanation).toContain('KEY_ODD');
    expect(error.explanation).not.toContain(KEY);
  });
});

describe('ApiError.redacted', () => {
  it('takes a secret out of every text, and keeps everything else, its own plain words included', () => {
    const SECRET = '824193';
    const error = new ApiError({
      kind: 'api',
      route: 'POST /public/v1/crypto-withdraw',
      status: 403,
      code: 'TWO_FACTOR_REQUIRED',
      message: `POST /public/v1/crypto-withdraw: code ${SECRET} refused`,
      serverMessage: `bad token ${SECRET}`,
      retryAfterMs: 7_000,
      details: { sent: { two_factor_auth_token: SECRET }, n: 1 },
      maybeDelivered: false,
      causeText: `echo ${SECRET}`,
      explanation: `The code ${SECRET} was refused.`,
    });
    const clean = error.redacted([SECRET]);
    expect(JSON.stringify(clean)).not.toContain(SECRET);
    expect(clean.explanation).toBe('The code [redacted] was refused.');
    expect(clean).toMatchObject({ kind: 'api', route: error.route, status: 403, code: 'TWO_FACTOR_REQUIRED', retryAfterMs: 7_000, maybeDelivered: false });
    expect(clean.details).toEqual({ sent: { two_factor_auth_token: '[redacted]' }, n: 1 });
  });
});

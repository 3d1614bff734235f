/**
 * Cross-cutting HTTP rules: the info route, 401 on every authenticated route, unknown routes, request
 * validation, and the rate limits of spec part 8 (per key and endpoint, per IP without a key, the
 * X-RateLimit-* headers, 429 with Retry-After).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENDPOINTS, ENDPOINT_NAMES, LISTING_EVENT_NAMES, WS_PATH, buildPath, type EndpointName } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, expectError, expectOk, parseAs, startTestMarket } from './helpers.ts';

let market: DemoMarket;
beforeAll(async () => {
  market = await startTestMarket({ rateLimits: true });
});
afterAll(() => market.close());

/** A trader key that no other test in this file uses, so each rate-limit test starts from a full window. */
let nextTrader = 2;
const freshKey = () => market.accounts[nextTrader++]!.apiKey;

describe('info route', () => {
  it('answers without a key with version, websocket path and auth, events and routes', async () => {
    const res = await api(market, null).get('/public/v1');
    const info = parseAs(ENDPOINTS.info.response, expectOk(res));
    expect(info.websocket.path).toBe(WS_PATH);
    expect(info.websocket.auth).toMatch(/Bearer/);
    expect(info.events).toEqual([...LISTING_EVENT_NAMES]);
    for (const name of ENDPOINT_NAMES) expect(info.rest).toContain(`${ENDPOINTS[name].method} ${ENDPOINTS[name].path}`);
  });
});

describe('authentication', () => {
  const authed = ENDPOINT_NAMES.filter((n) => ENDPOINTS[n].auth);
  const pathOf = (name: EndpointName) => (ENDPOINTS[name].path.includes(':id') ? buildPath(name, { id: 1 }) : ENDPOINTS[name].path);

  it('answers 401 UNAUTHORIZED on every route but info without a key', async () => {
    expect(authed.length).toBe(ENDPOINT_NAMES.length - 1);
    for (const name of authed) {
      const res = await api(market, null).call(ENDPOINTS[name].method, pathOf(name), ENDPOINTS[name].body ? { body: {} } : {});
      expectError(res, 'UNAUTHORIZED', 401);
    }
  });

  it('answers 401 for a wrong key, and accepts the demo user and the traders', async () => {
    expectError(await api(market, 'demo_not_a_key').get('/public/v1/user'), 'UNAUTHORIZED', 401);
    for (const account of market.accounts.slice(0, 2)) {
      const user = parseAs(ENDPOINTS.user.response, expectOk(await api(market, account.apiKey).get('/public/v1/user')));
      expect(user.id).toBe(account.id);
    }
  });

  it('stops accepting a key once it is rerolled', async () => {
    const last = market.accounts[market.accounts.length - 1]!;
    const fresh = market.rerollApiKey(last.id);
    expectError(await api(market, last.apiKey).get('/public/v1/user'), 'UNAUTHORIZED', 401);
    expectOk(await api(market, fresh).get('/public/v1/user'));
    expect(market.accounts.at(-1)!.webhookSecret).toMatch(/^whsec_/);
  });
});

describe('routing and validation', () => {
  it('answers 404 NOT_FOUND for unknown routes, wrong methods and the WebSocket path over plain HTTP', async () => {
    expectError(await api(market).get('/public/v1/nope'), 'NOT_FOUND', 404);
    expectError(await api(market).call('DELETE', '/public/v1/user'), 'NOT_FOUND', 404);
    expectError(await api(market).get('/public/v1/listings/abc'), 'NOT_FOUND', 404);
    expectError(await api(market).get(WS_PATH), 'NOT_FOUND', 404);
  });

  it('rejects bodies that are not JSON, missing, or carry unknown fields (400 VALIDATION_ERROR with issues)', async () => {
    const a = api(market);
    expectError(await a.call('POST', '/public/v1/purchase', { rawBody: '{nope' }), 'VALIDATION_ERROR', 400);
    expectError(await a.call('POST', '/public/v1/purchase', { rawBody: '' }), 'VALIDATION_ERROR', 400);
    const error = expectError(await a.post('/public/v1/purchase', { items: [{ listing_id: 1, amount: 1, max_price: 1, tip: 5 }] }), 'VALIDATION_ERROR', 400);
    expect(error.details?.issues).toBeInstanceOf(Array);
  });

  it('takes request bodies only as application/json (spec §1.5): another or no Content-Type is a 400', async () => {
    const a = api(market);
    const body = JSON.stringify({ items: [{ listing_id: 1, amount: 1, max_price: 1 }] });
    const wrong: Record<string, string>[] = [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }];
    for (const headers of wrong) {
      const error = expectError(await a.call('POST', '/public/v1/purchase', { rawBody: body, headers }), 'VALIDATION_ERROR', 400);
      expect(error.message).toMatch(/application\/json/);
    }
    expectError(await a.call('PATCH', '/public/v1/list', { rawBody: JSON.stringify({ listing_id: 1, price: 5 }), headers: { 'content-type': 'text/plain' } }), 'VALIDATION_ERROR', 400);
    // parameters and letter case do not matter: the route answers (the listing does not exist)
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      expectError(await a.call('POST', '/public/v1/purchase', { rawBody: body, headers: { 'content-type': type } }), 'LISTING_NOT_FOUND', 404);
    }
  });

  it('takes each query parameter once (spec §1.6: a parameter is a string): a repeated one is a 400', async () => {
    const get = (qs: string) => fetch(`${market.baseUrl}/public/v1/prices?${qs}`, { headers: { authorization: `Bearer ${market.apiKey}` } });
    for (const qs of ['page=1&limit=abc&limit=5', 'page=1&limit=5&limit=5', 'page=1&limit=5&app_id=730&app_id=570']) {
      const res = await get(qs);
      expect(res.status, qs).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    expect((await get('page=1&limit=5&app_id=730')).status).toBe(200);
  });

  it('checks integer query filters against ^[1-9]\\d*$', async () => {
    const a = api(market);
    for (const bad of ['0', '01', '-1', '1.5', 'abc', ' 7']) {
      expectError(await a.get('/public/v1/backpack', { page: bad, limit: 5 }), 'VALIDATION_ERROR', 400);
    }
    expectError(await a.get('/public/v1/backpack', { page: 1, limit: 5, app_id: 999 }), 'VALIDATION_ERROR', 400);
    expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 5, app_id: 730 }));
  });
});

describe('rate limits', () => {
  it('sends X-RateLimit-Limit/Remaining/Reset with the limit of part 8 on every limited route', async () => {
    const a = api(market, freshKey());
    const checks: [string, Record<string, string | number> | undefined, EndpointName][] = [
      ['/public/v1/user', undefined, 'user'],
      ['/public/v1/prices', { page: 1, limit: 5 }, 'prices'],
      ['/public/v1/orders', { page: 1, limit: 5 }, 'orders'],
      ['/public/v1/my-listings/value', undefined, 'myListingsValue'],
      ['/public/v1/sales', undefined, 'sales'],
    ];
    for (const [path, query, name] of checks) {
      const before = Math.floor(Date.now() / 1000);
      const res = await a.get(path, query);
      expectOk(res);
      expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(ENDPOINTS[name].rateLimit!.limit);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(ENDPOINTS[name].rateLimit!.limit - 1);
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(before);
      expect(reset).toBeLessThanOrEqual(before + ENDPOINTS[name].rateLimit!.windowMs / 1000 + 1);
    }
  });

  it('answers 429 RATE_LIMITED with Retry-After past the limit, counting per key and endpoint', async () => {
    const key = freshKey();
    const a = api(market, key);
    expectOk(await a.get('/public/v1/listings', { limit: 500 }));
    const limited = await a.get('/public/v1/listings', { limit: 500 });
    expectError(limited, 'RATE_LIMITED', 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // another endpoint of the same key, and the same endpoint of another key, are counted separately
    expectOk(await a.get('/public/v1/user'));
    expectOk(await api(market, freshKey()).get('/public/v1/listings', { limit: 500 }));
  });

  it("names one moment in a 429's Retry-After and X-RateLimit-Reset: a client that waits until Reset is not early", async () => {
    // a key of its own (the traders' keys are few), its account's audit read as a difference
    const account = market.accounts[1]!;
    const a = api(market, market.rerollApiKey(account.id));
    const audited = market.rateAudit(account.id);
    // the clock set so the window opens late in a second and the refusal comes late in the next one:
    // the wait to the window's end (59.1 s) rounds up to 60 s, past the window's end rounded up
    const second = Math.floor(Date.now() / 1000) + 10;
    vi.useFakeTimers({ toFake: ['Date'], now: second * 1000 + 950 });
    try {
      for (let i = 0; i < 6; i++) expectOk(await a.get('/public/v1/book'));
      vi.setSystemTime(second * 1000 + 1_850);
      const limited = await a.get('/public/v1/book');
      expectError(limited, 'RATE_LIMITED', 429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      const reset = Number(limited.headers.get('x-ratelimit-reset'));
      expect(retryAfter).toBe(60);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      // Reset is the first whole second at or after the Retry-After's end, not a second before it
      expect(reset * 1000).toBeGreaterThanOrEqual(second * 1000 + 1_850 + retryAfter * 1000);
      expect(reset * 1000).toBeLessThan(second * 1000 + 1_850 + retryAfter * 1000 + 1000);
      // the client that waits until Reset comes back once the window has reset, and is not early
      vi.setSystemTime(reset * 1000);
      expectOk(await a.get('/public/v1/book'));
      expect(market.rateAudit(account.id)).toMatchObject({ refused: audited.refused + 1, earlyRetries: audited.earlyRetries });
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts per API key, not per account: a rerolled key starts with a full window (part 8)', async () => {
    // the first trader: freshKey() starts after it, so its window is untouched
    const account = market.accounts[1]!;
    expectOk(await api(market, account.apiKey).get('/public/v1/listings', { limit: 500 }));
    expectError(await api(market, account.apiKey).get('/public/v1/listings', { limit: 500 }), 'RATE_LIMITED', 429);
    const rerolled = market.rerollApiKey(account.id);
    const res = await api(market, rerolled).get('/public/v1/listings', { limit: 500 });
    expectOk(res);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts a key down to zero: book allows 6 per minute', async () => {
    const a = api(market, freshKey());
    const remaining: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await a.get('/public/v1/book');
      expectOk(res);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    expectError(await a.get('/public/v1/book'), 'RATE_LIMITED', 429);
  });

  it('limits requests without a valid key by IP, before answering 401', async () => {
    const anonymous = api(market, null);
    const first = await anonymous.get('/public/v1/book');
    expectError(first, 'UNAUTHORIZED', 401);
    const left = Number(first.headers.get('x-ratelimit-remaining'));
    for (let i = 0; i < left; i++) expectError(await anonymous.get('/public/v1/book'), 'UNAUTHORIZED', 401);
    // a wrong key is no key: the same per-IP window
    const limited = await api(market, 'demo_wrong').get('/public/v1/book');
    expectError(limited, 'RATE_LIMITED', 429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('limits the info route at 60 per minute per IP', async () => {
    const anonymous = api(market, null);
    const first = await anonymous.get('/public/v1');
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    const left = Number(first.headers.get('x-ratelimit-remaining'));
    // a key does not authenticate a route that takes none: the same per-IP window
    const keyed = await api(market).get('/public/v1');
    expect(Number(keyed.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
    for (let i = 1; i < left; i++) expectOk(await anonymous.get('/public/v1'));
    expectError(await anonymous.get('/public/v1'), 'RATE_LIMITED', 429);
  });

  it('does not limit POST withdraw', async () => {
    const res = await api(market, freshKey()).post('/public/v1/withdraw', { items: [{ id: 1, amount: 1 }] });
    expectError(res, 'BACKPACK_ITEM_NOT_FOUND', 404);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

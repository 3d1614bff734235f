import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ENDPOINTS,
  ERROR_STATUS,
  LIMITS,
  LISTING_EVENT_NAMES,
  SPEC_ERROR_CODES,
  WS_CLOSE,
  WS_PATH,
  webhookHeaderNames,
} from '../../../src/shared/api/index.ts';

// The spec lives beside the repository (../shared/spec), as it does in CI's fresh clone.
const specPath = fileURLToPath(new URL('../../../../shared/spec/marketplace-api.md', import.meta.url));

describe('the contract covers the spec', () => {
  it('the spec file is present beside the checkout', () => {
    expect(existsSync(specPath), specPath).toBe(true);
  });
  const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';
  const routeHeadings = [...spec.matchAll(/\*\*(GET|POST|PATCH|PUT|DELETE) (\/public\/v1[^*\s]*)\*\*/g)].map(
    (m) => ({ method: m[1]!, path: m[2]!.replace(/\{id\}/, ':id') }),
  );
  it('finds the routes of part 4 in the spec', () => {
    expect(routeHeadings.length).toBeGreaterThanOrEqual(25);
  });
  it('every route of part 4 is an endpoint of the contract', () => {
    const known = new Set(Object.values(ENDPOINTS).map((e) => `${e.method} ${e.path}`));
    known.add(`GET ${WS_PATH}`);
    const missing = routeHeadings.map((r) => `${r.method} ${r.path}`).filter((r) => !known.has(r));
    expect(missing).toEqual([]);
    expect(spec).toContain('`GET /public/v1`');
    expect(known.has('GET /public/v1')).toBe(true);
  });
  it('every event of §6.1 and every code of part 7 is in the contract', () => {
    for (const name of LISTING_EVENT_NAMES) expect(spec).toContain(name);
    const part7 = spec.slice(spec.indexOf('## 7. Errors'), spec.indexOf('## 8. Limits'));
    const specCodes = [...part7.matchAll(/^\| ([A-Z_]{6,}) \|/gm)].map((m) => m[1]!);
    expect(specCodes.length).toBeGreaterThanOrEqual(8);
    for (const code of specCodes) {
      expect(SPEC_ERROR_CODES).toContain(code);
      expect(ERROR_STATUS).toHaveProperty(code);
    }
  });
});

describe('the contract agrees with the spec, route by route', () => {
  const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';
  const part8 = spec.slice(spec.indexOf('## 8. Limits'), spec.indexOf('## 9. Versioning'));
  const rows = [...part8.matchAll(/^\| (GET|POST|PATCH) ([a-z/:-]+) \| ([^|]+) \|$/gm)].map((m) => ({
    route: `${m[1]} /public/v1/${m[2]}`,
    limit: m[3]!.trim(),
  }));
  const expected = (text: string) => {
    if (text === 'not limited') return null;
    const m = /^(\d+) per (minute|second|(\d+) seconds)$/.exec(text);
    if (!m) throw new Error(`unread limit: ${text}`);
    const windowMs = m[2] === 'minute' ? 60_000 : m[2] === 'second' ? 1_000 : Number(m[3]) * 1_000;
    return { limit: Number(m[1]), windowMs };
  };
  const byRoute = new Map(Object.values(ENDPOINTS).map((e) => [`${e.method} ${e.path}`, e]));

  it('every row of part 8 is the rate limit of its endpoint', () => {
    expect(rows.length).toBeGreaterThanOrEqual(24);
    for (const row of rows) {
      const e = byRoute.get(row.route);
      expect(e, row.route).toBeDefined();
      expect(e!.rateLimit, row.route).toEqual(expected(row.limit));
    }
  });

  it('allowed `limit` values and required `page`/`limit` per route (part 4)', () => {
    const ordinary = ['5', '10', '25', '30', '50', '100'];
    const bulk = ['500', '1000'];
    const routes = [
      { name: 'listings', limits: bulk, pageRequired: false },
      { name: 'trades', limits: bulk, pageRequired: true },
      { name: 'prices', limits: ordinary, pageRequired: true },
      { name: 'backpack', limits: ordinary, pageRequired: true },
      { name: 'myListings', limits: ordinary, pageRequired: true },
      { name: 'orders', limits: ordinary, pageRequired: true },
    ] as const;
    for (const { name, limits, pageRequired } of routes) {
      const q = ENDPOINTS[name].query;
      for (const limit of [...ordinary, ...bulk, '20', '0', '05']) {
        expect(q.safeParse({ page: '1', limit }).success, `${name} limit ${limit}`).toBe((limits as readonly string[]).includes(limit));
      }
      expect(q.safeParse({ page: '1' }).success, `${name} without limit`).toBe(false);
      expect(q.safeParse({ limit: limits[0] }).success, `${name} without page`).toBe(!pageRequired);
      for (const page of ['0', '01', '-1', '1.5', ' 1', '']) {
        expect(q.safeParse({ page, limit: limits[0] }).success, `${name} page ${JSON.stringify(page)}`).toBe(false);
      }
    }
    expect(ENDPOINTS.steamInventory.query.safeParse({}).success).toBe(false);
    expect(ENDPOINTS.steamInventory.query.safeParse({ app_id: '440' }).success).toBe(true);
    for (const name of ['pricesAll', 'book', 'salesAverages', 'myListingsValue'] as const) {
      expect(ENDPOINTS[name].query.safeParse({}).success, name).toBe(true);
      expect(ENDPOINTS[name].query.safeParse({ app_id: '0730' }).success, name).toBe(false);
    }
  });

  it('the statuses part 7 gives, the close codes, the webhook headers and the constants of part 8', () => {
    expect(ERROR_STATUS.RATE_LIMITED).toBe(429);
    expect(ERROR_STATUS.LISTING_NOT_FOUND).toBe(404);
    expect(ERROR_STATUS.WITHDRAWAL_BELOW_MINIMUM).toBe(400);
    expect(WS_CLOSE).toEqual({ unauthorized: 4401, tooManyConnections: 4429 });
    expect(WS_PATH).toBe('/public/v1/ws');
    expect(Object.values(webhookHeaderNames())).toEqual([
      'X-Service-Event',
      'X-Service-Delivery',
      'X-Service-Timestamp',
      'X-Service-Signature',
      'X-Service-Attempt',
    ]);
    expect(LIMITS).toMatchObject({
      groupsPerBody: 50,
      entriesPerGroup: 50,
      bulkEditOrDelist: 50,
      copiesPerGameOffer: 500,
      tradesInFlight: 15,
      decayMinHours: 24,
      decayMaxHours: 168,
      inventoryTokenLifetimeMs: 30 * 60_000,
      backpackSearchMin: 1,
      backpackSearchMax: 200,
      websocketConnectionsPerUser: 3,
      pricesAllCacheMs: 60_000,
      bookCacheMs: 10_000,
      averagesCacheMs: 10 * 60_000,
      averagesWindowDays: 30,
      webhookTimeoutMs: 10_000,
      webhookAttempts: 6,
      webhookInitialBackoffMs: 5_000,
      webhookFailuresBeforeRemoval: 20,
    });
    expect(Object.entries(ENDPOINTS).filter(([, e]) => e.etag).map(([n]) => n).sort()).toEqual(['book', 'pricesAll', 'salesAverages']);
    expect(Object.entries(ENDPOINTS).filter(([, e]) => !e.auth).map(([n]) => n)).toEqual(['info']);
  });
});

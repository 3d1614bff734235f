import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type AccountApi, AccountReads, cacheKey } from '../../../src/core/account/account-reads.ts';
import { inventoryValue, PortfolioHistory, portfolioTotal } from '../../../src/core/account/portfolio.ts';
import { isTokenExpired, tokenExpiresAt, tokenRemainingMs } from '../../../src/core/account/inventory-tokens.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import type { EndpointName } from '../../../src/shared/api/index.ts';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

const responses: Partial<Record<EndpointName, unknown>> = {
  user: { id: 1, steam_id: '76561198000000001', name: 'trader', balance: 12_345 },
  myListingsValue: { listing_count: 2, item_count: 7, total_value: 9_000 },
  steamInventory: {
    items: [
      { token: 'tok-a', app_id: 730, steam_asset_id: '1', market_hash_name: 'Revolution Case', amount: 3, commodity: true, tradable: true, market_price: 50, recommended_price: 48, icon_url: 'x' },
      { token: 'tok-b', app_id: 730, steam_asset_id: '2', market_hash_name: 'AK-47 | Redline (Field-Tested)', amount: 1, commodity: false, tradable: false, market_price: 1_250, recommended_price: 1_200, icon_url: 'y' },
    ],
  },
  backpack: { items: [], metadata: { total_pages: 0, total_items: 0, current_page: 1, current_limit: 25 } },
};

/** Answers from `responses`; `fail` makes the next calls throw. */
class FakeApi implements AccountApi {
  readonly calls: string[] = [];
  fail: Error | null = null;
  async call<N extends EndpointName>(name: N, input?: { query?: unknown }) {
    this.calls.push(cacheKey(name, input?.query as Record<string, string> | undefined));
    if (this.fail) throw this.fail;
    const body = responses[name];
    if (body === undefined) throw new Error(`no fake response for ${name}`);
    return structuredClone(body) as never;
  }
}

const offline = () => new ApiError({ kind: 'network', route: 'GET /public/v1/user', message: 'network failure (ECONNREFUSED)' });

function setup() {
  let now = T0;
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  const api = new FakeApi();
  const db = new Database(':memory:');
  const reads = new AccountReads({ api, db, clock });
  return { api, db, reads, clock };
}

describe('AccountReads', () => {
  it('type-checks against the real REST client', () => {
    const api: AccountApi = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    expect(typeof api.call).toBe('function');
  });

  it('stores every read so the screen opens offline with the last answer', async () => {
    const { api, reads, clock } = setup();
    expect(reads.cached('user')).toBeNull();
    const fresh = await reads.user();
    expect(fresh).toMatchObject({ fromCache: false, fetchedAt: T0, refreshError: null, data: { balance: 12_345 } });

    clock.advance(5 * MIN);
    api.fail = offline();
    const fallback = await reads.user();
    expect(fallback).toMatchObject({ fromCache: true, fetchedAt: T0, data: { balance: 12_345 } });
    expect(fallback.refreshError?.message).toContain('ECONNREFUSED');
    expect(reads.cached('user')?.data.name).toBe('trader');
  });

  it('throws when there is nothing stored, and on refusals even when something is', async () => {
    const { api, reads } = setup();
    api.fail = offline();
    await expect(reads.listingsValue()).rejects.toThrow(/ECONNREFUSED/);
    api.fail = null;
    await reads.listingsValue();
    api.fail = new ApiError({ kind: 'api', route: 'GET /public/v1/my-listings/value', message: 'UNAUTHORIZED (HTTP 401)', code: 'UNAUTHORIZED', status: 401 });
    await expect(reads.listingsValue()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('keys pages by their query, whatever the field order', async () => {
    const { api, reads } = setup();
    await reads.backpack({ page: '2', limit: '25', search: 'case' });
    await reads.backpack({ search: 'case', limit: '25', page: '2' }, { maxAgeMs: MIN });
    expect(api.calls).toEqual(['backpack?limit=25&page=2&search=case']);
    expect(reads.cached('backpack', { page: '1', limit: '25' })).toBeNull();
  });

  it('serves the inventory from SQLite while its tokens are good, and reads again once they expire', async () => {
    const { api, reads, clock } = setup();
    const first = await reads.inventory(730);
    expect(first).toMatchObject({ appId: 730, fromCache: false, tokensExpireAt: T0 + 30 * MIN });
    expect(first.data.map((r) => [r.item.token, r.fetchedAt])).toEqual([['tok-a', T0], ['tok-b', T0]]);

    clock.advance(20 * MIN);
    const second = await reads.inventory(730);
    expect(second.fromCache).toBe(true);
    expect(reads.inventoryExpired(second)).toBe(false);
    expect(api.calls).toHaveLength(1);

    clock.advance(9.5 * MIN); // within the one-minute margin of expiry
    expect(reads.inventoryExpired(second)).toBe(true);
    const third = await reads.inventory(730);
    expect(third).toMatchObject({ fromCache: false, fetchedAt: T0 + 29.5 * MIN });
    expect(api.calls).toHaveLength(2);
    expect(reads.cachedInventory(730)?.fetchedAt).toBe(T0 + 29.5 * MIN);
    expect(reads.cachedInventory(570)).toBeNull();
  });

  it('serves no stored answer as fresh once a move made here outdated it, even one whose request was out then', async () => {
    const { api, reads, clock } = setup();
    const page = { page: '1', limit: '100' } as const;
    await reads.backpack(page, { maxAgeMs: MIN });
    clock.advance(1_000);
    reads.invalidate('backpack', 'myListingsValue');
    expect(reads.outdated('backpack', T0)).toBe(true);
    clock.advance(1_000);
    // inside the minute, yet read again: the stored page predates the move
    const after = await reads.backpack(page, { maxAgeMs: MIN });
    expect(after.fromCache).toBe(false);
    expect(reads.outdated('backpack', after.fetchedAt)).toBe(false);
    expect(api.calls).toEqual(['backpack?limit=100&page=1', 'backpack?limit=100&page=1']);

    // a read sent before a move and answered after it may lack the move: it is not served as fresh either
    const call = api.call.bind(api);
    api.call = (async (name: EndpointName, input?: { query?: unknown }) => {
      clock.advance(500);
      reads.invalidate('backpack');
      clock.advance(500);
      return call(name, input);
    }) as typeof api.call;
    const spanning = await reads.backpack(page);
    expect(reads.outdated('backpack', spanning.fetchedAt)).toBe(true);
    api.call = call;
    expect((await reads.backpack(page, { maxAgeMs: MIN })).fromCache).toBe(false);
    // a route no move touched keeps its stored answers
    expect(reads.outdated('user', T0)).toBe(false);
  });

  it('ignores a stored body the contract no longer accepts', async () => {
    const { db, reads } = setup();
    await reads.user();
    db.prepare("UPDATE account_cache SET body = '{\"id\":\"not a number\"}'").run();
    expect(reads.cached('user')).toBeNull();
  });
});

describe('inventory tokens', () => {
  it('live 30 minutes from the read', () => {
    expect(tokenExpiresAt(T0)).toBe(T0 + 30 * MIN);
    expect(tokenRemainingMs(T0, T0 + 10 * MIN)).toBe(20 * MIN);
    expect(tokenRemainingMs(T0, T0 + 40 * MIN)).toBe(0);
    expect(isTokenExpired(T0, T0 + 28 * MIN)).toBe(false);
    expect(isTokenExpired(T0, T0 + 29 * MIN)).toBe(true); // the default one-minute margin
    expect(isTokenExpired(T0, T0 + 29 * MIN, 0)).toBe(false);
    expect(isTokenExpired(T0, T0 + 30 * MIN, 0)).toBe(true);
  });
});

describe('PortfolioHistory', () => {
  it('records points over time, skipping unchanged repeats within the interval', () => {
    const history = new PortfolioHistory({ db: new Database(':memory:'), minIntervalMs: 15 * MIN });
    const p = { balance: 100, listedValue: 200, inventoryValue: inventoryValue([{ market_price: 50, amount: 3 }, { market_price: 1_250, amount: 1 }]) };
    expect(p.inventoryValue).toBe(1_400);
    expect(portfolioTotal(p)).toBe(1_700);
    expect(history.record({ at: T0, ...p })).toBe(true);
    expect(history.record({ at: T0 + MIN, ...p })).toBe(false);
    expect(history.record({ at: T0 + 2 * MIN, ...p, balance: 90 })).toBe(true);
    expect(history.record({ at: T0 + 20 * MIN, ...p, balance: 90 })).toBe(true);
    expect(history.series().map((x) => [x.at - T0, x.balance])).toEqual([[0, 100], [2 * MIN, 90], [20 * MIN, 90]]);
    expect(history.series(T0 + 10 * MIN)).toHaveLength(1);
    expect(history.latest()?.at).toBe(T0 + 20 * MIN);
  });
});

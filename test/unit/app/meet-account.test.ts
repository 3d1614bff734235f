/**
 * Meeting the key's account at connecting: only an answer of the marketplace says whose the key is. The
 * stored user record that the reads fall back to when the market does not answer is the previous
 * key's, on the previous market.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AccountSession } from '../../../src/core/app/account-services/account-session.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { accountKey } from '../../../src/core/api/purchase-journal.ts';
import { apiKeyId } from '../../../src/core/api/release-ledger.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

const MARKET = 'http://market.test';
const sessions: AccountSession[] = [];
let store: TestStore | null = null;

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.stop();
  store?.close();
  store = null;
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** An account session on `baseUrl` whose GET /user answers as the account `userId`, or 503 when null. */
function sessionOn(db: TestStore['db'], baseUrl: string, userId: number | null): AccountSession {
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    if (url.pathname !== '/public/v1/user')
      return json(404, { error: { code: 'NOT_FOUND', message: 'no fake' } });
    return userId === null
      ? json(503, {})
      : json(200, { id: userId, steam_id: '7656', name: `Trader ${userId}`, balance: 5_000 });
  }) as typeof globalThis.fetch;
  const apiKey = `key_${userId ?? 'down'}`;
  const client = new ApiClient({ baseUrl, apiKey, fetch });
  const session = new AccountSession({ db, client, keyId: apiKeyId(apiKey) }, { newAccount: false });
  sessions.push(session);
  return session;
}

describe('meeting the account of the key', () => {
  it('takes no stored user record for the key’s account when the market does not answer', async () => {
    store = openTestStore();
    const first = sessionOn(store.db, MARKET, 7);
    expect(await first.meetAccount()).toBe('first');
    expect(first.account).toBe(accountKey(MARKET, 7));

    // a new key, perhaps another account's; the market does not answer GET /user
    const next = sessionOn(store.db, MARKET, null);
    expect(await next.meetAccount()).toBe('unknown');
    expect(next.account).toBeNull();
  });

  it("forgets another market's account data when this market does not answer", async () => {
    store = openTestStore();
    const onA = sessionOn(store.db, MARKET, 7);
    expect(await onA.meetAccount()).toBe('first');

    const onB = sessionOn(store.db, 'http://another-market.test', null);
    expect(await onB.meetAccount()).toBe('other');
    // not "account 7 of the other market": its account is not known yet
    expect(onB.account).toBeNull();
    expect(onB.reads.cached('user')).toBeNull();
  });
});

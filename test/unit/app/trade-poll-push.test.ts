/**
 * The Trades screen learns of trade polls as they happen: a failed poll is pushed (with the failure in
 * words and since when), and so is the good poll that ends it. Before, a failure was only logged, and
 * the screen showed nothing but a growing "polled … ago".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import type { TradePollerView } from '../../../src/shared/ipc/calls-account.ts';
import { type AccountRig, startAccountRig } from './account-rig.ts';

let rig: AccountRig;
/** Whether GET /trades is refused (a key the marketplace no longer accepts, say). */
let refusing = true;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  refusing = true;
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    if (url.pathname === '/public/v1/user')
      return json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 5_000 });
    if (url.pathname === '/public/v1/trades') {
      if (refusing) return json(401, { error: { code: 'UNAUTHORIZED', message: 'invalid API key' } });
      return json(200, {
        trades: [],
        metadata: { total_pages: 0, total_items: 0, current_page: 1, current_limit: 500 },
      });
    }
    return json(404, { error: { code: 'NOT_FOUND', message: `no fake for ${url.pathname}` } });
  }) as typeof globalThis.fetch;
  rig = startAccountRig({
    client: new ApiClient({ baseUrl: 'http://market.test', apiKey: 'key_for_tests', fetch }),
  });
});

afterEach(() => rig.close());

const pollPushes = () =>
  rig.pushes.filter((p) => p.name === 'tradePollChanged').map((p) => p.payload as TradePollerView);

async function until(what: string, ok: () => boolean) {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
}

describe('trade poll pushes', () => {
  it('pushes a failed poll with its reason and since when, then the good poll that ends it', async () => {
    await rig.runtime.connected(rig.market);
    await until('the failed poll pushed', () => pollPushes().length > 0);
    const failing = pollPushes().at(-1)!;
    expect(failing.failingSince).not.toBeNull();
    expect(failing.lastError).toBeTruthy();
    expect(rig.runtime.view().poller.failingSince).toBe(failing.failingSince);

    refusing = false;
    await rig.runtime.account().feeds.poller.pollNow();
    await until('the good poll pushed', () => pollPushes().at(-1)?.failingSince === null);
    expect(pollPushes().at(-1)).toMatchObject({ lastError: null, failingSince: null });
    expect(pollPushes().at(-1)!.lastPollAt).not.toBeNull();
  });
});

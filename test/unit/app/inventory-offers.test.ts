/**
 * The "in offer" marks of Steam inventory rows outlive the session that sent the offer: the stored read
 * still shows the rows after a restart, and a second offer of them must still be refused. They were held
 * in memory, so a restart (here: the market session replaced on the same files) forgot them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portfolioHandlers } from '../../../src/core/app/account-services/portfolio-handlers.ts';
import { sellingHandlers } from '../../../src/core/app/account-services/selling-handlers.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { systemClock } from '../../../src/core/api/clock.ts';
import { SkindeskError } from '../../../src/shared/ipc/index.ts';
import { type AccountRig, startAccountRig } from './account-rig.ts';

let rig: AccountRig;
/**
 * How the fake marketplace answers POST /sell and /deposit: deposit ids, a 502 (the outcome unknown), a
 * refusal (nothing offered), or not before `answerHeld` is released.
 */
let sendAnswer: 'ok' | 'lost' | 'refused' | 'held';
let releaseHeld: () => void = () => {};
const answerHeld = () => new Promise<void>((resolve) => (releaseHeld = resolve));
let inventoryReads = 0;
/** How far the account's clock runs ahead of the system's. */
let ahead = 0;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const skin = (assetId: string) => ({
  token: `tok_${assetId}`,
  app_id: 730,
  steam_asset_id: assetId,
  market_hash_name: `Skin ${assetId}`,
  amount: 1,
  commodity: false,
  tradable: true,
  market_price: 500,
  recommended_price: 485,
  icon_url: 'https://example.test/icon.png',
});

beforeEach(() => {
  sendAnswer = 'ok';
  inventoryReads = 0;
  ahead = 0;
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    switch (url.pathname) {
      case '/public/v1/steam-inventory':
        inventoryReads++;
        return json(200, { items: [skin('a1'), skin('a2')] });
      case '/public/v1/sell':
      case '/public/v1/deposit':
        if (sendAnswer === 'held') await answerHeld();
        if (sendAnswer === 'refused') return json(409, { error: { code: 'ACTIVE_TRADE_LIMIT', message: 'more than 15 trades would be in flight' } });
        return sendAnswer === 'lost' ? json(502, {}) : json(200, { deposit_ids: [77] });
      case '/public/v1/user':
        return json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 5_000 });
      case '/public/v1/trades':
        return json(200, {
          trades: [],
          metadata: { total_pages: 0, total_items: 0, current_page: 1, current_limit: 500 },
        });
      default:
        return json(404, { error: { code: 'NOT_FOUND', message: `no fake for ${url.pathname}` } });
    }
  }) as typeof globalThis.fetch;
  const clock = { ...systemClock, now: () => Date.now() + ahead };
  rig = startAccountRig({
    client: new ApiClient({ baseUrl: 'http://market.test', apiKey: 'key_for_tests', fetch, clock }),
    clock,
  });
});

afterEach(() => rig.close());

/** The market session closed and opened again on the same database: what memory held is gone. */
async function restart(): Promise<void> {
  await rig.runtime.detach(rig.market);
  rig.runtime.attach(rig.market, false);
}

const selling = () => sellingHandlers(rig.runtime);

async function refusalOf(answer: unknown): Promise<SkindeskError> {
  try {
    await answer;
  } catch (err) {
    if (err instanceof SkindeskError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('items in a trade offer, after a restart', () => {
  it('a sold item stays marked with its deposit, and is not offered again from the stored read', async () => {
    await selling().getInventory({ appId: 730, refresh: true });
    await selling().sellItems({
      appId: 730,
      groups: [{ items: [{ assetId: 'a1', amount: 1 }], price: 485 }],
      dryRun: false,
    });
    await restart();

    const shown = await selling().getInventory({ appId: 730, refresh: false });
    expect(shown.freshness.fromCache).toBe(true);
    expect(shown.items.map((r) => [r.assetId, r.inOffer])).toEqual([
      ['a1', 77],
      ['a2', null],
    ]);
    const again = await refusalOf(
      selling().depositItems({ appId: 730, items: [{ assetId: 'a1', amount: 1 }], dryRun: false }),
    );
    expect(again.message).toContain('Skin a1 is already in the offer of deposit 77');
  });

  it('an item whose sell answer was lost stays marked as maybe in an offer', async () => {
    await selling().getInventory({ appId: 730, refresh: true });
    sendAnswer = 'lost';
    await refusalOf(
      selling().sellItems({
        appId: 730,
        groups: [{ items: [{ assetId: 'a2', amount: 1 }], price: 485 }],
        dryRun: false,
      }),
    );
    await restart();

    const shown = await selling().getInventory({ appId: 730, refresh: false });
    expect(shown.items.find((r) => r.assetId === 'a2')?.inOffer).toBe('unknown');
    const check = await selling().sellItems({
      appId: 730,
      groups: [{ items: [{ assetId: 'a2', amount: 1 }], price: 485 }],
      dryRun: true,
    });
    expect(check.check.ok).toBe(false);
  });

  it('a read made after the offer shows the rows as they are, and the marks go', async () => {
    await selling().getInventory({ appId: 730, refresh: true });
    await selling().sellItems({
      appId: 730,
      groups: [{ items: [{ assetId: 'a1', amount: 1 }], price: 485 }],
      dryRun: false,
    });
    ahead = 1_000;
    const fresh = await selling().getInventory({ appId: 730, refresh: true });
    expect(fresh.freshness.fromCache).toBe(false);
    expect(fresh.items.every((r) => r.inOffer === null)).toBe(true);
    await restart();
    expect(
      (await selling().getInventory({ appId: 730, refresh: false })).items.every((r) => r.inOffer === null),
    ).toBe(true);
    expect(inventoryReads).toBe(2);
  });

  it('a read the portfolio made after the offer supersedes the marks too', async () => {
    await selling().getInventory({ appId: 730, refresh: true });
    await selling().sellItems({
      appId: 730,
      groups: [{ items: [{ assetId: 'a1', amount: 1 }], price: 485 }],
      dryRun: false,
    });
    ahead = 2 * 60_000;
    await portfolioHandlers(rig.runtime).getPortfolio({ readInventories: true, readInventoriesAgain: true, refresh: false });
    const shown = await selling().getInventory({ appId: 730, refresh: false });
    expect(shown.freshness.fromCache).toBe(true);
    expect(shown.items.every((r) => r.inOffer === null)).toBe(true);
  });

  it('marks the rows before the request leaves: a crash while it is out leaves them maybe in an offer', async () => {
    await selling().getInventory({ appId: 730, refresh: true });
    sendAnswer = 'held';
    const sent = selling().sellItems({
      appId: 730,
      groups: [{ items: [{ assetId: 'a1', amount: 1 }], price: 485 }],
      dryRun: false,
    });
    await new Promise((r) => setTimeout(r, 50)); // the request is out, its answer held
    // what a run started after a crash here would find in the file
    const meanwhile = await selling().getInventory({ appId: 730, refresh: false });
    expect(meanwhile.items.map((r) => [r.assetId, r.inOffer])).toEqual([
      ['a1', 'unknown'],
      ['a2', null],
    ]);
    releaseHeld();
    await sent;
    const answered = await selling().getInventory({ appId: 730, refresh: false });
    expect(answered.items.find((r) => r.assetId === 'a1')?.inOffer).toBe(77);
  });

  it('a refused offer leaves no mark: nothing was offered', async () => {
    await selling().getInventory({ appId: 730, refresh: true });
    sendAnswer = 'refused';
    await expect(
      selling().depositItems({ appId: 730, items: [{ assetId: 'a2', amount: 1 }], dryRun: false }),
    ).rejects.toMatchObject({ code: 'ACTIVE_TRADE_LIMIT' });
    await restart();
    const shown = await selling().getInventory({ appId: 730, refresh: false });
    expect(shown.items.every((r) => r.inOffer === null)).toBe(true);
  });
});

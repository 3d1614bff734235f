/**
 * External inventory, sell, deposit, withdraw and trades (spec §4.4, §4.5, §3.2): tokens tied to the
 * account and expiring after 30 minutes, one offer per game, DEPOSIT_ITEM_LIMIT, ACTIVE_TRADE_LIMIT, and
 * what each trade does when it is accepted or fails. Timers run 100× slower than real time here, so
 * every trade moves only when a test moves it; the last block lets the timers run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, IN_FLIGHT_TRADE_STATUSES, type InventoryItem, type Trade } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, eventually, expectError, expectOk, parseAs, startTestMarket, type Api } from './helpers.ts';

let market: DemoMarket;
let a: Api;
beforeAll(async () => {
  market = await startTestMarket({ seed: 31, timeScale: 0.01 });
  a = api(market);
});
afterAll(() => market.close());

const inventory = async (appId: number, client = a): Promise<InventoryItem[]> =>
  parseAs(ENDPOINTS.steamInventory.response, expectOk(await client.get('/public/v1/steam-inventory', { app_id: appId }))).items;
const trades = async (client = a): Promise<Trade[]> =>
  parseAs(ENDPOINTS.trades.response, expectOk(await client.get('/public/v1/trades', { page: 1, limit: 500 }))).trades;
const tradeByDeposit = async (depositId: number) => (await trades()).find((t) => t.deposit_id === depositId)!;
const tokenOf = async (appId: number, assetId: number) => (await inventory(appId)).find((i) => i.steam_asset_id === String(assetId))!.token;
async function settleInFlight(status: 'Accepted' | 'Declined' = 'Accepted') {
  for (const t of await trades()) if (IN_FLIGHT_TRADE_STATUSES.includes(t.status)) market.moveTrade(t.id, status);
}

describe('GET /steam-inventory', () => {
  it('needs app_id and lists stacks with fresh tokens, some not tradable', async () => {
    expectError(await a.get('/public/v1/steam-inventory'), 'VALIDATION_ERROR', 400);
    const items = await inventory(730);
    expect(items.length).toBeGreaterThan(5);
    expect(items.every((i) => i.app_id === 730 && i.token.length > 20)).toBe(true);
    expect(items.some((i) => !i.tradable)).toBe(true);
    // a commodity held in several stacks comes back as several rows, each with its own token
    const names = items.filter((i) => i.commodity).map((i) => i.market_hash_name);
    expect(names.length).toBeGreaterThan(new Set(names).size);
  });
});

describe('POST /sell', () => {
  it('sends one offer per game; when accepted, the items are listed at the group price', async () => {
    const [skin] = (await inventory(730)).filter((i) => !i.commodity && i.tradable);
    const [keys] = (await inventory(440)).filter((i) => i.market_hash_name === 'Mann Co. Supply Crate Key');
    const body = parseAs(ENDPOINTS.sell.response, expectOk(await a.post('/public/v1/sell', {
      listings: [
        { items: [{ token: skin!.token, amount: 1 }], price: 77_700 },
        { items: [{ token: keys!.token, amount: 3 }], price: 215 },
      ],
    })));
    expect(body.deposit_ids).toHaveLength(2);
    const offered = await Promise.all(body.deposit_ids.map(tradeByDeposit));
    expect(offered.map((t) => t.type)).toEqual(['SELL', 'SELL']);
    expect(offered.map((t) => t.status)).toEqual(['CreatedNeedsConfirmation', 'CreatedNeedsConfirmation']);
    expect(offered[0]!.steam_offer_id).toBeNull();
    // offered items leave the visible inventory
    expect((await inventory(730)).some((i) => i.steam_asset_id === skin!.steam_asset_id)).toBe(false);
    for (const t of offered) {
      market.moveTrade(t.id, 'Active');
      market.moveTrade(t.id, 'Accepted');
    }
    const accepted = await tradeByDeposit(body.deposit_ids[0]!);
    expect(accepted.status).toBe('Accepted');
    expect(accepted.steam_offer_id).toMatch(/^\d+$/);
    const mine = parseAs(ENDPOINTS.myListings.response, expectOk(await a.get('/public/v1/my-listings', { page: 1, limit: 10, status: 'ACTIVE' })));
    expect(mine.listings.find((l) => l.price === 77_700)).toMatchObject({ market_hash_name: skin!.market_hash_name, amount: 1 });
    expect(mine.listings.find((l) => l.price === 215)).toMatchObject({ market_hash_name: 'Mann Co. Supply Crate Key', amount: 3 });
  });

  it('puts the items back in the inventory when the offer is declined', async () => {
    const [item] = (await inventory(252490)).filter((i) => i.tradable);
    const { deposit_ids } = expectOk(await a.post('/public/v1/sell', { listings: [{ items: [{ token: item!.token, amount: item!.amount }], price: 999 }] })) as { deposit_ids: number[] };
    const trade = await tradeByDeposit(deposit_ids[0]!);
    market.moveTrade(trade.id, 'Declined');
    expect((await tradeByDeposit(deposit_ids[0]!)).error).toMatch(/declined/i);
    expect((await inventory(252490)).some((i) => i.steam_asset_id === item!.steam_asset_id)).toBe(true);
  });

  it('refuses tokens of another account, expired tokens and items the platform holds', async () => {
    const trader = api(market, market.accounts[1]!.apiKey);
    const [theirs] = await inventory(730, trader);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token: theirs!.token, amount: 1 }], price: 100 }] }), 'INVALID_ITEM_TOKEN', 400);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token: 'forged.token', amount: 1 }], price: 100 }] }), 'INVALID_ITEM_TOKEN', 400);
    const [held] = (await inventory(730)).filter((i) => !i.tradable);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token: held!.token, amount: 1 }], price: 100 }] }), 'ITEM_NOT_TRADABLE', 409);
    const asset = market.giveInventory(1, 'Refined Metal', 5);
    const token = await tokenOf(440, asset);
    market.advanceClock(29 * 60_000);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token, amount: 6 }], price: 4 }] }), 'INSUFFICIENT_ITEMS', 409);
    market.advanceClock(2 * 60_000);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token, amount: 1 }], price: 4 }] }), 'INVALID_ITEM_TOKEN', 400);
  });

  it('keeps groups to one item and enforces the 50×50 body limits', async () => {
    const items = (await inventory(730)).filter((i) => i.tradable && !i.commodity);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token: items[0]!.token, amount: 1 }, { token: items[1]!.token, amount: 1 }], price: 100 }] }), 'VALIDATION_ERROR', 400);
    const group = { items: [{ token: items[0]!.token, amount: 1 }], price: 100 };
    expectError(await a.post('/public/v1/sell', { listings: Array.from({ length: 51 }, () => group) }), 'VALIDATION_ERROR', 400);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: Array.from({ length: 51 }, () => group.items[0]), price: 100 }] }), 'VALIDATION_ERROR', 400);
  });
});

describe('trade caps', () => {
  it('DEPOSIT_ITEM_LIMIT: at most 500 copies in one game\'s offer, for sell and deposit', async () => {
    await settleInFlight();
    const big = market.giveInventory(1, 'Scrap Metal', 400);
    const more = market.giveInventory(1, 'Reclaimed Metal', 101);
    const [bigToken, moreToken] = [await tokenOf(440, big), await tokenOf(440, more)];
    expectError(await a.post('/public/v1/deposit', { items: [{ token: bigToken, amount: 400 }, { token: moreToken, amount: 101 }] }), 'DEPOSIT_ITEM_LIMIT', 400);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token: bigToken, amount: 400 }], price: 1 }, { items: [{ token: moreToken, amount: 101 }], price: 2 }] }), 'DEPOSIT_ITEM_LIMIT', 400);
    // exactly 500 is fine (and nothing was held by the refused calls)
    const ok = parseAs(ENDPOINTS.deposit.response, expectOk(await a.post('/public/v1/deposit', { items: [{ token: bigToken, amount: 400 }, { token: moreToken, amount: 100 }] })));
    expect(ok.deposit_ids).toHaveLength(1);
    await settleInFlight();
  });

  it('ACTIVE_TRADE_LIMIT: at most 15 trades in flight, across sell, deposit and withdraw', async () => {
    await settleInFlight();
    const assets = Array.from({ length: 16 }, () => market.giveInventory(1, 'Mann Co. Supply Crate Key', 1));
    const tokens = await Promise.all(assets.map((asset) => tokenOf(440, asset)));
    for (let i = 0; i < 15; i++) expectOk(await a.post('/public/v1/deposit', { items: [{ token: tokens[i]!, amount: 1 }] }));
    expect((await trades()).filter((t) => IN_FLIGHT_TRADE_STATUSES.includes(t.status))).toHaveLength(15);
    expectError(await a.post('/public/v1/deposit', { items: [{ token: tokens[15]!, amount: 1 }] }), 'ACTIVE_TRADE_LIMIT', 409);
    expectError(await a.post('/public/v1/sell', { listings: [{ items: [{ token: tokens[15]!, amount: 1 }], price: 220 }] }), 'ACTIVE_TRADE_LIMIT', 409);
    const row = market.giveBackpack(1, 'Refined Metal', 3);
    expectError(await a.post('/public/v1/withdraw', { items: [{ id: row, amount: 1 }] }), 'ACTIVE_TRADE_LIMIT', 409);
    await settleInFlight();
    expectOk(await a.post('/public/v1/deposit', { items: [{ token: tokens[15]!, amount: 1 }] }));
    await settleInFlight();
  });
});

describe('POST /deposit and POST /withdraw', () => {
  it('deposits into the backpack once accepted', async () => {
    const asset = market.giveInventory(1, 'Tempered AK47', 2);
    const { deposit_ids } = parseAs(ENDPOINTS.deposit.response, expectOk(await a.post('/public/v1/deposit', { items: [{ token: await tokenOf(252490, asset), amount: 2 }] })));
    const trade = await tradeByDeposit(deposit_ids[0]!);
    expect(trade).toMatchObject({ type: 'DEPOSIT', withdraw_id: null, items: [expect.objectContaining({ market_hash_name: 'Tempered AK47', amount: 2 })] });
    const before = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100, search: 'tempered ak47' }))).items;
    market.moveTrade(trade.id, 'Accepted');
    const after = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100, search: 'tempered ak47' }))).items;
    expect(after.reduce((s, i) => s + i.amount, 0)).toBe(before.reduce((s, i) => s + i.amount, 0) + 2);
  });

  it('withdraws backpack items to the external inventory, or back to the backpack if the offer fails', async () => {
    expectError(await a.post('/public/v1/withdraw', { items: [{ id: 1, amount: 1 }] }), 'BACKPACK_ITEM_NOT_FOUND', 404);
    const locked = market.giveBackpack(1, 'AK-47 | Redline (Field-Tested)', 1, { tradeLockedUntil: Date.now() + 86_400_000 });
    expectError(await a.post('/public/v1/withdraw', { items: [{ id: locked, amount: 1 }] }), 'ITEM_NOT_TRADABLE', 409);
    const row = market.giveBackpack(1, 'Big Grin', 4);
    expectError(await a.post('/public/v1/withdraw', { items: [{ id: row, amount: 5 }] }), 'INSUFFICIENT_ITEMS', 409);
    const sent = parseAs(ENDPOINTS.withdraw.response, expectOk(await a.post('/public/v1/withdraw', { items: [{ id: row, amount: 3 }] })));
    const trade = (await trades()).find((t) => t.withdraw_id === sent.withdraw_ids[0])!;
    expect(trade).toMatchObject({ type: 'WITHDRAW', deposit_id: null });
    market.moveTrade(trade.id, 'Accepted');
    const rust = await inventory(252490);
    expect(rust.some((i) => i.market_hash_name === 'Big Grin' && i.amount === 3)).toBe(true);

    const again = parseAs(ENDPOINTS.withdraw.response, expectOk(await a.post('/public/v1/withdraw', { items: [{ id: row, amount: 1 }] })));
    const failing = (await trades()).find((t) => t.withdraw_id === again.withdraw_ids[0])!;
    market.moveTrade(failing.id, 'Expired');
    const backpack = parseAs(ENDPOINTS.backpack.response, expectOk(await a.get('/public/v1/backpack', { page: 1, limit: 100, search: 'Big Grin' }))).items;
    expect(backpack.reduce((s, i) => s + i.amount, 0)).toBe(1);
  });
});

describe('GET /trades', () => {
  it('pages newest first with limit 500 or 1000 only, and filters by status', async () => {
    expectError(await a.get('/public/v1/trades', { page: 1, limit: 100 }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/trades', { limit: 500 }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/trades', { page: 1, limit: 500, status: 'Done' }), 'VALIDATION_ERROR', 400);
    const all = await trades();
    const ids = all.map((t) => t.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    expect(new Set(all.map((t) => t.type))).toEqual(new Set(['SELL', 'DEPOSIT', 'WITHDRAW']));
    const accepted = parseAs(ENDPOINTS.trades.response, expectOk(await a.get('/public/v1/trades', { page: 1, limit: 1000, status: 'Accepted' })));
    expect(accepted.trades.length).toBeGreaterThan(0);
    expect(accepted.trades.every((t) => t.status === 'Accepted')).toBe(true);
  });
});

describe('trades on their own timers', () => {
  it('move CreatedNeedsConfirmation → Active → an outcome by themselves, faster with --time-scale', async () => {
    const fast = await startTestMarket({ seed: 32, timeScale: 1_000 });
    try {
      fast.setTradeOutcome('Accepted');
      const f = api(fast);
      const asset = fast.giveInventory(1, 'Refined Metal', 7);
      const token = (parseAs(ENDPOINTS.steamInventory.response, expectOk(await f.get('/public/v1/steam-inventory', { app_id: 440 }))).items).find((i) => i.steam_asset_id === String(asset))!.token;
      const { deposit_ids } = expectOk(await f.post('/public/v1/sell', { listings: [{ items: [{ token, amount: 7 }], price: 5 }] })) as { deposit_ids: number[] };
      // 3 s + 20 s of market time at 1000× is about 23 ms
      const trade = await eventually(async () => {
        const list = parseAs(ENDPOINTS.trades.response, expectOk(await f.get('/public/v1/trades', { page: 1, limit: 500 }))).trades;
        const t = list.find((x) => x.deposit_id === deposit_ids[0]);
        return t?.status === 'Accepted' ? t : undefined;
      }, 5_000, 'the trade to be accepted');
      expect(trade.steam_offer_id).toBeTruthy();
      const listings = parseAs(ENDPOINTS.myListings.response, expectOk(await f.get('/public/v1/my-listings', { page: 1, limit: 5, status: 'ACTIVE' }))).listings;
      expect(listings[0]).toMatchObject({ market_hash_name: 'Refined Metal', amount: 7, price: 5 });
    } finally {
      await fast.close();
    }
  });
});

// The account calls over the real core and the real demo market (fast clock): reads cached in SQLite and
// served offline, sell → trade followed → listing, list with a decay, partial reprice, bulk delist with a
// failing row, the order export through the platform's save dialog, crypto withdrawals to SUCCESS and to
// FAILED with the refund, notifications on status changes, and the webhook receiver feeding the tracker.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore, RecordingPlatform, type StartDemoMarket, demoHandleOf } from '../../../src/core/app/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { ORDER_EXPORT_COLUMNS } from '../../../src/shared/api/index.ts';
import { type IpcPushName, type Notification, SkindeskError } from '../../../src/shared/ipc/index.ts';
import { until } from './until.ts';

let core: AppCore;
let demo: DemoMarket;
let dataDir: string;
const exportDir = join(tmpdir(), `skindesk-export-${process.pid}`);
const platform = new RecordingPlatform({ saveDir: exportDir });
const pushes: { name: IpcPushName; payload: unknown }[] = [];

const startDemo: StartDemoMarket = async ({ seqStart }) => {
  demo = await startDemoMarket({ port: 0, listings: 300, rate: 0, seed: 21, seqStart, timeScale: 50, rateLimits: false });
  return demoHandleOf(demo);
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'skindesk-account-'));
  core = await AppCore.start({
    dataDir,
    secrets: new MemorySecretStore(),
    platform,
    startDemoMarket: startDemo,
    version: '0.0.0-test',
    accountTimings: { poller: { activeIntervalMs: 300, idleIntervalMs: 1_000 }, withdrawalPollMs: 150, guardCheckMs: 100, guardCooldownMs: 300 },
  });
  core.subscribe((name, payload) => pushes.push({ name, payload }));
  await core.whenLive(20_000);
  // the feeds start once connected
  await until('the trade poller', () => core.account.view().poller.running);
});

afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(exportDir, { recursive: true, force: true });
});

describe('account calls on the demo market', () => {
  it('portfolio: balance, listed value, backpack and inventory value, and a point of history once complete', async () => {
    const partial = await core.call('getPortfolio', { readInventories: false });
    expect(partial.inventory.games).toEqual([]);
    // without every game's inventory the total is incomplete: no point is recorded from it
    expect(partial.history).toEqual([]);
    // before any inventory read, the positions are the backpack's alone
    expect(partial.positions.every((h) => h.inInventory === 0)).toBe(true);
    expect(partial.positions.reduce((s, h) => s + h.value, 0)).toBe(partial.backpack!.value);
    const p = await core.call('getPortfolio', { readInventories: true });
    expect(p.inventory.games.map((g) => g.appId)).toEqual([730, 252490, 570, 440]);
    expect(p.inventory.value).toBe(p.inventory.games.reduce((s, g) => s + g.value, 0));
    expect(p.user?.name).toBe('Demo Trader');
    expect(p.user?.balance).toBeGreaterThan(0);
    expect(p.listed?.listingCount).toBeGreaterThan(0);
    // its rows as the spec's backpack total_items counts them, and the copies in them (amounts summed)
    const backpackPage = await core.call('getBackpack', { limit: 100 });
    expect(backpackPage.metadata.total_pages).toBe(1);
    expect(p.backpack?.rows).toBe(backpackPage.metadata.total_items);
    expect(p.backpack?.copies).toBe(backpackPage.items.reduce((s, r) => s + r.amount, 0));
    expect(p.backpack!.copies).toBeGreaterThan(p.backpack!.rows);
    expect(p.total).toBe(p.user!.balance + p.listed!.value + p.backpack!.value + p.inventory.value);
    expect(p.history).toHaveLength(1);
    expect(p.history[0]!.total).toBe(p.total);
    // every held copy is in one position (the demo's account holds fewer than 100 distinct items)
    expect(p.positions.reduce((s, h) => s + h.value, 0)).toBe(p.backpack!.value + p.inventory.value);
    expect(p.positions.some((h) => h.inInventory > 0) && p.positions.some((h) => h.inBackpack > 0)).toBe(true);
    expect(p.positions.map((h) => h.value)).toEqual(p.positions.map((h) => h.value).sort((a, b) => b - a));
    expect(p.freshness?.fromCache).toBe(false);
  });

  it('trading results from the whole order history: paid and received per item, stored for later', async () => {
    expect(await core.call('getTradingPnl', {})).toMatchObject({ items: [], computedAt: null, problem: null });
    const pnl = await core.call('getTradingPnl', { refresh: true });
    // what the demo market itself recorded, summed here
    const orders = demo.state.orders();
    expect(pnl.totals.rows).toBe(orders.length);
    expect(orders.length).toBeGreaterThan(0);
    const bought = orders.filter((o) => o.side === 'bought');
    expect(pnl.totals.paid).toBe(bought.reduce((s, o) => s + o.price * o.amount, 0));
    for (const item of pnl.items) {
      const mine = orders.filter((o) => o.app_id === item.app_id && o.market_hash_name === item.market_hash_name);
      expect(item.bought).toBe(mine.filter((o) => o.side === 'bought').reduce((s, o) => s + o.amount, 0));
      expect(item.sold).toBe(mine.filter((o) => o.side === 'sold').reduce((s, o) => s + o.amount, 0));
      // a sale counts only copies bought here before it (settled or not); the rest are still unsold
      expect(item.matched + item.unsettledMatched).toBeLessThanOrEqual(Math.min(item.bought, item.sold));
      expect(item.unsold).toBe(item.bought - item.matched - item.unsettledMatched);
    }
    // stored: the next read needs no export
    const again = await core.call('getTradingPnl', {});
    expect(again).toEqual(pnl);
  });

  it('sell: problems found before sending, then the deposit is followed as a trade until its listing appears', async () => {
    const inv = await core.call('getInventory', { appId: 730, refresh: true });
    expect(inv.expired).toBe(false);
    const locked = inv.items.find((i) => !i.tradable);
    const skin = inv.items.find((i) => i.tradable && !i.commodity && i.inOffer === null);
    expect(locked && skin).toBeTruthy();

    const dry = await core.call('sellItems', {
      appId: 730,
      groups: [{ items: [{ assetId: locked!.assetId, amount: 1 }], price: 5000 }],
      dryRun: true,
    });
    expect(dry.check.ok).toBe(false);
    expect(dry.check.problems.map((p) => p.code)).toContain('ITEM_NOT_TRADABLE');
    const refused = await core
      .call('sellItems', { appId: 730, groups: [{ items: [{ assetId: locked!.assetId, amount: 1 }], price: 5000 }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SkindeskError);
    expect((refused as SkindeskError).code).toBe('REFUSED');
    expect((refused as SkindeskError).apiCode).toBe('ITEM_NOT_TRADABLE');

    demo.setTradeOutcome('Accepted');
    const sold = await core.call('sellItems', { appId: 730, groups: [{ items: [{ assetId: skin!.assetId, amount: 1 }], price: 4321 }] });
    expect(sold.depositIds).toHaveLength(1);
    const again = await core.call('getInventory', { appId: 730 });
    expect(again.items.find((i) => i.assetId === skin!.assetId)?.inOffer).toBe(sold.depositIds[0]);

    const accepted = await until('the sale trade to be accepted', async () => {
      const { trades } = await core.call('getTrades', { depositIds: sold.depositIds });
      return trades[0]?.trade.status === 'Accepted' ? trades[0] : undefined;
    });
    expect(accepted.timeline.map((s) => s.status)).toContain('Accepted');
    expect(accepted.words).toBe('the trade was accepted.');
    expect(pushes.some((p) => p.name === 'tradesUpdated')).toBe(true);
    // the demo's own account, not the user's: its notices say so
    expect(platform.notifications.map((n) => n.title)).toContain(
      `Demo market · Trade #${accepted.trade.id} (sale offer, deposit ${accepted.trade.deposit_id}): Accepted`,
    );
    // the window's toasts about one trade carry its topic: each status replaces the one before
    const toasts = pushes.filter((p) => p.name === 'notification').map((p) => p.payload as Notification);
    expect(toasts.find((n) => n.title.includes(`#${accepted.trade.id} (sale offer, deposit ${accepted.trade.deposit_id}): Accepted`))?.topic).toBe(`trade:${accepted.trade.id}`);

    const listings = await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
    expect(listings.listings.some((l) => l.market_hash_name === skin!.name && l.price === 4321)).toBe(true);
  });

  it('lists a backpack row with a price decay, and refuses an overdrawn commodity pool before sending', async () => {
    const page = await core.call('getBackpack', { limit: 50 });
    const skin = page.items.find((i) => !i.commodity && i.trade_locked_until === null)!;
    const pool = page.items.find((i) => i.commodity && i.amount >= 2)!;

    const overdrawn = await core.call('listItems', {
      groups: [
        { items: [{ id: pool.id, amount: pool.amount }], price: 100 },
        { items: [{ id: pool.id, amount: 1 }], price: 90 },
      ],
      dryRun: true,
    });
    expect(overdrawn.check.problems.map((p) => p.code)).toEqual(['INSUFFICIENT_ITEMS']);

    const decay = { start_price: 9000, end_price: 6000, total_hours: 48 };
    const listed = await core.call('listItems', { groups: [{ items: [{ id: skin.id, amount: 1 }], decay }] });
    expect(listed.listings).toHaveLength(1);
    const mine = await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
    const row = mine.listings.find((l) => l.id === listed.listings[0]!.id)!;
    expect(row.price_decay).toMatchObject(decay);
  });

  it('my listings stand against the mirrored book: how many others ask less, and the cheapest', async () => {
    const page = await core.call('getBackpack', { limit: 50 });
    const pool = page.items.find((i) => i.commodity && i.amount >= 1 && i.trade_locked_until === null)!;
    const price = 77_777;
    const [mine] = (await core.call('listItems', { groups: [{ items: [{ id: pool.id, amount: 1 }], price }] })).listings;
    demo.createListing({ name: pool.market_hash_name, price: 1 });
    demo.flushFeed();
    // what the market itself holds, read from the demo (not from the mirror the call reads)
    const expected = () => {
      // the seller's own listings are not competition
      const others = demo.state
        .book(pool.app_id)
        .listings.filter((l) => l.market_hash_name === pool.market_hash_name && demo.state.listing(l.id)?.seller !== 1)
        .sort((a, b) => a.price - b.price || a.id - b.id);
      return {
        listingId: mine!.id,
        others: others.length,
        cheaper: others.filter((l) => l.price < price).length,
        lowestOther: others[0]?.price ?? null,
        lowestOtherId: others[0]?.id ?? null,
        phase: null,
      };
    };
    const standing = await until('the new listing standing in the mirrored book', async () => {
      const { standings } = await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
      const s = standings.find((x) => x.listingId === mine!.id);
      return s && s.lowestOther === 1 ? s : undefined;
    });
    expect(standing).toEqual(expected());
    expect(standing.cheaper).toBeGreaterThanOrEqual(1);
    // sold or private listings do not compete in the book
    expect((await core.call('getMyListings', { status: 'FILLED', limit: 50 })).standings).toEqual([]);
  });

  it('the undercut guard keeps a listing one cent under the cheapest other, and holds at its floor', async () => {
    const page = await core.call('getBackpack', { limit: 50 });
    // rivals: listings of the item by other sellers
    const others = (name: string) =>
      demo.state.book().listings.filter((l) => l.market_hash_name === name && demo.state.listing(l.id)?.seller !== 1).map((l) => l.price);
    // a pool whose cheapest rival asks at least 10 cents, so there is room under it
    const roomy = (name: string) => others(name).length > 0 && Math.min(...others(name)) >= 10;
    const pool = page.items.find((i) => i.commodity && i.amount >= 1 && i.trade_locked_until === null && roomy(i.market_hash_name));
    expect(pool, page.items.filter((i) => i.commodity).map((i) => `${i.market_hash_name}: ${others(i.market_hash_name).join(',')}`).join('\n')).toBeDefined();
    const lowest = Math.min(...others(pool!.market_hash_name));
    const [mine] = (await core.call('listItems', { groups: [{ items: [{ id: pool!.id, amount: 1 }], price: lowest + 5_000 }] })).listings;
    await until('the listing in My listings', async () => (await core.call('getMyListings', { status: 'ACTIVE', limit: 50 })).listings.some((l) => l.id === mine!.id));
    await expect(core.call('setUndercutGuard', { listingId: mine!.id, floor: lowest + 6_000 })).rejects.toThrow(/is above the listing's price/);
    await expect(core.call('setUndercutGuard', { listingId: mine!.id, floor: 100, ceiling: 100 })).rejects.toThrow(/must be above the floor/);

    const guards = () => pushes.filter((p) => p.name === 'undercutGuardChanged').map((p) => p.payload as { listingId: number; state: string; note: string; edits: number });
    // the kill switch (the same one that stops auto-buying) holds every guard
    await core.call('setAutoBuyKillSwitch', { engaged: true });
    const { guard } = await core.call('setUndercutGuard', { listingId: mine!.id, floor: 1 });
    expect(guard).toMatchObject({ listingId: mine!.id, floor: 1, step: 1, edits: 0 });
    await until('held by the kill switch', () => guards().some((g) => g.listingId === mine!.id && /kill switch is engaged/.test(g.note)));
    expect(demo.state.listing(mine!.id)?.listing.price).toBe(lowest + 5_000);
    await core.call('setAutoBuyKillSwitch', { engaged: false });
    await until('the guard undercut', () => demo.state.listing(mine!.id)?.listing.price === lowest - 1);
    await until('the push', () => guards().some((g) => g.listingId === mine!.id && g.state === 'undercut' && g.edits === 1));

    // a rival at the same price, with the floor at the price: a tie cannot be broken without passing it
    await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
    await core.call('setUndercutGuard', { listingId: mine!.id, floor: lowest - 1 });
    demo.createListing({ name: pool!.market_hash_name, price: lowest - 1 });
    demo.flushFeed();
    await until('holding at the floor', () => guards().some((g) => g.listingId === mine!.id && g.state === 'holding'));
    expect(demo.state.listing(mine!.id)?.listing.price).toBe(lowest - 1);
    const listed = await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
    expect(listed.guards.find((g) => g.listingId === mine!.id)?.note).toMatch(/^Holding at \$[\d.]+: the cheapest other asks/);

    expect(await core.call('setUndercutGuard', { listingId: mine!.id, floor: null })).toEqual({ guard: null });
    expect((await core.call('getMyListings', { status: 'ACTIVE', limit: 50 })).guards.some((g) => g.listingId === mine!.id)).toBe(false);
  });

  it('a partial reprice reports the second listing holding the surplus at the old price', async () => {
    const page = await core.call('getBackpack', { limit: 50 });
    const pool = page.items.find((i) => i.commodity && i.amount >= 4 && i.trade_locked_until === null)!;
    const [listing] = (await core.call('listItems', { groups: [{ items: [{ id: pool.id, amount: 4 }], price: 500 }] })).listings;
    await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });

    const edit = await core.call('editListing', { listingId: listing!.id, amount: 1, price: 450 });
    expect(edit.listing).toMatchObject({ id: listing!.id, amount: 1, price: 450 });
    expect(edit.split).toMatchObject({ market_hash_name: pool.market_hash_name, amount: 3, price: 500 });
    expect(edit.split!.id).not.toBe(listing!.id);
  });

  it('bulk delist: one row that can no longer be delisted fails alone, in plain words', async () => {
    const mine = await core.call('getMyListings', { status: 'ACTIVE', limit: 50 });
    const [a, b] = mine.listings;
    demo.buyListing(b!.id);
    const { results } = await core.call('delistListings', { listingIds: [a!.id, b!.id] });
    expect(results).toEqual([
      { listingId: a!.id, ok: true, error: null, explanation: null },
      { listingId: b!.id, ok: false, error: 'LISTING_NOT_FOUND', explanation: expect.stringMatching(/gone/) },
    ]);
  });

  it('exports the orders as CSV through the save dialog, with progress', async () => {
    const orders = await core.call('getOrders', { limit: 100 });
    const result = await core.call('exportOrders', { format: 'csv' });
    expect(result.saved).toBe(true);
    if (!result.saved) return;
    expect(platform.saved).toContain(result.file);
    const lines = readFileSync(result.file, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe(ORDER_EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(orders.metadata.total_items + 1);
    expect(result.rows).toBe(orders.metadata.total_items);
    const ids = new Set(lines.slice(1).map((l) => Number(l.split(',')[0])));
    for (const o of orders.orders) expect(ids.has(o.order_item_id)).toBe(true);
    await until('the done progress push', () =>
      pushes.some((p) => p.name === 'exportProgress' && (p.payload as { state: string }).state === 'done'),
    );
  });

  it('crypto withdrawal: checked as typed, then followed to SUCCESS, and to FAILED with the refund', async () => {
    const check = await core.call('checkWithdrawal', { ticker: 'ETH', amount: 500, address: 'bc1qnotanethaddress' });
    expect(check.check.problems.map((p) => p.code).sort()).toEqual(['VALIDATION_ERROR', 'WITHDRAWAL_BELOW_MINIMUM']);
    expect(check.minimum).toBe(1000);

    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    demo.setWithdrawalOutcome('SUCCESS');
    const ok = await core.call('createWithdrawal', { ticker: 'ETH', address, amount: 2500, feeLevel: 'LOW' });
    expect(ok.withdrawal.status).toBe('PENDING');
    await until('SUCCESS', async () => {
      const { withdrawals } = await core.call('getWithdrawals', {});
      return withdrawals.find((w) => w.withdrawal.withdrawal_id === ok.withdrawal.withdrawal_id && w.withdrawal.status === 'SUCCESS');
    });

    const before = (await core.call('getPortfolio', {})).user!.balance;
    demo.setWithdrawalOutcome('FAILED');
    const bad = await core.call('createWithdrawal', { ticker: 'ETH', address, amount: 3000, feeLevel: 'HIGH' });
    const failed = await until('FAILED', async () => {
      const { withdrawals } = await core.call('getWithdrawals', {});
      return withdrawals.find((w) => w.withdrawal.withdrawal_id === bad.withdrawal.withdrawal_id && w.withdrawal.status === 'FAILED');
    });
    expect(failed.refunded).toBe(3000);
    expect(failed.statuses.map((s) => s.status)).toEqual(['PENDING', 'CONFIRMING', 'FAILED']);
    expect((await core.call('getPortfolio', {})).user!.balance).toBe(before);
    const titles = platform.notifications.map((n) => n.title);
    expect(titles).toContain(`Demo market · Crypto withdrawal #${ok.withdrawal.withdrawal_id}: sent`);
    expect(titles).toContain(`Demo market · Crypto withdrawal #${bad.withdrawal.withdrawal_id}: failed`);
    const toast = pushes.map((p) => p.payload as Notification).find((n) => n.title === `Demo market · Crypto withdrawal #${bad.withdrawal.withdrawal_id}: failed`);
    expect(toast?.topic).toBe(`withdrawal:${bad.withdrawal.withdrawal_id}`);
  });

  it('the webhook receiver, registered with the demo market, feeds the same tracker', async () => {
    const port = await freePort();
    const view = await core.call('setTradeFeeds', {
      notifyOnStatusChange: true,
      webhook: { enabled: true, port, headerPrefix: 'X-Service-' },
    });
    expect(view.receiver).toMatchObject({ state: 'listening', localUrl: `http://127.0.0.1:${port}/webhook` });
    expect(demo.webhookUrl()).toBe(`http://127.0.0.1:${port}/webhook`);

    const page = await core.call('getBackpack', { limit: 50 });
    const row = page.items.find((i) => i.trade_locked_until === null && i.amount >= 1)!;
    const { withdrawIds } = await core.call('withdrawItems', { items: [{ id: row.id, amount: 1 }] });
    const tracked = await until('a webhook-fed timeline step', async () => {
      const { trades } = await core.call('getTrades', {});
      const t = trades.find((x) => x.trade.withdraw_id === withdrawIds[0]);
      return t?.timeline.some((s) => s.source === 'webhook') ? t : undefined;
    });
    expect(tracked.trade.type).toBe('WITHDRAW');
    expect(core.account.view().receiver.accepted).toBeGreaterThan(0);

    await core.call('setTradeFeeds', { notifyOnStatusChange: true, webhook: { enabled: false, port, headerPrefix: 'X-Service-' } });
    expect(demo.webhookUrl()).toBeNull();
  });

  it('reads stay available offline, from SQLite, with the reason', async () => {
    const fresh = await core.call('getOrders', { page: 1, limit: 10 });
    await demo.close();
    const offline = await core.call('getOrders', { page: 1, limit: 10 });
    expect(offline.orders).toEqual(fresh.orders);
    expect(offline.freshness.fromCache).toBe(true);
    expect(offline.freshness.problem).toMatch(/could not be reached|did not answer/);
  });
});

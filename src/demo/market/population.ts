/**
 * The market at startup, drawn from the seed: the book (`listings` rows, mostly from an anonymous crowd
 * of sellers, some from the simulated traders), 30 days of sales, and the accounts — the demo user with a
 * balance and a history (orders — each also a sale on the market —, transactions, trades, withdrawals), a backpack, an external inventory
 * and listings in every status; traders with enough of each to be used from tests.
 *
 * Rows are appended straight to the store: building the initial state publishes no events, so the
 * first snapshot's seq is exactly --seq-start.
 */
import type { AppId, TradeStatus } from '../../shared/api/index.ts';
import type { CatalogItem } from '../catalog/index.ts';
import { DAY, HOUR, MINUTE } from '../clock.ts';
import { Random } from '../random.ts';
import { tokenAmountFor } from './crypto-conversion.ts';
import { ACTIVE, DISABLED, FILLED, PRIVATE, type ListingExtra, type StatusCode } from './listing-store.ts';
import { ANONYMOUS_SELLER_BASE, ANONYMOUS_SELLERS, SETTLEMENT_MS, decayedPrice, type Market } from './market.ts';
import type { Account, TradeRecord } from './records.ts';
import type { TradeEngine } from './trades.ts';

export const TRADER_NAMES = ['Hedgehog Capital', 'NorthSkins', 'Volt Trading', 'Kestrel', 'Bazaar Bot 7', 'Old Key Holdings'];
/** Traders hold a few hundred listings each, well under the listing ceiling. */
const TRADER_LISTING_TARGET = 250;

export interface Population {
  demoUser: Account;
  traders: Account[];
}

export function populate(market: Market, engine: TradeEngine, listings: number): Population {
  const rng = Random.derive(market.seed, 'population');
  const demoUser = market.registerAccount({ name: 'Demo Trader', simulated: false, balance: 500_000 });
  const traders = TRADER_NAMES.map((name, i) =>
    market.registerAccount({
      name,
      simulated: true,
      balance: 10_000_000,
      // one trader protects withdrawals with two-factor; one holds a key from before webhooks existed
      twoFactor: i === 0,
      legacyKey: i === TRADER_NAMES.length - 1,
    }),
  );
  populateBook(market, rng, listings, traders);
  const sales = drawSales(market, rng, Math.min(60_000, Math.max(3_000, Math.floor(listings / 10))));
  populateDemoUser(market, engine, rng, demoUser, sales);
  recordSales(market, sales);
  for (const trader of traders) populateTrader(market, rng, trader);
  // The demo user's listings were drawn after the crowd's, with older dates: put them in their place.
  const renamed = market.store.orderByCreation();
  const decaying = [...market.decaying].map((id) => renamed.get(id) ?? id);
  market.decaying.clear();
  for (const id of decaying) market.decaying.add(id);
  return { demoUser, traders };
}

/** A plausible asking price for one copy: market value, the copy's premium, a little noise. */
export function askingPrice(rng: Random, item: CatalogItem, assetId: number): number {
  const premium = item.premium({ assetId, createdAt: 0, ownerSteamId: '' });
  return Math.max(1, Math.round(item.basePrice * premium * Math.exp(rng.normal() * 0.08)));
}

/** Copies in a commodity listing: mostly a handful, sometimes a big stack. */
export function stackSize(rng: Random, item: CatalogItem): number {
  if (!item.commodity) return 1;
  return Math.min(200, 1 + Math.floor(-Math.log(1 - rng.next()) * (item.basePrice < 100 ? 8 : 3)));
}

function populateBook(market: Market, rng: Random, count: number, traders: Account[]): void {
  const store = market.store;
  const now = market.now();
  const spacing = Math.max(1, Math.min(MINUTE, Math.floor((30 * DAY) / Math.max(1, count))));
  const traderCounts = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const item = market.catalog.sample(rng);
    const assetId = market.nextId('asset');
    const createdAt = now - (count - i) * spacing + rng.int(0, spacing - 1);
    let seller = ANONYMOUS_SELLER_BASE + rng.int(0, ANONYMOUS_SELLERS - 1);
    if (rng.chance(0.03)) {
      const trader = rng.pick(traders);
      const held = traderCounts.get(trader.id) ?? 0;
      if (held < TRADER_LISTING_TARGET) {
        seller = trader.id;
        traderCounts.set(trader.id, held + 1);
      }
    }
    let price = askingPrice(rng, item, assetId);
    const status: StatusCode = rng.chance(0.003) ? PRIVATE : ACTIVE;
    let extra: ListingExtra | null = status === PRIVATE ? { privateToken: `pt_${rng.hex(16)}` } : null;
    if (price >= 10 && rng.chance(0.0005)) {
      const decay = { start_price: Math.round(price * 1.3), end_price: Math.round(price * 0.8), total_hours: rng.int(24, 168), startedAt: createdAt };
      price = decayedPrice(decay, now);
      extra = { ...extra, decay };
    }
    const index = store.append({ id: market.nextId('listing'), appId: item.appId, item: item.index, price, amount: stackSize(rng, item), createdAt, assetId, seller, status });
    if (extra) {
      store.extra.set(store.id[index]!, extra);
      if (extra.decay) market.decaying.add(store.id[index]!);
    }
  }
}

/** One sale of the opening history, before it has an id. */
interface SeededSale {
  item: CatalogItem;
  soldAt: number;
  price: number;
  amount: number;
  refunded: boolean;
}

/** The crowd's sales of the last 33 days (recorded later, with the demo user's: recordSales). */
function drawSales(market: Market, rng: Random, count: number): SeededSale[] {
  const now = market.now();
  return Array.from({ length: count }, () => {
    const item = market.catalog.sample(rng);
    return {
      item,
      // a few fall just outside the 30-day window, so the averages have something to leave out
      soldAt: now - Math.floor(rng.next() * 33 * DAY),
      price: Math.max(1, Math.round(item.basePrice * Math.exp(rng.normal() * 0.1))),
      amount: item.commodity ? rng.int(1, 5) : 1,
      refunded: rng.chance(0.015),
    };
  });
}

/**
 * Records the opening sales oldest first, so ids and the sales list (newest first by recording order)
 * follow the time they were sold: the crowd's and the demo user's order lines alike, since a line in
 * the user's order history is a sale on the market, and every route that shows sales shows it.
 */
function recordSales(market: Market, sales: SeededSale[]): void {
  sales.sort((a, b) => a.soldAt - b.soldAt);
  for (const s of sales) {
    market.sales.record({ id: market.nextId('sale'), appId: s.item.appId, item: s.item.index, name: s.item.name, price: s.price, amount: s.amount, soldAt: s.soldAt, refunded: s.refunded });
  }
}

/** A catalog item of one game matching a predicate (bounded search over weighted samples). */
function pick(market: Market, rng: Random, appId: AppId, wanted: (item: CatalogItem) => boolean): CatalogItem {
  for (let i = 0; i < 5_000; i++) {
    const item = market.catalog.sample(rng, appId);
    if (wanted(item)) return item;
  }
  const fallback = market.catalog.byApp.get(appId)!.find(wanted);
  if (!fallback) throw new Error(`no catalog item of app ${appId} fits`);
  return fallback;
}
const named = (market: Market, name: string): CatalogItem => {
  const item = market.catalog.byName.get(name);
  if (!item) throw new Error(`catalog lacks ${name}`);
  return item;
};
const isSkin = (item: CatalogItem) => item.appId === 730 && !item.commodity;
const isCommodity = (item: CatalogItem) => item.commodity;

function populateDemoUser(market: Market, engine: TradeEngine, rng: Random, user: Account, sales: SeededSale[]): void {
  const now = market.now();

  // Backpack: unique skins (two inside a trade hold) and commodity quantities of every game.
  for (let i = 0; i < 8; i++) {
    market.addToBackpack(user, pick(market, rng, 730, isSkin), 1, { tradeLockedUntil: i < 2 ? now + (3 + i) * DAY : null });
  }
  for (let i = 0; i < 3; i++) market.addToBackpack(user, pick(market, rng, 730, isCommodity), rng.int(5, 40));
  for (const app of [252490, 570] as const) for (let i = 0; i < 3; i++) market.addToBackpack(user, pick(market, rng, app, isCommodity), rng.int(2, 15));
  market.addToBackpack(user, named(market, 'Mann Co. Supply Crate Key'), 25);
  market.addToBackpack(user, named(market, 'Refined Metal'), 60);

  // External inventory: tradable and held items, commodities split over several stacks.
  const addStack = (item: CatalogItem, amount: number, tradable = true) => {
    const assetId = market.nextId('asset');
    user.inventory.set(assetId, { assetId, item: item.index, amount, tradable, heldBy: null });
  };
  for (let i = 0; i < 10; i++) addStack(pick(market, rng, 730, isSkin), 1, i >= 8 ? false : true);
  const caseItem = pick(market, rng, 730, (item) => item.commodity && item.describe({ assetId: 1, createdAt: 0, ownerSteamId: '' }).cs_type === 'Container');
  addStack(caseItem, 3);
  addStack(caseItem, 7);
  addStack(pick(market, rng, 730, isCommodity), 12);
  for (let i = 0; i < 4; i++) addStack(pick(market, rng, 252490, isCommodity), rng.int(1, 30));
  for (let i = 0; i < 3; i++) addStack(pick(market, rng, 570, isCommodity), rng.int(1, 6));
  addStack(pick(market, rng, 570, (item) => !item.commodity), 1);
  addStack(named(market, 'Mann Co. Supply Crate Key'), 10);
  addStack(named(market, 'Mann Co. Supply Crate Key'), 15);
  addStack(pick(market, rng, 440, (item) => !item.commodity), 1);
  addStack(pick(market, rng, 440, (item) => !item.commodity), 1, false);

  // Listings in every status; none publishes an event (they are part of the opening book).
  const list = (item: CatalogItem, amount: number, status: StatusCode, extra: ListingExtra = {}, createdAt = now - rng.int(1, 72) * HOUR) => {
    const assetId = market.nextId('asset');
    const price = extra.decay ? decayedPrice(extra.decay, now) : askingPrice(rng, item, assetId);
    const index = market.store.append({ id: market.nextId('listing'), appId: item.appId, item: item.index, price, amount, createdAt, assetId, seller: user.id, status });
    market.store.extra.set(market.store.id[index]!, { tradeLockedUntil: null, ...extra });
    if (extra.decay) market.decaying.add(market.store.id[index]!);
    return index;
  };
  for (let i = 0; i < 3; i++) list(pick(market, rng, 730, isSkin), 1, ACTIVE);
  list(pick(market, rng, 730, isCommodity), 5, ACTIVE);
  list(pick(market, rng, 252490, isCommodity), 12, ACTIVE);
  const decayItem = pick(market, rng, 730, (item) => isSkin(item) && item.basePrice >= 500);
  list(decayItem, 1, ACTIVE, {
    decay: { start_price: Math.round(decayItem.basePrice * 1.4), end_price: Math.round(decayItem.basePrice * 0.9), total_hours: 72, startedAt: now - 6 * HOUR },
  });
  list(pick(market, rng, 730, isSkin), 1, PRIVATE, { privateToken: `pt_${rng.hex(16)}` });
  list(pick(market, rng, 570, isCommodity), 3, PRIVATE, { privateToken: `pt_${rng.hex(16)}` });
  list(pick(market, rng, 730, isSkin), 1, DISABLED);
  list(pick(market, rng, 440, isCommodity), 4, DISABLED);

  // History, applied in time order so the running balance reads right.
  type Step = { at: number; apply: () => void };
  const steps: Step[] = [];
  const recordBuy = (orderId: number, item: CatalogItem, amount: number, price: number, at: number) => {
    const total = price * amount;
    market.moveBalance(user, 'PURCHASE', -total, `Bought ${amount} × ${item.name}`, orderId, at);
    market.recordOrderItem(user, { orderId, side: 'bought', appId: item.appId, item: item.index, name: item.name, price, amount, createdAt: at, settlesAt: at });
    sales.push({ item, soldAt: at, price, amount, refunded: false });
  };
  const recordSale = (orderId: number, item: CatalogItem, amount: number, price: number, at: number) => {
    market.creditSale(user, item, amount, price, orderId, at);
    market.recordOrderItem(user, { orderId, side: 'sold', appId: item.appId, item: item.index, name: item.name, price, amount, createdAt: at, settlesAt: at + market.clock.scaled(SETTLEMENT_MS) });
    sales.push({ item, soldAt: at, price, amount, refunded: false });
    // the listing it came from is now FILLED
    const index = market.store.append({ id: market.nextId('listing'), appId: item.appId, item: item.index, price, amount: 0, createdAt: at - rng.int(1, 48) * HOUR, assetId: market.nextId('asset'), seller: user.id, status: ACTIVE });
    market.store.setStatus(index, FILLED);
  };
  for (let n = 0; n < 24; n++) {
    const at = now - rng.int(2, 55 * 24) * HOUR;
    const bought = rng.chance(0.6);
    const lines = rng.chance(0.25) ? 2 : 1;
    steps.push({
      at,
      apply: () => {
        const orderId = market.nextId('order');
        for (let l = 0; l < lines; l++) {
          const app = rng.pick([730, 730, 730, 252490, 570, 440] as const);
          const item = pick(market, rng, app, () => true);
          const amount = item.commodity ? rng.int(1, 4) : 1;
          const price = askingPrice(rng, item, market.nextId('asset'));
          if (bought) recordBuy(orderId, item, amount, price, at);
          else recordSale(orderId, item, amount, price, at);
        }
      },
    });
  }
  // Flips: bought, then sold again days later at a profit or a loss, as a trader's history has them.
  for (let n = 0; n < 6; n++) {
    const boughtAt = now - rng.int(10 * 24, 50 * 24) * HOUR;
    const soldAt = boughtAt + rng.int(24, 8 * 24) * HOUR;
    const item = pick(market, rng, rng.pick([730, 730, 252490, 570, 440] as const), () => true);
    const amount = item.commodity ? rng.int(2, 5) : 1;
    const paid = askingPrice(rng, item, market.nextId('asset'));
    const sold = Math.max(1, Math.round(paid * (0.85 + rng.next() * 0.45)));
    steps.push({ at: boughtAt, apply: () => recordBuy(market.nextId('order'), item, amount, paid, boughtAt) });
    steps.push({ at: soldAt, apply: () => recordSale(market.nextId('order'), item, amount, sold, soldAt) });
  }
  const withdrawal = (at: number, amount: number, ticker: 'BTC' | 'ETH', failed: boolean) =>
    steps.push({
      at,
      apply: () => {
        const id = market.nextId('withdrawal');
        user.withdrawals.set(id, {
          id,
          status: failed ? 'FAILED' : 'SUCCESS',
          balanceAmount: amount,
          tokenAmount: tokenAmountFor(amount, ticker),
          ticker,
          address: ticker === 'BTC' ? 'bc1qdemo0address0for0skindesk0xk2v9' : '0xdemo00000000000000000000000000000000beef',
          feeLevel: 'LOW',
          createdAt: at,
          txHash: rng.hex(32),
          networkFee: ticker === 'BTC' ? '0.00001200' : '0.00021000',
        });
        market.moveBalance(user, 'CRYPTO_WITHDRAWAL', -amount, `Withdrawal to ${ticker}`, id, at);
        if (failed) market.moveBalance(user, 'CRYPTO_REFUND', amount, `Refund of failed withdrawal ${id}`, id, at + HOUR);
      },
    });
  withdrawal(now - 20 * DAY, 15_000, 'BTC', false);
  withdrawal(now - 9 * DAY, 5_000, 'ETH', true);
  for (const step of steps.sort((a, b) => a.at - b.at)) step.apply();
  // Completed trades, newest last.
  const pastTrade = (type: TradeRecord['type'], status: TradeStatus, daysAgo: number, app: AppId) => {
    const item = pick(market, rng, app, () => true);
    const amount = item.commodity ? rng.int(1, 10) : 1;
    const at = now - daysAgo * DAY;
    const trade: TradeRecord = {
      id: market.nextId('trade'),
      accountId: user.id,
      type,
      status,
      depositId: type === 'WITHDRAW' ? null : market.nextId('deposit'),
      withdrawId: type === 'WITHDRAW' ? market.nextId('withdraw') : null,
      steamOfferId: String(market.nextId('offer')),
      value: item.basePrice * amount,
      error: status === 'Declined' ? 'The trade offer was declined.' : status === 'Expired' ? 'The trade offer expired before it was accepted.' : null,
      createdAt: at,
      updatedAt: at + 40 * MINUTE,
      items: [{ appId: item.appId, item: item.index, assetId: market.nextId('asset'), amount, value: item.basePrice * amount }],
      payload: { kind: 'DEPOSIT', entries: [] },
    };
    user.trades.push(trade);
  };
  pastTrade('SELL', 'Accepted', 30, 730);
  pastTrade('DEPOSIT', 'Accepted', 15, 252490);
  pastTrade('WITHDRAW', 'Accepted', 12, 730);
  pastTrade('SELL', 'Declined', 5, 570);
  pastTrade('WITHDRAW', 'Expired', 2, 440);
  // One deposit still in flight: it moves on by itself after startup (and fires webhooks).
  const inFlightItem = pick(market, rng, 252490, isCommodity);
  const heldAsset = market.nextId('asset');
  user.inventory.set(heldAsset, { assetId: heldAsset, item: inFlightItem.index, amount: 2, tradable: true, heldBy: null });
  const trade = engine.open(user, 'DEPOSIT', [{ appId: inFlightItem.appId, item: inFlightItem.index, assetId: heldAsset, amount: 2, value: inFlightItem.basePrice * 2 }], {
    kind: 'DEPOSIT',
    entries: [{ assetId: heldAsset, amount: 2 }],
  });
  user.inventory.get(heldAsset)!.heldBy = trade.id;
}

function populateTrader(market: Market, rng: Random, trader: Account): void {
  for (let i = 0; i < 3; i++) market.addToBackpack(trader, pick(market, rng, 730, isCommodity), rng.int(5, 50));
  for (let i = 0; i < 2; i++) market.addToBackpack(trader, pick(market, rng, 730, isSkin), 1);
  for (let i = 0; i < 4; i++) {
    const item = pick(market, rng, 730, isSkin);
    const assetId = market.nextId('asset');
    trader.inventory.set(assetId, { assetId, item: item.index, amount: 1, tradable: true, heldBy: null });
  }
  const keys = named(market, 'Mann Co. Supply Crate Key');
  const assetId = market.nextId('asset');
  trader.inventory.set(assetId, { assetId, item: keys.index, amount: 40, tradable: true, heldBy: null });
}

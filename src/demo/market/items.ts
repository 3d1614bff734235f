/**
 * Moving items between the external platform and the market (spec §4.4, §4.5): the external inventory
 * with its signed tokens, sell (offer, then listings), deposit (offer, then backpack) and withdraw
 * (backpack, then offer). One trade offer per game; caps of 500 copies per game's offer and 15 trades in
 * flight; a token works only for its own account for 30 minutes.
 */
import {
  LIMITS,
  type AppId,
  type InventoryItem,
} from '../../shared/api/index.ts';
import type { CatalogItem } from '../catalog/index.ts';
import { MarketError } from './errors.ts';
import type { Market } from './market.ts';
import type { Account, BackpackRow, InventoryRow, TradeItemRecord } from './records.ts';
import type { TradeEngine } from './trades.ts';

export function steamInventory(market: Market, account: Account, appId: AppId): InventoryItem[] {
  const now = market.now();
  const rows: InventoryItem[] = [];
  for (const row of account.inventory.values()) {
    const item = market.catalog.items[row.item]!;
    if (item.appId !== appId || row.heldBy !== null) continue;
    rows.push({
      token: market.tokens.issue({ accountId: account.id, assetId: row.assetId, issuedAt: now }),
      app_id: appId,
      steam_asset_id: String(row.assetId),
      market_hash_name: item.name,
      amount: row.amount,
      commodity: item.commodity,
      tradable: row.tradable,
      market_price: item.basePrice,
      recommended_price: recommendedPrice(item),
      icon_url: item.iconUrl,
    });
  }
  return rows;
}

export function recommendedPrice(item: CatalogItem): number {
  return Math.max(1, Math.round(item.basePrice * 0.97));
}

interface TokenEntry {
  token: string;
  amount: number;
}
interface Drawn {
  row: InventoryRow;
  item: CatalogItem;
  amount: number;
}

/** Resolves tokens to inventory rows, checking ownership, expiry, tradability and quantities. */
function drawFromInventory(market: Market, account: Account, entries: readonly TokenEntry[], where: (n: number) => Record<string, unknown>): Drawn[] {
  const now = market.now();
  const used = new Map<number, number>();
  return entries.map((entry, n) => {
    const check = market.tokens.check(entry.token, account.id, now);
    if (!check.ok) throw new MarketError('INVALID_ITEM_TOKEN', `item token ${n}: ${check.reason}; read the inventory again`, where(n));
    const row = account.inventory.get(check.claims.assetId);
    if (!row || row.heldBy !== null) {
      throw new MarketError('INVALID_ITEM_TOKEN', `item token ${n}: the item is no longer in the inventory`, where(n));
    }
    if (!row.tradable) throw new MarketError('ITEM_NOT_TRADABLE', `item token ${n}: the platform still holds this item`, where(n));
    const total = (used.get(row.assetId) ?? 0) + entry.amount;
    if (total > row.amount) {
      throw new MarketError('INSUFFICIENT_ITEMS', `item token ${n}: ${total} copies requested, the stack holds ${row.amount}`, { ...where(n), available: row.amount });
    }
    used.set(row.assetId, total);
    return { row, item: market.catalog.items[row.item]!, amount: entry.amount };
  });
}

function checkTradeCaps(engine: TradeEngine, account: Account, copiesPerGame: Map<AppId, number>): void {
  for (const [appId, copies] of copiesPerGame) {
    if (copies > LIMITS.copiesPerGameOffer) {
      throw new MarketError('DEPOSIT_ITEM_LIMIT', `the offer for app ${appId} would carry ${copies} copies; at most ${LIMITS.copiesPerGameOffer}`, { app_id: appId, copies });
    }
  }
  const inFlight = engine.inFlightCount(account);
  if (inFlight + copiesPerGame.size > LIMITS.tradesInFlight) {
    throw new MarketError('ACTIVE_TRADE_LIMIT', `${inFlight} trades are in flight; ${copiesPerGame.size} more would pass the limit of ${LIMITS.tradesInFlight}`, { in_flight: inFlight });
  }
}

/** Takes `amount` copies of a stack for an offer: the whole row, or a split-off part with its own asset id. */
function holdForTrade(market: Market, account: Account, drawn: Drawn, tradeId: number): number {
  const { row, amount } = drawn;
  if (amount === row.amount) {
    row.heldBy = tradeId;
    return row.assetId;
  }
  row.amount -= amount;
  const assetId = market.nextId('asset');
  account.inventory.set(assetId, { assetId, item: row.item, amount, tradable: true, heldBy: tradeId });
  return assetId;
}

const tradeItem = (item: CatalogItem, assetId: number, amount: number): TradeItemRecord => ({
  appId: item.appId,
  item: item.index,
  assetId,
  amount,
  value: item.basePrice * amount,
});

export function sell(market: Market, engine: TradeEngine, account: Account, groups: readonly { items: readonly TokenEntry[]; price: number }[]): number[] {
  const flat = groups.flatMap((g, gi) => g.items.map((entry, ei) => ({ entry, gi, ei })));
  const drawn = drawFromInventory(market, account, flat.map((f) => f.entry), (n) => ({ group: flat[n]!.gi, entry: flat[n]!.ei }));
  const perGame = new Map<AppId, { copies: number; groups: { price: number; parts: Drawn[] }[] }>();
  let cursor = 0;
  groups.forEach((group, gi) => {
    const parts = drawn.slice(cursor, cursor + group.items.length);
    cursor += group.items.length;
    const item = parts[0]!.item;
    if (parts.some((p) => p.item !== item)) {
      throw new MarketError('VALIDATION_ERROR', `group ${gi}: different items need separate groups`, { group: gi });
    }
    const copies = parts.reduce((s, p) => s + p.amount, 0);
    if (!item.commodity && copies !== 1) {
      throw new MarketError('VALIDATION_ERROR', `group ${gi}: a non-commodity item is listed one copy per group`, { group: gi });
    }
    const game = perGame.get(item.appId) ?? { copies: 0, groups: [] };
    game.copies += copies;
    game.groups.push({ price: group.price, parts });
    perGame.set(item.appId, game);
  });
  checkTradeCaps(engine, account, new Map([...perGame].map(([app, g]) => [app, g.copies])));
  const newCopies = [...perGame.values()].reduce((s, g) => s + g.copies, 0);
  checkListingCeiling(market, engine, account, newCopies);

  const depositIds: number[] = [];
  for (const game of perGame.values()) {
    const trade = engine.open(account, 'SELL', [], { kind: 'SELL', groups: [] });
    for (const group of game.groups) {
      const entries = group.parts.map((part) => ({ assetId: holdForTrade(market, account, part, trade.id), amount: part.amount }));
      if (trade.payload.kind === 'SELL') trade.payload.groups.push({ price: group.price, entries });
      group.parts.forEach((part, i) => trade.items.push(tradeItem(part.item, entries[i]!.assetId, part.amount)));
    }
    trade.value = trade.items.reduce((s, i) => s + i.value, 0);
    depositIds.push(trade.depositId!);
  }
  return depositIds;
}

export function deposit(market: Market, engine: TradeEngine, account: Account, entries: readonly TokenEntry[]): number[] {
  const drawn = drawFromInventory(market, account, entries, (n) => ({ item: n }));
  const perGame = new Map<AppId, Drawn[]>();
  for (const d of drawn) perGame.set(d.item.appId, [...(perGame.get(d.item.appId) ?? []), d]);
  checkTradeCaps(engine, account, new Map([...perGame].map(([app, list]) => [app, list.reduce((s, d) => s + d.amount, 0)])));

  const depositIds: number[] = [];
  for (const list of perGame.values()) {
    const trade = engine.open(account, 'DEPOSIT', [], { kind: 'DEPOSIT', entries: [] });
    for (const d of list) {
      const assetId = holdForTrade(market, account, d, trade.id);
      if (trade.payload.kind === 'DEPOSIT') trade.payload.entries.push({ assetId, amount: d.amount });
      trade.items.push(tradeItem(d.item, assetId, d.amount));
    }
    trade.value = trade.items.reduce((s, i) => s + i.value, 0);
    depositIds.push(trade.depositId!);
  }
  return depositIds;
}

export function withdraw(market: Market, engine: TradeEngine, account: Account, entries: readonly { id: number; amount: number }[]): number[] {
  const used = new Map<number, number>();
  const picked = entries.map((entry, n) => {
    const row = account.backpack.get(entry.id);
    if (!row) throw new MarketError('BACKPACK_ITEM_NOT_FOUND', `item ${n}: backpack item ${entry.id} does not exist`, { item: n, id: entry.id });
    if (market.isTradeLocked(row)) throw new MarketError('ITEM_NOT_TRADABLE', `item ${n}: backpack item ${entry.id} is inside a trade hold`, { item: n, id: entry.id });
    const total = (used.get(row.id) ?? 0) + entry.amount;
    if (total > row.amount) {
      throw new MarketError('INSUFFICIENT_ITEMS', `item ${n}: ${total} copies requested, the backpack row holds ${row.amount}`, { item: n, id: entry.id, available: row.amount });
    }
    used.set(row.id, total);
    return { row, amount: entry.amount, item: market.catalog.items[row.item]! };
  });
  const perGame = new Map<AppId, typeof picked>();
  for (const p of picked) perGame.set(p.item.appId, [...(perGame.get(p.item.appId) ?? []), p]);
  const inFlight = engine.inFlightCount(account);
  if (inFlight + perGame.size > LIMITS.tradesInFlight) {
    throw new MarketError('ACTIVE_TRADE_LIMIT', `${inFlight} trades are in flight; ${perGame.size} more would pass the limit of ${LIMITS.tradesInFlight}`, { in_flight: inFlight });
  }

  const withdrawIds: number[] = [];
  for (const list of perGame.values()) {
    const rows: BackpackRow[] = list.map((p) => ({ ...p.row, amount: p.amount }));
    for (const p of list) market.takeFromBackpack(account, p.row, p.amount);
    const trade = engine.open(account, 'WITHDRAW', list.map((p) => tradeItem(p.item, p.row.assetId, p.amount)), { kind: 'WITHDRAW', rows });
    withdrawIds.push(trade.withdrawId!);
  }
  return withdrawIds;
}

/** LISTING_LIMIT_REACHED: listed items plus items on their way to being listed, against the ceiling. */
export function checkListingCeiling(market: Market, engine: TradeEngine, account: Account, adding: number): void {
  const listed = market.listedItemCount(account.id) + engine.pendingSellCopies(account);
  if (listed + adding > LIMITS.listedItemsCeiling) {
    throw new MarketError('LISTING_LIMIT_REACHED', `${listed} items are listed; ${adding} more would pass the ceiling of ${LIMITS.listedItemsCeiling}`, { listed, ceiling: LIMITS.listedItemsCeiling });
  }
}

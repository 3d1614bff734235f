/**
 * A seller's own listings (spec §4.4): POST /list (backpack → market), PATCH /list (rules 1–6) and
 * POST /delist, single and bulk. Each listing edit or removal is its own transaction: a bulk call applies
 * rows one by one and reports each row's outcome in `results`.
 */
import { type BulkResult, type ErrorCode, type LeanListing, type PriceDecayRequest } from '../../shared/api/index.ts';
import type { CatalogItem } from '../catalog/index.ts';
import { MarketError } from './errors.ts';
import { checkListingCeiling } from './items.ts';
import { DISABLED, PRIVATE, isLive, type StatusCode } from './listing-store.ts';
import type { Market } from './market.ts';
import type { Account, BackpackRow } from './records.ts';
import type { TradeEngine } from './trades.ts';

export interface ListGroup {
  items: readonly { id: number; amount: number }[];
  price?: number | undefined;
  price_decay?: PriceDecayRequest | undefined;
}

export function listItems(market: Market, engine: TradeEngine, account: Account, groups: readonly ListGroup[]): LeanListing[] {
  const drawn = new Map<number, number>();
  const plans = groups.map((group, gi) => {
    let item: CatalogItem | null = null;
    let amount = 0;
    let lock: number | null = null;
    const parts: { row: BackpackRow; amount: number }[] = [];
    group.items.forEach((entry, ei) => {
      const row = account.backpack.get(entry.id);
      if (!row) throw new MarketError('BACKPACK_ITEM_NOT_FOUND', `group ${gi}: backpack item ${entry.id} does not exist`, { group: gi, entry: ei, id: entry.id });
      const rowItem = market.catalog.items[row.item]!;
      if (item && rowItem !== item) throw new MarketError('VALIDATION_ERROR', `group ${gi}: different items need separate groups`, { group: gi, entry: ei });
      item = rowItem;
      // One commodity row is one pool, however many groups draw from it (rule 2).
      const total = (drawn.get(row.id) ?? 0) + entry.amount;
      if (total > row.amount) {
        throw new MarketError('INSUFFICIENT_ITEMS', `backpack item ${row.id} holds ${row.amount}; ${total} requested in total`, { group: gi, entry: ei, id: row.id, available: row.amount });
      }
      drawn.set(row.id, total);
      amount += entry.amount;
      if (market.isTradeLocked(row)) lock = Math.max(lock ?? 0, row.tradeLockedUntil!);
      parts.push({ row, amount: entry.amount });
    });
    const groupItem = item as CatalogItem | null;
    if (!groupItem) throw new MarketError('VALIDATION_ERROR', `group ${gi} is empty`, { group: gi });
    if (!groupItem.commodity && amount !== 1) {
      throw new MarketError('VALIDATION_ERROR', `group ${gi}: a non-commodity item is listed one copy per group`, { group: gi });
    }
    return { item: groupItem, amount, lock, parts, price: group.price, decay: group.price_decay };
  });
  checkListingCeiling(market, engine, account, plans.reduce((s, p) => s + p.amount, 0));

  return plans.map((plan) => {
    for (const part of plan.parts) market.takeFromBackpack(account, part.row, part.amount);
    const first = plan.parts[0]!.row;
    const index = market.createListing({
      seller: account.id,
      item: plan.item,
      price: plan.decay ? plan.decay.start_price : plan.price!,
      amount: plan.amount,
      assetId: plan.item.commodity ? undefined : first.assetId,
      extra: {
        tradeLockedUntil: plan.lock,
        ...(plan.item.commodity ? {} : { backpackId: first.id }),
        ...(plan.decay ? { decay: { ...plan.decay, startedAt: market.now() } } : {}),
      },
    });
    return market.lean(index);
  });
}

/** Row index of one of the caller's listings that is still on the market; LISTING_NOT_FOUND otherwise. */
function ownLiveListing(market: Market, account: Account, listingId: number): number {
  const index = market.store.indexOf(listingId);
  if (index < 0 || market.store.seller[index] !== account.id || !isLive(market.store.status[index]!)) {
    throw new MarketError('LISTING_NOT_FOUND', `listing ${listingId} is not one of your listings on the market`, { listing_id: listingId });
  }
  return index;
}

/**
 * Row index of one of the caller's listings that can be bought: PATCH /list "edits active listings"
 * (spec §4.4). A private listing is on the market (bought through its share link); a disabled one is not,
 * so it is refused. The spec names no code for that; LISTING_NOT_FOUND is its one code for a listing a
 * call cannot act on (a private listing bought without its token gets it too).
 */
function ownActiveListing(market: Market, account: Account, listingId: number): number {
  const index = ownLiveListing(market, account, listingId);
  if (market.store.status[index] === DISABLED) {
    throw new MarketError('LISTING_NOT_FOUND', `listing ${listingId} is disabled; only active listings can be edited`, { listing_id: listingId });
  }
  return index;
}

export interface ListingEdit {
  listing_id: number;
  price?: number | undefined;
  amount?: number | undefined;
  price_decay?: PriceDecayRequest | undefined;
}

export function editListing(market: Market, engine: TradeEngine, account: Account, edit: ListingEdit): LeanListing {
  const store = market.store;
  const index = ownActiveListing(market, account, edit.listing_id);
  // A decaying listing's "old price" (rule 4's split, the answer when only amount changes) is its price now.
  market.syncDecay(index);
  const item = market.itemAt(index);
  const current = store.amount[index]!;
  // Rule 1: price_decay is sent instead of price and counts as a price in every rule below.
  const priceSent = edit.price !== undefined || edit.price_decay !== undefined;
  const extra = store.extraOf(edit.listing_id);
  const lock = extra?.tradeLockedUntil ?? null;

  if (edit.amount !== undefined && edit.amount > current) {
    // Rule 2: more of the same item from the backpack (copies inside a trade hold cannot join a stack).
    const need = edit.amount - current;
    const available = item.commodity ? market.unlockedCopies(account, item.index) : 0;
    if (available < need) {
      throw new MarketError('INSUFFICIENT_ITEMS', `the backpack has ${available} more copies of ${item.name}; ${need} needed`, { listing_id: edit.listing_id, available });
    }
    checkListingCeiling(market, engine, account, need);
    let left = need;
    for (const row of [...account.backpack.values()].sort((a, b) => a.id - b.id)) {
      if (left === 0) break;
      if (row.item !== item.index || market.isTradeLocked(row)) continue;
      const take = Math.min(left, row.amount);
      market.takeFromBackpack(account, row, take);
      left -= take;
    }
    market.setListingAmount(index, edit.amount);
  } else if (edit.amount !== undefined && edit.amount < current) {
    const surplus = current - edit.amount;
    market.setListingAmount(index, edit.amount);
    if (priceSent) {
      // Rule 4: partial reprice — the surplus stays on the market, in a new listing at the old price
      // (a private one stays private, with a share link of its own).
      const status = store.status[index] as StatusCode;
      market.createListing({
        seller: account.id,
        item,
        price: store.price[index]!,
        amount: surplus,
        status,
        extra: {
          tradeLockedUntil: lock,
          ...(extra?.decay ? { decay: { ...extra.decay } } : {}),
          ...(status === PRIVATE ? { privateToken: newPrivateToken(market) } : {}),
        },
      });
    } else {
      // Rule 3: the surplus returns to the backpack.
      market.addToBackpack(account, item, surplus, { tradeLockedUntil: lock });
    }
  }

  if (edit.price_decay) market.setDecay(index, edit.price_decay);
  else if (edit.price !== undefined) {
    // Rule 5: price alone reprices the whole stack in place (and ends any decay).
    market.setDecay(index, null);
    market.setListingPrice(index, edit.price);
  }
  // Rule 6: the answer is the edited listing; a split-off listing is found through my-listings.
  return market.lean(index);
}

export function delistListing(market: Market, account: Account, listingId: number): void {
  const store = market.store;
  const index = ownLiveListing(market, account, listingId);
  const item = market.itemAt(index);
  const amount = store.amount[index]!;
  const extra = store.extraOf(listingId);
  const assetId = store.asset[index]!;
  const lock = extra?.tradeLockedUntil ?? null;
  const backpackId = extra?.backpackId;
  market.removeListing(index);
  market.addToBackpack(account, item, amount, {
    assetId: item.commodity ? undefined : assetId,
    tradeLockedUntil: lock,
    ...(backpackId !== undefined ? { rowId: backpackId } : {}),
  });
}

/** Applies `fn` to each row in its own transaction, reporting each outcome (spec §4.4 bulk forms). */
export function eachInOwnTransaction<T extends { listing_id: number } | number>(rows: readonly T[], fn: (row: T) => void): BulkResult[] {
  return rows.map((row) => {
    const listingId = typeof row === 'number' ? row : row.listing_id;
    try {
      fn(row);
      return { ok: true, error: null, listing_id: listingId };
    } catch (err) {
      if (err instanceof MarketError) return { ok: false, error: err.code satisfies ErrorCode, listing_id: listingId };
      throw err;
    }
  });
}

export function newPrivateToken(market: Market): string {
  return `pt_${market.random.tokens.hex(16)}`;
}


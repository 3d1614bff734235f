/**
 * POST /purchase (spec §4.3): every line is checked before anything moves, so a purchase either buys all
 * of its lines or nothing. `max_price` is a ceiling (a cheaper listing fills at its own price); a private
 * listing without its token is indistinguishable from a missing one.
 */
import type { PurchaseResult } from '../../shared/api/index.ts';
import { iso } from '../clock.ts';
import { MarketError } from './errors.ts';
import { ACTIVE, PRIVATE } from './listing-store.ts';
import type { Market } from './market.ts';
import type { Account } from './records.ts';

export interface PurchaseLine {
  listing_id: number;
  amount: number;
  max_price: number;
  private_token?: string | undefined;
}

export function purchase(market: Market, buyer: Account, lines: readonly PurchaseLine[]): PurchaseResult {
  const store = market.store;
  const taken = new Map<number, number>();
  const indexes: number[] = [];
  let total = 0;
  // One instant for the whole purchase: a decaying listing is checked against max_price and sold at the
  // same price, its curve's point now (spec §2.2).
  const now = market.now();
  lines.forEach((line, n) => {
    const fail = (code: 'LISTING_NOT_FOUND' | 'LISTING_PRICE_CHANGED' | 'INSUFFICIENT_ITEMS' | 'VALIDATION_ERROR', message: string, extra: Record<string, unknown> = {}) => {
      throw new MarketError(code, `line ${n}: ${message}`, { line: n, listing_id: line.listing_id, ...extra });
    };
    const index = store.indexOf(line.listing_id);
    const status = index < 0 ? 0 : store.status[index];
    const visible =
      status === ACTIVE ||
      (status === PRIVATE && line.private_token !== undefined && line.private_token === store.extraOf(line.listing_id)?.privateToken);
    if (!visible) fail('LISTING_NOT_FOUND', `listing ${line.listing_id} does not exist`);
    if (store.seller[index] === buyer.id) fail('VALIDATION_ERROR', 'you cannot buy your own listing');
    const price = market.syncDecay(index, now);
    if (price > line.max_price) fail('LISTING_PRICE_CHANGED', `listing ${line.listing_id} now costs ${price}, above max_price ${line.max_price}`, { price });
    const wanted = (taken.get(index) ?? 0) + line.amount;
    if (wanted > store.amount[index]!) {
      fail('INSUFFICIENT_ITEMS', `listing ${line.listing_id} has ${store.amount[index]} copies, ${wanted} requested`, { available: store.amount[index] });
    }
    taken.set(index, wanted);
    indexes.push(index);
    total += price * line.amount;
  });
  if (total > buyer.balance) {
    throw new MarketError('INSUFFICIENT_BALANCE', `the purchase costs ${total} cents; the balance is ${buyer.balance}`, { total, balance: buyer.balance });
  }

  const orderId = market.nextId('order');
  const items = lines.map((line, n) => {
    const index = indexes[n]!;
    const item = market.itemAt(index);
    const assetId = store.asset[index]!;
    const lock = market.tradeLockOf(index);
    const { price } = market.sellFromListing(index, line.amount, orderId, now);
    market.moveBalance(buyer, 'PURCHASE', -price * line.amount, `Bought ${line.amount} × ${item.name}`, orderId);
    const orderItem = market.recordOrderItem(buyer, {
      orderId,
      side: 'bought',
      appId: item.appId,
      item: item.index,
      name: item.name,
      price,
      amount: line.amount,
      createdAt: now,
      settlesAt: now,
    });
    // Bought copies land in the backpack (withdraw sends them on), keeping any trade hold they had.
    const row = market.addToBackpack(buyer, item, line.amount, { assetId: item.commodity ? undefined : assetId, tradeLockedUntil: lock });
    return {
      order_item_id: orderItem.orderItemId,
      app_id: item.appId,
      market_hash_name: item.name,
      steam_asset_id: String(item.commodity ? row.assetId : assetId),
      price,
      amount: line.amount,
    };
  });
  return { order_id: orderId, created_at: iso(now), items };
}

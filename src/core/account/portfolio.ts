/**
 * The portfolio's value over time, from what the app has seen: balance, value listed at asking prices
 * (`my-listings/value`) and the external inventory at market prices. The marketplace keeps no such
 * history, so each refresh of the portfolio screen adds a point; unchanged values within
 * `minIntervalMs` are not stored again, so leaving the screen open does not grow the table.
 */
import type Database from 'better-sqlite3';
import type { AppId, BackpackItem, InventoryItem, Trade } from '../../shared/api/index.ts';
import { createDeskTables } from '../store/desk.ts';
import { itemKey } from '../../shared/item-key.ts';

export interface PortfolioPoint {
  at: number;
  balance: number;
  listedValue: number;
  inventoryValue: number;
}

/** Inventory value at market prices: `market_price` is per copy, a row covers `amount` copies. */
export function inventoryValue(items: readonly Pick<InventoryItem, 'market_price' | 'amount'>[]): number {
  return items.reduce((sum, it) => sum + it.market_price * it.amount, 0);
}

/**
 * A stored inventory read less the copies that sale and deposit offers accepted since the read took out
 * of it (they are listed or in the backpack now, and counted there). Such a trade names the exact asset
 * ids and copies, so a stale read need not count them twice. Part of a stack goes into an offer under an
 * asset id of its own, split off the stack when the offer is made: copies whose asset id the read does
 * not hold come out of its stacks of the same item when `splitAfterRead` says the offer may have been
 * made after the read (it was not seen before it); an offer seen before the read was split off already,
 * and the read's stacks are without its copies.
 */
export function withoutMovedOut<T extends Pick<InventoryItem, 'app_id' | 'market_hash_name' | 'commodity' | 'steam_asset_id' | 'amount'>>(
  items: readonly T[],
  acceptedSinceRead: readonly Pick<Trade, 'id' | 'deposit_id' | 'items'>[],
  splitAfterRead: (trade: Pick<Trade, 'id'>) => boolean = () => false,
): T[] {
  const held = new Set(items.map((item) => item.steam_asset_id));
  const gone = new Map<string, number>();
  /** Copies split off a stack of the item (by itemKey) after the read. */
  const splitOff = new Map<string, number>();
  for (const trade of acceptedSinceRead) {
    // sell and deposit offers carry a deposit id; a withdrawal brings items in instead
    if (trade.deposit_id === null) continue;
    for (const it of trade.items) {
      if (held.has(it.steam_asset_id)) gone.set(it.steam_asset_id, (gone.get(it.steam_asset_id) ?? 0) + it.amount);
      else if (splitAfterRead(trade)) {
        const key = itemKey(it.app_id, it.market_hash_name);
        splitOff.set(key, (splitOff.get(key) ?? 0) + it.amount);
      }
    }
  }
  return items.flatMap((item) => {
    let out = gone.get(item.steam_asset_id) ?? 0;
    const key = itemKey(item.app_id, item.market_hash_name);
    const split = item.commodity ? (splitOff.get(key) ?? 0) : 0;
    if (split > 0) {
      // from this stack as far as its copies go, the rest from the item's next stack
      const taken = Math.min(split, Math.max(0, item.amount - out));
      splitOff.set(key, split - taken);
      out += taken;
    }
    if (out === 0) return [item];
    return item.amount > out ? [{ ...item, amount: item.amount - out }] : [];
  });
}

/** One item held, all copies together: in the marketplace's backpack, in the Steam inventory, or both. */
export interface Holding {
  app_id: AppId;
  market_hash_name: string;
  inBackpack: number;
  inInventory: number;
  /** Market price of one copy (the backpack's when both hold the item; reads minutes apart may differ). */
  marketPrice: number;
  value: number;
}

type HeldRow = Pick<BackpackItem | InventoryItem, 'app_id' | 'market_hash_name' | 'amount' | 'market_price'>;

/**
 * What is held, grouped by item (one Steam row per asset, one backpack row per lot), largest value
 * first (the largest `limit` when given); ties keep the name order so the table does not reshuffle
 * between refreshes.
 */
export function heldPositions(backpack: readonly HeldRow[], inventory: readonly HeldRow[], limit = Number.POSITIVE_INFINITY): Holding[] {
  const byItem = new Map<string, Holding>();
  const add = (row: HeldRow, where: 'inBackpack' | 'inInventory') => {
    const key = itemKey(row.app_id, row.market_hash_name);
    let h = byItem.get(key);
    if (!h) {
      h = { app_id: row.app_id, market_hash_name: row.market_hash_name, inBackpack: 0, inInventory: 0, marketPrice: row.market_price, value: 0 };
      byItem.set(key, h);
    }
    h[where] += row.amount;
    h.value += row.market_price * row.amount;
  };
  for (const row of backpack) add(row, 'inBackpack');
  for (const row of inventory) add(row, 'inInventory');
  return [...byItem.values()]
    .sort((a, b) => b.value - a.value || a.market_hash_name.localeCompare(b.market_hash_name) || a.app_id - b.app_id)
    .slice(0, limit);
}

export function portfolioTotal(p: Omit<PortfolioPoint, 'at'>): number {
  return p.balance + p.listedValue + p.inventoryValue;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS portfolio_points (
  at INTEGER PRIMARY KEY,
  balance INTEGER NOT NULL,
  listed_value INTEGER NOT NULL,
  inventory_value INTEGER NOT NULL
);
`;

interface PointRow {
  at: number;
  balance: number;
  listed_value: number;
  inventory_value: number;
}

const toPoint = (r: PointRow): PortfolioPoint => ({
  at: r.at,
  balance: r.balance,
  listedValue: r.listed_value,
  inventoryValue: r.inventory_value,
});

export class PortfolioHistory {
  readonly #minIntervalMs: number;
  readonly #sql;

  constructor(options: { db: Database.Database; minIntervalMs?: number }) {
    this.#minIntervalMs = options.minIntervalMs ?? 15 * 60_000;
    createDeskTables(options.db, SCHEMA);
    this.#sql = {
      last: options.db.prepare<[], PointRow>('SELECT * FROM portfolio_points ORDER BY at DESC LIMIT 1'),
      put: options.db.prepare('INSERT OR REPLACE INTO portfolio_points (at, balance, listed_value, inventory_value) VALUES (?, ?, ?, ?)'),
      since: options.db.prepare<[number], PointRow>('SELECT * FROM portfolio_points WHERE at >= ? ORDER BY at'),
    };
  }

  /** Adds a point; returns false when it repeats the last one within `minIntervalMs`. */
  record(point: PortfolioPoint): boolean {
    const last = this.#sql.last.get();
    if (
      last &&
      point.at - last.at < this.#minIntervalMs &&
      last.balance === point.balance &&
      last.listed_value === point.listedValue &&
      last.inventory_value === point.inventoryValue
    ) {
      return false;
    }
    this.#sql.put.run(point.at, point.balance, point.listedValue, point.inventoryValue);
    return true;
  }

  series(sinceMs = 0): PortfolioPoint[] {
    return this.#sql.since.all(sinceMs).map(toPoint);
  }

  latest(): PortfolioPoint | null {
    const row = this.#sql.last.get();
    return row ? toPoint(row) : null;
  }
}

/**
 * The portfolio's value over time, from what the app has seen: balance, value listed at asking prices
 * (`my-listings/value`) and the external inventory at market prices. The marketplace keeps no such
 * history, so each refresh of the portfolio screen adds a point; unchanged values within
 * `minIntervalMs` are not stored again, so leaving the screen open does not grow the table.
 */
import type Database from 'better-sqlite3';
import type { InventoryItem } from '../../shared/api/index.ts';

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
    options.db.exec(SCHEMA);
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

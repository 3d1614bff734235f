/**
 * Trading results per item from the whole order history (GET /orders/export): what was bought and for how
 * much, what was sold and what it brought after fees, and the profit on the copies that were both bought
 * and sold here. Items deposited from Steam have no purchase price on this marketplace, so only
 * `matched = min(bought, sold)` copies count toward the realized figure, at the average paid and the
 * average net received; nothing is guessed for the rest.
 */
import type Database from 'better-sqlite3';
import type { AppId, OrderExportRow } from '../../shared/api/index.ts';
import { createDeskTables } from '../store/desk.ts';
import { compareInstants } from '../trades/instant.ts';
import { itemKey } from '../../shared/item-key.ts';

export interface ItemPnl {
  app_id: AppId;
  market_hash_name: string;
  bought: number;
  /** Cents paid for every copy bought. */
  paid: number;
  sold: number;
  /** Cents received for every copy sold, after the marketplace's fee. */
  received: number;
  fees: number;
  /** Average paid per copy, rounded to a cent; null when none was bought here. */
  avgPaid: number | null;
  /** Average received per copy after fees; null when none was sold. */
  avgReceived: number | null;
  /** Copies both bought and sold here: the ones a profit can be told for. */
  matched: number;
  /** matched × (average received − average paid), in cents; null when nothing matched. */
  realized: number | null;
  lastTradeAt: string;
}

export interface TradingPnl {
  items: ItemPnl[];
  totals: { paid: number; received: number; fees: number; realized: number; matched: number; rows: number };
}

/** Per item, most traded (paid + received) first. */
export function tradingPnl(rows: readonly OrderExportRow[]): TradingPnl {
  const byItem = new Map<string, ItemPnl>();
  for (const r of rows) {
    const key = itemKey(r.app_id, r.market_hash_name);
    let p = byItem.get(key);
    if (!p) {
      p = {
        app_id: r.app_id,
        market_hash_name: r.market_hash_name,
        bought: 0,
        paid: 0,
        sold: 0,
        received: 0,
        fees: 0,
        avgPaid: null,
        avgReceived: null,
        matched: 0,
        realized: null,
        lastTradeAt: r.created_at,
      };
      byItem.set(key, p);
    }
    if (r.side === 'bought') {
      p.bought += r.amount;
      p.paid += r.total_value;
    } else {
      p.sold += r.amount;
      p.received += r.net;
      p.fees += r.fee ?? 0;
    }
    if (compareInstants(r.created_at, p.lastTradeAt) > 0) p.lastTradeAt = r.created_at;
  }
  const items = [...byItem.values()];
  for (const p of items) {
    p.avgPaid = p.bought > 0 ? Math.round(p.paid / p.bought) : null;
    p.avgReceived = p.sold > 0 ? Math.round(p.received / p.sold) : null;
    p.matched = Math.min(p.bought, p.sold);
    // exact averages for the profit; only the result is rounded
    p.realized = p.matched > 0 ? Math.round(p.matched * (p.received / p.sold - p.paid / p.bought)) : null;
  }
  items.sort(
    (a, b) =>
      b.paid + b.received - (a.paid + a.received) || a.market_hash_name.localeCompare(b.market_hash_name),
  );
  const sum = (f: (p: ItemPnl) => number) => items.reduce((s, p) => s + f(p), 0);
  return {
    items,
    totals: {
      paid: sum((p) => p.paid),
      received: sum((p) => p.received),
      fees: sum((p) => p.fees),
      realized: sum((p) => p.realized ?? 0),
      matched: sum((p) => p.matched),
      rows: rows.length,
    },
  };
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS trading_pnl (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  body TEXT NOT NULL,
  computed_at INTEGER NOT NULL
);
`;

/** The last computed results, kept so the portfolio shows them offline and without a new export. */
export class TradingPnlStore {
  readonly #sql;

  constructor(db: Database.Database) {
    createDeskTables(db, SCHEMA);
    this.#sql = {
      get: db.prepare<[], { body: string; computed_at: number }>(
        'SELECT body, computed_at FROM trading_pnl WHERE id = 1',
      ),
      put: db.prepare('INSERT OR REPLACE INTO trading_pnl (id, body, computed_at) VALUES (1, ?, ?)'),
    };
  }

  save(pnl: TradingPnl, at: number): void {
    this.#sql.put.run(JSON.stringify(pnl), at);
  }

  latest(): { pnl: TradingPnl; computedAt: number } | null {
    const row = this.#sql.get.get();
    return row ? { pnl: JSON.parse(row.body) as TradingPnl, computedAt: row.computed_at } : null;
  }
}

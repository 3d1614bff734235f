/**
 * Trading results per item from the whole order history (GET /orders/export): what was bought and for how
 * much, what was sold and what it brought after fees, and the profit on the copies that were both bought
 * and sold here.
 *
 * Cost is the moving average: the rows are walked oldest first, and a sale takes its copies from those
 * bought here before it, at their average cost at that moment. A sale of more copies than were bought
 * here by then sold copies from elsewhere (deposited from Steam): they have no purchase price here, and
 * nothing is guessed for them. So a sale never counts against a purchase made after it, and the copies
 * bought here and not sold since keep their own cost (`unsold`, `unsoldCost`) rather than the average of
 * every purchase, the sold ones too. All sums are integer cents: a part of a cost or of a sale is rounded
 * once when taken, and the rest stays with what remains, so nothing drifts.
 *
 * Only settled sales realize a profit. The export's rows carry no status (spec 2.12); a sale's
 * `settled_at` stays empty until its money is final, and one that is held, pending or undone never
 * settles. Such a sale still takes its copies and their cost (they have left the account), but its
 * profit is told apart (`unsettledRealized`), not counted in `realized` until its row settles.
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
  /** Average paid per copy over every purchase, rounded to a cent; null when none was bought here. */
  avgPaid: number | null;
  /** Average received per copy after fees; null when none was sold. */
  avgReceived: number | null;
  /** Copies of settled sales that had been bought here before the sale: the ones a profit is told for. */
  matched: number;
  /** What those copies brought after fees less their average cost, in cents; null when nothing matched. */
  realized: number | null;
  /** The same for sales not settled yet (`settled_at` empty): copies, and their profit (null when none). */
  unsettledMatched: number;
  unsettledRealized: number | null;
  /** Copies bought here and not sold here since (still held, or moved out of the marketplace). */
  unsold: number;
  /** Their cost at the moving average, in cents. */
  unsoldCost: number;
  lastTradeAt: string;
}

export interface TradingPnl {
  items: ItemPnl[];
  totals: {
    paid: number;
    received: number;
    /** Of `received`, the sales not settled yet (`settled_at` empty): not in the balance to spend yet. */
    unsettled: number;
    fees: number;
    /** Profit of settled sales only. */
    realized: number;
    matched: number;
    /** Profit on copies of sales not settled yet, apart from `realized`. */
    unsettledRealized: number;
    unsettledMatched: number;
    rows: number;
  };
}

/** The cents of `copies` out of `of` copies that came to `whole` together: exact when all, else rounded once. */
const share = (whole: number, copies: number, of: number) => (copies === of ? whole : Math.round((whole * copies) / of));

/** Per item, most traded (paid + received) first. */
export function tradingPnl(rows: readonly OrderExportRow[]): TradingPnl {
  const byItem = new Map<string, ItemPnl>();
  // oldest first, as the export sends them; a stable sort keeps its order for rows of one instant
  const inOrder = [...rows].sort((a, b) => compareInstants(a.created_at, b.created_at));
  for (const r of inOrder) {
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
        unsettledMatched: 0,
        unsettledRealized: null,
        unsold: 0,
        unsoldCost: 0,
        lastTradeAt: r.created_at,
      };
      byItem.set(key, p);
    }
    if (r.side === 'bought') {
      p.bought += r.amount;
      p.paid += r.total_value;
      p.unsold += r.amount;
      p.unsoldCost += r.total_value;
    } else {
      p.sold += r.amount;
      p.received += r.net;
      p.fees += r.fee ?? 0;
      const fromHere = Math.min(r.amount, p.unsold);
      if (fromHere > 0) {
        const cost = share(p.unsoldCost, fromHere, p.unsold);
        p.unsold -= fromHere;
        p.unsoldCost -= cost;
        const profit = share(r.net, fromHere, r.amount) - cost;
        if (r.settled_at !== null) {
          p.matched += fromHere;
          p.realized = (p.realized ?? 0) + profit;
        } else {
          p.unsettledMatched += fromHere;
          p.unsettledRealized = (p.unsettledRealized ?? 0) + profit;
        }
      }
    }
    p.lastTradeAt = r.created_at;
  }
  const items = [...byItem.values()];
  for (const p of items) {
    p.avgPaid = p.bought > 0 ? Math.round(p.paid / p.bought) : null;
    p.avgReceived = p.sold > 0 ? Math.round(p.received / p.sold) : null;
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
      unsettled: rows.reduce((s, r) => s + (r.side === 'sold' && r.settled_at === null ? r.net : 0), 0),
      fees: sum((p) => p.fees),
      realized: sum((p) => p.realized ?? 0),
      matched: sum((p) => p.matched),
      unsettledRealized: sum((p) => p.unsettledRealized ?? 0),
      unsettledMatched: sum((p) => p.unsettledMatched),
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
    if (!row) return null;
    const pnl = JSON.parse(row.body) as TradingPnl;
    // results counted by an older version (no cost of the unsold copies, no unsettled sum, unsettled
    // sales counted as realized) are read again, not shown wrong
    if (
      typeof pnl.totals.unsettled !== 'number' ||
      typeof pnl.totals.unsettledRealized !== 'number' ||
      !pnl.items.every((p) => typeof p.unsoldCost === 'number' && typeof p.unsettledMatched === 'number')
    ) {
      return null;
    }
    return { pnl, computedAt: row.computed_at };
  }
}

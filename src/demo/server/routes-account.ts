/** Account routes (spec §4.6): user, orders, the streamed order export, transactions, crypto withdrawals. */
import type { Writable } from 'node:stream';
import { ORDER_EXPORT_COLUMNS, SALE_FEE_BPS, type OrderExportRow, type OrderItem } from '../../shared/api/index.ts';
import { bpsOf } from '../../shared/money.ts';
import { DAY, iso } from '../clock.ts';
import { MarketError } from '../market/errors.ts';
import type { OrderItemRecord } from '../market/records.ts';
import { appIdOf, drained, json, page, type DemoServices, type RouteTable } from './route-kit.ts';

type AccountRoutes = Pick<RouteTable, 'user' | 'orders' | 'ordersExport' | 'transactions' | 'cryptoWithdraw' | 'cryptoWithdrawal'>;

/** Rows per write while streaming an export: small enough to interleave with other requests. */
const EXPORT_BATCH = 500;

/** `from`/`to` accept a date (whole UTC day, `to` inclusive) or a timestamp (exact). */
function bound(value: string | undefined, edge: 'from' | 'to'): number | null {
  if (value === undefined) return null;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00.000Z` : value);
  return dateOnly && edge === 'to' ? ms + DAY - 1 : ms;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The fields an order row and an export row both start with. */
function orderIdentity(record: OrderItemRecord) {
  return {
    order_item_id: record.orderItemId,
    order_id: record.orderId,
    side: record.side,
    app_id: record.appId,
    market_hash_name: record.name,
  };
}

/** An order row as GET /orders shows it. */
export function orderRow(record: OrderItemRecord): OrderItem {
  return {
    ...orderIdentity(record),
    price: record.price,
    amount: record.amount,
    created_at: iso(record.createdAt),
  };
}

export function exportRow(record: OrderItemRecord, now: number): OrderExportRow {
  const total = record.price * record.amount;
  const fee = record.side === 'sold' ? bpsOf(total, SALE_FEE_BPS) : null;
  return {
    ...orderIdentity(record),
    amount: record.amount,
    unit_price: record.price,
    total_value: total,
    fee,
    net: record.side === 'sold' ? total - (fee ?? 0) : -total,
    created_at: iso(record.createdAt),
    settled_at: record.settlesAt <= now ? iso(record.settlesAt) : null,
  };
}

async function writeAll(out: Writable, text: string): Promise<void> {
  if (out.destroyed) throw new Error('client went away');
  if (!out.write(text)) await drained(out);
}

export function accountRoutes({ market, withdrawals }: DemoServices): AccountRoutes {
  return {
    user: ({ account }) => json({ id: account.id, steam_id: account.steamId, name: account.name, balance: account.balance }),

    orders: ({ account, query }) => {
      const list = [...account.orderItems].reverse();
      const paged = page(list, query.page, query.limit);
      return json({
        orders: paged.rows.map(orderRow),
        metadata: paged.metadata,
      });
    },

    ordersExport: ({ account, query }) => {
      const from = bound(query.from, 'from');
      const to = bound(query.to, 'to');
      const appId = appIdOf(query.app_id);
      // The selection is taken now; rows are formatted as they are written.
      const selected = account.orderItems.filter(
        (o) =>
          (query.side === undefined || o.side === query.side) &&
          (appId === undefined || o.appId === appId) &&
          (from === null || o.createdAt >= from) &&
          (to === null || o.createdAt <= to),
      );
      selected.sort((a, b) => a.createdAt - b.createdAt || a.orderItemId - b.orderItemId);
      const now = market.now();
      const asJson = query.format === 'json';
      return {
        kind: 'stream',
        contentType: asJson ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
        filename: `orders.${asJson ? 'json' : 'csv'}`,
        write: async (out) => {
          await writeAll(out, asJson ? '{"orders":[' : `${ORDER_EXPORT_COLUMNS.join(',')}\r\n`);
          for (let start = 0; start < selected.length; start += EXPORT_BATCH) {
            const rows = selected.slice(start, start + EXPORT_BATCH).map((o) => exportRow(o, now));
            const text = asJson
              ? rows.map((r, i) => (start + i > 0 ? ',' : '') + JSON.stringify(r)).join('')
              : rows.map((r) => `${ORDER_EXPORT_COLUMNS.map((c) => csvField(r[c])).join(',')}\r\n`).join('');
            await writeAll(out, text);
          }
          if (asJson) await writeAll(out, ']}');
        },
      };
    },

    transactions: ({ account, query }) => {
      const list = [...account.transactions].reverse();
      const paged = page(list, query.page, query.limit);
      return json({
        transactions: paged.rows.map((t) => ({
          id: t.id,
          type: t.type,
          amount: t.amount,
          balance: t.balance,
          description: t.description,
          reference_id: t.referenceId,
          created_at: iso(t.createdAt),
        })),
        metadata: paged.metadata,
      });
    },

    cryptoWithdraw: ({ account, body }) => json(withdrawals.view(withdrawals.create(account, body))),

    cryptoWithdrawal: ({ account, id }) => {
      const record = account.withdrawals.get(id);
      if (!record) throw new MarketError('WITHDRAWAL_NOT_FOUND', `withdrawal ${id} does not exist`, { withdrawal_id: id });
      return json(withdrawals.view(record));
    },
  };
}

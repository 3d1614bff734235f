/**
 * Sales history: the recent sales list (GET /sales, newest first) and per-item daily totals for the
 * 30-day volume-weighted averages (GET /sales/averages). Refunded sales appear in the list but never in
 * the averages (spec §4.2). The list keeps the most recent `capacity` sales; the daily totals keep
 * everything inside the window, so averages stay exact under a long benchmark.
 */
import { LIMITS, type AppId, type AverageRow } from '../../shared/api/index.ts';
import { DAY } from '../clock.ts';

export interface SaleRecord {
  id: number;
  appId: AppId;
  item: number;
  name: string;
  price: number;
  amount: number;
  soldAt: number;
  refunded: boolean;
}

interface DayTotal {
  value: number;
  volume: number;
  sales: number;
}

export class SalesLog {
  private readonly recentSales: SaleRecord[] = [];
  private readonly capacity: number;
  /** item index → day number → totals of non-refunded sales. */
  private readonly daily = new Map<number, Map<number, DayTotal>>();
  private readonly itemApp = new Map<number, { appId: AppId; name: string }>();

  constructor(capacity = 200_000) {
    this.capacity = capacity;
  }

  record(sale: SaleRecord): void {
    this.recentSales.push(sale);
    if (this.recentSales.length > this.capacity * 1.25) this.recentSales.splice(0, this.recentSales.length - this.capacity);
    if (sale.refunded) return;
    this.itemApp.set(sale.item, { appId: sale.appId, name: sale.name });
    let days = this.daily.get(sale.item);
    if (!days) {
      days = new Map();
      this.daily.set(sale.item, days);
    }
    const day = Math.floor(sale.soldAt / DAY);
    const total = days.get(day);
    if (total) {
      total.value += sale.price * sale.amount;
      total.volume += sale.amount;
      total.sales += 1;
    } else days.set(day, { value: sale.price * sale.amount, volume: sale.amount, sales: 1 });
  }

  /** Newest first, optionally filtered; `offset`/`limit` page through the matches. */
  list(filter: { appId?: AppId; name?: string }, offset: number, limit: number): { rows: SaleRecord[]; total: number } {
    const rows: SaleRecord[] = [];
    let total = 0;
    for (let i = this.recentSales.length - 1; i >= 0; i--) {
      const s = this.recentSales[i]!;
      if (filter.appId !== undefined && s.appId !== filter.appId) continue;
      if (filter.name !== undefined && s.name !== filter.name) continue;
      if (total >= offset && rows.length < limit) rows.push(s);
      total++;
    }
    return { rows, total };
  }

  /** Volume-weighted average per item, sum(price*amount)/sum(amount), over the last 30 days counted in
   * whole UTC days (every sale from the day 30 days ago onwards). */
  averages(now: number, appId?: AppId): AverageRow[] {
    const firstDay = Math.floor((now - LIMITS.averagesWindowDays * DAY) / DAY);
    const rows: AverageRow[] = [];
    for (const [item, days] of this.daily) {
      const meta = this.itemApp.get(item)!;
      if (appId !== undefined && meta.appId !== appId) continue;
      let value = 0;
      let volume = 0;
      let sales = 0;
      for (const [day, total] of days) {
        if (day < firstDay) {
          days.delete(day);
          continue;
        }
        value += total.value;
        volume += total.volume;
        sales += total.sales;
      }
      if (volume === 0) continue;
      rows.push({ app_id: meta.appId, market_hash_name: meta.name, average_price: Math.round(value / volume), sales, volume });
    }
    return rows.sort((a, b) => (a.market_hash_name < b.market_hash_name ? -1 : a.market_hash_name > b.market_hash_name ? 1 : 0));
  }
}

/**
 * Sales history: the recent sales list (GET /sales, newest first) and the 30-day volume-weighted
 * averages (GET /sales/averages). Refunded sales appear in the list but never in the averages (spec
 * §4.2). The list keeps the most recent `capacity` sales.
 *
 * The averages' window is exactly the last 30 × 24 h before `now` (spec §4.2, §8), not whole calendar
 * days. Non-refunded sales are kept per UTC day: per-item totals for the days wholly inside the window,
 * and the day's individual sales (item, time, value, copies) for the one day the window's start falls
 * in, which is counted sale by sale. Every day becomes that edge day in turn, so each sale inside the
 * window is kept (a few numbers per sale, not the record); days that fell out of the window are dropped
 * when averages are built, so the averages stay exact and the memory is bounded by the window's sales.
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

/** One UTC day of non-refunded sales. */
interface SalesDay {
  /** item index → totals of the whole day. */
  totals: Map<number, DayTotal>;
  /** The day's sales one by one (parallel arrays), for the day the window starts in. */
  item: number[];
  soldAt: number[];
  value: number[];
  amount: number[];
  /** Whether the parallel arrays are in soldAt order (recording is, except for backdated history). */
  sorted: boolean;
}

/** Adds `add` to the item's totals in `totals` (a copy: `add` may be another map's entry). */
function addTotal(totals: Map<number, DayTotal>, item: number, add: DayTotal): void {
  const total = totals.get(item);
  if (total) {
    total.value += add.value;
    total.volume += add.volume;
    total.sales += add.sales;
  } else totals.set(item, { ...add });
}

export class SalesLog {
  private readonly recentSales: SaleRecord[] = [];
  private readonly capacity: number;
  /** UTC day number → that day's non-refunded sales. */
  private readonly days = new Map<number, SalesDay>();
  private readonly itemApp = new Map<number, { appId: AppId; name: string }>();

  constructor(capacity = 200_000) {
    this.capacity = capacity;
  }

  record(sale: SaleRecord): void {
    this.recentSales.push(sale);
    if (this.recentSales.length > this.capacity * 1.25) this.recentSales.splice(0, this.recentSales.length - this.capacity);
    if (sale.refunded) return;
    this.itemApp.set(sale.item, { appId: sale.appId, name: sale.name });
    const dayNumber = Math.floor(sale.soldAt / DAY);
    let day = this.days.get(dayNumber);
    if (!day) {
      day = { totals: new Map(), item: [], soldAt: [], value: [], amount: [], sorted: true };
      this.days.set(dayNumber, day);
    }
    const value = sale.price * sale.amount;
    addTotal(day.totals, sale.item, { value, volume: sale.amount, sales: 1 });
    const last = day.soldAt[day.soldAt.length - 1];
    if (last !== undefined && sale.soldAt < last) day.sorted = false;
    day.item.push(sale.item);
    day.soldAt.push(sale.soldAt);
    day.value.push(value);
    day.amount.push(sale.amount);
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

  /**
   * Volume-weighted average per item, sum(price*amount)/sum(amount), over the sales of the last 30 × 24 h:
   * sold at or after `now` − 30 days.
   */
  averages(now: number, appId?: AppId): AverageRow[] {
    const windowStart = now - LIMITS.averagesWindowDays * DAY;
    const firstDay = Math.floor(windowStart / DAY);
    const sums = new Map<number, DayTotal>();
    const add = (item: number, total: DayTotal) => {
      if (appId === undefined || this.itemApp.get(item)!.appId === appId) addTotal(sums, item, total);
    };
    for (const [dayNumber, day] of this.days) {
      if (dayNumber < firstDay) {
        this.days.delete(dayNumber);
      } else if (dayNumber > firstDay) {
        for (const [item, total] of day.totals) add(item, total);
      } else {
        // The day the window starts in: only its sales from windowStart on.
        for (const k of this.edgeSales(day, windowStart)) add(day.item[k]!, { value: day.value[k]!, volume: day.amount[k]!, sales: 1 });
      }
    }
    const rows: AverageRow[] = [];
    for (const [item, sum] of sums) {
      if (sum.volume === 0) continue;
      const meta = this.itemApp.get(item)!;
      rows.push({ app_id: meta.appId, market_hash_name: meta.name, average_price: Math.round(sum.value / sum.volume), sales: sum.sales, volume: sum.volume });
    }
    return rows.sort((a, b) => (a.market_hash_name < b.market_hash_name ? -1 : a.market_hash_name > b.market_hash_name ? 1 : 0));
  }

  /** Positions of a day's sales sold at or after `from` (sorting the day once if it was not in order). */
  private edgeSales(day: SalesDay, from: number): number[] {
    if (!day.sorted) {
      const order = day.soldAt.map((_, k) => k).sort((x, y) => day.soldAt[x]! - day.soldAt[y]!);
      day.item = order.map((k) => day.item[k]!);
      day.soldAt = order.map((k) => day.soldAt[k]!);
      day.value = order.map((k) => day.value[k]!);
      day.amount = order.map((k) => day.amount[k]!);
      day.sorted = true;
    }
    let lo = 0;
    let hi = day.soldAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (day.soldAt[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return Array.from({ length: day.soldAt.length - lo }, (_, k) => lo + k);
  }
}

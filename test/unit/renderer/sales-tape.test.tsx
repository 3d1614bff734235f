// The sales tape's rows as the feed moves: new sales on top while it follows, counted and held while the
// trader reads, a late sale at its own time, a burst larger than a page restarting the tape rather than
// leaving a hole, older pages appended, answers to an old filter dropped; and the summary line's figures.
import { describe, expect, it } from 'vitest';
import type { SalesTape, SalesTapeInput, TapeSale } from '../../../src/shared/ipc/calls-market.ts';
import { NO_TAPE_FILTER, PAGE_SIZE, REFRESH_OVERLAP_MS, SalesTapeStore, newerFirst, saleKey } from '../../../src/renderer/screens/sales/sales-tape-store.ts';
import { summarizeTape } from '../../../src/renderer/screens/sales/tape-summary.ts';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

function sale(id: number, secondsAfterT0: number, over: Partial<TapeSale> = {}): TapeSale {
  return {
    listing_id: id,
    seq: String(2n ** 60n + BigInt(id)),
    app_id: 730,
    market_hash_name: `Item ${id}`,
    price: 100 * id,
    amount: 1,
    listed_at: new Date(T0 - 3_600_000).toISOString(),
    sold_at: new Date(T0 + secondsAfterT0 * 1000).toISOString(),
    paint_wear: null,
    paint_seed: null,
    paint_index: null,
    stickers: null,
    ...over,
  };
}

/** A fake app: the market's sales, answered newest first by page like getSalesTape. */
function fakeMarket() {
  const sales: TapeSale[] = [];
  const asked: SalesTapeInput[] = [];
  const fetch = async (input: SalesTapeInput): Promise<SalesTape> => {
    asked.push(input);
    const limit = input.limit ?? PAGE_SIZE;
    const all = [...sales]
      .filter((s) => input.app_id === undefined || s.app_id === input.app_id)
      .filter(
        (s) =>
          input.name === undefined || s.market_hash_name.toLowerCase().includes(input.name.toLowerCase()),
      )
      .filter((s) => input.since_ms == null || Date.parse(s.sold_at) >= input.since_ms)
      .sort(newerFirst);
    const start = input.before ? all.findIndex((s) => saleKey(s) === input.before) + 1 : 0;
    const page = all.slice(start, start + limit);
    const latest = sales.length === 0 ? null : Math.max(...sales.map((x) => Date.parse(x.sold_at)));
    return { sales: page, next: start + limit < all.length ? saleKey(page.at(-1)!) : null, latest_ms: latest };
  };
  return { sales, asked, fetch };
}

const ids = (store: SalesTapeStore) => store.getSnapshot().rows.map((s) => s.listing_id);

describe('sales tape store', () => {
  it('puts new sales on top while following, and flashes only those', async () => {
    const market = fakeMarket();
    market.sales.push(sale(1, 1), sale(2, 2));
    const store = new SalesTapeStore(market.fetch);
    await store.setFilter(NO_TAPE_FILTER);
    expect(ids(store)).toEqual([2, 1]);
    market.sales.push(sale(3, 3));
    await store.refresh();
    expect(ids(store)).toEqual([3, 2, 1]);
    expect([...store.getSnapshot().fresh]).toEqual([saleKey(sale(3, 3))]);
  });

  it('holds the rows while the trader reads, counts what waits, and puts it in when following again', async () => {
    const market = fakeMarket();
    market.sales.push(sale(1, 1));
    const store = new SalesTapeStore(market.fetch);
    await store.setFilter(NO_TAPE_FILTER);
    store.setFollowing(false);
    market.sales.push(sale(2, 2), sale(3, 3));
    await store.refresh();
    expect(ids(store)).toEqual([1]);
    expect(store.getSnapshot().waiting).toBe(2);
    store.setFollowing(true);
    expect(ids(store)).toEqual([3, 2, 1]);
    expect(store.getSnapshot().waiting).toBe(0);
  });

  it('refreshes from a minute before the newest sale it caught up with, and not further while held', async () => {
    const market = fakeMarket();
    market.sales.push(sale(1, 100));
    const store = new SalesTapeStore(market.fetch);
    await store.setFilter(NO_TAPE_FILTER);
    expect(market.asked.at(-1)?.since_ms).toBeNull(); // the first page: the newest, however old
    market.sales.push(sale(2, 200));
    await store.refresh();
    expect(market.asked.at(-1)?.since_ms).toBe(T0 + 100_000 - REFRESH_OVERLAP_MS);
    store.setFollowing(false);
    market.sales.push(sale(3, 300));
    await store.refresh();
    market.sales.push(sale(4, 400));
    await store.refresh();
    // held: the window still starts where the rows caught up, so both waiting sales are counted
    expect(market.asked.at(-1)?.since_ms).toBe(T0 + 200_000 - REFRESH_OVERLAP_MS);
    expect(store.getSnapshot().waiting).toBe(2);
    store.setFollowing(true);
    expect(ids(store)).toEqual([4, 3, 2, 1]);
    await store.refresh();
    expect(market.asked.at(-1)?.since_ms).toBe(T0 + 400_000 - REFRESH_OVERLAP_MS);
  });

  it('places a sale that arrived late at its own time', async () => {
    const market = fakeMarket();
    market.sales.push(sale(1, 10), sale(2, 30));
    const store = new SalesTapeStore(market.fetch);
    await store.setFilter(NO_TAPE_FILTER);
    market.sales.push(sale(3, 20));
    await store.refresh();
    expect(ids(store)).toEqual([2, 3, 1]);
  });

  it('restarts from the newest page when more than a page of sales came in between', async () => {
    const market = fakeMarket();
    market.sales.push(sale(1, 1));
    const store = new SalesTapeStore(market.fetch);
    await store.setFilter(NO_TAPE_FILTER);
    for (let i = 0; i < PAGE_SIZE + 5; i++) market.sales.push(sale(100 + i, 100 + i));
    await store.refresh();
    const shown = ids(store);
    expect(shown).toHaveLength(PAGE_SIZE);
    expect(shown[0]).toBe(100 + PAGE_SIZE + 4);
    expect(shown).not.toContain(1); // not beside a hole of five unknown sales
    expect(store.getSnapshot().more).toBe(true);
    await store.loadOlder();
    expect(ids(store).slice(PAGE_SIZE)).toEqual([104, 103, 102, 101, 100, 1]);
    expect(store.getSnapshot().more).toBe(false);
  });

  it('appends older pages without repeating a row, and stops at the end', async () => {
    const market = fakeMarket();
    for (let i = 1; i <= PAGE_SIZE * 2 + 3; i++) market.sales.push(sale(i, i));
    const store = new SalesTapeStore(market.fetch);
    await store.setFilter(NO_TAPE_FILTER);
    await store.loadOlder();
    await store.loadOlder();
    await store.loadOlder();
    expect(ids(store)).toEqual(market.sales.map((s) => s.listing_id).reverse());
    expect(market.asked).toHaveLength(3); // the third loadOlder had no page to ask for
  });

  it('drops an answer to a filter that was changed while it was on its way', async () => {
    const market = fakeMarket();
    market.sales.push(
      sale(1, 1, { market_hash_name: 'AK-47 | Redline' }),
      sale(2, 2, { market_hash_name: 'AWP | Asiimov' }),
    );
    const store = new SalesTapeStore(market.fetch);
    const stale = store.setFilter({ ...NO_TAPE_FILTER, name: 'redline' });
    const current = store.setFilter({ ...NO_TAPE_FILTER, name: 'asiimov' });
    await Promise.all([stale, current]);
    expect(ids(store)).toEqual([2]);
    expect(market.asked.map((a) => a.name)).toEqual(['redline', 'asiimov']);
  });
});

describe('tape summary', () => {
  it('counts sales, copies and money, and the median time on the market', () => {
    const summary = summarizeTape([
      sale(1, 30, { amount: 3, price: 50, listed_at: new Date(T0).toISOString() }),
      sale(2, 20, { listed_at: new Date(T0 + 10_000).toISOString() }),
      sale(3, 10, { listed_at: new Date(T0 - 50_000).toISOString() }),
    ])!;
    expect(summary).toMatchObject({
      sales: 3,
      copies: 5,
      volume: 3 * 50 + 200 + 300,
      since: new Date(T0 + 10_000).toISOString(),
    });
    expect(summary.medianTimeOnMarketMs).toBe(30_000); // 30 s, 10 s, 60 s
    expect(summary.onePrice).toBeNull(); // three different items: no price spread
  });

  it('gives the price spread when every sale is of one item', () => {
    const one = { market_hash_name: 'AK-47 | Redline (Field-Tested)' };
    const summary = summarizeTape([
      sale(1, 1, { ...one, price: 900 }),
      sale(2, 2, { ...one, price: 1000 }),
      sale(3, 3, { ...one, price: 1500 }),
      sale(4, 4, { ...one, price: 1100 }),
    ])!;
    expect(summary.onePrice).toEqual({ median: 1050, low: 900, high: 1500 });
  });

  it('says nothing of an empty tape', () => {
    expect(summarizeTape([])).toBeNull();
  });
});

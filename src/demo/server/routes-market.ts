/** Market data routes (spec §4.2): listings, one listing, prices, prices/all, book, sales, averages. */
import { LIMITS, type PriceRow } from '../../shared/api/index.ts';
import { iso } from '../clock.ts';
import { MarketError } from '../market/errors.ts';
import { recommendedPrice } from '../market/items.ts';
import { ACTIVE, APP_CODE, isLive } from '../market/listing-store.ts';
import { appIdOf, json, metadataOf, page, type DemoServices, type RouteTable } from './route-kit.ts';

export function marketDataRoutes({ market, snapshots }: DemoServices): Pick<RouteTable, 'listings' | 'listing' | 'prices' | 'pricesAll' | 'book' | 'sales' | 'salesAverages'> {
  return {
    listings: ({ query }) => {
      const store = market.store;
      const limit = Number(query.limit);
      const appId = appIdOf(query.app_id);
      const appCode = appId === undefined ? -1 : APP_CODE[appId];
      const matches = (i: number) => store.status[i] === ACTIVE && (appCode < 0 || store.app[i] === appCode);
      const total = store.activeCountFor(appId);
      let start = store.size - 1;
      let skip = 0;
      let currentPage = 1;
      if (query.cursor !== undefined) {
        // A cursor is a listing id: continue strictly below it, whatever was added or removed meanwhile.
        start = store.lastIndexBelow(Number(query.cursor));
        let above = 0;
        for (let i = store.size - 1; i > start; i--) if (matches(i)) above++;
        currentPage = Math.floor(above / limit) + 1;
      } else {
        currentPage = Number(query.page ?? '1');
        skip = (currentPage - 1) * limit;
      }
      const rows: number[] = [];
      let i = start;
      for (; i >= 0 && rows.length < limit; i--) {
        if (!matches(i)) continue;
        if (skip > 0) skip--;
        else rows.push(i);
      }
      let more = false;
      for (; i >= 0 && !more; i--) more = matches(i);
      const last = rows[rows.length - 1];
      return json({
        listings: rows.map((r) => {
          market.syncDecay(r);
          return market.fullRow(r);
        }),
        next_cursor: more && last !== undefined ? store.id[last]! : null,
        metadata: metadataOf(total, currentPage, limit),
      });
    },

    listing: ({ id, account }) => {
      const index = market.store.indexOf(id);
      const status = index < 0 ? 0 : market.store.status[index]!;
      // Sold and delisted listings are gone (spec §3.1); a private or disabled one, neither sold nor
      // delisted but off the public book, is visible only to its seller.
      if (status !== ACTIVE && !(isLive(status) && market.store.seller[index] === account.id)) {
        throw new MarketError('LISTING_NOT_FOUND', `listing ${id} does not exist`, { listing_id: id });
      }
      market.syncDecay(index);
      return json(market.fullRow(index));
    },

    prices: ({ query }) => {
      const appId = appIdOf(query.app_id);
      const agg = snapshots.bookAggregates();
      const updatedAt = iso(agg.at);
      const indexes = market.catalog.sortedByName.filter((i) => appId === undefined || market.catalog.items[i]!.appId === appId);
      const { rows, metadata } = page(indexes, query.page, query.limit);
      const prices: PriceRow[] = rows.map((i) => {
        const item = market.catalog.items[i]!;
        return {
          app_id: item.appId,
          market_hash_name: item.name,
          market_price: item.basePrice,
          recommended_price: recommendedPrice(item),
          lowest_listing_price: agg.lowest[i] ? agg.lowest[i]! : null,
          updated_at: updatedAt,
        };
      });
      return json({ prices, metadata });
    },

    pricesAll: ({ query }) => ({
      kind: 'cached',
      body: snapshots.pricesAllBody(appIdOf(query.app_id)),
      maxAgeSeconds: LIMITS.pricesAllCacheMs / 1000,
    }),

    book: ({ query }) => {
      const snapshot = snapshots.book(appIdOf(query.app_id));
      return {
        kind: 'cached',
        body: snapshot,
        maxAgeSeconds: LIMITS.bookCacheMs / 1000,
        bodyHeaders: { 'X-Book-Seq': snapshot.seq.toString() },
      };
    },

    sales: ({ query }) => {
      const limit = query.limit === undefined ? 25 : Number(query.limit);
      const current = query.page === undefined ? 1 : Number(query.page);
      const filter = { ...(query.app_id !== undefined ? { appId: appIdOf(query.app_id)! } : {}), ...(query.market_hash_name !== undefined ? { name: query.market_hash_name } : {}) };
      const { rows, total } = market.sales.list(filter, (current - 1) * limit, limit);
      return json({
        sales: rows.map((s) => ({ id: s.id, app_id: s.appId, market_hash_name: s.name, price: s.price, amount: s.amount, sold_at: iso(s.soldAt), refunded: s.refunded })),
        metadata: metadataOf(total, current, limit),
      });
    },

    salesAverages: ({ query }) => ({
      kind: 'cached',
      body: snapshots.averagesBody(appIdOf(query.app_id)),
      maxAgeSeconds: LIMITS.averagesCacheMs / 1000,
    }),
  };
}

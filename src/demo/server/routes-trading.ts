/** Buying, selling, listings, items and trades (spec §4.3–§4.5). */
import { id, listingEdit, type BackpackItem } from '../../shared/api/index.ts';
import { iso } from '../clock.ts';
import { deposit, sell, steamInventory, withdraw } from '../market/items.ts';
import { delistListing, editListing, listItems } from '../market/listing-management.ts';
import { STATUS_CODE, isLive, APP_CODE } from '../market/listing-store.ts';
import { purchase } from '../market/purchase.ts';
import { eachRowChecked } from './bulk-bodies.ts';
import { appIdOf, json, page, type DemoServices, type RouteTable } from './route-kit.ts';

type TradingRoutes = Pick<
  RouteTable,
  'purchase' | 'steamInventory' | 'sell' | 'list' | 'editListing' | 'delist' | 'myListings' | 'myListingsValue' | 'backpack' | 'deposit' | 'withdraw' | 'trades'
>;

export function tradingRoutes({ market, trades }: DemoServices): TradingRoutes {
  return {
    purchase: ({ account, body }) => json(purchase(market, account, body.items)),

    steamInventory: ({ account, query }) => json({ items: steamInventory(market, account, appIdOf(query.app_id)!) }),

    sell: ({ account, body }) => json({ deposit_ids: sell(market, trades, account, body.listings) }),

    list: ({ account, body }) => json({ listings: listItems(market, trades, account, body.listings) }),

    editListing: ({ account, body }) => {
      if ('listings' in body) {
        return json({ results: eachRowChecked(body.listings, listingEdit, (edit) => editListing(market, trades, account, edit)) });
      }
      return json(editListing(market, trades, account, body));
    },

    delist: ({ account, body }) => {
      if ('listing_ids' in body) {
        return json({ results: eachRowChecked(body.listing_ids, id, (listingId) => delistListing(market, account, listingId)) });
      }
      delistListing(market, account, body.listing_id);
      return json({ listing_id: body.listing_id });
    },

    myListings: ({ account, query }) => {
      const appId = appIdOf(query.app_id);
      const status = query.status === undefined ? null : STATUS_CODE[query.status];
      const s = market.store;
      const indexes = market.listingsOf(
        account.id,
        (i) => (status === null || s.status[i] === status) && (appId === undefined || s.app[i] === APP_CODE[appId]),
      );
      const { rows, metadata } = page(indexes, query.page, query.limit);
      return json({
        listings: rows.map((i) => {
          market.syncDecay(i);
          return market.myRow(i);
        }),
        metadata,
      });
    },

    myListingsValue: ({ account, query }) => {
      const appId = appIdOf(query.app_id);
      const s = market.store;
      let listingCount = 0;
      let itemCount = 0;
      let totalValue = 0;
      for (const i of market.listingsOf(account.id, (r) => isLive(s.status[r]!) && (appId === undefined || s.app[r] === APP_CODE[appId]))) {
        listingCount++;
        itemCount += s.amount[i]!;
        totalValue += s.amount[i]! * market.syncDecay(i);
      }
      return json({ listing_count: listingCount, item_count: itemCount, total_value: totalValue });
    },

    backpack: ({ account, query }) => {
      const appId = appIdOf(query.app_id);
      const needle = query.search?.toLowerCase();
      const rows: BackpackItem[] = [];
      for (const row of [...account.backpack.values()].sort((a, b) => b.id - a.id)) {
        const item = market.catalog.items[row.item]!;
        if (appId !== undefined && item.appId !== appId) continue;
        if (needle !== undefined && !item.name.toLowerCase().includes(needle)) continue;
        rows.push({
          id: row.id,
          app_id: item.appId,
          market_hash_name: item.name,
          amount: row.amount,
          commodity: item.commodity,
          market_price: item.basePrice,
          trade_locked_until: market.isTradeLocked(row) ? iso(row.tradeLockedUntil!) : null,
        });
      }
      const paged = page(rows, query.page, query.limit);
      return json({ items: paged.rows, metadata: paged.metadata });
    },

    deposit: ({ account, body }) => json({ deposit_ids: deposit(market, trades, account, body.items) }),

    withdraw: ({ account, body }) => json({ withdraw_ids: withdraw(market, trades, account, body.items) }),

    trades: ({ account, query }) => {
      const list = [...account.trades].reverse().filter((t) => query.status === undefined || t.status === query.status);
      const paged = page(list, query.page, query.limit);
      return json({ trades: paged.rows.map((t) => trades.view(t)), metadata: paged.metadata });
    },
  };
}

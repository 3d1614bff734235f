/**
 * The market price of every item as a market serves it on `prices/all`, keyed by itemKey: what a test
 * compares the app's own reading against (integration and browser tests alike).
 */
import { itemKey } from '../../src/shared/item-key.ts';

export interface MarketEndpoint {
  baseUrl: string;
  apiKey: string;
}

export async function servedMarketPrices(market: MarketEndpoint): Promise<Map<string, number>> {
  const res = await fetch(`${market.baseUrl}/public/v1/prices/all`, {
    headers: { Authorization: `Bearer ${market.apiKey}` },
  });
  if (!res.ok) throw new Error(`prices/all answered ${res.status}`);
  const served = (await res.json()) as {
    prices: { app_id: number; market_hash_name: string; market_price: number }[];
  };
  return new Map(served.prices.map((p) => [itemKey(p.app_id, p.market_hash_name), p.market_price]));
}

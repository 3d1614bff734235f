import { NULL_LISTING_DETAIL, type ListingDetail } from '../../shared/api/index.ts';
import type { ItemInstance } from './types.ts';

export function detailWith(instance: ItemInstance, iconUrl: string, fields: Partial<ListingDetail>): ListingDetail {
  return {
    ...NULL_LISTING_DETAIL,
    steam_asset_id: String(instance.assetId),
    icon_url: iconUrl,
    trade_locked_until: null,
    ...fields,
  };
}

/** Rounds to `digits` decimals (for values people read: percentages, sticker wear). */
export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Lognormal price multiplier from a 0..1 key: median 1, spread `sigma`, clipped to [lo, hi]. */
export function spread(unit: number, sigma: number, lo: number, hi: number): number {
  // inverse-CDF-free approximation: a logistic curve is close enough for plausible prices
  const clamped = Math.min(Math.max(unit, 1e-6), 1 - 1e-6);
  const logit = Math.log(clamped / (1 - clamped)) * 0.55;
  return Math.min(hi, Math.max(lo, Math.exp(logit * sigma)));
}

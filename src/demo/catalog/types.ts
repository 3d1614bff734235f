import type { AppId, ListingDetail } from '../../shared/api/index.ts';
import type { Random } from '../random.ts';

/** Facts about a listed item that do not change between copies: everything `detail` needs. */
export interface ItemInstance {
  /** The external platform's asset id (digits). */
  assetId: number;
  /** When the copy was listed or acquired; trade holds are measured from here. */
  createdAt: number;
  /** Steam id (17 digits) of whoever holds the copy, for inspect links. */
  ownerSteamId: string;
}

/**
 * One market hash name. The catalog is a flat array of these; listings refer to an item by its index.
 * `describe` produces the per-game fields of spec §2.3 for one copy, deterministically from the copy's
 * asset id (so the same listing always shows the same float, seed and stickers).
 */
export interface CatalogItem {
  index: number;
  appId: AppId;
  name: string;
  commodity: boolean;
  /** Market value in cents. */
  basePrice: number;
  /** Relative frequency on the book (cheap, common items are listed far more often). */
  weight: number;
  iconUrl: string;
  /** Pre-serialised JSON pieces for the book snapshot (see server/book-snapshot.ts). */
  jsonHead: string;
  jsonTail: string;
  describe(instance: ItemInstance): ListingDetail;
  /** Price of one copy relative to basePrice (float rank, stickers, fade...). 1 for commodities. */
  premium(instance: ItemInstance): number;
}

/** What each game module contributes before indexes and JSON pieces are assigned. */
export interface ItemSpec {
  appId: AppId;
  name: string;
  commodity: boolean;
  basePrice: number;
  weight: number;
  iconUrl: string;
  describe(instance: ItemInstance): ListingDetail;
  premium?(instance: ItemInstance): number;
}

export type DetailRandom = Random;

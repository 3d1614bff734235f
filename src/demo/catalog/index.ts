/**
 * The demo market's catalog: every market hash name of the four games, with a plausible market price,
 * how often it appears on the book, and how to describe one copy. Built once per process; it does not
 * depend on the seed (the seed decides which copies are listed, at what price, by whom).
 */
import { APP_IDS, type AppId } from '../../shared/api/index.ts';
import type { Random } from '../random.ts';
import { cs2Items } from './cs2.ts';
import { dotaItems } from './dota.ts';
import { rustItems } from './rust.ts';
import { tf2Items } from './tf2.ts';
import type { CatalogItem, ItemSpec } from './types.ts';

export type { CatalogItem, ItemInstance } from './types.ts';
export { CS2_DATA_SOURCE, CS2_MAX_STICKERS } from './cs2.ts';

/** Share of the book per game. */
const GAME_SHARE: Record<AppId, number> = { 730: 0.6, 252490: 0.14, 570: 0.15, 440: 0.11 };

export interface Catalog {
  items: readonly CatalogItem[];
  byName: ReadonlyMap<string, CatalogItem>;
  byApp: ReadonlyMap<AppId, readonly CatalogItem[]>;
  /** Item indexes in market-hash-name order (UTF-16 code units), for the prices routes. */
  sortedByName: readonly number[];
  /** A random item, weighted by game share and by how common the item is. */
  sample(rng: Random, appId?: AppId): CatalogItem;
}

function buildItem(spec: ItemSpec, index: number): CatalogItem {
  return {
    index,
    appId: spec.appId,
    name: spec.name,
    commodity: spec.commodity,
    basePrice: spec.basePrice,
    weight: spec.weight,
    iconUrl: spec.iconUrl,
    jsonHead: `,"app_id":${spec.appId},"market_hash_name":${JSON.stringify(spec.name)},"price":`,
    jsonTail: `,"commodity":${spec.commodity},"created_at":"`,
    describe: spec.describe,
    premium: spec.premium ?? (() => 1),
  };
}

function buildCatalog(): Catalog {
  const specs = [...cs2Items(), ...rustItems(), ...dotaItems(), ...tf2Items()];
  const items = specs.map(buildItem);
  const byName = new Map<string, CatalogItem>();
  for (const item of items) {
    if (byName.has(item.name)) throw new Error(`duplicate market hash name in the demo catalog: ${item.name}`);
    byName.set(item.name, item);
  }
  const byApp = new Map<AppId, CatalogItem[]>(APP_IDS.map((app) => [app, []]));
  for (const item of items) byApp.get(item.appId)!.push(item);

  // Cumulative weights per game for O(log n) weighted sampling.
  const cumulative = new Map<AppId, Float64Array>();
  for (const [app, list] of byApp) {
    const sums = new Float64Array(list.length);
    let total = 0;
    list.forEach((item, i) => {
      total += item.weight;
      sums[i] = total;
    });
    cumulative.set(app, sums);
  }
  const gameCumulative = APP_IDS.map((_, i) => APP_IDS.slice(0, i + 1).reduce((s, a) => s + GAME_SHARE[a], 0));

  const sortedByName = items
    .map((item) => item.index)
    .sort((a, b) => {
      const x = items[a]!.name;
      const y = items[b]!.name;
      return x < y ? -1 : x > y ? 1 : 0;
    });

  return {
    items,
    byName,
    byApp,
    sortedByName,
    sample(rng, appId) {
      let app = appId;
      if (app === undefined) {
        const r = rng.next() * gameCumulative[gameCumulative.length - 1]!;
        app = APP_IDS[gameCumulative.findIndex((c) => r < c)] ?? 730;
      }
      const sums = cumulative.get(app)!;
      const list = byApp.get(app)!;
      const target = rng.next() * sums[sums.length - 1]!;
      let lo = 0;
      let hi = sums.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sums[mid]! <= target) lo = mid + 1;
        else hi = mid;
      }
      return list[lo]!;
    },
  };
}

let shared: Catalog | null = null;
/** The catalog, built on first use (about 40k items; tens of milliseconds). */
export function demoCatalog(): Catalog {
  shared ??= buildCatalog();
  return shared;
}

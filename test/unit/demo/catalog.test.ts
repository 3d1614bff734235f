/** The demo catalog: real CS2 data with consistent floats, and plausible items for every game. */
import { describe, expect, it } from 'vitest';
import { APP_IDS, fullListing, LISTING_DETAIL_FIELDS } from '../../../src/shared/api/index.ts';
import { wearBandOf, WEAR_BANDS } from '../../../src/shared/wear.ts';
import { demoCatalog } from '../../../src/demo/catalog/index.ts';
import { Random } from '../../../src/demo/random.ts';

const catalog = demoCatalog();
const instance = (assetId: number) => ({ assetId, createdAt: Date.UTC(2025, 0, 1), ownerSteamId: '76561198000000001' });

describe('demo catalog', () => {
  it('has items of all four games with unique market hash names and positive prices', () => {
    for (const app of APP_IDS) expect(catalog.byApp.get(app)!.length, String(app)).toBeGreaterThan(20);
    expect(catalog.byName.size).toBe(catalog.items.length);
    expect(catalog.items.every((i) => Number.isInteger(i.basePrice) && i.basePrice > 0 && i.weight > 0)).toBe(true);
    expect(catalog.items.length).toBeGreaterThan(20_000);
  });

  it('names CS2 skins as the market does, in every wear the float range allows', () => {
    expect(catalog.byName.has('AK-47 | Redline (Field-Tested)')).toBe(true);
    expect(catalog.byName.has('StatTrak™ AK-47 | Redline (Minimal Wear)')).toBe(true);
    expect(catalog.byName.has('★ Karambit | Fade (Factory New)')).toBe(true);
    expect(catalog.byName.has('★ StatTrak™ Karambit | Fade (Factory New)')).toBe(true);
    // Fade only comes in Factory New and Minimal Wear (its float range is 0–0.08)
    expect(catalog.byName.has('★ Karambit | Fade (Field-Tested)')).toBe(false);
    expect([...catalog.byName.keys()].some((n) => n.startsWith('Souvenir '))).toBe(true);
  });

  it('makes Doppler copies of one name in every phase, as the market does, the gems rarer and dearer', () => {
    // the catalog's own variants of the finish (not the app's phase table), so the two stay independent
    const item = catalog.byName.get('★ Karambit | Doppler (Factory New)')!;
    const counts = new Map<number, { copies: number; premium: number }>();
    for (let assetId = 1; assetId <= 4_000; assetId++) {
      const index = item.describe(instance(assetId)).cs_paint_index!;
      const seen = counts.get(index) ?? { copies: 0, premium: 0 };
      seen.copies++;
      seen.premium += item.premium(instance(assetId));
      counts.set(index, seen);
    }
    // Doppler (415–421: Ruby, Sapphire, Black Pearl, Phase 1–4)
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([415, 416, 417, 418, 419, 420, 421]);
    const ruby = counts.get(415)!;
    const phase3 = counts.get(420)!;
    expect(ruby.copies * 10).toBeLessThan(phase3.copies);
    expect(ruby.premium / ruby.copies).toBeGreaterThan(3 * (phase3.premium / phase3.copies));
    // a finish without phases keeps one paint index
    const redline = catalog.byName.get('AK-47 | Redline (Field-Tested)')!;
    const indexes = new Set(Array.from({ length: 200 }, (_, k) => redline.describe(instance(k + 1)).cs_paint_index));
    expect(indexes.size).toBe(1);
  });

  it('gives every CS2 skin copy a float inside its wear band, deterministically per asset', () => {
    const skins = catalog.byApp.get(730)!.filter((i) => !i.commodity);
    const rng = new Random(3);
    for (let k = 0; k < 3_000; k++) {
      const item = rng.pick(skins);
      const assetId = rng.int(1, 2 ** 40);
      const detail = item.describe(instance(assetId));
      expect(detail).toEqual(item.describe(instance(assetId)));
      const wear = item.name.match(/\(([^)]+)\)$/)![1]!;
      expect(WEAR_BANDS.some((b) => b.name === wear)).toBe(true);
      expect(detail.cs_wear).toBe(wear);
      expect(wearBandOf(detail.cs_paint_wear!).name).toBe(wear);
      expect(detail.cs_stickers!.length).toBeLessThanOrEqual(5);
      expect(item.premium(instance(assetId))).toBeGreaterThanOrEqual(1);
    }
  });

  it('fills exactly its own game\'s fields and passes the full-listing schema', () => {
    const rng = new Random(4);
    for (const app of APP_IDS) {
      const prefix = { 730: 'cs_', 252490: 'rust_', 570: 'dota_', 440: 'tf2_' }[app];
      for (let k = 0; k < 50; k++) {
        const item = catalog.sample(rng, app);
        const detail = item.describe(instance(rng.int(1, 1e9)));
        const row = { id: 1, app_id: app, market_hash_name: item.name, price: item.basePrice, amount: 1, commodity: item.commodity, created_at: '2025-01-01T00:00:00.000Z', ...detail };
        expect(fullListing.safeParse(row).success, item.name).toBe(true);
        for (const field of LISTING_DETAIL_FIELDS) {
          if (/^(cs|rust|dota|tf2)_/.test(field) && !field.startsWith(prefix)) expect(detail[field], `${item.name} ${field}`).toBeNull();
        }
      }
    }
  });

  it('sends its own game\'s array fields as arrays, [] when empty: null is only for other games\' fields (§2.3)', () => {
    // §2.3 types cs_stickers and cs_keychains as arrays and nulls only the fields of other games: a
    // case or a sticker listed on its own carries none, like a knife, which is [].
    const own = { 730: ['cs_stickers', 'cs_keychains'], 440: ['tf2_classes', 'tf2_spells'], 570: [], 252490: [] } as const;
    for (const item of catalog.items) {
      const detail = item.describe(instance(12_345));
      for (const field of own[item.appId]) expect(Array.isArray(detail[field]), `${item.name} ${field}`).toBe(true);
    }
    const container = catalog.byApp.get(730)!.find((i) => i.commodity && i.describe(instance(1)).cs_type === 'Container')!;
    expect(container.describe(instance(1))).toMatchObject({ cs_stickers: [], cs_keychains: [] });
  });

  it('samples by weight across games (CS2 most often) and by cheapness within a game', () => {
    const rng = new Random(5);
    const counts = new Map<number, number>();
    for (let k = 0; k < 20_000; k++) {
      const app = catalog.sample(rng).appId;
      counts.set(app, (counts.get(app) ?? 0) + 1);
    }
    expect(counts.get(730)!).toBeGreaterThan(counts.get(252490)! * 2);
    for (const app of APP_IDS) expect(counts.get(app)!).toBeGreaterThan(1_000);
  });
});

/**
 * Counter-Strike 2 items from real data (src/demo/catalog/cs2-catalog.json, generated from
 * @ianlucas/cs2-lib by scripts/gen-cs2-catalog.mjs): every skin in every wear its float range allows,
 * StatTrak™ and Souvenir versions where the game has them, plus stickers, charms, cases, agents and
 * patches as commodities. Floats lie inside both the skin's range and the wear named in the item name.
 */
import type { Sticker } from '../../shared/api/index.ts';
import { type DopplerPhase, phaseOfPaintIndex } from '../../shared/phases.ts';
import { bandsWithin, type WearBand } from '../../shared/wear.ts';
import { hashString, mix32, Random, unitFromHash } from '../random.ts';
import data from './cs2-catalog.json' with { type: 'json' };
import { detailWith, round, spread } from './detail.ts';
import type { ItemInstance, ItemSpec } from './types.ts';

interface SkinRecord {
  weapon: string;
  paint: string;
  paint_index: number;
  wear_min: number;
  wear_max: number;
  rarity: string;
  collection: string | null;
  type: string;
  stattrak: boolean;
  souvenir: boolean;
  image: string;
}
/** [id, name, rarity, image hash] */
type Tuple = [number, string, string, string];
interface Cs2CatalogFile {
  source: string;
  image_base: string;
  skins: SkinRecord[];
  stickers: Tuple[];
  keychains: Tuple[];
  cases: Tuple[];
  agents: Tuple[];
  patches: Tuple[];
}

const file = data as unknown as Cs2CatalogFile;
export const CS2_DATA_SOURCE = file.source;
const imageUrl = (hash: string) => (hash ? `${file.image_base}${hash}.webp` : `${file.image_base}placeholder.webp`);

export const CS2_MAX_STICKERS = 5;
const MAX_PAINT_SEED = 1000;
const MAX_KEYCHAIN_PATTERN = 100_000;

const RARITY_PRICE: Record<string, number> = {
  'Consumer Grade': 6,
  'Industrial Grade': 14,
  'Mil-Spec Grade': 45,
  Restricted: 260,
  Classified: 1_300,
  Covert: 5_000,
  Contraband: 180_000,
};
const WEAR_PRICE: Record<WearBand['code'], number> = { FN: 1.8, MW: 1.25, FT: 1, WW: 0.85, BS: 0.75 };

interface Attachable {
  id: number;
  name: string;
  image: string;
}
const STICKERS: Attachable[] = file.stickers.map(([id, name, , image]) => ({ id, name, image: imageUrl(image) }));
const KEYCHAINS: Attachable[] = file.keychains.map(([id, name, , image]) => ({ id, name, image: imageUrl(image) }));

function inspectLink(instance: ItemInstance): string {
  const d = `${mix32(instance.assetId)}${mix32(instance.assetId + 1)}`;
  return `steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S${instance.ownerSteamId}A${instance.assetId}D${d}`;
}

/**
 * Spec §2.3 types every member of a sticker / keychain object as a number or integer, none as nullable,
 * so the demo always fills them: 0 where the member does not apply to the kind (a sticker's `pattern`,
 * a keychain's `wear`, `tint_id` of both, which only sprays carry in the game) and the in-game defaults
 * (scale 1, rotation 0, offsets 0) where nobody moved it. Placement comes from a stream of its own
 * (`place`), so every other rolled member is what it was before these were filled in.
 */
function stickersFor(rng: Random, place: Random): Sticker[] {
  // Most skins carry none; a few are fully stickered.
  const roll = rng.next();
  const count = roll < 0.62 ? 0 : roll < 0.8 ? 1 : roll < 0.89 ? 2 : roll < 0.94 ? 3 : roll < 0.97 ? 4 : 5;
  const slots = [0, 1, 2, 3, 4];
  const out: Sticker[] = [];
  for (let i = 0; i < count; i++) {
    const slot = slots.splice(rng.int(0, slots.length - 1), 1)[0] ?? i;
    const sticker = rng.pick(STICKERS);
    out.push({
      slot,
      sticker_id: sticker.id,
      name: sticker.name,
      image: sticker.image,
      wear: rng.chance(0.7) ? 0 : round(rng.float(0.01, 0.95), 4),
      ...stickerPlacement(place),
      tint_id: 0,
      pattern: 0,
    });
  }
  return out.sort((a, b) => a.slot - b.slot);
}

/** Where a sticker sits: mostly the slot's default; now and then slid, turned or resized by its owner. */
function stickerPlacement(place: Random): Pick<Sticker, 'scale' | 'rotation' | 'offset_x' | 'offset_y' | 'offset_z'> {
  if (!place.chance(0.25)) return { scale: 1, rotation: 0, offset_x: 0, offset_y: 0, offset_z: 0 };
  return {
    scale: place.chance(0.3) ? round(place.float(0.8, 1.25), 3) : 1,
    rotation: place.chance(0.5) ? place.int(-45, 45) : 0,
    offset_x: round(place.float(-0.25, 0.25), 4),
    offset_y: round(place.float(-0.25, 0.25), 4),
    offset_z: 0,
  };
}

function keychainsFor(rng: Random): Sticker[] {
  if (!rng.chance(0.12) || KEYCHAINS.length === 0) return [];
  const keychain = rng.pick(KEYCHAINS);
  return [
    {
      slot: 0,
      sticker_id: keychain.id,
      name: keychain.name,
      image: keychain.image,
      wear: 0,
      scale: 1,
      rotation: 0,
      tint_id: 0,
      offset_x: round(rng.float(-4, 4), 4),
      offset_y: round(rng.float(-1, 1), 4),
      offset_z: round(rng.float(-1, 1), 4),
      pattern: rng.int(0, MAX_KEYCHAIN_PATTERN),
    },
  ];
}

const isFade = (paint: string) => /(^|\s)Fade$/.test(paint) && paint !== 'Marble Fade';
const isCaseHardened = (paint: string) => paint === 'Case Hardened';

interface SkinVersion {
  skin: SkinRecord;
  /**
   * Dopplers: every phase of this weapon and finish (one market hash name for all of them, as on the
   * real market), each copy one of them; otherwise just `skin`.
   */
  variants: readonly SkinRecord[];
  band: WearBand;
  floatMin: number;
  floatMax: number;
  stattrak: boolean;
  souvenir: boolean;
}

/** One copy's randomness: derived from its asset id, never from a shared stream. */
const copyRandom = (instance: ItemInstance, salt: string) => new Random(mix32(instance.assetId ^ hashString(salt)));

function skinSpec(v: SkinVersion): ItemSpec {
  const { skin, band } = v;
  const star = skin.type === 'Knife' || skin.type === 'Gloves' ? '★ ' : '';
  const quality = v.stattrak ? 'StatTrak™ ' : v.souvenir ? 'Souvenir ' : '';
  const name = `${star}${quality}${skin.weapon} | ${skin.paint} (${band.name})`;
  const key = hashString(`${skin.weapon}|${skin.paint}`);
  const rarityPrice = star ? (skin.type === 'Knife' ? 16_000 : 13_000) : (RARITY_PRICE[skin.rarity] ?? 50);
  const skinFactor = spread(unitFromHash(key), 1.6, 0.2, 12);
  const price = Math.max(
    3,
    Math.round(rarityPrice * skinFactor * WEAR_PRICE[band.code] * (v.stattrak ? 2.3 : 1) * (v.souvenir ? 3.5 : 1)),
  );
  const stickerable = !star;
  const fade = isFade(skin.paint);
  const caseHardened = isCaseHardened(skin.paint);
  const icon = imageUrl(skin.image);
  const rollCopy = (instance: ItemInstance) => {
    const rng = copyRandom(instance, 'cs2-skin');
    const position = rng.next();
    const paintWear = Math.min(v.floatMin + position * (v.floatMax - v.floatMin), v.floatMax - 1e-9);
    const paintSeed = rng.int(0, MAX_PAINT_SEED);
    // a stream of its own, so skins without phases roll exactly what they rolled before
    const variant = v.variants.length > 1 ? pickPhaseVariant(copyRandom(instance, 'cs2-phase'), v.variants) : skin;
    return { rng, position, paintWear, paintSeed, variant };
  };
  return {
    appId: 730,
    name,
    commodity: false,
    basePrice: price,
    weight: 60 / Math.sqrt(price),
    iconUrl: icon,
    describe(instance) {
      const { rng, paintWear, paintSeed, variant } = rollCopy(instance);
      return detailWith(instance, variant === skin ? icon : imageUrl(variant.image), {
        cs_weapon: skin.weapon,
        cs_type: skin.type,
        cs_wear: band.name,
        cs_rarity: skin.rarity,
        cs_collection: skin.collection,
        cs_is_stattrak: v.stattrak,
        cs_is_souvenir: v.souvenir,
        cs_is_highlight: false,
        cs_inspect_link: inspectLink(instance),
        cs_paint_wear: paintWear,
        cs_paint_seed: paintSeed,
        cs_paint_index: variant.paint_index,
        cs_fade_percentage: fade ? round(80 + 20 * unitFromHash(paintSeed * 7919 + skin.paint_index), 1) : null,
        cs_blue_percentage: caseHardened ? round(85 * unitFromHash(paintSeed * 104729 + skin.paint_index) ** 3, 1) : null,
        cs_stickers: stickerable ? stickersFor(rng, copyRandom(instance, 'cs2-sticker-placement')) : [],
        cs_keychains: stickerable ? keychainsFor(rng) : [],
      });
    },
    premium(instance) {
      const { position, paintSeed, variant } = rollCopy(instance);
      // A low float within its wear is worth more; so are high fades, very blue Case Hardened and the
      // gem phases of a Doppler.
      let factor = (1 + 0.3 * (1 - position) ** 6) * (PHASE_PREMIUM[phaseOfPaintIndex(variant.paint_index) ?? ''] ?? 1);
      if (fade) factor += 0.25 * unitFromHash(paintSeed * 7919 + skin.paint_index);
      if (caseHardened) factor += 4 * unitFromHash(paintSeed * 104729 + skin.paint_index) ** 9;
      return factor;
    },
  };
}

function commoditySpec(
  name: string,
  type: string,
  rarity: string,
  image: string,
  basePrice: number,
  weight: number,
): ItemSpec {
  const icon = imageUrl(image);
  return {
    appId: 730,
    name,
    commodity: true,
    basePrice,
    weight,
    iconUrl: icon,
    // No stickers or charms on a case or a sticker itself: [] as on a knife, since §2.3 types both as
    // arrays and keeps null for other games' fields.
    describe: (instance) =>
      detailWith(instance, icon, { cs_type: type, cs_rarity: rarity, cs_is_stattrak: false, cs_is_souvenir: false, cs_is_highlight: false, cs_stickers: [], cs_keychains: [] }),
  };
}

const STICKER_RARITY_PRICE: Record<string, number> = { 'High Grade': 9, Remarkable: 45, Exotic: 160, Extraordinary: 700, 'Base Grade': 5 };

function stickerPrice(name: string, rarity: string): number {
  let price = (STICKER_RARITY_PRICE[rarity] ?? 9) * spread(unitFromHash(hashString(name)), 1.2, 0.3, 6);
  if (/Katowice 2014|Cologne 2014/.test(name)) price *= 60;
  else if (/Katowice 2015|Cologne 2015|DreamHack 2014/.test(name)) price *= 8;
  if (/\(Holo/.test(name)) price *= 3;
  if (/\(Foil|\(Gold/.test(name)) price *= 7;
  return Math.max(3, Math.round(price));
}

/**
 * What each phase adds to the finish's usual price (a premium, never below 1: gems are rare, P2 and P4
 * the favourite phases; P1 and P3 are the usual price).
 */
const PHASE_PREMIUM: Partial<Record<DopplerPhase | '', number>> = {
  'Phase 2': 1.25,
  'Phase 4': 1.15,
  Ruby: 6,
  Sapphire: 7,
  'Black Pearl': 4,
  Emerald: 6,
};
/** How often each phase drops, roughly: the gems are a few percent of all Dopplers. */
const PHASE_WEIGHT: Partial<Record<DopplerPhase, number>> = { Ruby: 0.04, Sapphire: 0.04, 'Black Pearl': 0.05, Emerald: 0.04 };

function pickPhaseVariant(rng: Random, variants: readonly SkinRecord[]): SkinRecord {
  const weight = (s: SkinRecord) => PHASE_WEIGHT[phaseOfPaintIndex(s.paint_index) as DopplerPhase] ?? 1;
  let roll = rng.next() * variants.reduce((sum, s) => sum + weight(s), 0);
  for (const s of variants) {
    roll -= weight(s);
    if (roll < 0) return s;
  }
  return variants[variants.length - 1] as SkinRecord;
}

/** Skins by weapon and finish: several only for Dopplers, whose phases share one market hash name. */
function phaseVariants(skins: readonly SkinRecord[]): Map<string, SkinRecord[]> {
  const byFinish = new Map<string, SkinRecord[]>();
  for (const skin of skins) {
    if (phaseOfPaintIndex(skin.paint_index) === null) continue;
    const key = `${skin.weapon}|${skin.paint}`;
    byFinish.set(key, [...(byFinish.get(key) ?? []), skin]);
  }
  return byFinish;
}

export function cs2Items(): ItemSpec[] {
  const specs: ItemSpec[] = [];
  const seen = new Set<string>();
  const push = (spec: ItemSpec) => {
    // The library lists a few skins twice (re-released finishes); one market hash name is one item.
    if (seen.has(spec.name)) return;
    seen.add(spec.name);
    specs.push(spec);
  };
  const phases = phaseVariants(file.skins);
  for (const skin of file.skins) {
    const variants = phases.get(`${skin.weapon}|${skin.paint}`) ?? [skin];
    for (const band of bandsWithin(skin.wear_min, skin.wear_max)) {
      const floatMin = Math.max(band.min, skin.wear_min);
      const floatMax = Math.min(band.max, skin.wear_max);
      if (!(floatMax > floatMin)) continue;
      const base = { skin, variants, band, floatMin, floatMax };
      push(skinSpec({ ...base, stattrak: false, souvenir: false }));
      if (skin.stattrak) push(skinSpec({ ...base, stattrak: true, souvenir: false }));
      if (skin.souvenir) push(skinSpec({ ...base, stattrak: false, souvenir: true }));
    }
  }
  for (const [, name, rarity, image] of file.stickers) {
    const price = stickerPrice(name, rarity);
    push(commoditySpec(name, 'Sticker', rarity, image, price, 8 / Math.sqrt(price)));
  }
  for (const [, name, rarity, image] of file.keychains) {
    const slab = name.startsWith('Sticker Slab');
    const price = Math.round((slab ? 90 : 700) * spread(unitFromHash(hashString(name)), 1.2, 0.3, 8));
    push(commoditySpec(name, 'Charm', rarity, image, price, 20 / Math.sqrt(price)));
  }
  for (const [id, name, rarity, image] of file.cases) {
    const souvenir = name.includes('Souvenir Package');
    // Older containers (lower ids) are rarer and dearer.
    const age = 1 + 8 * (1 - Math.min(1, id / 20_000));
    const price = Math.round((souvenir ? 400 : 80) * age * spread(unitFromHash(hashString(name)), 1, 0.4, 5));
    push(commoditySpec(name, 'Container', rarity, image, price, 150 / Math.sqrt(price)));
  }
  for (const [, name, rarity, image] of file.agents) {
    const price = Math.round(900 * spread(unitFromHash(hashString(name)), 1, 0.3, 5));
    push(commoditySpec(name, 'Agent', rarity, image, price, 40 / Math.sqrt(price)));
  }
  for (const [, name, rarity, image] of file.patches) {
    const price = Math.round(120 * spread(unitFromHash(hashString(name)), 1, 0.3, 5));
    push(commoditySpec(name, 'Patch', rarity, image, price, 20 / Math.sqrt(price)));
  }
  return specs;
}


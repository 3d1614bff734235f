/**
 * Deterministic market data for the store/sync/query tests and the benchmark: listings of the four
 * games with plausible per-game details (floats in their wear band, seeds, fades, stickers, heroes...).
 * Seeded, so a failing test reproduces exactly.
 */
import { NULL_LISTING_DETAIL, type AppId, type FullListing, type LeanListing, type ListingEvent, type Sticker } from '../../src/shared/api/index.ts';

export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for test data. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

const WEAPONS = ['AK-47', 'M4A4', 'M4A1-S', 'AWP', 'Desert Eagle', 'USP-S', 'Glock-18', 'P250', 'MP9', 'FAMAS',
  'Galil AR', 'SSG 08', 'Karambit', 'Butterfly Knife', 'Bayonet', 'M9 Bayonet', 'Five-SeveN', 'Tec-9', 'MAC-10', 'UMP-45'];
const SKINS = ['Redline', 'Asiimov', 'Vulcan', 'Fire Serpent', 'Case Hardened', 'Fade', 'Doppler', 'Hyper Beast',
  'Neo-Noir', 'Printstream', 'Bloodsport', 'Fuel Injector', 'Slate', 'Safari Mesh', 'Boreal Forest', 'Blue Steel',
  'Crimson Web', 'Tiger Tooth', 'Marble Fade', 'Gamma Doppler', 'Emerald', 'Ruby', 'Sapphire', 'Night Stripe',
  'Urban Masked', 'Forest DDPAT', 'Scorched', 'Stained', 'Lore', 'Autotronic', 'Black Laminate', 'Point Disarray',
  'The Empress', 'Wasteland Rebel', 'Jaguar', 'Aquamarine Revenge', 'Elite Build', 'Frontside Misty', 'Orbit Mk01',
  'Phantom Disruptor'];
/**
 * Dopplers take the game's real phase indexes (Ruby…Phase 4, Emerald…Phase 4), spread by id so that no
 * random draw is added (every other value of a seeded dataset stays what it was).
 */
function paintIndexOf(skin: string, weapon: string, id: number): number {
  if (skin === 'Doppler') return 415 + (id % 7);
  if (skin === 'Gamma Doppler') return 568 + (id % 5);
  return 1 + ((SKINS.indexOf(skin) * 7 + WEAPONS.indexOf(weapon)) % 300);
}
const WEARS: readonly [string, number, number][] = [
  ['Factory New', 0, 0.07],
  ['Minimal Wear', 0.07, 0.15],
  ['Field-Tested', 0.15, 0.38],
  ['Well-Worn', 0.38, 0.45],
  ['Battle-Scarred', 0.45, 1],
];
const RARITIES = ['Consumer Grade', 'Industrial Grade', 'Mil-Spec', 'Restricted', 'Classified', 'Covert'];
const COLLECTIONS = ['The Phoenix Collection', 'The Huntsman Collection', 'The Chroma Collection', 'The Gamma Collection',
  'The Spectrum Collection', 'The Prisma Collection', 'The Clutch Collection', 'The Dreams & Nightmares Collection'];
const STICKERS = Array.from({ length: 400 }, (_, i) => {
  const teams = ['Natus Vincere', 'Titan', 'iBUYPOWER', 'Crown', 'Vitality', 'FaZe Clan', 'G2 Esports', 'Astralis',
    'Ninjas in Pyjamas', 'Fnatic', 'Cloud9', 'MOUZ', 'Heroic', 'Liquid', 'ENCE', 'Spirit'];
  const events = ['Katowice 2014', 'Cologne 2015', 'Boston 2018', 'Antwerp 2022', 'Paris 2023', 'Copenhagen 2024'];
  const finish = ['', ' (Holo)', ' (Foil)', ' (Glitter)', ' (Gold)'];
  return `Sticker | ${teams[i % teams.length]}${finish[Math.floor(i / teams.length) % finish.length]} | ${events[Math.floor(i / 80) % events.length]}`;
});
const KEYCHAINS = Array.from({ length: 40 }, (_, i) => `Charm | ${['Lil\' Squirt', 'Hot Wurst', 'Die-cast AK', 'Baby Karat', 'Pocket AWP', 'Semi-Precious', 'Lil\' Whiskers', 'Diner Dog'][i % 8]} ${Math.floor(i / 8) + 1}`);
const HEROES = ['Pudge', 'Invoker', 'Juggernaut', 'Phantom Assassin', 'Crystal Maiden', 'Axe', 'Lina', 'Anti-Mage',
  'Shadow Fiend', 'Mirana', 'Sniper', 'Earthshaker', 'Tinker', 'Rubick', 'Techies', 'Slark', 'Faceless Void'];
const DOTA_RARITY = ['Common', 'Uncommon', 'Rare', 'Mythical', 'Legendary', 'Immortal', 'Arcana'];
const DOTA_QUALITY = ['Standard', 'Genuine', 'Inscribed', 'Unusual', 'Corrupted', 'Exalted'];
const DOTA_SLOT = ['Weapon', 'Head', 'Back', 'Arms', 'Shoulder', 'Belt', 'Misc'];
const TF2_QUALITY = ['Unique', 'Strange', 'Vintage', 'Genuine', 'Unusual', 'Collector\'s', 'Haunted'];
const TF2_CLASSES = ['Scout', 'Soldier', 'Pyro', 'Demoman', 'Heavy', 'Engineer', 'Medic', 'Sniper', 'Spy'];
const TF2_EFFECTS = ['Burning Flames', 'Scorching Flames', 'Sunbeams', 'Hearts', 'Green Energy', 'Purple Energy'];
const RUST_CATEGORY = ['Weapon', 'Attire', 'Construction', 'Tool', 'Resource'];
const RUST_TYPE = ['Hoodie', 'Pants', 'AK47', 'Door', 'Box', 'Rock', 'Boots', 'Facemask'];

export const APP_WEIGHTS: readonly [AppId, number][] = [
  [730, 0.6],
  [570, 0.2],
  [440, 0.1],
  [252490, 0.1],
];

function pickApp(rng: Rng): AppId {
  let r = rng();
  for (const [app, w] of APP_WEIGHTS) {
    if (r < w) return app;
    r -= w;
  }
  return 730;
}

export const BASE_TIME_MS = Date.UTC(2026, 0, 1);

/** A sticker in slot 0 with only its name to tell it apart (wear 0.1), for tests about sticker names. */
export function stickerNamed(name: string): Sticker {
  return { ...sticker(() => 0, 0, name, false), sticker_id: 1, wear: 0.1 };
}

function sticker(rng: Rng, slot: number, name: string, keychain: boolean): Sticker {
  return {
    slot,
    sticker_id: 1000 + Math.floor(rng() * 9000),
    name,
    image: `https://img.example/${slot}.png`,
    wear: keychain ? null : Math.round(rng() * 1000) / 1000,
    scale: 1,
    rotation: 0,
    tint_id: null,
    offset_x: 0,
    offset_y: 0,
    offset_z: 0,
    pattern: keychain ? int(rng, 0, 100_000) : null,
  };
}

/** A listing of a random game with every detail field of §2.3. */
export function makeFullListing(rng: Rng, id: number, createdMs = BASE_TIME_MS + id * 1000): FullListing {
  const app = pickApp(rng);
  const price = Math.max(3, Math.round(Math.exp(rng() * 11.5)));
  const commodity = app !== 730 && rng() < 0.3;
  const common = {
    id,
    app_id: app,
    price,
    amount: commodity ? int(rng, 1, 50) : 1,
    commodity,
    created_at: new Date(createdMs).toISOString(),
    ...NULL_LISTING_DETAIL,
    steam_asset_id: String(30_000_000_000 + id),
    icon_url: `https://img.example/${app}/${id % 997}.png`,
  };
  if (app === 730) {
    const weapon = pick(rng, WEAPONS);
    const skin = pick(rng, SKINS);
    const [wear, lo, hi] = pick(rng, WEARS);
    const stattrak = rng() < 0.1;
    const souvenir = !stattrak && rng() < 0.03;
    const stickers: Sticker[] = [];
    if (rng() < 0.3) {
      const n = int(rng, 1, 4);
      for (let s = 0; s < n; s++) stickers.push(sticker(rng, s, pick(rng, STICKERS), false));
    }
    const keychains = rng() < 0.05 ? [sticker(rng, 0, pick(rng, KEYCHAINS), true)] : [];
    const name = `${stattrak ? 'StatTrak™ ' : souvenir ? 'Souvenir ' : ''}${weapon} | ${skin} (${wear})`;
    return {
      ...common,
      market_hash_name: name,
      cs_weapon: weapon,
      cs_type: weapon.includes('Knife') || weapon.includes('Bayonet') || weapon === 'Karambit' ? 'Knife' : 'Rifle',
      cs_wear: wear,
      cs_rarity: pick(rng, RARITIES),
      cs_collection: pick(rng, COLLECTIONS),
      cs_is_stattrak: stattrak,
      cs_is_souvenir: souvenir,
      cs_is_highlight: false,
      cs_inspect_link: `steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20A${id}D${id * 7}`,
      cs_paint_wear: lo + rng() * (hi - lo),
      cs_paint_seed: int(rng, 0, 1000),
      cs_paint_index: paintIndexOf(skin, weapon, id),
      cs_fade_percentage: skin.includes('Fade') ? 80 + rng() * 20 : null,
      cs_blue_percentage: skin === 'Case Hardened' ? rng() * 100 : null,
      cs_stickers: stickers,
      cs_keychains: keychains,
    };
  }
  if (app === 570) {
    const hero = pick(rng, HEROES);
    const slot = pick(rng, DOTA_SLOT);
    const quality = pick(rng, DOTA_QUALITY);
    return {
      ...common,
      market_hash_name: `${quality === 'Standard' ? '' : `${quality} `}${hero} ${slot} of ${pick(rng, SKINS)}`,
      dota_rarity: pick(rng, DOTA_RARITY),
      dota_hero: hero,
      dota_quality: quality,
      dota_type: 'Wearable',
      dota_slot: slot,
      dota_collection: `Treasure ${int(rng, 1, 20)}`,
      dota_event: rng() < 0.2 ? 'The International' : null,
    };
  }
  if (app === 440) {
    const quality = pick(rng, TF2_QUALITY);
    const cls = pick(rng, TF2_CLASSES);
    return {
      ...common,
      market_hash_name: `${quality} ${cls} ${pick(rng, ['Hat', 'Rocket Launcher', 'Scattergun', 'Medigun', 'Taunt'])} ${int(rng, 1, 60)}`,
      tf2_classes: [cls],
      tf2_quality: quality,
      tf2_effect: quality === 'Unusual' ? pick(rng, TF2_EFFECTS) : null,
      tf2_wear: null,
      tf2_spells: [],
      tf2_warpaint: null,
      tf2_sheen: null,
      tf2_collection: null,
      tf2_grade: null,
      tf2_paint_color: rng() < 0.1 ? 'Team Spirit' : null,
      tf2_attributes: { craftable: true, uncraftable: false, festivized: false, strange_parts: false, holiday_restricted: false },
      tf2_wiki_link: 'https://wiki.teamfortress.com/',
      tf2_inspect_link: null,
      tf2_type: 'Cosmetic',
    };
  }
  const type = pick(rng, RUST_TYPE);
  return {
    ...common,
    market_hash_name: `${pick(rng, SKINS)} ${type} ${int(rng, 1, 150)}`,
    rust_category: pick(rng, RUST_CATEGORY),
    rust_type: type,
    rust_collection: rng() < 0.5 ? 'Workshop' : null,
  };
}

/** A CS2 Doppler of one name with the given paint index (its phase), for tests that compare phases. */
export function dopplerListing(rng: Rng, id: number, price: number, paintIndex: number, name = 'Karambit | Doppler (Factory New)'): FullListing {
  return { ...makeFullListing(rng, id), app_id: 730, market_hash_name: name, price, amount: 1, commodity: false, cs_paint_index: paintIndex };
}

export function leanOf(listing: FullListing | LeanListing): LeanListing {
  return {
    id: listing.id,
    app_id: listing.app_id,
    market_hash_name: listing.market_hash_name,
    price: listing.price,
    amount: listing.amount,
    commodity: listing.commodity,
    created_at: listing.created_at,
  };
}

const ts = (ms: number) => new Date(ms).toISOString();

export function createdEvent(listing: FullListing, seq: bigint): ListingEvent {
  const { id, ...rest } = listing;
  return { event: 'listing.created', seq, ts: ts(BASE_TIME_MS), data: { listing_id: id, ...rest } } as ListingEvent;
}
export function priceChangedEvent(id: number, appId: AppId, before: number, after: number, seq: bigint): ListingEvent {
  return {
    event: 'listing.price_changed',
    seq,
    ts: ts(BASE_TIME_MS),
    data: { listing_id: id, app_id: appId, price_before: before, price_after: after },
  };
}
export function amountChangedEvent(id: number, appId: AppId, newAmount: number, seq: bigint): ListingEvent {
  return {
    event: 'listing.amount_changed',
    seq,
    ts: ts(BASE_TIME_MS),
    data: { listing_id: id, app_id: appId, new_amount: newAmount },
  };
}
export function removedEvent(id: number, appId: AppId, seq: bigint): ListingEvent {
  return { event: 'listing.removed', seq, ts: ts(BASE_TIME_MS), data: { listing_id: id, app_id: appId } };
}
export function soldEvent(listing: LeanListing, amount: number, seq: bigint, soldMs = BASE_TIME_MS): ListingEvent {
  return {
    event: 'listing.sold',
    seq,
    ts: ts(soldMs),
    data: {
      listing_id: listing.id,
      app_id: listing.app_id,
      market_hash_name: listing.market_hash_name,
      price: listing.price,
      amount,
      listed_at: listing.created_at,
      sold_at: ts(soldMs),
    },
  };
}

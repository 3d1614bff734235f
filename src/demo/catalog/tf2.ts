/**
 * Team Fortress 2 (app 440) items: currencies (keys, metal, tickets) as commodities; Unusual hats with
 * a per-copy effect, Strange weapons with their parts, Australiums and war paints in each wear as
 * unique copies.
 */
import { WEAR_BANDS } from '../../shared/wear.ts';
import { hashString, Random, unitFromHash } from '../random.ts';
import { detailWith, spread } from './detail.ts';
import type { ItemInstance, ItemSpec } from './types.ts';

const ALL_CLASSES = ['Scout', 'Soldier', 'Pyro', 'Demoman', 'Heavy', 'Engineer', 'Medic', 'Sniper', 'Spy'];
const EFFECTS = ['Burning Flames', 'Scorching Flames', 'Sunbeams', 'Hearts', 'Green Energy', 'Purple Energy', 'Cloud 9', 'Vivid Plasma', 'Stormy Storm', 'Searing Plasma'];
const SPELLS = ['Exorcism', 'Halloween Fire', 'Pumpkin Bombs', 'Voices from Below', 'Team Spirit Footprints'];
const SHEENS = ['Team Shine', 'Hot Rod', 'Manndarin', 'Deadly Daffodil', 'Agonizing Emerald', 'Villainous Violet', 'Mean Green'];
const PAINTS = ['Australium Gold', 'Team Spirit', 'An Extraordinary Abundance of Tinge', 'Pink as Hell', 'The Bitter Taste of Defeat and Lime', 'A Color Similar to Slate'];

const wiki = (name: string) => `https://wiki.teamfortress.com/wiki/${encodeURIComponent(name.replace(/ /g, '_'))}`;
const icon = (name: string) => `https://community.cloudflare.steamstatic.com/economy/image/tf2/${hashString(name).toString(16)}`;
const attributes = (craftable: boolean, festivized = false, strangeParts = false) => ({
  craftable,
  uncraftable: !craftable,
  festivized,
  strange_parts: strangeParts,
  holiday_restricted: false,
});
const copyRandom = (instance: ItemInstance) => new Random(instance.assetId ^ 0x7f2a11);

interface Tf2Base {
  name: string;
  baseName: string;
  classes: string[];
  quality: string;
  type: string;
  price: number;
  commodity: boolean;
  extra?: (instance: ItemInstance) => Record<string, unknown>;
}

function spec(b: Tf2Base): ItemSpec {
  const image = icon(b.baseName);
  const basePrice = Math.max(3, Math.round(b.price * spread(unitFromHash(hashString(`tf2:${b.name}`)), 0.3, 0.8, 1.25)));
  return {
    appId: 440,
    name: b.name,
    commodity: b.commodity,
    basePrice,
    weight: 25 / Math.sqrt(basePrice),
    iconUrl: image,
    describe: (instance) =>
      detailWith(instance, image, {
        tf2_classes: b.classes,
        tf2_quality: b.quality,
        tf2_type: b.type,
        tf2_spells: [],
        tf2_attributes: attributes(true),
        tf2_wiki_link: wiki(b.baseName),
        ...b.extra?.(instance),
      }),
  };
}

const CURRENCIES: [string, string, number][] = [
  ['Mann Co. Supply Crate Key', 'Tool', 210],
  ['Refined Metal', 'Craft Item', 4],
  ['Reclaimed Metal', 'Craft Item', 2],
  ['Scrap Metal', 'Craft Item', 1],
  ['Tour of Duty Ticket', 'Tool', 95],
  ['Name Tag', 'Tool', 40],
  ['Strange Part: Kills While Explosive Jumping', 'Strange Part', 320],
];
const HATS: [string, string[], number][] = [
  ['Team Captain', ALL_CLASSES, 35_000],
  ['Towering Pillar of Hats', ALL_CLASSES, 22_000],
  ['Modest Pile of Hat', ALL_CLASSES, 12_000],
  ['Killer Exclusive', ['Pyro'], 9_000],
  ['Stout Shako', ['Soldier'], 11_000],
  ['Bombing Run', ['Scout'], 8_500],
  ['Brain Bucket', ['Soldier'], 7_000],
];
const WEAPONS: [string, string[], string, number][] = [
  ['Rocket Launcher', ['Soldier'], 'Primary weapon', 120],
  ['Scattergun', ['Scout'], 'Primary weapon', 90],
  ['Minigun', ['Heavy'], 'Primary weapon', 110],
  ['Knife', ['Spy'], 'Melee weapon', 70],
  ['Sniper Rifle', ['Sniper'], 'Primary weapon', 85],
  ['Medi Gun', ['Medic'], 'Secondary weapon', 95],
  ['Stickybomb Launcher', ['Demoman'], 'Secondary weapon', 80],
];
const WAR_PAINTS: [string, string, string[], string, string, number][] = [
  ['Warhawk', 'Rocket Launcher', ['Soldier'], 'Jungle Jackpot Collection', 'Elite', 1_900],
  ['Hot Rod', 'Minigun', ['Heavy'], 'Gentlemanne\'s Collection', 'Assassin', 1_200],
  ['Carpet Bomber', 'Stickybomb Launcher', ['Demoman'], 'Saxton Select Collection', 'Commando', 450],
  ['Blitzkrieg', 'Medi Gun', ['Medic'], 'Concealed Killer Collection', 'Mercenary', 260],
  ['Smalltown Bringdown', 'Rocket Launcher', ['Soldier'], 'Teufort Collection', 'Assassin', 780],
];

export function tf2Items(): ItemSpec[] {
  const specs: ItemSpec[] = [];
  for (const [name, type, price] of CURRENCIES) {
    specs.push(spec({ name, baseName: name, classes: ALL_CLASSES, quality: 'Unique', type, price, commodity: true }));
  }
  for (const [hat, classes, price] of HATS) {
    specs.push(
      spec({
        name: `Unusual ${hat}`,
        baseName: hat,
        classes,
        quality: 'Unusual',
        type: 'Cosmetic',
        price,
        commodity: false,
        extra: (instance) => {
          const rng = copyRandom(instance);
          return {
            tf2_effect: rng.pick(EFFECTS),
            tf2_paint_color: rng.chance(0.3) ? rng.pick(PAINTS) : null,
            tf2_spells: rng.chance(0.08) ? [rng.pick(SPELLS)] : [],
          };
        },
      }),
      spec({ name: hat, baseName: hat, classes, quality: 'Unique', type: 'Cosmetic', price: Math.round(price / 120), commodity: true }),
    );
  }
  for (const [weapon, classes, type, price] of WEAPONS) {
    specs.push(
      spec({
        name: `Strange ${weapon}`,
        baseName: weapon,
        classes,
        quality: 'Strange',
        type,
        price,
        commodity: false,
        extra: (instance) => {
          const rng = copyRandom(instance);
          const parts = rng.chance(0.3);
          const festivized = rng.chance(0.1);
          return {
            tf2_sheen: rng.chance(0.25) ? rng.pick(SHEENS) : null,
            tf2_attributes: attributes(true, festivized, parts),
            tf2_spells: rng.chance(0.05) ? [rng.pick(SPELLS)] : [],
          };
        },
      }),
      spec({ name: `Strange Australium ${weapon}`, baseName: weapon, classes, quality: 'Strange', type, price: price * 110, commodity: false }),
    );
  }
  for (const [paint, weapon, classes, collection, grade, price] of WAR_PAINTS) {
    for (const band of WEAR_BANDS) {
      const factor = { FN: 1.6, MW: 1.2, FT: 1, WW: 0.85, BS: 0.8 }[band.code];
      specs.push(
        spec({
          name: `${paint} ${weapon} (${band.name})`,
          baseName: weapon,
          classes,
          quality: 'Decorated Weapon',
          type: classes[0] === 'Medic' || weapon === 'Stickybomb Launcher' ? 'Secondary weapon' : 'Primary weapon',
          price: Math.round(price * factor),
          commodity: false,
          extra: (instance) => ({
            tf2_wear: band.name,
            tf2_warpaint: paint,
            tf2_collection: collection,
            tf2_grade: grade,
            tf2_inspect_link: `steam://rungame/440/76561202255233023/+tf_econ_item_preview%20S${instance.ownerSteamId}A${instance.assetId}D${(instance.assetId * 7) % 1e9}`,
          }),
        }),
      );
    }
  }
  return specs;
}

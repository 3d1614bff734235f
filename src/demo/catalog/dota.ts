/**
 * Dota 2 (app 570) items: a hand-written selection of real cosmetics in the qualities the market sees
 * them in (Standard, Inscribed, Genuine, Exalted, Autographed, Unusual couriers). Unusual couriers carry
 * a per-copy effect, so they are not commodities; everything else stacks.
 */
import { hashString, unitFromHash } from '../random.ts';
import { detailWith, spread } from './detail.ts';
import type { ItemSpec } from './types.ts';

/** [name, hero, rarity, type, slot, collection/set, event, price in cents (Standard quality)] */
type DotaRow = [string, string | null, string, string, string | null, string | null, string | null, number];

const ITEMS: DotaRow[] = [
  ['Manifold Paradox', 'Phantom Assassin', 'Arcana', 'Wearable', 'Weapon', 'Manifold Paradox', 'The International 2015', 2_900],
  ['Fractal Horns of Inner Abysm', 'Terrorblade', 'Arcana', 'Wearable', 'Head', 'Fractal Horns of Inner Abysm', 'The International 2015', 2_600],
  ['Blades of Voth Domosh', 'Legion Commander', 'Arcana', 'Wearable', 'Weapon', 'Blades of Voth Domosh', 'The International 2016', 2_400],
  ['Demon Eater', 'Shadow Fiend', 'Arcana', 'Wearable', 'Arms', 'Demon Eater', 'The International 2014', 3_400],
  ['Bladeform Legacy', 'Juggernaut', 'Arcana', 'Wearable', 'Head', 'Bladeform Legacy', 'The International 2014', 2_200],
  ['Feast of Abscession', 'Pudge', 'Arcana', 'Wearable', 'Belt', 'Feast of Abscession', 'The International 2017', 2_700],
  ["Great Sage's Reckoning", 'Monkey King', 'Arcana', 'Wearable', 'Weapon', "Great Sage's Reckoning", 'The International 2017', 2_300],
  ['Tempest Helm of the Thundergod', 'Zeus', 'Arcana', 'Wearable', 'Head', 'Tempest Helm of the Thundergod', 'The International 2015', 2_100],
  ['Frost Avalanche', 'Crystal Maiden', 'Arcana', 'Wearable', 'Back', 'Frost Avalanche', 'The International 2016', 2_800],
  ["Flockheart's Gamble", 'Ogre Magi', 'Arcana', 'Wearable', 'Off-Hand', "Flockheart's Gamble", 'The International 2020', 1_900],
  ['Dragonclaw Hook', 'Pudge', 'Immortal', 'Wearable', 'Weapon', null, null, 69_000],
  ['Golden Moonfall', 'Luna', 'Immortal', 'Wearable', 'Weapon', null, 'The International 2017', 3_200],
  ['Kantusa the Script Sword', 'Juggernaut', 'Immortal', 'Wearable', 'Weapon', null, 'The International 2018', 450],
  ['Mace of Aeons', 'Faceless Void', 'Immortal', 'Wearable', 'Weapon', null, 'The International 2016', 210],
  ['Golden Basher Blades', 'Anti-Mage', 'Immortal', 'Wearable', 'Weapon', null, 'The International 2016', 1_650],
  ['Rapier of the Burning God', 'Ember Spirit', 'Immortal', 'Wearable', 'Weapon', null, 'The International 2013', 1_100],
  ['Fiery Soul of the Slayer', 'Lina', 'Arcana', 'Wearable', 'Head', 'Fiery Soul of the Slayer', 'The International 2013', 2_000],
  ['Ethereal Flames Pink War Dog', null, 'Rare', 'Courier', 'Courier', null, null, 250_000],
  ['Baby Roshan', null, 'Immortal', 'Courier', 'Courier', null, 'The International 2012', 1_300],
  ['Golden Baby Roshan', null, 'Immortal', 'Courier', 'Courier', null, 'The International 2013', 42_000],
  ['Mighty Boar', null, 'Rare', 'Courier', 'Courier', null, null, 120],
  ['Cluckles the Brave', null, 'Rare', 'Courier', 'Courier', null, null, 90],
  ['Wyvern Hatchling', null, 'Rare', 'Courier', 'Courier', null, null, 75],
  ['Immortal Treasure I 2024', null, 'Immortal', 'Treasure', null, null, 'The International 2024', 280],
  ['Treasure of the Crimson Witness', null, 'Rare', 'Treasure', null, null, null, 35],
  ['Weather Snow', null, 'Mythical', 'Weather', 'Weather', null, null, 180],
  ['Dark Artistry Set', 'Invoker', 'Mythical', 'Bundle', null, 'Dark Artistry', null, 650],
  ['Sylvan Vedette', 'Windranger', 'Rare', 'Bundle', null, 'Sylvan Vedette', null, 60],
  ['Armor of the Demon Trickster', 'Riki', 'Rare', 'Wearable', 'Armor', null, null, 14],
  ['Sparrowhawk Cape', 'Windranger', 'Uncommon', 'Wearable', 'Back', 'Sparrowhawk', null, 6],
  ['Helm of the Guardian Construct', 'Tiny', 'Mythical', 'Wearable', 'Head', null, null, 22],
  ['Eye of Avarice', 'Pudge', 'Rare', 'Ward', 'Ward', null, null, 11],
  ['Frozen Emblem of the Crystal Echeleon', 'Crystal Maiden', 'Mythical', 'Wearable', 'Shoulder', null, null, 45],
  ['Sorcerous Hat', 'Rubick', 'Uncommon', 'Wearable', 'Head', null, null, 4],
  ['Mask of the Mad Moon', 'Lycan', 'Rare', 'Wearable', 'Head', null, null, 9],
  ['Taunt: Come Get It!', 'Axe', 'Mythical', 'Taunt', 'Taunt', null, null, 32],
];

const UNUSUAL_EFFECTS = ['Ethereal Flames', 'Burning Animus', 'Sunfire', 'Diretide Corruption', 'Frostivus Frost', 'Cursed Essence'];

/** Qualities an item is offered in, with price factor and whether copies stay identical. */
function qualitiesOf(rarity: string, type: string): [quality: string, factor: number][] {
  if (type === 'Courier') return [['Standard', 1], ['Unusual', 18], ['Genuine', 2.5]];
  if (rarity === 'Arcana') return [['Standard', 1], ['Exalted', 1.6]];
  if (rarity === 'Immortal') return [['Standard', 1], ['Inscribed', 1.4], ['Autographed', 1.3]];
  if (type === 'Treasure' || type === 'Bundle') return [['Standard', 1]];
  return [['Standard', 1], ['Inscribed', 1.5], ['Genuine', 2]];
}

export function dotaItems(): ItemSpec[] {
  const specs: ItemSpec[] = [];
  for (const [baseName, hero, rarity, type, slot, collection, event, price] of ITEMS) {
    for (const [quality, factor] of qualitiesOf(rarity, type)) {
      const name = quality === 'Standard' ? baseName : `${quality} ${baseName}`;
      const icon = `https://community.cloudflare.steamstatic.com/economy/image/dota2/${hashString(baseName).toString(16)}`;
      const basePrice = Math.max(3, Math.round(price * factor * spread(unitFromHash(hashString(`dota:${name}`)), 0.3, 0.8, 1.25)));
      const unusual = quality === 'Unusual';
      specs.push({
        appId: 570,
        name,
        commodity: !unusual,
        basePrice,
        weight: 25 / Math.sqrt(basePrice),
        iconUrl: icon,
        describe: (instance) =>
          detailWith(instance, icon, {
            dota_rarity: rarity,
            dota_hero: hero,
            dota_quality: unusual ? `Unusual (${UNUSUAL_EFFECTS[instance.assetId % UNUSUAL_EFFECTS.length]})` : quality,
            dota_type: type,
            dota_slot: slot,
            dota_collection: collection,
            dota_event: event,
          }),
      });
    }
  }
  return specs;
}

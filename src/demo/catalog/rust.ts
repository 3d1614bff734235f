/**
 * Rust (app 252490) items: a hand-written selection of real workshop and store skins. All are
 * commodities (identical copies stack), as on the external market.
 */
import { hashString, unitFromHash } from '../random.ts';
import { detailWith, spread } from './detail.ts';
import type { ItemSpec } from './types.ts';

/** [market hash name, rust_category, rust_type (the skinned item), rust_collection, price in cents] */
type RustRow = [string, string, string, string | null, number];

const ITEMS: RustRow[] = [
  ['Tempered AK47', 'Weapon', 'Assault Rifle', 'Tempered', 6_500],
  ['Tempered Mask', 'Attire', 'Metal Facemask', 'Tempered', 3_900],
  ['Tempered Chestplate', 'Attire', 'Metal Chest Plate', 'Tempered', 2_100],
  ['Glory AK47', 'Weapon', 'Assault Rifle', null, 4_800],
  ['Alien Red', 'Weapon', 'Assault Rifle', null, 2_600],
  ['Blackout Hoodie', 'Attire', 'Hoodie', 'Blackout', 1_450],
  ['Blackout Pants', 'Attire', 'Pants', 'Blackout', 1_100],
  ['Blackout Facemask', 'Attire', 'Metal Facemask', 'Blackout', 2_300],
  ['Big Grin', 'Attire', 'Metal Facemask', null, 9_800],
  ['No Mercy', 'Attire', 'Metal Facemask', null, 1_250],
  ['Punishment Mask', 'Attire', 'Metal Facemask', null, 3_100],
  ['Whiteout Facemask', 'Attire', 'Metal Facemask', 'Whiteout', 1_700],
  ['Whiteout Kilt', 'Attire', 'Roadsign Kilt', 'Whiteout', 900],
  ['Whiteout Hoodie', 'Attire', 'Hoodie', 'Whiteout', 1_050],
  ['Neon AK47', 'Weapon', 'Assault Rifle', null, 1_900],
  ['Digital Camo AK47', 'Weapon', 'Assault Rifle', null, 260],
  ['Jungle Camo Thompson', 'Weapon', 'Thompson', null, 85],
  ['Desert Camo MP5', 'Weapon', 'MP5A4', null, 70],
  ['Tactical Python', 'Weapon', 'Python Revolver', null, 140],
  ['Rainbow Pony Hoodie', 'Attire', 'Hoodie', null, 95],
  ['Azul Hoodie', 'Attire', 'Hoodie', null, 60],
  ['Doodle Sleeping Bag', 'Deployable', 'Sleeping Bag', null, 45],
  ['Bandit Large Wood Box', 'Deployable', 'Large Wood Box', null, 120],
  ['Armored Garage Door', 'Construction', 'Garage Door', null, 330],
  ['Shipping Container Garage Door', 'Construction', 'Garage Door', null, 210],
  ['Graffiti Sheet Metal Door', 'Construction', 'Sheet Metal Door', null, 75],
  ['Industrial Furnace', 'Deployable', 'Furnace', null, 160],
  ['Sunset Rug', 'Deployable', 'Rug', null, 55],
  ['Skull Bandana', 'Attire', 'Bandana Mask', null, 48],
  ['Hazmat Youtuber', 'Attire', 'Hazmat Suit', null, 2_200],
  ['Arctic Wolf Jacket', 'Attire', 'Jacket', 'Arctic', 380],
  ['Arctic Camo Pants', 'Attire', 'Pants', 'Arctic', 190],
  ['Big Chief Headdress', 'Attire', 'Bone Helmet', null, 240],
  ['Chieftain Hatchet', 'Tool', 'Hatchet', null, 65],
  ['Gold Rock', 'Tool', 'Rock', null, 1_350],
  ['Mummy Pickaxe', 'Tool', 'Pickaxe', null, 90],
  ['Bearskin Rug', 'Deployable', 'Rug', null, 310],
  ['Vending Machine Graffiti', 'Deployable', 'Vending Machine', null, 130],
  ['Ghostly Bolt Rifle', 'Weapon', 'Bolt Action Rifle', null, 520],
  ['Sand Dune Semi Auto Rifle', 'Weapon', 'Semi-Automatic Rifle', null, 110],
];

export function rustItems(): ItemSpec[] {
  return ITEMS.map(([name, category, type, collection, price]) => {
    const icon = `https://community.cloudflare.steamstatic.com/economy/image/rust/${hashString(name).toString(16)}`;
    const basePrice = Math.max(3, Math.round(price * spread(unitFromHash(hashString(`rust:${name}`)), 0.3, 0.8, 1.25)));
    return {
      appId: 252490,
      name,
      commodity: true,
      basePrice,
      weight: 25 / Math.sqrt(basePrice),
      iconUrl: icon,
      describe: (instance) =>
        detailWith(instance, icon, { rust_category: category, rust_type: type, rust_collection: collection }),
    } satisfies ItemSpec;
  });
}

#!/usr/bin/env node
// Regenerates src/demo/catalog/cs2-catalog.json, the demo market's CS2 item data, from @ianlucas/cs2-lib
// (MIT). The library is ~190 MB, so it is NOT a dependency of Skindesk: install it into a throw-away
// prefix and point this script at it:
//
//   npm install --prefix /tmp/cs2lib @ianlucas/cs2-lib
//   node scripts/gen-cs2-catalog.mjs /tmp/cs2lib
//
// The output keeps only what the demo needs (skins with their paint index, float range, rarity,
// collection and StatTrak/souvenir availability; stickers, charms, cases, agents, patches) and stores
// images as the hash part of the CDN path, so the committed file stays a few MB.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const prefix = resolve(process.argv[2] ?? '/tmp/cs2lib');
const pkgDir = join(prefix, 'node_modules', '@ianlucas', 'cs2-lib');
const out = resolve(import.meta.dirname, '..', 'src', 'demo', 'catalog', 'cs2-catalog.json');

let lib;
let translations;
try {
  lib = await import(pathToFileURL(join(pkgDir, 'dist', 'index.mjs')).href);
  translations = await import(pathToFileURL(join(pkgDir, 'dist', 'translations', 'index.mjs')).href);
} catch (err) {
  console.error(`cannot load @ianlucas/cs2-lib from ${pkgDir}: ${err.message}`);
  console.error('install it first: npm install --prefix /tmp/cs2lib @ianlucas/cs2-lib');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const { CS2Economy, CS2_ITEMS, CS2ContainerType } = lib;
CS2Economy.use({ items: CS2_ITEMS, language: translations.english });
const all = CS2Economy.itemsAsArray;

// Steam's grade names by the library's rarity colour; weapons and stickers name the same colour differently.
const WEAPON_RARITY = {
  '#b0c3d9': 'Consumer Grade',
  '#5e98d9': 'Industrial Grade',
  '#4b69ff': 'Mil-Spec Grade',
  '#8847ff': 'Restricted',
  '#d32ce6': 'Classified',
  '#eb4b4b': 'Covert',
  '#e4ae39': 'Contraband',
  '#ded6cc': 'Consumer Grade',
};
const OTHER_RARITY = {
  '#ded6cc': 'Base Grade',
  '#b0c3d9': 'Base Grade',
  '#5e98d9': 'Industrial Grade',
  '#4b69ff': 'High Grade',
  '#8847ff': 'Remarkable',
  '#d32ce6': 'Exotic',
  '#eb4b4b': 'Extraordinary',
  '#e4ae39': 'Contraband',
};
const SNIPERS = new Set(['awp', 'ssg08', 'scar20', 'g3sg1']);
const MACHINEGUNS = new Set(['m249', 'negev']);

function weaponType(item) {
  if (item.type === 'melee') return 'Knife';
  if (item.type === 'glove') return 'Gloves';
  const base = item.baseId === undefined ? item : CS2Economy.getById(item.baseId);
  if (SNIPERS.has(base.model)) return 'Sniper Rifle';
  if (MACHINEGUNS.has(base.model)) return 'Machinegun';
  switch (base.category) {
    case 'secondary':
      return 'Pistol';
    case 'rifle':
      return 'Rifle';
    case 'smg':
      return 'SMG';
    case 'heavy':
      return 'Shotgun';
    case 'equipment':
      return 'Equipment';
    default:
      return 'Weapon';
  }
}

/** Only the content hash of `/images/<hash>.webp`; the demo prefixes the CDN address. */
function imageHash(path) {
  const m = /\/images\/([0-9a-f]{64})\.webp$/.exec(path ?? '');
  return m ? m[1] : '';
}

// StatTrak comes from weapon cases (their contents and rare specials); souvenirs from souvenir packages.
const statTrakIds = new Set();
const souvenirIds = new Set();
for (const box of all.filter((i) => i.type === 'case')) {
  const ids = [...(box.rawContents ?? []), ...(box.rawSpecials ?? [])];
  for (const id of ids) {
    if (box.containerType === CS2ContainerType.WeaponCase) statTrakIds.add(id);
    if (box.containerType === CS2ContainerType.SouvenirCase) souvenirIds.add(id);
  }
}

const skins = [];
for (const item of all) {
  if (item.base || !['weapon', 'melee', 'glove'].includes(item.type)) continue;
  const [weapon, paint] = item.name.split(' | ');
  if (!weapon || !paint) continue;
  skins.push({
    weapon,
    paint,
    paint_index: item.index ?? 0,
    wear_min: item.getMinimumWear(),
    wear_max: item.getMaximumWear(),
    rarity: WEAPON_RARITY[item.rarity] ?? 'Covert',
    collection: item.collectionName ?? null,
    type: weaponType(item),
    // Every case knife exists in StatTrak™; the library does not list every finish among case specials.
    stattrak: item.type === 'melee' || (item.type === 'weapon' && statTrakIds.has(item.id)),
    souvenir: souvenirIds.has(item.id),
    image: imageHash(item.image),
  });
}

const strip = (name, prefixText) => (name.startsWith(prefixText) ? name.slice(prefixText.length) : name);
const tuple = (item, name = item.name) => [item.id, name, OTHER_RARITY[item.rarity] ?? 'High Grade', imageHash(item.image)];

const stickers = all.filter((i) => i.type === 'sticker').map((i) => tuple(i));
const keychainItems = all.filter((i) => i.type === 'keychain');
// Charms are few; sticker slabs number ~10k, so every 32nd is enough variety for a demo.
const keychains = [
  ...keychainItems.filter((i) => !i.name.startsWith('Sticker Slab')),
  ...keychainItems.filter((i) => i.name.startsWith('Sticker Slab')).filter((_, n) => n % 32 === 0),
].map((i) => tuple(i));
const cases = all
  .filter((i) => i.type === 'case')
  .map((i) => [i.id, strip(i.name, 'Container | '), 'Base Grade', imageHash(i.image)]);
const agents = all.filter((i) => i.type === 'agent').map((i) => tuple(i, strip(i.name, 'Agent | ')));
const patches = all.filter((i) => i.type === 'patch').map((i) => tuple(i));

const catalog = {
  source: `@ianlucas/cs2-lib ${version} (MIT), generated by scripts/gen-cs2-catalog.mjs`,
  image_base: `${CS2Economy.baseUrl}/images/`,
  tuple_columns: ['id', 'name', 'rarity', 'image'],
  skins,
  stickers,
  keychains,
  cases,
  agents,
  patches,
};
const text = `${JSON.stringify(catalog)}\n`;
writeFileSync(out, text);
console.log(
  `wrote ${out}: ${skins.length} skins, ${stickers.length} stickers, ${keychains.length} keychains, ` +
    `${cases.length} cases, ${agents.length} agents, ${patches.length} patches (${(text.length / 1e6).toFixed(2)} MB)`,
);

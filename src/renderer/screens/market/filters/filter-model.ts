/**
 * The book filter as the filter panel edits it: helpers that keep it minimal (no empty ranges, lists or
 * objects, so two equal filters compare equal and the app's strict schema accepts them), the wear
 * presets, and a one-line summary per active filter for the toolbar.
 */
import { DOPPLER_PHASES, type DopplerPhase, phaseTag } from '../../../../shared/phases.ts';
import { GAME_STRING_FIELDS, PAINT_SEEDS_MAX, type BookFilter, type GameStringField } from '../../../../shared/query.ts';
import { WEAR_BANDS, type WearCode } from '../../../../shared/wear.ts';
import { formatCents, formatCount, formatDecimal } from '../../../format/numbers.ts';

export type Range = { min?: number; max?: number };

/** The query engine's longest name (and field value): a longer one would be refused, not searched. */
export const NAME_MAX = 200;

function cleanRange(r: Range | undefined): Range | undefined {
  if (!r) return undefined;
  const out: Range = {};
  if (r.min !== undefined && Number.isFinite(r.min)) out.min = r.min;
  if (r.max !== undefined && Number.isFinite(r.max)) out.max = r.max;
  return out.min === undefined && out.max === undefined ? undefined : out;
}

/** Drops every empty part; the result is what the app receives and what presets store. */
export function cleanFilter(f: BookFilter): BookFilter {
  const out: BookFilter = {};
  if (f.app_id !== undefined) out.app_id = f.app_id;
  if (f.name?.trim()) out.name = f.name.trim();
  const price = cleanRange(f.price);
  if (price) out.price = price;
  const float = cleanRange(f.float);
  if (float) out.float = float;
  if (f.paint_seeds && f.paint_seeds.length > 0) out.paint_seeds = [...new Set(f.paint_seeds)];
  if (f.paint_index !== undefined) out.paint_index = f.paint_index;
  // in the one canonical order, so the same phases chosen in any order make equal filters
  const phases = DOPPLER_PHASES.filter((p) => f.phases?.includes(p));
  if (phases.length > 0) out.phases = phases;
  const fade = cleanRange(f.fade);
  if (fade) out.fade = fade;
  const blue = cleanRange(f.blue);
  if (blue) out.blue = blue;
  if (f.stattrak !== undefined) out.stattrak = f.stattrak;
  if (f.souvenir !== undefined) out.souvenir = f.souvenir;
  const all = (f.stickers?.all ?? [])
    .map((s) => ({
      ...(s.name?.trim() ? { name: s.name.trim() } : {}),
      ...(s.slot !== undefined ? { slot: s.slot } : {}),
      ...(s.max_wear !== undefined ? { max_wear: s.max_wear } : {}),
      ...(s.min_matches !== undefined && s.min_matches > 1 ? { min_matches: s.min_matches } : {}),
    }))
    .filter((s) => Object.keys(s).length > 0);
  const stickers: NonNullable<BookFilter['stickers']> = {};
  if (all.length > 0) stickers.all = all;
  if (f.stickers?.min_count !== undefined) stickers.min_count = f.stickers.min_count;
  if (f.stickers?.max_count !== undefined) stickers.max_count = f.stickers.max_count;
  if (Object.keys(stickers).length > 0) out.stickers = stickers;
  const keychains = (f.keychains ?? [])
    .map((k) => ({
      ...(k.name?.trim() ? { name: k.name.trim() } : {}),
      ...(k.pattern !== undefined ? { pattern: k.pattern } : {}),
    }))
    .filter((k) => Object.keys(k).length > 0);
  if (keychains.length > 0) out.keychains = keychains;
  const fields: Partial<Record<GameStringField, string>> = {};
  for (const key of GAME_STRING_FIELDS) {
    const value = f.fields?.[key]?.trim();
    if (value) fields[key] = value;
  }
  if (Object.keys(fields).length > 0) out.fields = fields;
  if (f.commodity !== undefined) out.commodity = f.commodity;
  return out;
}

/** The filter fields a range problem can be about, by the label the panel gives them. */
export type RangeField = 'Price' | 'Float' | 'Fade' | 'Blue' | 'Sticker count' | 'Paint index' | 'Keychain pattern';

export interface RangeProblem {
  field: RangeField;
  /** What is wrong, in words after the field's name ("min is above max"). */
  text: string;
}

/** A pattern past the largest whole number the query engine takes (typed as 20 digits, it read as 1e20). */
export const keychainPatternTooLarge = (k: { pattern?: number }): boolean => k.pattern !== undefined && !Number.isSafeInteger(k.pattern);

/** A range problem in words that name its field: "Float: between 0 and 1". */
export const sayRangeProblem = (p: RangeProblem): string => `${p.field}: ${p.text}`;

/**
 * Range problems to show under the inputs (a filter with one is not sent): a min above its max, or a
 * bound outside what the query engine takes (a float above 1, a fade above 100 %) — typed, not yet
 * clamped by the field, and refused by the app's schema otherwise. Each says its field, so the panel
 * puts it under that field's inputs.
 */
export function rangeProblems(f: BookFilter): RangeProblem[] {
  const problems: RangeProblem[] = [];
  const check = (field: RangeField, r: Range | undefined, bounds?: { max: number; text: string }) => {
    if (r?.min !== undefined && r.max !== undefined && r.min > r.max) problems.push({ field, text: 'min is above max' });
    if (bounds && [r?.min, r?.max].some((n) => n !== undefined && (n < 0 || n > bounds.max))) problems.push({ field, text: bounds.text });
  };
  check('Price', f.price);
  check('Float', f.float, { max: 1, text: 'between 0 and 1' });
  check('Fade', f.fade, { max: 100, text: 'between 0 and 100 %' });
  check('Blue', f.blue, { max: 100, text: 'between 0 and 100 %' });
  check('Sticker count', { min: f.stickers?.min_count, max: f.stickers?.max_count }, { max: 6, text: 'between 0 and 6' });
  if (f.paint_index !== undefined && !Number.isSafeInteger(f.paint_index)) problems.push({ field: 'Paint index', text: 'too large' });
  if (f.keychains?.some(keychainPatternTooLarge)) problems.push({ field: 'Keychain pattern', text: 'too large' });
  return problems;
}

// ---- paint seeds -----------------------------------------------------------------------------

/** Between seeds typed or pasted: commas, spaces, semicolons, tabs and new lines (a spreadsheet's column). */
const SEED_SEPARATORS = /[\s,;]+/;
/** How many refused entries the note quotes before it only counts the rest. */
const REFUSED_QUOTED = 3;
/**
 * CS2's highest paint seed (its patterns are 0–1000): a larger one, a digit too many from a spreadsheet,
 * would be taken by the query engine and match nothing, unsaid.
 */
export const PAINT_SEED_HIGHEST = 1000;

export interface SeedsAdded {
  seeds: number[];
  /** What was not taken, in words for under the field; null when everything was. */
  note: string | null;
}

/**
 * Seeds typed or pasted, added to those already in the filter. What is not a paint seed (a negative
 * number, a decimal, a word, a number past 1000) is left out and named, not dropped unsaid; a paste that would take the
 * filter past the query engine's 1,000 seeds adds none (the engine would refuse the whole filter).
 */
export function addSeeds(current: readonly number[], text: string): SeedsAdded {
  const entries = text.split(SEED_SEPARATORS).filter((entry) => entry !== '');
  const refused: string[] = [];
  const seeds = new Set(current);
  for (const entry of entries) {
    const seed = /^\d+$/.test(entry) ? Number(entry) : NaN;
    if (seed <= PAINT_SEED_HIGHEST) seeds.add(seed);
    else refused.push(entry);
  }
  if (seeds.size > PAINT_SEEDS_MAX) {
    return {
      seeds: [...current],
      note: `A filter takes up to ${formatCount(PAINT_SEEDS_MAX)} paint seeds; these would make ${formatCount(seeds.size)}, so none were added.`,
    };
  }
  if (refused.length === 0) return { seeds: [...seeds], note: null };
  const quoted = refused.slice(0, REFUSED_QUOTED).map((entry) => `“${entry.length > 12 ? `${entry.slice(0, 12)}…` : entry}”`);
  const more = refused.length > REFUSED_QUOTED ? ` and ${formatCount(refused.length - REFUSED_QUOTED)} more` : '';
  return {
    seeds: [...seeds],
    note: `Left out ${quoted.join(', ')}${more}: a paint seed is a whole number from 0 to ${formatCount(PAINT_SEED_HIGHEST)}.`,
  };
}

// ---- wear presets -----------------------------------------------------------------------------

/** The float range covering the chosen bands (from the lowest band's min to the highest's max). */
export function wearRange(codes: readonly WearCode[]): Range | undefined {
  const bands = WEAR_BANDS.filter((b) => codes.includes(b.code));
  if (bands.length === 0) return undefined;
  return { min: Math.min(...bands.map((b) => b.min)), max: Math.max(...bands.map((b) => b.max)) };
}

/** Bands lying entirely inside the float range (what the preset buttons show as active). */
export function activeWearCodes(range: Range | undefined): WearCode[] {
  if (!range || (range.min === undefined && range.max === undefined)) return [];
  const min = range.min ?? 0;
  const max = range.max ?? 1;
  return WEAR_BANDS.filter((b) => b.min >= min - 1e-9 && b.max <= max + 1e-9).map((b) => b.code);
}

/** Click on a band: alone → that band (or nothing if it was the only one); with shift → extend. */
export function toggleWear(current: Range | undefined, code: WearCode, extend: boolean): Range | undefined {
  const active = activeWearCodes(current);
  if (!extend) return active.length === 1 && active[0] === code ? undefined : wearRange([code]);
  return wearRange([...active, code]);
}

/** A phase button clicked: on ↔ off, the others kept (no phase left = no phase filter). */
export function togglePhase(current: readonly DopplerPhase[] | undefined, phase: DopplerPhase): DopplerPhase[] | undefined {
  const next = current?.includes(phase) ? current.filter((p) => p !== phase) : [...(current ?? []), phase];
  return next.length > 0 ? DOPPLER_PHASES.filter((p) => next.includes(p)) : undefined;
}

/**
 * A filter changed outside the panel (the name box, a preset, a reset) applied to the panel's draft:
 * only the parts that changed since `agreed` (what the panel and the app last agreed on) are taken, so
 * an edit made in the panel and not sent yet (it waits a quarter second) is not thrown away by, say, the
 * name box's own update landing just after it.
 */
export function withOutsideChanges(draft: BookFilter, agreed: BookFilter, incoming: BookFilter): BookFilter {
  const next: Record<string, unknown> = { ...draft };
  const keys = new Set([...Object.keys(agreed), ...Object.keys(incoming)]) as Set<keyof BookFilter>;
  for (const key of keys) {
    if (JSON.stringify(agreed[key]) === JSON.stringify(incoming[key])) continue;
    if (incoming[key] === undefined) delete next[key];
    else next[key] = incoming[key];
  }
  return next as BookFilter;
}

// ---- summary ----------------------------------------------------------------------------------

const rangeText = (r: Range, fmt: (n: number) => string) =>
  r.min !== undefined && r.max !== undefined ? `${fmt(r.min)}–${fmt(r.max)}` : r.min !== undefined ? `≥ ${fmt(r.min)}` : `≤ ${fmt(r.max as number)}`;

/** One short label per active filter, in panel order. */
export function describeFilter(f: BookFilter): string[] {
  const out: string[] = [];
  if (f.name) out.push(`“${f.name}”`);
  if (f.price) out.push(`price ${rangeText(f.price, formatCents)}`);
  if (f.float) {
    const codes = activeWearCodes(f.float);
    const exact = wearRange(codes);
    out.push(exact && exact.min === (f.float.min ?? 0) && exact.max === (f.float.max ?? 1) ? codes.join('+') : `float ${rangeText(f.float, formatDecimal)}`);
  }
  if (f.paint_seeds) out.push(`seed ${f.paint_seeds.slice(0, 3).join(',')}${f.paint_seeds.length > 3 ? '…' : ''}`);
  if (f.paint_index !== undefined) out.push(`paint #${f.paint_index}`);
  if (f.phases) out.push(f.phases.map(phaseTag).join('/'));
  if (f.fade) out.push(`fade ${rangeText(f.fade, (n) => `${n}%`)}`);
  if (f.blue) out.push(`blue ${rangeText(f.blue, (n) => `${n}%`)}`);
  if (f.stattrak !== undefined) out.push(f.stattrak ? 'StatTrak' : 'no StatTrak');
  if (f.souvenir !== undefined) out.push(f.souvenir ? 'souvenir' : 'no souvenir');
  for (const s of f.stickers?.all ?? []) {
    const parts = [
      s.min_matches !== undefined && s.min_matches > 1 ? `${s.min_matches}×` : '',
      s.name ?? 'any sticker',
      s.slot !== undefined ? `slot ${s.slot + 1}` : '',
      s.max_wear !== undefined ? `≤ ${Math.round(s.max_wear * 100)}% scrape` : '',
    ];
    out.push(parts.filter(Boolean).join(' '));
  }
  if (f.stickers?.min_count !== undefined || f.stickers?.max_count !== undefined) {
    out.push(`${rangeText({ min: f.stickers?.min_count, max: f.stickers?.max_count }, String)} stickers`);
  }
  for (const k of f.keychains ?? []) out.push(`charm ${[k.name, k.pattern !== undefined ? `#${k.pattern}` : ''].filter(Boolean).join(' ')}`);
  for (const [key, value] of Object.entries(f.fields ?? {})) out.push(`${key.replace(/^(cs|rust|dota|tf2)_/, '')}: ${value}`);
  if (f.commodity !== undefined) out.push(f.commodity ? 'commodities' : 'single items');
  return out;
}

export const FIELD_LABELS: Record<GameStringField, string> = {
  cs_weapon: 'Weapon',
  cs_type: 'Type',
  cs_wear: 'Exterior',
  cs_rarity: 'Rarity',
  cs_collection: 'Collection',
  rust_category: 'Category',
  rust_type: 'Type',
  rust_collection: 'Collection',
  dota_rarity: 'Rarity',
  dota_hero: 'Hero',
  dota_quality: 'Quality',
  dota_type: 'Type',
  dota_slot: 'Slot',
  dota_collection: 'Collection',
  dota_event: 'Event',
  tf2_quality: 'Quality',
  tf2_effect: 'Effect',
  tf2_wear: 'Wear',
  tf2_warpaint: 'War paint',
  tf2_sheen: 'Sheen',
  tf2_collection: 'Collection',
  tf2_grade: 'Grade',
  tf2_paint_color: 'Paint colour',
  tf2_type: 'Type',
};

/** The per-game string fields a game has, by its prefix. */
export function fieldsOfGame(prefix: 'cs' | 'rust' | 'dota' | 'tf2'): GameStringField[] {
  return GAME_STRING_FIELDS.filter((f) => f.startsWith(`${prefix}_`));
}

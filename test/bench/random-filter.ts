/**
 * Random filter combinations over every field of the query engine: the fuzz test checks their answers
 * against a brute-force filter; the benchmark times them at 1M listings (`filter_random_*`), since a
 * hand-picked list of combinations can miss the slow ones.
 */
import { DOPPLER_PHASES } from '../../src/shared/phases.ts';
import type { BookFilter } from '../../src/shared/query.ts';
import type { Rng } from './generate.ts';

export function randomFilter(rng: Rng): BookFilter {
  const f: BookFilter = {};
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)] as T;
  const maybe = (p: number) => rng() < p;
  if (maybe(0.3)) f.app_id = pick([730, 570, 440, 252490] as const);
  if (maybe(0.2))
    f.name = pick(['redline', 'AK', 'ak-47 |', 'Doppler', 'knife', 'pudge', 'stattrak™', 'fn)', 'ZZZ']);
  if (maybe(0.3)) {
    const a = pick([100, 250, 999, 1000, 5000]);
    const b = pick([100, 250, 999, 1000, 5000]);
    f.price = maybe(0.5)
      ? { min: Math.min(a, b), max: Math.max(a, b) }
      : maybe(0.5)
        ? { min: a }
        : { max: a };
  }
  if (maybe(0.3)) {
    const a = pick([0, 0.05, 0.1, 0.15, 0.35, 0.45, 1]);
    const b = pick([0, 0.05, 0.1, 0.15, 0.35, 0.45, 1]);
    f.float = maybe(0.6)
      ? { min: Math.min(a, b), max: Math.max(a, b) }
      : maybe(0.5)
        ? { min: a }
        : { max: a };
  }
  if (maybe(0.15)) f.fade = pick([{ min: 90 }, { min: 85, max: 95 }, { max: 85 }, {}]);
  if (maybe(0.15)) f.blue = pick([{ min: 50 }, { min: 20, max: 40 }, { max: 10 }, {}]);
  if (maybe(0.15))
    f.paint_seeds = Array.from({ length: 1 + Math.floor(rng() * 30) }, () => Math.floor(rng() * 1001));
  if (maybe(0.1)) f.paint_index = pick([8, 415, 416, 418, 569, 17]);
  if (maybe(0.1)) f.phases = [pick(DOPPLER_PHASES)];
  if (maybe(0.15)) f.stattrak = maybe(0.5);
  if (maybe(0.1)) f.souvenir = maybe(0.5);
  if (maybe(0.1)) f.commodity = maybe(0.5);
  if (maybe(0.3)) {
    const all = [];
    const n = Math.floor(rng() * 3);
    for (let i = 0; i < n; i++) {
      const s: NonNullable<NonNullable<BookFilter['stickers']>['all']>[number] = {};
      if (maybe(0.7))
        s.name = pick(['holo', 'katowice', 'titan', 'sticker |', 'ibuypower (holo)', 'foil', 'crown']);
      if (maybe(0.4)) s.slot = Math.floor(rng() * 5);
      if (maybe(0.4)) s.max_wear = pick([0, 0.1, 0.5, 0.9]);
      if (maybe(0.2)) s.min_matches = 2 + Math.floor(rng() * 2);
      all.push(s);
    }
    f.stickers = { ...(all.length ? { all } : {}) };
    if (all.length === 0 || maybe(0.3)) f.stickers.min_count = Math.floor(rng() * 4);
    if (maybe(0.3)) f.stickers.max_count = Math.floor(rng() * 5);
    if (
      f.stickers.min_count !== undefined &&
      f.stickers.max_count !== undefined &&
      f.stickers.min_count > f.stickers.max_count
    ) {
      delete f.stickers.max_count;
    }
  }
  if (maybe(0.07))
    f.keychains = [
      maybe(0.5) ? { name: pick(['charm', 'lil', 'awp']) } : { pattern: Math.floor(rng() * 100_000) },
    ];
  if (maybe(0.1))
    f.fields = pick([
      { dota_hero: 'Pudge' },
      { cs_wear: 'Factory New' },
      { tf2_quality: 'Unusual' },
      { rust_type: 'Door' },
    ]);
  return f;
}

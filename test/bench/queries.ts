/**
 * The filter combinations the benchmark times at 1M listings: what the book grid, `skindesk search` and
 * watchlists ask in practice (lean filters, float/seed/fade/blue, stickers and keychains, game fields,
 * sorts in both directions), each with a total count, plus deep keyset paging.
 */
import type { BookQueryInput } from '../../src/shared/query.ts';

export interface NamedQuery {
  name: string;
  query: BookQueryInput;
  /** Follow `next` this many times and time the last page (deep paging). */
  pages?: number;
}

const q = (name: string, query: BookQueryInput, pages?: number): NamedQuery => ({
  name,
  query: { limit: 100, count: true, ...query },
  ...(pages === undefined ? {} : { pages }),
});

export const BENCH_QUERIES: readonly NamedQuery[] = [
  q('newest', {}),
  q('cheapest', { sort: { field: 'price', dir: 'asc' } }),
  q('cs by price', { filter: { app_id: 730 }, sort: { field: 'price', dir: 'asc' } }),
  q('dota by price desc', { filter: { app_id: 570 }, sort: { field: 'price', dir: 'desc' } }),
  q('name redline', { filter: { name: 'redline' }, sort: { field: 'price', dir: 'asc' } }),
  q('name doppler by float', { filter: { app_id: 730, name: 'doppler' }, sort: { field: 'float', dir: 'asc' } }),
  q('price band', { filter: { price: { min: 1000, max: 5000 } }, sort: { field: 'price', dir: 'asc' } }),
  q('low float', { filter: { app_id: 730, float: { max: 0.01 } }, sort: { field: 'float', dir: 'asc' } }),
  q('float band by price', { filter: { app_id: 730, float: { min: 0.15, max: 0.16 } }, sort: { field: 'price', dir: 'asc' } }),
  q('seeds', { filter: { app_id: 730, paint_seeds: [661, 670, 555, 321] }, sort: { field: 'price', dir: 'asc' } }),
  q('ak case hardened blue-gem seeds', { filter: { name: 'ak-47 | case hardened', paint_seeds: [661, 670, 321] }, sort: { field: 'price', dir: 'asc' } }),
  q('paint index', { filter: { paint_index: 44 }, sort: { field: 'price', dir: 'asc' } }),
  q('doppler gems by price', { filter: { app_id: 730, phases: ['Ruby', 'Sapphire', 'Emerald'] }, sort: { field: 'price', dir: 'asc' } }),
  q('karambit phase 2 by float', { filter: { name: 'karambit', phases: ['Phase 2'] }, sort: { field: 'float', dir: 'asc' } }),
  q('fade 95+', { filter: { fade: { min: 95 } }, sort: { field: 'fade', dir: 'desc' } }),
  q('blue 80+', { filter: { blue: { min: 80 } }, sort: { field: 'blue', dir: 'desc' } }),
  q('stattrak cs by price', { filter: { app_id: 730, stattrak: true }, sort: { field: 'price', dir: 'asc' } }),
  q('souvenir newest', { filter: { souvenir: true } }),
  q('sticker event', { filter: { stickers: { all: [{ name: 'katowice 2014' }] } }, sort: { field: 'price', dir: 'asc' } }),
  q('sticker clean titan', { filter: { stickers: { all: [{ name: 'titan', max_wear: 0.1 }] } }, sort: { field: 'price', dir: 'asc' } }),
  q('four stickers', { filter: { stickers: { min_count: 4 } }, sort: { field: 'price', dir: 'asc' } }),
  q('sticker craft: 3× titan', { filter: { stickers: { all: [{ name: 'titan', min_matches: 3 }] } }, sort: { field: 'price', dir: 'asc' } }),
  q('sticker in slot', { filter: { stickers: { all: [{ name: 'crown', slot: 0 }] } }, sort: { field: 'created_at', dir: 'desc' } }),
  q('keychain name', { filter: { keychains: [{ name: 'hot wurst' }] }, sort: { field: 'price', dir: 'asc' } }),
  q('keychain pattern', { filter: { keychains: [{ pattern: 12345 }] } }),
  q('dota hero', { filter: { fields: { dota_hero: 'Pudge' } }, sort: { field: 'price', dir: 'asc' } }),
  q('tf2 unusual effect', { filter: { fields: { tf2_quality: 'Unusual', tf2_effect: 'Sunbeams' } }, sort: { field: 'price', dir: 'desc' } }),
  q('rust hoodies cheap', { filter: { fields: { rust_type: 'Hoodie' }, price: { max: 1000 } }, sort: { field: 'price', dir: 'asc' } }),
  q('commodities', { filter: { app_id: 570, commodity: true }, sort: { field: 'price', dir: 'asc' } }),
  q('ak fn not stattrak by float', { filter: { name: 'ak-47', float: { max: 0.07 }, stattrak: false }, sort: { field: 'float', dir: 'asc' } }),
  q('expensive cs newest', { filter: { app_id: 730, price: { min: 50_000 } }, sort: { field: 'created_at', dir: 'desc' } }),
  q('page 5 by price', { sort: { field: 'price', dir: 'asc' } }, 4),
  q('page 5 of floats', { filter: { app_id: 730 }, sort: { field: 'float', dir: 'asc' } }, 4),
  // a flag with a name or a float bound: every row of the name or the range was read for its flag until
  // the flags went into those indexes (140, 190 and 650 ms)
  q('stattrak ak-47 by price', { filter: { name: 'ak-47', stattrak: true }, sort: { field: 'price', dir: 'asc' } }),
  q('stattrak low float by price', { filter: { app_id: 730, stattrak: true, float: { max: 0.02 } }, sort: { field: 'price', dir: 'asc' } }),
  q('souvenir under 0.10 newest', { filter: { app_id: 730, souvenir: true, float: { max: 0.1 } }, sort: { field: 'created_at', dir: 'desc' } }),
  // a watchlist's sweep of the whole book: 1,000 rows a page in id order, no count (watch/evaluator.ts)
  q('sweep page: doppler by id', { filter: { app_id: 730, name: 'doppler' }, sort: { field: 'id', dir: 'asc' }, limit: 1000, count: false }),
];

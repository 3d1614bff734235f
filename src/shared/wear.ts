/** CS2 wear bands by float (paint wear). Upper bounds are exclusive except Battle-Scarred's. */
export const WEAR_BANDS = [
  { code: 'FN', name: 'Factory New', min: 0, max: 0.07 },
  { code: 'MW', name: 'Minimal Wear', min: 0.07, max: 0.15 },
  { code: 'FT', name: 'Field-Tested', min: 0.15, max: 0.38 },
  { code: 'WW', name: 'Well-Worn', min: 0.38, max: 0.45 },
  { code: 'BS', name: 'Battle-Scarred', min: 0.45, max: 1 },
] as const;
export type WearBand = (typeof WEAR_BANDS)[number];
export type WearCode = WearBand['code'];

export function wearBandOf(float: number): WearBand {
  for (const band of WEAR_BANDS) if (float < band.max) return band;
  return WEAR_BANDS[WEAR_BANDS.length - 1]!;
}

export function wearBandByName(name: string): WearBand | undefined {
  return WEAR_BANDS.find((b) => b.name === name || b.code === name);
}

/** Bands a skin can actually have, given its float range (a skin limited to 0.00–0.08 has FN and MW). */
export function bandsWithin(minFloat: number, maxFloat: number): WearBand[] {
  return WEAR_BANDS.filter((b) => b.max > minFloat && b.min < maxFloat);
}

/** Sticker wear 0..1 shown as scrape percent, as traders read it. */
export function scrapePercent(wear: number | null | undefined): string {
  if (wear === null || wear === undefined || wear <= 0) return '0%';
  return `${Math.round(wear * 100)}%`;
}

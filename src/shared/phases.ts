/**
 * Doppler and Gamma Doppler phases. The marketplace sends only `cs_paint_index`; traders price, search
 * and talk by phase ("Karambit Doppler P2", "a Ruby"), and a Ruby sells for many times a Phase 3 of the
 * same name. Each phase is a set of paint indexes: one per finish family (Doppler, Gamma Doppler, the
 * later knives' and the Glock-18's own variants), the same numbers the game's item schema uses.
 */
export const DOPPLER_PHASES = [
  'Phase 1',
  'Phase 2',
  'Phase 3',
  'Phase 4',
  'Ruby',
  'Sapphire',
  'Black Pearl',
  'Emerald',
] as const;
export type DopplerPhase = (typeof DOPPLER_PHASES)[number];

const PHASE_OF_PAINT_INDEX: ReadonlyMap<number, DopplerPhase> = new Map([
  // Doppler (the original knives)
  [415, 'Ruby'],
  [416, 'Sapphire'],
  [417, 'Black Pearl'],
  [418, 'Phase 1'],
  [419, 'Phase 2'],
  [420, 'Phase 3'],
  [421, 'Phase 4'],
  // Gamma Doppler (knives)
  [568, 'Emerald'],
  [569, 'Phase 1'],
  [570, 'Phase 2'],
  [571, 'Phase 3'],
  [572, 'Phase 4'],
  // Doppler of the Butterfly Knife and Shadow Daggers
  [617, 'Black Pearl'],
  [618, 'Phase 2'],
  [619, 'Sapphire'],
  // Doppler of the Talon Knife
  [852, 'Phase 1'],
  [853, 'Phase 2'],
  [854, 'Phase 3'],
  [855, 'Phase 4'],
  // Gamma Doppler of the Glock-18
  [1119, 'Emerald'],
  [1120, 'Phase 1'],
  [1121, 'Phase 2'],
  [1122, 'Phase 3'],
  [1123, 'Phase 4'],
]);

/** The phase a paint index stands for, or null for every finish that has none. */
export function phaseOfPaintIndex(paintIndex: number | null | undefined): DopplerPhase | null {
  return paintIndex == null ? null : (PHASE_OF_PAINT_INDEX.get(paintIndex) ?? null);
}

/** Every paint index of the given phases, ascending (what a phase filter matches). */
export function paintIndexesOfPhases(phases: readonly DopplerPhase[]): number[] {
  const wanted = new Set<DopplerPhase>(phases);
  return [...PHASE_OF_PAINT_INDEX]
    .filter(([, phase]) => wanted.has(phase))
    .map(([index]) => index)
    .sort((a, b) => a - b);
}

/** A short tag for dense tables: P1…P4 for the numbered phases, the gem's name otherwise. */
export function phaseTag(phase: DopplerPhase): string {
  return phase.startsWith('Phase ') ? `P${phase.slice('Phase '.length)}` : phase;
}

/** A phase named loosely (any case, "p2", "phase2", "black-pearl"), or null when it is not one. */
export function parsePhase(text: string): DopplerPhase | null {
  const key = text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
  const numbered = /^(?:p|phase)([1-4])$/.exec(key);
  if (numbered) return `Phase ${numbered[1]}` as DopplerPhase;
  return DOPPLER_PHASES.find((p) => p.toLowerCase().replace(/\s+/g, '') === key) ?? null;
}

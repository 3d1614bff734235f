import { describe, expect, it } from 'vitest';
import {
  DOPPLER_PHASES,
  paintIndexesOfPhases,
  parsePhase,
  phaseOfPaintIndex,
  phaseTag,
} from '../../../src/shared/phases.ts';
import { bookFilter } from '../../../src/shared/query.ts';

describe('Doppler phases', () => {
  it('names the phase of each Doppler and Gamma Doppler paint index, and of nothing else', () => {
    expect(phaseOfPaintIndex(415)).toBe('Ruby');
    expect(phaseOfPaintIndex(419)).toBe('Phase 2');
    expect(phaseOfPaintIndex(568)).toBe('Emerald');
    expect(phaseOfPaintIndex(618)).toBe('Phase 2');
    expect(phaseOfPaintIndex(617)).toBe('Black Pearl');
    expect(phaseOfPaintIndex(855)).toBe('Phase 4');
    expect(phaseOfPaintIndex(1119)).toBe('Emerald');
    for (const none of [null, undefined, 0, 44, 414, 422, 567, 573, 1124])
      expect(phaseOfPaintIndex(none), String(none)).toBeNull();
  });

  it('turns phases into the paint indexes a filter matches, every family included', () => {
    expect(paintIndexesOfPhases(['Phase 2'])).toEqual([419, 570, 618, 853, 1121]);
    expect(paintIndexesOfPhases(['Emerald', 'Ruby'])).toEqual([415, 568, 1119]);
    expect(paintIndexesOfPhases([])).toEqual([]);
    // every phase has at least one index, and the sets are disjoint
    const all = DOPPLER_PHASES.flatMap((p) => paintIndexesOfPhases([p]));
    expect(new Set(all).size).toBe(all.length);
    for (const p of DOPPLER_PHASES) expect(paintIndexesOfPhases([p]).length, p).toBeGreaterThan(0);
  });

  it('reads phases as traders type them and refuses the rest', () => {
    expect(parsePhase('p2')).toBe('Phase 2');
    expect(parsePhase('Phase 4')).toBe('Phase 4');
    expect(parsePhase('phase_1')).toBe('Phase 1');
    expect(parsePhase(' black-pearl ')).toBe('Black Pearl');
    expect(parsePhase('RUBY')).toBe('Ruby');
    for (const bad of ['', 'p5', 'phase', 'diamond', 'ruby2']) expect(parsePhase(bad), bad).toBeNull();
    expect(DOPPLER_PHASES.map(phaseTag)).toEqual([
      'P1',
      'P2',
      'P3',
      'P4',
      'Ruby',
      'Sapphire',
      'Black Pearl',
      'Emerald',
    ]);
  });

  it('is part of the book filter contract: known phases only, at least one', () => {
    expect(bookFilter.safeParse({ phases: ['Ruby', 'Phase 3'] }).success).toBe(true);
    expect(bookFilter.safeParse({ phases: [] }).success).toBe(false);
    expect(bookFilter.safeParse({ phases: ['Diamond'] }).success).toBe(false);
  });
});

/** Doppler phases in the UI: one colour per phase (the gem's own, the numbered phases' dominant tone). */
import { type DopplerPhase, phaseOfPaintIndex, phaseTag } from '../../../../shared/phases.ts';

/** Mantine colour names, shared by the grid's tag, the detail badge and the filter buttons. */
export const PHASE_COLORS: Record<DopplerPhase, string> = {
  'Phase 1': 'gray',
  'Phase 2': 'pink',
  'Phase 3': 'teal',
  'Phase 4': 'indigo',
  Ruby: 'red',
  Sapphire: 'blue',
  'Black Pearl': 'grape',
  Emerald: 'green',
};

/** The phase of a listing as a short coloured tag (P2, Ruby…), or nothing for a finish without one. */
export function PhaseTag({ paintIndex }: { paintIndex: number | null }) {
  const phase = phaseOfPaintIndex(paintIndex);
  if (phase === null) return null;
  return (
    <span
      data-testid="phase-tag"
      title={phase}
      style={{
        color: `var(--mantine-color-${PHASE_COLORS[phase]}-4)`,
        marginRight: 4,
        fontSize: 10,
        fontWeight: 600,
      }}
    >
      {phaseTag(phase)}
    </span>
  );
}

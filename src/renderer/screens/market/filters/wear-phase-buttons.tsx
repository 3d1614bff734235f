/**
 * The float's wear-band presets and the Doppler phase buttons: in the book's filter panel (and so the
 * watchlist dialog) and on the sales tape.
 */
import { Button, Group, Tooltip } from '@mantine/core';
import { DOPPLER_PHASES, type DopplerPhase, phaseTag } from '../../../../shared/phases.ts';
import { WEAR_BANDS } from '../../../../shared/wear.ts';
import { PHASE_COLORS } from '../parts/phase.tsx';
import { WEAR_COLORS } from '../parts/wear.tsx';
import { type Range, activeWearCodes, togglePhase, toggleWear } from './filter-model.ts';

/** FN MW FT WW BS: a click keeps one band, shift-click extends the range to it. */
export function WearBandButtons({
  float,
  onChange,
}: {
  float: Range | undefined;
  onChange: (float: Range | undefined) => void;
}) {
  const active = activeWearCodes(float);
  return (
    <Group gap={4} grow wrap="nowrap">
      {WEAR_BANDS.map((band) => {
        const on = active.includes(band.code);
        return (
          <Tooltip key={band.code} label={`${band.name} ${band.min}–${band.max} (shift-click to extend)`}>
            <Button
              size="compact-xs"
              variant={on ? 'filled' : 'default'}
              color={on ? undefined : 'gray'}
              style={
                on
                  ? { background: WEAR_COLORS[band.code], color: '#0c0e12' }
                  : { borderBottom: `2px solid ${WEAR_COLORS[band.code]}` }
              }
              aria-pressed={on}
              data-testid={`wear-${band.code}`}
              onClick={(e) => onChange(toggleWear(float, band.code, e.shiftKey))}
            >
              {band.code}
            </Button>
          </Tooltip>
        );
      })}
    </Group>
  );
}

/** The eight phases: the numbered ones in a row, the gems (longer names) two by two; several = any. */
export function PhaseButtons({
  phases,
  onChange,
}: {
  phases: readonly DopplerPhase[] | undefined;
  onChange: (phases: DopplerPhase[] | undefined) => void;
}) {
  return (
    <>
      {[DOPPLER_PHASES.slice(0, 4), DOPPLER_PHASES.slice(4, 6), DOPPLER_PHASES.slice(6)].map((row) => (
        <Group key={row[0]} gap={4} grow wrap="nowrap" mb={4}>
          {row.map((phase) => {
            const on = phases?.includes(phase) ?? false;
            return (
              <Button
                key={phase}
                size="compact-xs"
                variant={on ? 'filled' : 'default'}
                color={on ? PHASE_COLORS[phase] : 'gray'}
                aria-pressed={on}
                data-testid={`phase-${phaseTag(phase).toLowerCase().replace(' ', '-')}`}
                onClick={() => onChange(togglePhase(phases, phase))}
                px={2}
              >
                {phaseTag(phase)}
              </Button>
            );
          })}
        </Group>
      ))}
    </>
  );
}

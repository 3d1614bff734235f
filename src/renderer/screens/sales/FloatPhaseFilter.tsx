/**
 * The tape's float and Doppler-phase filter, in a popover: the book's wear presets and phase buttons.
 * The button says what is set ("FN · Ruby/P2"), so the toolbar shows the filter without opening it.
 */
import { Button, Popover, Stack, Text } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import type { DopplerPhase } from '../../../shared/phases.ts';
import { describeFilter } from '../market/filters/filter-model.ts';
import { PhaseButtons, WearBandButtons } from '../market/filters/wear-phase-buttons.tsx';
import type { TapeFilter } from './sales-tape-store.ts';

/** The book's own words for a float and phases (its filter chips), or null when neither is set. */
function describe(filter: TapeFilter): string | null {
  const parts = describeFilter({
    ...(filter.float === null ? {} : { float: filter.float }),
    ...(filter.phases.length === 0 ? {} : { phases: [...filter.phases] }),
  });
  return parts.length > 0 ? parts.join(' · ') : null;
}

export function FloatPhaseFilter({
  filter,
  onChange,
}: {
  filter: TapeFilter;
  onChange: (patch: Pick<TapeFilter, 'float' | 'phases'>) => void;
}) {
  const summary = describe(filter);
  const setFloat = (float: TapeFilter['float'] | undefined) =>
    onChange({ float: float ?? null, phases: filter.phases });
  const setPhases = (phases: DopplerPhase[] | undefined) =>
    onChange({ float: filter.float, phases: phases ?? [] });
  return (
    // the focus goes into the popover and back to its button: Escape closes it wherever the focus was
    // (with the focus left on the button it stayed open, and, open, it held the screen shortcuts back)
    <Popover position="bottom-start" shadow="md" withinPortal trapFocus returnFocus>
      <Popover.Target>
        <Button
          size="xs"
          variant={summary ? 'light' : 'default'}
          leftSection={<IconAdjustmentsHorizontal size={14} />}
          style={{ flex: 'none' }}
          data-testid="sales-float-phase"
        >
          {summary ?? 'Float & phase'}
        </Button>
      </Popover.Target>
      <Popover.Dropdown w={250}>
        <Stack gap={8}>
          <Text size="xs" c="dimmed">
            Float (sales of items whose details the mirror had)
          </Text>
          <WearBandButtons float={filter.float ?? undefined} onChange={setFloat} />
          <Text size="xs" c="dimmed">
            Doppler phase (any of them)
          </Text>
          <div>
            <PhaseButtons phases={filter.phases} onChange={setPhases} />
          </div>
          {summary && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="gray"
              onClick={() => onChange({ float: null, phases: [] })}
            >
              Clear float and phase
            </Button>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * The paint seeds field's pills, a bounded number of them: a pasted column of 1,000 seeds drew 1,000
 * pills (close to a second, and a wall of them over the rest of the panel). The first seeds are pills as
 * ever; the others are one "+N more", which lists every seed and clears them. The filter keeps them all.
 */
import {
  Button,
  Pill,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
  type ComboboxRenderPillInput,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { formatCount } from '../../../format/numbers.ts';

/** How many seeds are shown as pills before the rest are counted. */
export const SEED_PILLS_SHOWN = 12;

/**
 * The field's renderPill for these seeds (as the field shows them, in order): a pill for each of the
 * first SEED_PILLS_SHOWN, the "+N more" in place of the next, nothing for the others.
 */
export function boundedSeedPills(
  seeds: readonly string[],
  onClear: () => void,
): (input: ComboboxRenderPillInput) => ReactNode {
  const shown = new Set(seeds.slice(0, SEED_PILLS_SHOWN));
  const firstHidden = seeds[SEED_PILLS_SHOWN];
  return ({ value, onRemove, disabled }) => {
    if (value === undefined) return null;
    if (shown.has(value)) {
      return (
        <Pill withRemoveButton={!disabled} onRemove={onRemove} disabled={disabled}>
          {value}
        </Pill>
      );
    }
    return value === firstHidden ? <MoreSeeds seeds={seeds} onClear={onClear} /> : null;
  };
}

function MoreSeeds({ seeds, onClear }: { seeds: readonly string[]; onClear: () => void }) {
  const more = seeds.length - SEED_PILLS_SHOWN;
  return (
    <Popover position="bottom-start" shadow="md" withinPortal returnFocus>
      <Popover.Target>
        <UnstyledButton
          aria-label={`${formatCount(more)} more paint seeds: show them all`}
          data-testid="seeds-more"
        >
          <Pill>+{formatCount(more)} more</Pill>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown w={260} data-testid="seeds-all">
        <Stack gap={6}>
          <Text size="xs" c="dimmed">
            {formatCount(seeds.length)} paint seeds in the filter
          </Text>
          {/* one line of text, not a pill each: cheap for a thousand, and it can be selected and copied */}
          <ScrollArea.Autosize mah={160} type="auto">
            <Text size="xs" className="sd-num" style={{ wordBreak: 'break-word', userSelect: 'text' }}>
              {seeds.join(', ')}
            </Text>
          </ScrollArea.Autosize>
          <Button size="compact-xs" variant="subtle" color="gray" onClick={onClear} w="fit-content">
            Clear all paint seeds
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

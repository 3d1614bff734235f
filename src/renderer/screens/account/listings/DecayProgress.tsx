import { Group, Progress, Text, Tooltip } from '@mantine/core';
import { type PriceDecay, decayPriceAt } from '../../../../shared/api/index.ts';
import { formatCents, formatHours } from '../ui/format.ts';

/** Where a decaying listing is on its curve: elapsed of total hours, and where the price is heading. */
export function DecayProgress({ decay }: { decay: PriceDecay }) {
  const elapsed = Math.min(decay.total_hours, Math.max(0, decay.elapsed_hours ?? 0));
  const fraction = elapsed / decay.total_hours;
  return (
    <Tooltip
      label={`${formatCents(decay.start_price)} → ${formatCents(decay.end_price)} over ${formatHours(decay.total_hours)}; ${formatHours(elapsed)} in, now ${formatCents(decayPriceAt(decay, elapsed))}`}
    >
      <Group gap={6} wrap="nowrap" data-testid="decay-progress">
        <Progress value={fraction * 100} w={70} size="sm" color="orange" aria-label="Decay progress" />
        <Text size="10px" c="dimmed" className="sd-num" style={{ whiteSpace: 'nowrap' }}>
          {Math.round(fraction * 100)}% → {formatCents(decay.end_price)}
        </Text>
      </Group>
    </Tooltip>
  );
}

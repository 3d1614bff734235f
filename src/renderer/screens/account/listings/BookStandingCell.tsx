import { Group, Table, Text, Tooltip } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import type { BookStandingView, UndercutGuardView } from '../../../../shared/ipc/calls-account.ts';
import { phaseTag } from '../../../../shared/phases.ts';
import { formatCents, plural } from '../ui/format.ts';

/** A shield beside the standing when an undercut guard watches the listing; its note on hover. */
function GuardMark({ guard }: { guard: UndercutGuardView | undefined }) {
  if (!guard) return null;
  const color = guard.state === 'stopped' ? 'gray' : guard.state === 'holding' ? 'orange' : 'teal';
  return (
    <Tooltip label={`Undercut guard (floor ${formatCents(guard.floor)}): ${guard.note}`} multiline w={320}>
      <IconShieldCheck size={13} color={`var(--mantine-color-${color}-5)`} data-testid="guard-mark" data-state={guard.state} style={{ flex: 'none' }} />
    </Tooltip>
  );
}

/**
 * An own listing against the others of its item in the local book: lowest, or how many ask less and the
 * cheapest price — the undercut check, without a request per item.
 */
export function BookStandingCell({ standing, guard }: { standing: BookStandingView | undefined; guard?: UndercutGuardView | undefined }) {
  if (!standing) {
    return (
      <Table.Td>
        <Tooltip label="The book does not mirror this game, or has not loaded yet">
          <Text size="xs" c="dimmed" data-testid="standing">
            –
          </Text>
        </Tooltip>
      </Table.Td>
    );
  }
  const { others, cheaper, lowestOther, lowestOtherId, phase } = standing;
  // a Doppler competes only with its own phase: say so, or "lowest of 3" would read as the whole name
  const tag = phase ? `${phaseTag(phase)} ` : '';
  const item = phase ? `this item in ${phase}` : 'this item';
  const [text, color, why] =
    others === 0
      ? [phase ? `only ${phaseTag(phase)}` : 'alone', 'teal', `No other listing of ${item} in the book`]
      : cheaper === 0
        ? [`lowest ${tag}of ${others + 1}`, 'teal', `None of the ${plural(others, 'other listing')} of ${item} asks less`]
        : [
            `${cheaper} ${tag}cheaper · ${formatCents(lowestOther ?? 0)}`,
            'orange',
            `${cheaper} of the ${plural(others, 'other listing')} of ${item} ask less; the cheapest asks ${formatCents(lowestOther ?? 0)} (#${lowestOtherId})`,
          ];
  return (
    <Table.Td>
      <Group gap={4} wrap="nowrap">
        <Tooltip label={why}>
          <Text size="xs" c={color} className="sd-num" style={{ whiteSpace: 'nowrap' }} data-testid="standing">
            {text}
          </Text>
        </Tooltip>
        <GuardMark guard={guard} />
      </Group>
    </Table.Td>
  );
}

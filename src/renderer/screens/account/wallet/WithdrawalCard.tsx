import { Badge, Group, Paper, Stepper, Text, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { WithdrawalView } from '../../../../shared/ipc/calls-account.ts';
import { inLine } from '../../../../shared/sentence.ts';
import { formatDateTime, formatDateTimeSeconds, formatTime } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';

const STEPS = ['PENDING', 'CONFIRMING', 'SETTLED'] as const;

/**
 * Its status checks fail (an outage): the status above is as old as the last one seen, and the card says
 * so, and why, rather than sit at CONFIRMING as if all were well.
 */
function CheckTrouble({ trouble }: { trouble: NonNullable<WithdrawalView['checkTrouble']> }) {
  const seen = `Status as of ${formatDateTimeSeconds(trouble.lastSeenAt)}`;
  const words = trouble.retrying
    ? `${seen}; it could not be checked since then: ${inLine(trouble.problem)}. Retrying.`
    : `${seen}; the app stopped checking it: ${inLine(trouble.problem)}.`;
  return (
    <Text size="10px" c="orange" mt={4} role="status" data-testid="withdrawal-check-trouble" title={`Checks failing since ${formatDateTimeSeconds(trouble.failingSince)}`}>
      {words}
    </Text>
  );
}

/** One withdrawal and its path: PENDING → CONFIRMING (broadcast, tx hash known) → SUCCESS or FAILED (refunded). */
export function WithdrawalCard({ view }: { view: WithdrawalView }) {
  const w = view.withdrawal;
  const final = w.status === 'SUCCESS' || w.status === 'FAILED';
  const active = final ? 3 : w.status === 'CONFIRMING' ? 1 : 0;
  const seen = new Map(view.statuses.map((s) => [s.status, s.seenAt]));
  return (
    <Paper withBorder p="xs" bg="dark.7" data-testid="withdrawal" data-withdrawal-id={w.withdrawal_id} data-status={w.status}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" fw={600} className="sd-num">
            #{w.withdrawal_id}
          </Text>
          <Text size="sm" className="sd-num">
            {w.token_amount} {w.ticker}
          </Text>
          <Text size="xs" c="dimmed">
            for <Money cents={w.balance_amount} size="xs" />
          </Text>
        </Group>
        <StatusBadge status={w.status} testId="withdrawal-status" />
      </Group>
      <Stepper active={active} size="xs" mt={6} color="teal" iconSize={18}>
        {STEPS.map((step) => {
          const label = step === 'SETTLED' ? (final ? w.status : 'SUCCESS / FAILED') : step;
          // the settling step has a time once settled: before, the status is an earlier step's own
          const at = step === 'SETTLED' ? (final ? seen.get(w.status) : undefined) : seen.get(step);
          const failedHere = step === 'SETTLED' && w.status === 'FAILED';
          return (
            <Stepper.Step
              key={step}
              label={<Text size="10px">{label}</Text>}
              description={at ? <Text size="10px" c="dimmed" className="sd-num">{formatTime(at)}</Text> : undefined}
              {...(failedHere ? { completedIcon: <IconX size={12} />, color: 'red' } : {})}
            />
          );
        })}
      </Stepper>
      <Group gap="md" mt={4} wrap="nowrap">
        <Text size="10px" c="dimmed" className="sd-num">
          created {formatDateTime(w.created_at)}
        </Text>
        {w.tx_hash ? (
          <Tooltip label={w.tx_hash}>
            <Text size="10px" c="dimmed" className="sd-num" truncate maw={200}>
              tx {w.tx_hash}
            </Text>
          </Tooltip>
        ) : (
          <Text size="10px" c="dimmed">
            not broadcast yet
          </Text>
        )}
        {w.network_fee ? (
          <Text size="10px" c="dimmed" className="sd-num">
            network fee {w.network_fee} {w.ticker}
          </Text>
        ) : null}
      </Group>
      {view.checkTrouble ? <CheckTrouble trouble={view.checkTrouble} /> : null}
      {w.status === 'FAILED' ? (
        <Badge color="lime" variant="light" mt={6} data-testid="withdrawal-refund">
          refunded <Money cents={view.refunded} size="xs" /> to the balance
        </Badge>
      ) : null}
    </Paper>
  );
}

/**
 * A crypto withdrawal whose answer was lost (a timeout, a dropped connection, a server error): it may
 * have been sent, so new withdrawals are held until it is settled. Skindesk checks the balance and the
 * ledger again on "Check again" (and on every new withdrawal asked for); the trader, having looked at
 * the marketplace's website or the receiving wallet, can also say what became of it.
 */
import { Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { WithdrawalAttemptView } from '../../../../shared/ipc/calls-account.ts';
import { shortAddress } from '../../../../shared/short-address.ts';
import { call } from '../../../bridge/index.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { formatTime } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { useAction } from '../ui/useAction.ts';

const SETTLE_BUTTONS = [
  { answer: 'check', label: 'Check again', color: null, testId: 'unsettled-check' },
  { answer: 'sent', label: 'It was sent', color: 'teal', testId: 'unsettled-sent' },
  { answer: 'not_sent', label: 'I checked: it was not sent', color: 'orange', testId: 'unsettled-not-sent' },
] as const;

export function UnsettledWithdrawalCard({
  attempt,
  onSettled,
}: {
  attempt: WithdrawalAttemptView;
  onSettled: () => void;
}) {
  const settle = useAction(async (answer: 'check' | 'sent' | 'not_sent') => {
    const next = await call('settleWithdrawal', { id: attempt.id, answer });
    onSettled();
    return next;
  });
  return (
    <Paper
      withBorder
      p="xs"
      bg="dark.7"
      style={{ borderColor: 'var(--mantine-color-yellow-8)' }}
      data-testid="withdrawal-unsettled"
      data-id={attempt.id}
    >
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconAlertTriangle size={16} color="var(--mantine-color-yellow-5)" />
          <Money cents={attempt.amount} size="sm" fw={600} />
          <Text size="sm">in {attempt.ticker} to</Text>
          <Tooltip label={attempt.address}>
            <Text size="sm" className="sd-num">
              {shortAddress(attempt.address)}
            </Text>
          </Tooltip>
        </Group>
        <Badge color="yellow" variant="light" size="sm">
          outcome unknown
        </Badge>
      </Group>
      <Stack gap={4} mt={6}>
        <Text size="xs" data-testid="unsettled-words">
          {attempt.words} New withdrawals are held until it is settled.
        </Text>
        <Text size="xs" c="dimmed">
          Look it up on the marketplace&apos;s website or in the receiving wallet, then say what became of it.
          Skindesk checks the balance and the ledger itself on <b>Check again</b>.
        </Text>
        {attempt.lastCheck ? (
          <Text size="10px" c="dimmed" data-testid="unsettled-last-check">
            <span className="sd-num">{formatTime(attempt.lastCheck.at)}</span> {attempt.lastCheck.note}
          </Text>
        ) : null}
      </Stack>
      <Group gap="xs" mt={6} justify="flex-end">
        {SETTLE_BUTTONS.map((b) => (
          <Button
            key={b.answer}
            size="xs"
            variant={b.color ? 'light' : 'default'}
            {...(b.color ? { color: b.color } : {})}
            disabled={settle.running}
            onClick={() => void settle.run(b.answer)}
            data-testid={b.testId}
          >
            {b.label}
          </Button>
        ))}
      </Group>
      {settle.error ? <ErrorNote error={settle.error} /> : null}
    </Paper>
  );
}

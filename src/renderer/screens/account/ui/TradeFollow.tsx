/**
 * The trades a write created (a sell's or deposit's deposit ids, a withdrawal's withdraw ids), followed
 * live: the app's tracker is fed by webhooks and polling, and every change arrives as a push.
 */
import { Group, Loader, Stack, Text } from '@mantine/core';
import type { Trade } from '../../../../shared/api/index.ts';
import { useCall, usePush } from '../../../bridge/index.ts';
import { formatCents } from './format.ts';
import { StatusBadge } from './StatusBadge.tsx';

export function TradeFollow({ ids, by }: { ids: readonly number[]; by: 'deposit' | 'withdraw' }) {
  // exactly these trades, however many others the tracker follows (a busy account has thousands)
  const trades = useCall('getTrades', { limit: 1000, ...(by === 'deposit' ? { depositIds: [...ids] } : { withdrawIds: [...ids] }) });
  usePush('tradesUpdated', () => trades.reload());
  const idOf = (t: Trade) => (by === 'deposit' ? t.deposit_id : t.withdraw_id);
  return (
    <Stack gap={4} data-testid="trade-follow">
      {ids.map((id) => {
        const tracked = trades.data?.trades.find((t) => idOf(t.trade) === id);
        return (
          <Group key={id} gap="xs" wrap="nowrap" data-testid={`follow-${by}-${id}`}>
            <Text size="sm" className="sd-num" w={130}>
              {by === 'deposit' ? 'Deposit' : 'Withdrawal'} {id}
            </Text>
            {tracked ? (
              <>
                <StatusBadge status={tracked.trade.status} testId="follow-status" />
                <Text size="xs" c="dimmed" truncate>
                  trade #{tracked.trade.id} · {formatCents(tracked.trade.value)} · {tracked.words}
                </Text>
              </>
            ) : (
              <Group gap={6}>
                <Loader size={12} />
                <Text size="xs" c="dimmed">
                  waiting for the trade offer to appear…
                </Text>
              </Group>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}

/** Withdraw: backpack items to the Steam inventory, as trade offers (one per game), then followed. */
import { Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { BackpackItem } from '../../../../shared/api/index.ts';
import { call } from '../../../bridge/index.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { copiesToSend, gameShort, plural } from '../ui/format.ts';
import { CopiesCells, firstOverdrawn } from '../ui/CopiesCells.tsx';
import { TradeFollow } from '../ui/TradeFollow.tsx';
import { useAction } from '../ui/useAction.ts';

export function WithdrawDialog({ rows: selection, onClose, onSent }: { rows: readonly BackpackItem[]; onClose: () => void; onSent: () => void }) {
  // the rows as they were when the dialog opened: the screen clears its selection once sent
  const [rows] = useState(selection);
  const [amounts, setAmounts] = useState(() => new Map<number, number | null>(rows.map((r) => [r.id, r.amount])));
  const items = rows.map((r) => ({ id: r.id, amount: amounts.get(r.id) ?? 0 })).filter((it) => it.amount > 0);
  const send = useAction(async () => {
    const answer = await call('withdrawItems', { items });
    onSent();
    return answer;
  });
  const games = new Set(rows.filter((r) => (amounts.get(r.id) ?? 0) > 0).map((r) => r.app_id));
  // copies above a stack are refused beside the button, and counted nowhere: no send would take them
  const overdrawn = firstOverdrawn(rows.map((r) => ({ name: r.market_hash_name, amount: r.amount, copies: amounts.get(r.id) ?? null })));
  const copies = items.reduce((s, it) => s + it.amount, 0);
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`Withdraw ${copiesToSend(overdrawn === null ? copies : null, rows.map((r) => r.market_hash_name))} to the Steam inventory`}
      confirmLabel={`Send ${plural(games.size, 'trade offer')}`}
      onConfirm={() => void send.run()}
      blockedReason={overdrawn ?? (items.length === 0 ? 'Nothing to withdraw.' : null)}
      enterSends
      running={send.running}
      progressLabel="Asking the marketplace to send the items…"
      error={send.error}
      result={
        send.result ? (
          <Stack gap="xs">
            <Text size="sm">Accept the trade offers on the platform to receive the items.</Text>
            <TradeFollow ids={send.result.withdrawIds} by="withdraw" />
          </Stack>
        ) : null
      }
    >
      <Text size="xs" c="dimmed">
        The items leave the marketplace: one trade offer per game is sent to your Steam account. Items inside a trade hold cannot leave yet.
      </Text>
      <Table withTableBorder striped verticalSpacing={4} fz="xs">
        {/* as the deposit dialog's: which figure is the copies and which the value */}
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Game</Table.Th>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Copies</Table.Th>
            <Table.Th ta="right">Market value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{gameShort(r.app_id)}</Table.Td>
              <Table.Td>{r.market_hash_name}</Table.Td>
              <CopiesCells
                name={r.market_hash_name}
                commodity={r.commodity}
                amount={r.amount}
                unitPrice={r.market_price}
                copies={amounts.get(r.id) ?? null}
                onCopies={(n) => setAmounts((m) => new Map(m).set(r.id, n))}
              />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ConfirmDialog>
  );
}

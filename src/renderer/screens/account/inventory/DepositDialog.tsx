/** Deposit: Steam inventory items into the backpack through a trade offer, without a price. */
import { Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { AppId } from '../../../../shared/api/index.ts';
import type { InventoryRow } from '../../../../shared/ipc/calls-account.ts';
import { call } from '../../../bridge/index.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { copiesToSend, gameName } from '../ui/format.ts';
import { CopiesCells, firstOverdrawn } from '../ui/CopiesCells.tsx';
import { ProblemList } from '../ui/ProblemList.tsx';
import { TradeFollow } from '../ui/TradeFollow.tsx';
import { useAction } from '../ui/useAction.ts';
import { blockingMessage, usePreSendCheck } from '../ui/usePreSendCheck.ts';

export function DepositDialog({ appId, rows: selection, onClose, onSent }: { appId: AppId; rows: readonly InventoryRow[]; onClose: () => void; onSent: () => void }) {
  // the rows as they were when the dialog opened: the screen clears its selection once sent
  const [rows] = useState(selection);
  const [amounts, setAmounts] = useState(() => new Map<string, number | null>(rows.map((r) => [r.assetId, r.amount])));
  const items = rows.map((r) => ({ assetId: r.assetId, amount: amounts.get(r.assetId) ?? 0 })).filter((it) => it.amount > 0);
  const send = useAction(async () => {
    const answer = await call('depositItems', { appId, items });
    onSent();
    return answer;
  });
  // copies above a stack are refused here, in words, before any check is asked for
  const overdrawn = firstOverdrawn(rows.map((r) => ({ name: r.name, amount: r.amount, copies: amounts.get(r.assetId) ?? null })));
  // checked again after a failed send too: after a lost answer the items may be in an offer
  const check = usePreSendCheck(items, async (draft) => (await call('depositItems', { appId, items: draft, dryRun: true })).check.problems, items.length > 0 && overdrawn === null, send.error);
  const copies = items.reduce((s, it) => s + it.amount, 0);
  const blocked = overdrawn ?? (items.length === 0 ? 'Nothing to deposit.' : check.checking ? 'Checking…' : blockingMessage(check.problems));
  return (
    <ConfirmDialog
      opened
      onClose={onClose}
      title={`Deposit ${copiesToSend(overdrawn === null ? copies : null, rows.map((r) => r.name))} into the backpack`}
      confirmLabel="Send trade offer"
      onConfirm={() => void send.run()}
      blockedReason={blocked}
      enterSends
      checking={check.checking}
      running={send.running}
      progressLabel="Asking the marketplace to send the trade offer…"
      error={send.error}
      result={
        send.result ? (
          <Stack gap="xs">
            <Text size="sm">Accept the trade offer on the platform; the items land in your backpack, unlisted.</Text>
            <TradeFollow ids={send.result.depositIds} by="deposit" />
          </Stack>
        ) : null
      }
    >
      <Text size="xs" c="dimmed">
        No price: the items move to your backpack on the marketplace, where you can list them later. The same trade caps as selling apply.
      </Text>
      <Table withTableBorder striped verticalSpacing={4} fz="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item ({gameName(appId)})</Table.Th>
            <Table.Th ta="right">Copies</Table.Th>
            <Table.Th ta="right">Market value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.assetId}>
              <Table.Td>{r.name}</Table.Td>
              <CopiesCells
                name={r.name}
                commodity={r.commodity}
                amount={r.amount}
                unitPrice={r.marketPrice}
                copies={amounts.get(r.assetId) ?? null}
                onCopies={(n) => setAmounts((m) => new Map(m).set(r.assetId, n))}
              />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ProblemList problems={check.checking ? undefined : check.problems} />
    </ConfirmDialog>
  );
}

/**
 * The balance ledger, newest first, with the running balance after each movement. A row whose balance
 * does not follow from the older row below it is marked: a movement is missing between them.
 */
import { Badge, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useCall, usePush } from '../../../bridge/index.ts';
import { ledgerBreaks } from '../logic/ledger.ts';
import { FreshnessTools } from '../ui/FreshnessTools.tsx';
import { useReloadWhenBalanceMoves } from '../ui/useReloadWhenBalanceMoves.ts';
import { formatDateTime } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { Pager, type PageSize } from '../ui/Pager.tsx';
import { ReadFailed, tableReadFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { DenseTable } from '../ui/DenseTable.tsx';

const READ_TITLE = 'The ledger could not be read';

const TYPE_COLOR: Record<string, string> = {
  PURCHASE: 'blue',
  SALE: 'teal',
  SALE_FEE: 'orange',
  CRYPTO_WITHDRAWAL: 'grape',
  CRYPTO_REFUND: 'lime',
  DEPOSIT: 'cyan',
};

export function TransactionsScreen() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<PageSize>(50);
  const ledger = useCall('getTransactions', { page, limit });
  usePush('withdrawalUpdated', () => ledger.reload());
  useReloadWhenBalanceMoves(ledger.reload);
  const failure = tableReadFailure(ledger, (answer) => answer.transactions);
  const rows = ledger.data?.transactions ?? [];
  const breaks = ledgerBreaks(rows);
  return (
    <ScreenFrame title="Ledger" testId="screen-transactions" subtitle="every movement of the balance, with the balance after it" tools={<FreshnessTools freshness={ledger.data?.freshness} loading={ledger.loading} what="the ledger" onRefresh={ledger.reload} refreshFailed={{ error: failure.overRows, title: READ_TITLE }} />}>
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={ledger.reload} />
      ) : (
        <>
          <DenseTable testId="ledger-table" empty={ledger.data && rows.length === 0 ? 'No movement of the balance yet.' : null} columns={[{ label: 'Time' }, { label: 'Type' }, { label: 'Description' }, { label: 'Amount', align: 'right' }, { label: 'Balance', align: 'right' }]}>
            {rows.map((t) => (
              <Table.Tr key={t.id} data-testid="ledger-row">
                <Table.Td className="sd-num">{formatDateTime(t.created_at)}</Table.Td>
                <Table.Td>
                  <Badge color={TYPE_COLOR[t.type] ?? 'gray'} variant="light">
                    {t.type.replace(/_/g, ' ').toLowerCase()}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" truncate maw={420}>
                    {t.description}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={t.amount} signed colored size="xs" />
                </Table.Td>
                <Table.Td ta="right">
                  {breaks.has(t.id) ? (
                    <Tooltip label="This balance does not follow from the row below: a movement is missing from the ledger between them">
                      <IconAlertTriangle size={12} color="var(--mantine-color-yellow-5)" style={{ marginRight: 4, verticalAlign: 'middle' }} />
                    </Tooltip>
                  ) : null}
                  <Money cents={t.balance} size="xs" fw={600} />
                </Table.Td>
              </Table.Tr>
            ))}
          </DenseTable>
          <Pager metadata={ledger.data?.metadata} page={page} onPage={setPage} limit={limit} onLimit={(l) => { setLimit(l); setPage(1); }} noun="movement" />
        </>
      )}
    </ScreenFrame>
  );
}

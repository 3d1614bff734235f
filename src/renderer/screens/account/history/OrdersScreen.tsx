/** Orders: the paged history (newest first), and the export of the whole history. */
import { Badge, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useCall, usePush } from '../../../bridge/index.ts';
import { FreshnessTools } from '../ui/FreshnessTools.tsx';
import { formatDateTime, gameShort } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { Pager, type PageSize } from '../ui/Pager.tsx';
import { ReadFailed, tableReadFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { DenseTable } from '../ui/DenseTable.tsx';
import { useReloadWhenBalanceMoves } from '../ui/useReloadWhenBalanceMoves.ts';

const READ_TITLE = 'The orders could not be read';

/** The orders route carries no fee: a sale's row is what the buyer paid, not what reached the balance. */
const FEE_WORDS = "Price × copies. A sale's fee is not taken off here: the export's net column, the ledger and the portfolio's trading results have it.";

export function OrdersScreen() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<PageSize>(50);
  const orders = useCall('getOrders', { page, limit });
  usePush('tradesUpdated', () => orders.reload());
  useReloadWhenBalanceMoves(orders.reload);
  const failure = tableReadFailure(orders, (answer) => answer.orders);
  const rows = orders.data?.orders ?? [];
  return (
    <ScreenFrame title="Orders" testId="screen-orders" tools={<FreshnessTools freshness={orders.data?.freshness} loading={orders.loading} what="the orders" onRefresh={orders.reload} refreshFailed={{ error: failure.overRows, title: READ_TITLE }} />}>
      <ExportPanel />
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={orders.reload} />
      ) : (
        <>
          <DenseTable testId="orders-table" empty={orders.data && rows.length === 0 ? 'No orders yet: what you buy and sell shows here.' : null} columns={[{ label: 'Time' }, { label: 'Order' }, { label: 'Side' }, { label: 'Game' }, { label: 'Item' }, { label: 'Price', align: 'right' }, { label: 'Copies', align: 'right' }, { label: <Tooltip label={FEE_WORDS}><span>Total before fee</span></Tooltip>, align: 'right' }]}>
            {rows.map((o) => (
              <Table.Tr key={o.order_item_id} data-testid="order-row" data-order-item-id={o.order_item_id}>
                <Table.Td className="sd-num">{formatDateTime(o.created_at)}</Table.Td>
                <Table.Td className="sd-num">
                  #{o.order_id}
                  <Text span size="10px" c="dimmed">
                    {' '}
                    / {o.order_item_id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={o.side === 'sold' ? 'teal' : 'blue'} variant="light">
                    {o.side}
                  </Badge>
                </Table.Td>
                <Table.Td>{gameShort(o.app_id)}</Table.Td>
                <Table.Td>{o.market_hash_name}</Table.Td>
                <Table.Td ta="right">
                  <Money cents={o.price} size="xs" />
                </Table.Td>
                <Table.Td ta="right" className="sd-num">
                  {o.amount}
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={o.side === 'sold' ? o.price * o.amount : -o.price * o.amount} signed colored size="xs" />
                </Table.Td>
              </Table.Tr>
            ))}
          </DenseTable>
          <Pager metadata={orders.data?.metadata} page={page} onPage={setPage} limit={limit} onLimit={(l) => { setLimit(l); setPage(1); }} noun="order" />
        </>
      )}
    </ScreenFrame>
  );
}

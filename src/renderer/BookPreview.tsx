/**
 * A first, small view of the live book: the newest listings from the mirror, refetched whenever the app
 * pushes a book change, plus the market and sync badges. The full market screens replace it.
 */
import { Alert, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { formatCents } from '../shared/money.ts';
import type { SyncStatus } from '../shared/ipc/index.ts';
import { useCall, useLiveValue, usePush } from './bridge/index.ts';

const PREVIEW_ROWS = 25;

const STATE_COLORS: Record<SyncStatus['state'], string> = {
  opening: 'gray',
  connecting: 'yellow',
  live: 'teal',
  resyncing: 'orange',
  offline: 'red',
  stopped: 'gray',
};

export function MarketBadges() {
  const { value: status } = useLiveValue('getStatus', 'syncStatus');
  if (!status) return null;
  return (
    <Group gap="xs">
      <Badge
        data-testid="market-badge"
        color={status.market.mode === 'demo' ? 'violet' : 'blue'}
        variant="light"
        title={status.market.baseUrl ?? undefined}
      >
        {status.market.mode === 'demo' ? 'Demo market' : 'Live market'}
      </Badge>
      <Badge
        data-testid="sync-badge"
        color={STATE_COLORS[status.state]}
        variant="dot"
        title={status.problem ?? undefined}
      >
        {status.state}
      </Badge>
    </Group>
  );
}

export function BookPreview() {
  const page = useCall('queryBook', {
    sort: { field: 'created_at', dir: 'desc' },
    limit: PREVIEW_ROWS,
    count: true,
  });
  usePush('bookChanged', page.reload);
  const { value: status } = useLiveValue('getStatus', 'syncStatus');

  if (page.error) {
    return (
      <Alert color="red" title="The book is not available">
        {page.error.message}
      </Alert>
    );
  }
  const rows = page.data?.rows ?? [];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="book-summary">
          {status?.rows ?? 0} listings · newest first
        </Text>
        {status && (
          <Text size="xs" c="dimmed" ff="monospace">
            seq {status.lastSeq ?? '–'} · {status.eventsPerSecond.toFixed(1)} events/s
          </Text>
        )}
      </Group>
      <Table striped highlightOnHover verticalSpacing={4} fz="sm" data-testid="book-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Price</Table.Th>
            <Table.Th ta="right">Float</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right">Listed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-listing-id={row.id}>
              <Table.Td>{row.market_hash_name}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatCents(row.price)}
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {row.paint_wear === null ? '–' : row.paint_wear.toFixed(6)}
              </Table.Td>
              <Table.Td ta="right">{row.amount}</Table.Td>
              <Table.Td ta="right" c="dimmed">
                {new Date(row.created_at).toLocaleTimeString()}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {!page.loading && rows.length === 0 && (
        <Text c="dimmed" size="sm">
          The book is empty so far.
        </Text>
      )}
    </Stack>
  );
}

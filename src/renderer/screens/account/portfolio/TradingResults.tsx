/**
 * Trading results from the whole order history: the profit on copies bought and then sold here (at the
 * moving average cost), what was paid, received after fees, and the fees; then item by item. Read on demand (the export route allows 5
 * a minute) and kept by the app, so it shows at once next time, offline too. The profit is of settled
 * sales; that of sales not settled yet (held, pending, possibly undone) is shown beside it, never in it.
 */
import { Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import type { IpcOutput } from '../../../../shared/ipc/index.ts';
import type { SkindeskError } from '../../../bridge/index.ts';
import { DenseTable, GAME_AND_ITEM, itemKey } from '../ui/DenseTable.tsx';
import { formatCents, formatDateTime, formatSignedCents, gameShort, plural } from '../ui/format.ts';
import { ItemNameCell } from '../ui/ItemNameCell.tsx';
import { Money } from '../ui/Money.tsx';
import { ReadFailed, RefreshFailed, placeFailure } from '../ui/ReadFailure.tsx';
import { StatTile } from '../ui/StatTile.tsx';

type Results = IpcOutput<'getTradingPnl'>;

/** Items shown: the most traded. */
const SHOWN = 50;

/** The order of the items (trading-pnl sorts them so), said with the table: no column is sorted by it. */
const ORDER = 'most money traded first (paid and received together)';

const READ_TITLE = 'The order history could not be read';

/** The profit of sales not settled yet, as a note beside the settled one; null when there are none. */
function unsettledProfit(copies: number, profit: number | null): string | null {
  if (copies === 0 || profit === null) return null;
  return `${formatSignedCents(profit)} more on ${plural(copies, 'copy', 'copies')} whose sale is not settled yet`;
}

const copiesAt = (copies: number, avg: number | null) =>
  copies === 0 ? (
    <Text span size="xs" c="dimmed">
      –
    </Text>
  ) : (
    <>
      <span className="sd-num">{copies.toLocaleString('en-US')}</span> × <Money cents={avg} size="xs" />
    </>
  );

export function TradingResults({
  results,
  loading,
  error,
  onRead,
}: {
  results: Results | undefined;
  loading: boolean;
  error: SkindeskError | null;
  onRead(): void;
}) {
  const read = results?.computedAt ?? null;
  // results read before stay when a new read fails; with none, the failure takes their place
  const failure = placeFailure(error, read !== null);
  return (
    <Paper withBorder p="xs" bg="dark.7" data-testid="trading-results">
      <Group justify="space-between" mb={6}>
        <Text size="xs" c="dimmed" tt="uppercase" lts={0.4}>
          Trading results
        </Text>
        <Group gap="sm">
          {failure.overRows ? <RefreshFailed error={failure.overRows} title={READ_TITLE} /> : null}
          <Text size="xs" c="dimmed" data-testid="trading-results-note">
            {read
              ? `${plural(results!.totals.rows, 'order row')} · read ${formatDateTime(read)}`
              : 'not read yet'}
          </Text>
          <Tooltip label="Reads your whole order history (one of the 5 exports a minute the marketplace allows)">
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconHistory size={14} />}
              onClick={onRead}
              loading={loading}
              data-testid="read-order-history"
            >
              Read order history
            </Button>
          </Tooltip>
        </Group>
      </Group>
      {results?.problem && (
        <Text size="xs" c="orange" mb={4}>
          {results.problem}
        </Text>
      )}
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={onRead} />
      ) : !read ? (
        <Text size="sm" c="dimmed" ta="center" py="sm">
          What you paid, what sales brought after fees, and the profit per item — from your order history,
          once read.
        </Text>
      ) : (
        <Stack gap="xs">
          <Group gap="sm" align="stretch" wrap="wrap">
            <StatTile
              label="Realized profit"
              testId="pnl-realized"
              value={<Money cents={results!.totals.realized} signed colored />}
              detail={[
                `on ${plural(results!.totals.matched, 'copy', 'copies')} bought and then sold here (settled sales), at average cost`,
                unsettledProfit(results!.totals.unsettledMatched, results!.totals.unsettledRealized),
              ]
                .filter(Boolean)
                .join(' · ')}
            />
            <StatTile
              label="Paid"
              testId="pnl-paid"
              value={<Money cents={results!.totals.paid} />}
              detail="for everything bought"
            />
            <StatTile
              label="Received"
              testId="pnl-received"
              value={<Money cents={results!.totals.received} />}
              detail={`for everything sold, after fees${results!.totals.unsettled !== 0 ? ` · ${formatCents(results!.totals.unsettled)} of it not settled yet` : ''}`}
            />
            <StatTile
              label="Fees"
              testId="pnl-fees"
              value={<Money cents={results!.totals.fees} />}
              detail="the marketplace's commission"
            />
          </Group>
          <DenseTable
            testId="pnl-table"
            caption={`Item by item, ${ORDER}`}
            columns={[
              ...GAME_AND_ITEM,
              { label: 'Bought', align: 'right', width: 130 },
              { label: 'Sold (net)', align: 'right', width: 130 },
              {
                label: (
                  <Tooltip label="On the copies sold after being bought here, in sales settled: what each sale brought after fees, less their average cost when it was made. Sales not settled yet are shown apart, below. Copies sold without a purchase here before (deposited from Steam) count for nothing.">
                    <span>Realized</span>
                  </Tooltip>
                ),
                align: 'right',
                width: 100,
              },
              { label: 'Last trade', align: 'right', width: 130 },
            ]}
          >
            {results!.items.slice(0, SHOWN).map((p) => (
              <Table.Tr key={itemKey(p)} data-testid="pnl-row">
                <Table.Td>{gameShort(p.app_id)}</Table.Td>
                <ItemNameCell name={p.market_hash_name} appId={p.app_id} />
                <Table.Td ta="right">{copiesAt(p.bought, p.avgPaid)}</Table.Td>
                <Table.Td ta="right">{copiesAt(p.sold, p.avgReceived)}</Table.Td>
                <Table.Td ta="right">
                  <Money cents={p.realized} signed colored size="xs" />
                  {p.unsettledRealized !== null && (
                    <Tooltip label={unsettledProfit(p.unsettledMatched, p.unsettledRealized)}>
                      <Text size="10px" c="dimmed" className="sd-num" data-testid="pnl-row-unsettled">
                        {formatSignedCents(p.unsettledRealized)} not settled
                      </Text>
                    </Tooltip>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="xs" c="dimmed">
                    {formatDateTime(p.lastTradeAt)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </DenseTable>
          {results!.items.length > SHOWN && (
            <Text size="xs" c="dimmed" ta="center">
              The {SHOWN} items with the most money traded, of {results!.items.length}; the order export has them all.
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
}

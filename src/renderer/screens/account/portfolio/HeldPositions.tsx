/**
 * What is held, item by item (backpack and the Steam inventories read), largest value first, with each
 * position's share of the held value: where the money sits, at a glance.
 */
import { Group, Paper, Progress, Table, Text, Tooltip } from '@mantine/core';
import { APP_IDS } from '../../../../shared/api/index.ts';
import type { HeldPosition } from '../../../../shared/ipc/calls-account.ts';
import { DenseTable, GAME_AND_ITEM, itemKey } from '../ui/DenseTable.tsx';
import { ItemNameCell } from '../ui/ItemNameCell.tsx';
import { formatCents, gameShort } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';

/** Which price values a position: the spec's `market_price`, not a price of this marketplace's book. */
const MARKET_PRICE_WORDS =
  "The marketplace's market price of one copy, derived from the Steam market: not the lowest listing here, nor the 30-day average sale price here.";

const VERSUS_PAID_WORDS = 'The market price against the average cost of the copies bought here and not sold since.';
/** Until the order history is read the column is all dashes: it says where its figures come from. */
const UNREAD_HISTORY_WORDS = 'Empty until the order history is read: "Read order history" under Trading results, below.';

const copies = (n: number) => (n === 0 ? '–' : n.toLocaleString('en-US'));

/** Which sources the positions cover, so a missing inventory (or backpack) never reads as "not held". */
function coverage(gamesRead: number, backpackRead: boolean): string {
  const inventories = gamesRead === 0 ? null : gamesRead < APP_IDS.length ? `${gamesRead} of ${APP_IDS.length} Steam inventories` : 'Steam inventories';
  if (!backpackRead) return inventories ? `${inventories} only: the backpack could not be read` : 'the backpack could not be read, and the Steam inventories are not read';
  if (!inventories) return 'backpack only: read the Steam inventories to add them';
  return `backpack and ${inventories}`;
}

/**
 * What was paid here for the copies of an item bought and not sold since: their cost at the moving
 * average (core/account/trading-pnl.ts), and how many they are.
 */
export interface PaidFor {
  paid: number;
  bought: number;
}

/**
 * Market price against the average cost of the copies bought here and not sold since: what holding them
 * has made so far, per copy. From the whole sum, not a rounded average: 7 copies for 16¢ against a 3¢
 * market is +31 %, where the average rounded to 2¢ said +50 %.
 */
function VersusPaid({ market, paidFor }: { market: number; paidFor: PaidFor | null | undefined }) {
  if (!paidFor || paidFor.paid === 0 || paidFor.bought === 0) {
    return (
      <Text span size="xs" c="dimmed">
        –
      </Text>
    );
  }
  const pct = ((market * paidFor.bought - paidFor.paid) / paidFor.paid) * 100;
  const copiesWord = paidFor.bought === 1 ? 'copy' : 'copies';
  return (
    <Tooltip label={`Market ${formatCents(market)} a copy against ${formatCents(paidFor.paid)} paid here for the ${paidFor.bought} ${copiesWord} bought and not sold since (average cost)`}>
      <Text
        span
        size="xs"
        className="sd-num"
        c={pct > 0 ? 'teal.4' : pct < 0 ? 'red.4' : 'dimmed'}
        data-testid="versus-paid"
      >
        {pct > 0 ? '+' : pct < 0 ? '−' : '±'}
        {Math.abs(pct).toFixed(1)}%
      </Text>
    </Tooltip>
  );
}

/** Says the table is cut only when it is: items held beyond the rows shown. */
function cutWords(shown: number, held: number): string {
  return held > shown ? ` · the ${shown} largest of ${held.toLocaleString('en-US')} items` : '';
}

export function HeldPositions({
  positions,
  positionCount,
  heldValue,
  gamesRead,
  backpackRead = true,
  historyRead = true,
  paidFor,
}: {
  positions: readonly HeldPosition[];
  /** Items held in all (the positions are the largest of them). */
  positionCount: number;
  heldValue: number;
  gamesRead: number;
  /** Whether the backpack was read: unread, no row is not "nothing held". */
  backpackRead?: boolean;
  /** Whether the order history (what "vs paid" is from) was read. */
  historyRead?: boolean;
  /** What was paid per item (by itemKey), from the trading results (empty until read). */
  paidFor: ReadonlyMap<string, PaidFor | null>;
}) {
  return (
    <Paper withBorder p="xs" bg="dark.7">
      <Group justify="space-between" mb={4}>
        <Text size="xs" c="dimmed" tt="uppercase" lts={0.4}>
          Held positions
        </Text>
        <Text size="xs" c="dimmed">
          {coverage(gamesRead, backpackRead)} · at Steam-derived market prices{cutWords(positions.length, positionCount)}
        </Text>
      </Group>
      {positions.length === 0 ? (
        <Text size="sm" c="dimmed" py="sm" ta="center" data-testid="positions-empty">
          {backpackRead || gamesRead > 0 ? 'Nothing held.' : 'Nothing to show: the backpack could not be read, and the Steam inventories are not read.'}
        </Text>
      ) : (
        <DenseTable
          testId="positions-table"
          columns={[
            ...GAME_AND_ITEM,
            { label: 'Backpack', align: 'right', width: 80 },
            { label: 'Steam', align: 'right', width: 70 },
            {
              label: (
                <Tooltip label={MARKET_PRICE_WORDS}>
                  <span>Market</span>
                </Tooltip>
              ),
              align: 'right',
              width: 90,
            },
            {
              label: (
                <Tooltip label={historyRead ? VERSUS_PAID_WORDS : `${VERSUS_PAID_WORDS} ${UNREAD_HISTORY_WORDS}`} multiline maw={360}>
                  <span data-testid="versus-paid-header">vs paid</span>
                </Tooltip>
              ),
              align: 'right',
              width: 80,
            },
            { label: 'Value', align: 'right', width: 100 },
            { label: 'Share', width: 150 },
          ]}
        >
          {positions.map((h) => {
            const share = heldValue > 0 ? (h.value / heldValue) * 100 : 0;
            return (
              <Table.Tr key={itemKey(h)} data-testid="position-row">
                <Table.Td>{gameShort(h.app_id)}</Table.Td>
                <ItemNameCell name={h.market_hash_name} appId={h.app_id} />
                <Table.Td ta="right" className="sd-num">
                  {copies(h.inBackpack)}
                </Table.Td>
                <Table.Td ta="right" className="sd-num">
                  {copies(h.inInventory)}
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={h.marketPrice} size="xs" />
                </Table.Td>
                <Table.Td ta="right">
                  <VersusPaid market={h.marketPrice} paidFor={paidFor.get(itemKey(h))} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={h.value} size="xs" />
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Progress
                      value={share}
                      size="sm"
                      w={90}
                      color="teal"
                      aria-label={`${share.toFixed(1)}% of the held value`}
                    />
                    <Text size="xs" className="sd-num" c="dimmed">
                      {share.toFixed(1)}%
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </DenseTable>
      )}
    </Paper>
  );
}

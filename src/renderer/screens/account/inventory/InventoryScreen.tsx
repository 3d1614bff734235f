/**
 * Steam inventory → sell or deposit. Per game: each row's tradable or locked state, the tokens'
 * remaining lifetime (30 minutes from the read; read again once expired), and the trades in flight
 * against the cap of 15.
 */
import { Badge, Button, Checkbox, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconLock, IconRefresh } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { type AppId, LIMITS } from '../../../../shared/api/index.ts';
import type { InventoryRow } from '../../../../shared/ipc/calls-account.ts';
import type { IpcOutput } from '../../../../shared/ipc/index.ts';
import { useCall } from '../../../bridge/index.ts';
import { ActionBlockNote } from '../ui/ActionBlockNote.tsx';
import { FreshnessNote } from '../ui/FreshnessNote.tsx';
import { formatCountdown, plural } from '../ui/format.ts';
import { GamePicker } from '../ui/GamePicker.tsx';
import { ItemNameCell } from '../ui/ItemNameCell.tsx';
import { useNow } from '../ui/hooks.ts';
import { Money } from '../ui/Money.tsx';
import { ReadFailed, RefreshFailed, placeFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { DepositDialog } from './DepositDialog.tsx';
import { SellDialog } from './SellDialog.tsx';
import { DenseTable } from '../ui/DenseTable.tsx';
import { useRefreshKey } from '../ui/useRefreshKey.ts';

type Inventory = IpcOutput<'getInventory'>;
/** The app refuses tokens this close to expiry (they would expire on the way). */
const TOKEN_MARGIN_MS = 60_000;
const READ_TITLE = 'The inventory could not be read';
/** The State column's width, which its longest badge (cut with an ellipsis past it) fits. */
const STATE_WIDTH = 220;

function selectable(row: InventoryRow): boolean {
  return row.tradable && row.inOffer === null;
}

function TokenClock({ inventory, now, onRefresh, refreshing }: { inventory: Inventory; now: number; onRefresh: () => void; refreshing: boolean }) {
  const left = Date.parse(inventory.tokensExpireAt) - now;
  const usable = left > TOKEN_MARGIN_MS;
  const color = !usable ? 'red' : left < 5 * 60_000 ? 'yellow' : 'teal';
  return (
    <Group gap={6} wrap="nowrap">
      <Tooltip label="Item tokens are valid for 30 minutes after the inventory is read; selling or depositing needs valid tokens.">
        <Badge color={color} variant="light" className="sd-num" data-testid="token-clock">
          {usable ? `tokens valid ${formatCountdown(left - TOKEN_MARGIN_MS)}` : 'tokens expired'}
        </Badge>
      </Tooltip>
      <Tooltip label="The marketplace allows 5 inventory reads a minute">
        <Button variant={usable ? 'default' : 'filled'} leftSection={<IconRefresh size={14} />} onClick={onRefresh} loading={refreshing} data-testid="inventory-refresh">
          Read again
        </Button>
      </Tooltip>
    </Group>
  );
}

export function InventoryScreen() {
  const [appId, setAppId] = useState<AppId>(730);
  // a new game is a new view: its selection, dialogs and token clock start over
  return <InventoryView key={appId} appId={appId} onGame={setAppId} />;
}

function InventoryView({ appId, onGame }: { appId: AppId; onGame: (appId: AppId) => void }) {
  // Each "read again" is a new key: a forced read from the marketplace (5 a minute are allowed).
  const [reads, setReads] = useState(0);
  const read = useCall('getInventory', { appId, refresh: reads > 0 }, `${appId}:${reads}`);
  const inventory = read.data ?? null;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'sell' | 'deposit' | null>(null);
  const now = useNow(1_000);
  const readAgain = () => setReads((n) => n + 1);
  useRefreshKey('Read the Steam inventory again', readAgain);

  // Expired tokens are worthless: read again once they expire while the screen is open.
  const expiresAt = inventory ? Date.parse(inventory.tokensExpireAt) - TOKEN_MARGIN_MS : null;
  useEffect(() => {
    if (expiresAt === null) return;
    const timer = setTimeout(() => setReads((n) => n + 1), Math.max(0, expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt]);

  const rows = inventory?.items ?? [];
  // every "read again" is a new key: the rows shown are the last good read's, of this game still
  const failure = placeFailure(read.error, rows.length > 0);
  // rows that went into an offer (or vanished) since they were selected drop out of the selection
  const chosen = rows.filter((r) => selected.has(r.assetId) && selectable(r));
  const copies = chosen.reduce((s, r) => s + r.amount, 0);
  const value = chosen.reduce((s, r) => s + r.amount * r.marketPrice, 0);
  const allSelectable = rows.filter(selectable);
  const toggle = (assetId: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(assetId)) next.add(assetId);
      return next;
    });
  const tokensUsable = inventory ? Date.parse(inventory.tokensExpireAt) - now > TOKEN_MARGIN_MS : false;
  const actionBlock = !tokensUsable ? 'Read the inventory again: the tokens expired.' : chosen.length === 0 ? 'Select items first.' : null;
  const actionBlockId = useId();

  return (
    <ScreenFrame
      title="Steam inventory"
      testId="screen-inventory"
      subtitle={<GamePicker value={appId} onChange={onGame} />}
      tools={
        <>
          {failure.overRows ? (
            <RefreshFailed error={failure.overRows} title={READ_TITLE} asOf={inventory?.freshness.fetchedAt ?? null} />
          ) : (
            <FreshnessNote freshness={inventory?.freshness} loading={read.loading} />
          )}
          {inventory ? <TokenClock inventory={inventory} now={now} onRefresh={readAgain} refreshing={read.loading} /> : null}
        </>
      }
    >
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={read.reload} />
      ) : (
        <>
          <Paper withBorder p={6} bg="dark.7">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="md" wrap="nowrap">
                <Text size="xs" c="dimmed" data-testid="inventory-selection">
                  {chosen.length ? `${plural(chosen.length, 'row')} selected · ${plural(copies, 'copy', 'copies')} · ` : 'Nothing selected'}
                  {chosen.length ? <Money cents={value} size="xs" /> : null}
                </Text>
                <Tooltip label={`A sell or deposit opens one trade offer per game; at most ${LIMITS.tradesInFlight} may be in flight`}>
                  <Text size="xs" c={inventory && inventory.tradesInFlight >= LIMITS.tradesInFlight ? 'red.4' : 'dimmed'} className="sd-num">
                    trades in flight {inventory?.tradesInFlight ?? '–'}/{LIMITS.tradesInFlight}
                  </Text>
                </Tooltip>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <ActionBlockNote id={actionBlockId} reason={actionBlock} testId="inventory-action-block" />
                <Tooltip label="Deposit into the backpack, without a price">
                  <Button variant="default" disabled={actionBlock !== null} aria-describedby={actionBlockId} onClick={() => setDialog('deposit')} data-testid="deposit-open">
                    Deposit…
                  </Button>
                </Tooltip>
                <Tooltip label="List on the market at a price per copy">
                  <Button disabled={actionBlock !== null} aria-describedby={actionBlockId} onClick={() => setDialog('sell')} data-testid="sell-open">
                    Sell…
                  </Button>
                </Tooltip>
              </Group>
            </Group>
          </Paper>
          <DenseTable
            testId="inventory-table"
            empty={inventory && rows.length === 0 ? 'No items of this game in the Steam inventory.' : null}
            columns={[
              {
                label: (
                  <Checkbox
                    aria-label="Select all tradable items"
                    checked={allSelectable.length > 0 && allSelectable.every((r) => selected.has(r.assetId))}
                    indeterminate={chosen.length > 0 && chosen.length < allSelectable.length}
                    onChange={(e) => setSelected(e.currentTarget.checked ? new Set(allSelectable.map((r) => r.assetId)) : new Set())}
                  />
                ),
                width: 30,
              },
              { label: 'Item' },
              { label: 'Copies', align: 'right' },
              // as wide as the widest state, "in offer · deposit 400005": a row going into an offer does not
              // widen the column and push the figures beside it about
              { label: 'State', width: STATE_WIDTH },
              { label: 'Market', align: 'right' },
              { label: 'Recommended', align: 'right' },
              { label: 'Value', align: 'right' },
            ]}
          >
            {rows.map((r) => (
              <Table.Tr key={r.assetId} data-asset-id={r.assetId} data-testid="inventory-row" opacity={selectable(r) ? 1 : 0.6} onClick={() => selectable(r) && toggle(r.assetId)} style={{ cursor: selectable(r) ? 'pointer' : 'default' }}>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Checkbox aria-label={`Select ${r.name}`} disabled={!selectable(r)} checked={selected.has(r.assetId)} onChange={() => toggle(r.assetId)} />
                </Table.Td>
                <ItemNameCell name={r.name} detail={`asset ${r.assetId}${r.commodity ? ' · commodity stack' : ''}`} appId={appId} />
                <Table.Td ta="right" className="sd-num">
                  {r.amount}
                </Table.Td>
                <Table.Td>
                  {r.inOffer === 'unknown' ? (
                    <Tooltip label="The answer to the sell or deposit that sent it was lost: it may be in a trade offer. Read the inventory again to see.">
                      <Badge color="yellow" variant="light">
                        in an offer?
                      </Badge>
                    </Tooltip>
                  ) : r.inOffer !== null ? (
                    <Badge color="blue" variant="light" maw="100%" title={`In a trade offer: deposit ${r.inOffer}`}>
                      in offer · deposit {r.inOffer}
                    </Badge>
                  ) : r.tradable ? (
                    <Badge color="teal" variant="light">
                      tradable
                    </Badge>
                  ) : (
                    <Tooltip label="The platform holds this item (trade hold); it cannot be sold or deposited yet">
                      <Badge color="gray" variant="light" leftSection={<IconLock size={10} />}>
                        locked
                      </Badge>
                    </Tooltip>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={r.marketPrice} size="xs" />
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={r.recommendedPrice} size="xs" c="dimmed" />
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={r.marketPrice * r.amount} size="xs" />
                </Table.Td>
              </Table.Tr>
            ))}
          </DenseTable>
        </>
      )}
      {dialog === 'sell' ? (
        <SellDialog appId={appId} rows={chosen} onClose={() => setDialog(null)} onSent={() => { setSelected(new Set()); read.reload(); }} />
      ) : null}
      {dialog === 'deposit' ? (
        <DepositDialog appId={appId} rows={chosen} onClose={() => setDialog(null)} onSent={() => { setSelected(new Set()); read.reload(); }} />
      ) : null}
    </ScreenFrame>
  );
}

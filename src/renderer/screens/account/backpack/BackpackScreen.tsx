/**
 * Backpack → list or withdraw. Search (1–200 characters) and paging are the marketplace's; rows inside a
 * trade hold can be listed (the hold travels with the listing) but not withdrawn.
 */
import { Badge, Button, Checkbox, Group, Paper, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconLock, IconSearch } from '@tabler/icons-react';
import { useId, useMemo, useRef, useState } from 'react';
import { type AppId, type BackpackItem, LIMITS } from '../../../../shared/api/index.ts';
import { useCall, usePush } from '../../../bridge/index.ts';
import { ActionBlockNote } from '../ui/ActionBlockNote.tsx';
import { FreshnessTools } from '../ui/FreshnessTools.tsx';
import { formatDateTime, gameShort, plural } from '../ui/format.ts';
import { GameFilter } from '../ui/GamePicker.tsx';
import { ItemNameCell } from '../ui/ItemNameCell.tsx';
import { useDebounced, useNow } from '../ui/hooks.ts';
import { Money } from '../ui/Money.tsx';
import { Pager, type PageSize } from '../ui/Pager.tsx';
import { ReadFailed, tableReadFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { ListDialog } from './ListDialog.tsx';
import { WithdrawDialog } from './WithdrawDialog.tsx';
import { DenseTable } from '../ui/DenseTable.tsx';
import { useRegisterCommands } from '../../../shell/commands.ts';
import { useReloadWhenBalanceMoves } from '../ui/useReloadWhenBalanceMoves.ts';

const READ_TITLE = 'The backpack could not be read';

function locked(row: BackpackItem, now: number): boolean {
  return row.trade_locked_until !== null && Date.parse(row.trade_locked_until) > now;
}

export function BackpackScreen() {
  const [search, setSearch] = useState('');
  const [appId, setAppId] = useState<AppId | null>(null);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<PageSize>(50);
  const [selected, setSelected] = useState<Map<number, BackpackItem>>(new Map());
  const [dialog, setDialog] = useState<'list' | 'withdraw' | null>(null);
  const term = useDebounced(search.trim(), 300);
  const tooLong = term.length > LIMITS.backpackSearchMax;
  const backpack = useCall('getBackpack', { page, limit, appId, search: term.length >= LIMITS.backpackSearchMin && !tooLong ? term : null });
  // an accepted deposit or a failed withdrawal changes the backpack
  usePush('tradesUpdated', () => backpack.reload());
  // a purchase lands in the backpack
  useReloadWhenBalanceMoves(backpack.reload);
  const searchRef = useRef<HTMLInputElement>(null);
  useRegisterCommands(
    useMemo(() => [{ id: 'backpack.search', label: 'Search the backpack by name', group: 'This screen', hotkey: '/', run: () => searchRef.current?.focus() }], []),
  );
  const failure = tableReadFailure(backpack, (answer) => answer.items);
  // a search refused as too long is read as no search at all: the whole backpack under the refused text
  // would read as what matches it
  const shown = tooLong ? undefined : backpack.data;
  const rows = shown?.items ?? [];
  const now = useNow(30_000);
  const chosen = [...selected.values()];
  const toggle = (row: BackpackItem) =>
    setSelected((m) => {
      const next = new Map(m);
      if (!next.delete(row.id)) next.set(row.id, row);
      return next;
    });
  const withdrawBlock = chosen.length === 0 ? 'Select items first.' : chosen.some((r) => locked(r, now)) ? 'Items inside a trade hold cannot be withdrawn yet.' : null;
  const actionBlockId = useId();
  const afterSend = () => {
    setSelected(new Map());
    backpack.reload();
  };

  return (
    <ScreenFrame
      title="Backpack"
      testId="screen-backpack"
      subtitle={<GameFilter value={appId} onChange={(a) => { setAppId(a); setPage(1); }} />}
      tools={
        <>
          <FreshnessTools freshness={backpack.data?.freshness} loading={backpack.loading} what="the backpack" onRefresh={backpack.reload} refreshFailed={{ error: failure.overRows, title: READ_TITLE }} />
          <TextInput
            ref={searchRef}
            aria-label="Search the backpack"
            placeholder="Search by name  /"
            leftSection={<IconSearch size={14} />}
            value={search}
            onChange={(e) => { setSearch(e.currentTarget.value); setPage(1); }}
            error={tooLong ? `at most ${LIMITS.backpackSearchMax} characters` : undefined}
            w={240}
            data-testid="backpack-search"
          />
        </>
      }
    >
      <Paper withBorder p={6} bg="dark.7">
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="dimmed" data-testid="backpack-selection">
            {/* as the inventory says it: a row of a commodity pool is many copies, and they are what is listed */}
            {chosen.length ? `${plural(chosen.length, 'row')} selected · ${plural(chosen.reduce((s, r) => s + r.amount, 0), 'copy', 'copies')} · ` : 'Nothing selected'}
            {chosen.length ? <Money cents={chosen.reduce((s, r) => s + r.market_price * r.amount, 0)} size="xs" /> : null}
          </Text>
          <Group gap="xs" wrap="nowrap">
            {/* nothing selected holds both buttons back; a trade hold only the withdrawal */}
            <ActionBlockNote id={actionBlockId} reason={withdrawBlock} testId="backpack-action-block" />
            <Tooltip label="Send to your Steam inventory">
              <Button variant="default" disabled={withdrawBlock !== null} aria-describedby={actionBlockId} onClick={() => setDialog('withdraw')} data-testid="withdraw-open">
                Withdraw…
              </Button>
            </Tooltip>
            <Button disabled={chosen.length === 0} aria-describedby={chosen.length === 0 ? actionBlockId : undefined} onClick={() => setDialog('list')} data-testid="list-open">
              List…
            </Button>
          </Group>
        </Group>
      </Paper>
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={backpack.reload} />
      ) : (
        <>
          <DenseTable
            testId="backpack-table"
            empty={
              tooLong
                ? `Not searched: a search is at most ${LIMITS.backpackSearchMax} characters. Shorten it to see what matches.`
                : shown && rows.length === 0
                  ? term
                    ? `Nothing matches “${term}”.`
                    : 'The backpack is empty.'
                  : null
            }
            columns={[
              { label: '', width: 30 },
              { label: 'Game' },
              { label: 'Item' },
              { label: 'Copies', align: 'right' },
              { label: 'Market', align: 'right' },
              { label: 'Value', align: 'right' },
              { label: 'Trade hold' },
            ]}
          >
            {rows.map((r) => (
              <Table.Tr key={r.id} data-testid="backpack-row" data-backpack-id={r.id} onClick={() => toggle(r)} style={{ cursor: 'pointer' }}>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Checkbox aria-label={`Select ${r.market_hash_name}`} checked={selected.has(r.id)} onChange={() => toggle(r)} />
                </Table.Td>
                <Table.Td>{gameShort(r.app_id)}</Table.Td>
                <ItemNameCell name={r.market_hash_name} detail={`#${r.id}${r.commodity ? ' · commodity pool' : ''}`} appId={r.app_id} />
                <Table.Td ta="right" className="sd-num">
                  {r.amount}
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={r.market_price} size="xs" />
                </Table.Td>
                <Table.Td ta="right">
                  <Money cents={r.market_price * r.amount} size="xs" />
                </Table.Td>
                <Table.Td>
                  {locked(r, now) ? (
                    <Badge color="gray" variant="light" leftSection={<IconLock size={10} />}>
                      until {formatDateTime(r.trade_locked_until!)}
                    </Badge>
                  ) : (
                    <Text size="xs" c="dimmed">
                      –
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DenseTable>
          <Pager metadata={shown?.metadata} page={page} onPage={setPage} limit={limit} onLimit={(l) => { setLimit(l); setPage(1); }} noun="item" />
        </>
      )}
      {dialog === 'list' ? <ListDialog rows={chosen} onClose={() => setDialog(null)} onSent={afterSend} /> : null}
      {dialog === 'withdraw' ? <WithdrawDialog rows={chosen} onClose={() => setDialog(null)} onSent={afterSend} /> : null}
    </ScreenFrame>
  );
}

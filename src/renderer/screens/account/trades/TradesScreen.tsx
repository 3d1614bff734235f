/**
 * Trades with live status. One tracker, fed by webhooks (when a receiver runs) and by polling, keeps the
 * newest state of each trade; every status seen is on the trade's timeline with the feed that saw it.
 */
import { Badge, Button, Drawer, Grid, Group, Paper, SegmentedControl, Stack, Table, Text, Timeline, Tooltip } from '@mantine/core';
import { IconRefresh, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { LIMITS, TRADE_STATUSES } from '../../../../shared/api/index.ts';
import type { TrackedTrade, TradePollerView } from '../../../../shared/ipc/calls-account.ts';
import { type SkindeskError, call, useCall, usePush } from '../../../bridge/index.ts';
import { codeBeyondMessage } from '../ui/ErrorNote.tsx';
import { ReadFailed, RefreshFailed, tableReadFailure } from '../ui/ReadFailure.tsx';
import { Pager, type PageSize } from '../ui/Pager.tsx';
import { formatAge } from '../../../format/numbers.ts';
import { formatAgo, formatDateTimeSeconds, gameShort } from '../ui/format.ts';
import { useNow } from '../ui/hooks.ts';
import { Money } from '../ui/Money.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { statusLabel } from '../../../../shared/status-labels.ts';
import { inLine, upperFirst } from '../../../../shared/sentence.ts';
import { utcMinute } from '../../../../shared/utc-words.ts';
import { StatusBadge, StatusColumnLabel, statusColor } from '../ui/StatusBadge.tsx';
import { useAction } from '../ui/useAction.ts';
import { TradeFeedsPanel } from './TradeFeedsPanel.tsx';
import { DenseTable } from '../ui/DenseTable.tsx';
import { useRefreshKey } from '../ui/useRefreshKey.ts';

type Filter = 'all' | 'in_flight' | 'done';

/** A read that failed, titled as one: "the marketplace did not do it" is for what it was asked to do. */
const READ_TITLE = 'The trades could not be read';

const SOURCE_WORDS = { webhook: 'webhook', poll: 'poll', action: 'our request' } as const;

/** What an empty table says: a filter showing nothing is not an account without trades. */
const EMPTY_WORDS: Record<Filter, string> = {
  all: 'No trades yet: sales, deposits and withdrawals of items show here.',
  in_flight: 'No trade is in flight.',
  done: 'No finished trade yet.',
};

function itemsLine(t: TrackedTrade): string {
  const first = t.trade.items[0];
  if (!first) return 'no items';
  const copies = t.trade.items.reduce((s, i) => s + i.amount, 0);
  return t.trade.items.length === 1 ? `${first.amount > 1 ? `${first.amount} × ` : ''}${first.market_hash_name}` : `${first.market_hash_name} +${t.trade.items.length - 1} more (${copies})`;
}

/**
 * While polls fail, the line says so in words, in place of "polled … ago" (the header's line: the table
 * below does not move when it comes or goes); the next good poll takes it away.
 */
function PollState({ poller, now }: { poller: TradePollerView | undefined; now: number }) {
  if (poller?.failingSince) {
    const reason = inLine(poller.lastError ?? 'no answer from the marketplace');
    const words = `Trades could not be polled for ${formatAge(poller.failingSince, now)}: ${reason}; retrying`;
    return (
      <Tooltip label={`${words}${poller.lastPollAt ? ` (last good poll ${formatAgo(poller.lastPollAt, now)})` : ''}`} multiline maw={420}>
        <Text size="xs" c="orange" truncate role="status" data-testid="trades-poll-failing" style={{ minWidth: 0 }}>
          {words}
        </Text>
      </Tooltip>
    );
  }
  return (
    <Text size="xs" c="dimmed" className="sd-num" style={{ whiteSpace: 'nowrap' }}>
      {poller?.lastPollAt ? `polled ${formatAgo(poller.lastPollAt, now)}` : 'not polled yet'}
    </Text>
  );
}

/**
 * "Poll now" that failed (refused while not connected, or the poll itself failing), told in the same header
 * line in place of the poll state: a box above the table would push the table down as it comes and goes.
 */
function PollNowFailed({ error }: { error: SkindeskError }) {
  const words = `The trades could not be polled: ${inLine(error.message)}`;
  const beyond = codeBeyondMessage(error);
  const code = beyond ? ` (${beyond.code}${beyond.explanation ? `: ${inLine(beyond.explanation)}` : ''})` : '';
  return (
    <Tooltip label={`${words}${code}`} multiline maw={420}>
      <Text size="xs" c="red.4" truncate role="alert" data-testid="trades-poll-now-failed" style={{ minWidth: 0 }}>
        {words}
      </Text>
    </Tooltip>
  );
}

function TradeDetail({ t }: { t: TrackedTrade }) {
  return (
    <Stack gap="xs" data-testid="trade-detail">
      <Group justify="space-between">
        <Text fw={600}>
          Trade #{t.trade.id} · {t.trade.type}
        </Text>
        <StatusBadge status={t.trade.status} />
      </Group>
      <Text size="xs" c="dimmed">
        {upperFirst(t.words)}
      </Text>
      <Group gap="lg">
        <Text size="xs">
          {t.trade.deposit_id !== null ? `deposit ${t.trade.deposit_id}` : `withdrawal ${t.trade.withdraw_id}`}
        </Text>
        {/* "not sent yet" only while the trade can still move: a finished trade without one never had one */}
        <Text size="xs">offer {t.trade.steam_offer_id ?? (t.inFlight ? '– (not sent yet)' : '– (none sent)')}</Text>
        <Text size="xs">
          value <Money cents={t.trade.value} size="xs" />
        </Text>
      </Group>
      <Timeline active={t.timeline.length - 1} bulletSize={14} lineWidth={2} data-testid="trade-timeline">
        {t.timeline.map((step) => (
          <Timeline.Item key={`${step.status}-${step.at}`} color={statusColor(step.status)} title={<Text size="xs" fw={600}>{statusLabel(step.status)}</Text>}>
            <Text size="10px" c="dimmed" className="sd-num">
              {formatDateTimeSeconds(step.at)} · seen by {SOURCE_WORDS[step.source]}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      <Table fz="xs" verticalSpacing={2}>
        <Table.Tbody>
          {t.trade.items.map((item) => (
            <Table.Tr key={`${item.steam_asset_id}-${item.market_hash_name}`}>
              <Table.Td>{gameShort(item.app_id)}</Table.Td>
              <Table.Td>{item.market_hash_name}</Table.Td>
              <Table.Td ta="right" className="sd-num">
                {item.amount}
              </Table.Td>
              <Table.Td ta="right">
                <Money cents={item.value} size="xs" />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export function TradesScreen() {
  const [filter, setFilter] = useState<Filter>('all');
  const [openId, setOpenId] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<PageSize>(100);
  // filtered and paged by core, so every trade followed is reachable, however many there are
  const trades = useCall('getTrades', { page, limit, inFlight: filter === 'all' ? null : filter === 'in_flight' });
  // trades leave the page shown (settled out of "In flight"): past the last page, the last page is shown
  const lastPage = trades.data?.metadata.total_pages;
  if (lastPage !== undefined && page > lastPage) setPage(lastPage);
  const feeds = useCall('getTradeFeeds', {});
  usePush('tradesUpdated', () => {
    trades.reload();
    feeds.reload();
  });
  const poll = useAction(async () => {
    const result = await call('refreshTrades', {});
    trades.reload();
    feeds.reload();
    return result;
  });
  // every poll, good or failed: "polled … ago" stays true, and a failure is told as it happens; a good
  // poll since "Poll now" failed makes that failure old news
  usePush('tradePollChanged', (poller) => {
    feeds.reload();
    if (poller.lastError === null) poll.reset();
  });
  const now = useNow(2_000);
  useRefreshKey('Poll the trades now', () => void poll.run());
  const failure = tableReadFailure(trades, (answer) => answer.trades);
  const shown = failure.inPlace ? [] : (trades.data?.trades ?? []);
  const open = shown.find((t) => t.trade.id === openId) ?? shown[0] ?? null;
  const f = feeds.data;

  return (
    <ScreenFrame
      title="Trades"
      testId="screen-trades"
      subtitle={
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label={`At most ${LIMITS.tradesInFlight} trades may be in flight; sells, deposits and withdrawals beyond that are refused`}>
            <Badge color={(trades.data?.inFlight ?? 0) >= LIMITS.tradesInFlight ? 'red' : 'blue'} variant="light" className="sd-num" data-testid="trades-in-flight">
              {/* unread is not none: "0/15" before the trades could be read would say nothing is in flight */}
              in flight {trades.data?.inFlight ?? '–'}/{LIMITS.tradesInFlight}
            </Badge>
          </Tooltip>
          <Badge color={f?.receiver.state === 'listening' ? 'teal' : 'gray'} variant="light">
            webhooks {f?.receiver.state === 'listening' ? 'on' : 'off'}
          </Badge>
          {failure.overRows ? <RefreshFailed error={failure.overRows} title={READ_TITLE} /> : null}
          {poll.error ? <PollNowFailed error={poll.error} /> : <PollState poller={f?.poller} now={now} />}
        </Group>
      }
      tools={
        <>
          <SegmentedControl
            value={filter}
            onChange={(v) => {
              setFilter(v as Filter);
              setPage(1);
            }}
            data={[
              { value: 'all', label: 'All' },
              { value: 'in_flight', label: 'In flight' },
              { value: 'done', label: 'Finished' },
            ]}
          />
          <Button variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void poll.run()} loading={poll.running}>
            Poll now
          </Button>
          <Button variant="default" leftSection={<IconSettings size={14} />} onClick={() => setSettingsOpen(true)} data-testid="trade-feeds-open">
            Feeds
          </Button>
        </>
      }
    >
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={trades.reload} />
      ) : (
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <DenseTable testId="trades-table" empty={trades.data && shown.length === 0 ? EMPTY_WORDS[filter] : null} columns={[{ label: 'Trade' }, { label: 'Type' }, { label: <StatusColumnLabel label="Status" statuses={TRADE_STATUSES} /> }, { label: 'Items' }, { label: 'Value', align: 'right' }, { label: 'Updated', align: 'right' }]}>
              {shown.map((t) => (
                <Table.Tr
                  key={t.trade.id}
                  data-testid="trade-row"
                  data-trade-id={t.trade.id}
                  data-deposit-id={t.trade.deposit_id ?? undefined}
                  onClick={() => setOpenId(t.trade.id)}
                  // reachable from the keyboard too: Tab to a row, Enter or Space shows its timeline
                  tabIndex={0}
                  aria-selected={open?.trade.id === t.trade.id}
                  onKeyDown={(e) => {
                    if (e.key !== 'Enter' && e.key !== ' ') return;
                    e.preventDefault();
                    setOpenId(t.trade.id);
                  }}
                  bg={open?.trade.id === t.trade.id ? 'var(--sd-row-selected)' : undefined}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td className="sd-num">#{t.trade.id}</Table.Td>
                  <Table.Td>{t.trade.type}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={t.trade.status} testId="trade-status" />
                  </Table.Td>
                  {/* the column that gives way in a narrow window (max-width 0 lets a table cell shrink below
                      its text): the status beside it is what a trader scans for, and stays whole */}
                  <Table.Td style={{ maxWidth: 0, width: '100%' }}>
                    <Text size="xs" truncate>
                      {itemsLine(t)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money cents={t.trade.value} size="xs" />
                  </Table.Td>
                  <Table.Td ta="right">
                    {/* "29d ago" alone does not say when: the instant, on UTC as the marketplace keeps it, on hover */}
                    <Text size="xs" c="dimmed" title={utcMinute(Date.parse(t.trade.updated_at))} data-testid="trade-updated">
                      {formatAgo(t.trade.updated_at, now)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </DenseTable>
            <Pager
              metadata={trades.data?.metadata}
              page={page}
              onPage={setPage}
              limit={limit}
              onLimit={(l) => {
                setLimit(l);
                setPage(1);
              }}
              noun="trade"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Paper withBorder p="xs" bg="dark.7">
              {open ? <TradeDetail t={open} /> : <Text size="xs" c="dimmed">Select a trade to see its timeline.</Text>}
            </Paper>
          </Grid.Col>
        </Grid>
      )}
      <Drawer opened={settingsOpen} onClose={() => setSettingsOpen(false)} position="right" size="lg" title={<Text fw={600}>Trade feeds</Text>}>
        {settingsOpen ? <TradeFeedsPanel /> : null}
      </Drawer>
    </ScreenFrame>
  );
}

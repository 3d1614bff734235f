/**
 * Portfolio: balance and user, value listed at asking prices, what is held (backpack and Steam
 * inventory at market prices), a small chart of the total over time from what the app has seen, the
 * held positions item by item (against the average paid, once the order history is read), and the
 * trading results from the order history.
 */
import { ActionIcon, Anchor, Button, Group, Menu, Paper, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { APP_IDS } from '../../../../shared/api/index.ts';
import type { IpcOutput } from '../../../../shared/ipc/index.ts';
import { useCall, usePush } from '../../../bridge/index.ts';
import { navigate } from '../../../shell/navigation.ts';
import { itemKey } from '../ui/DenseTable.tsx';
import { FreshnessNote } from '../ui/FreshnessNote.tsx';
import { HeldPositions } from './HeldPositions.tsx';
import { TradingResults } from './TradingResults.tsx';
import { formatAgo, formatCents, formatDateTime, gameShort, plural } from '../ui/format.ts';
import { LineChart } from '../ui/LineChart.tsx';
import { Money } from '../ui/Money.tsx';
import { ReadFailed, RefreshFailed, placeFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { StatTile } from '../ui/StatTile.tsx';
import { useRefreshKey } from '../ui/useRefreshKey.ts';
import { useReloadWhenBalanceMoves } from '../ui/useReloadWhenBalanceMoves.ts';

type Series = 'total' | 'balance' | 'listed' | 'held';

const READ_TITLE = 'The portfolio could not be read';
const INVENTORIES_WORDS =
  'Reads the Steam inventories of the four games (4 of the 5 reads a minute the marketplace allows). A game read in the last 29 minutes is used as read, unless a trade changed it since: "Read every game again" in the menu beside reads it anew.';
const READ_AGAIN_WORDS = 'Every game anew, however recently read, except one read in the last minute (the marketplace allows 5 reads a minute).';

/** What the Total adds up, and what it lacks: a part that could not be read counts as nothing in it. */
function totalWords(p: IpcOutput<'getPortfolio'>): string {
  const games = p.inventory.games.length;
  const missing = [
    p.user ? null : 'the balance',
    p.listed ? null : 'the listed value',
    p.backpack ? null : 'the backpack',
    games === APP_IDS.length ? null : games === 0 ? 'the Steam inventories' : `${APP_IDS.length - games} of ${APP_IDS.length} Steam inventories`,
  ].filter((part) => part !== null);
  return missing.length === 0 ? 'balance + listed + held' : `balance + listed + held, without ${missing.join(', ')} (not read)`;
}

export function PortfolioScreen() {
  const [readInventories, setReadInventories] = useState(false);
  // "Read every game again" is asked once: the Refresh after it uses the reads it made, as after the button
  const [readAgain, setReadAgain] = useState(false);
  const [readAgainAsks, setReadAgainAsks] = useState(0);
  // Refresh reads the backpack anew (a push's reload may use a read up to a minute old): asked once, by
  // a new key, since a reload would send the input of the render before the press
  const [refreshing, setRefreshing] = useState(false);
  const [refreshAsks, setRefreshAsks] = useState(0);
  const [series, setSeries] = useState<Series>('total');
  const portfolio = useCall(
    'getPortfolio',
    { readInventories, readInventoriesAgain: readAgain, refresh: refreshing },
    `portfolio:${readInventories}:${readAgainAsks}:${refreshAsks}`,
  );
  // answered (or failed): calls after it (Refresh, a push) ask for the stored reads again, not for new ones.
  // Set while rendering, so the next call already sends it (React's "adjust state on a change" pattern).
  const answered = portfolio.current !== undefined || portfolio.error !== null;
  if (readAgain && answered) setReadAgain(false);
  if (refreshing && answered) setRefreshing(false);
  // the button pressed last spins while the read runs: once the inventories are read, Refresh reads them
  // too (one call), and it was "Read Steam inventories" that spun when Refresh was pressed
  const [pressed, setPressed] = useState<'refresh' | 'inventories'>('refresh');
  const refresh = () => {
    setPressed('refresh');
    setRefreshing(true);
    setRefreshAsks((n) => n + 1);
  };
  useRefreshKey('Refresh the portfolio', refresh);
  const [historyReads, setHistoryReads] = useState(0);
  const pnl = useCall('getTradingPnl', { refresh: historyReads > 0 }, `pnl:${historyReads}`);
  // the copies held are the ones not sold yet: their cost, not the average of every purchase, sold ones too
  const paid = new Map((pnl.data?.items ?? []).map((p) => [itemKey(p), p.unsold > 0 ? { paid: p.unsoldCost, bought: p.unsold } : null]));
  usePush('tradesUpdated', () => portfolio.reload());
  usePush('withdrawalUpdated', () => portfolio.reload());
  // its Balance and Total tiles, the status bar's balance: one figure, not two
  useReloadWhenBalanceMoves(portfolio.reload);
  const p = portfolio.data;
  // figures read before stay on a failed refresh; with none, the failure is what the screen shows
  const failure = placeFailure(portfolio.error, p !== undefined);
  const gamesRead = p?.inventory.games.length ?? 0;
  // inventory reads are kept between sessions and used until read again: the tile says how old
  const oldestInventoryRead = p?.inventory.games.map((g) => g.fetchedAt).sort((a, b) => Date.parse(a) - Date.parse(b))[0];

  return (
    <ScreenFrame
      title="Portfolio"
      testId="screen-portfolio"
      subtitle={p?.user ? `${p.user.name} · Steam ${p.user.steam_id}` : undefined}
      tools={
        <>
          {failure.overRows ? (
            <RefreshFailed error={failure.overRows} title={READ_TITLE} asOf={p?.freshness?.fetchedAt ?? null} />
          ) : (
            <FreshnessNote freshness={p?.freshness} loading={portfolio.loading} />
          )}
          {/* what it does a second time too: a game read in the last 29 minutes is not read again (core's
              account reads keep an inventory as long as its tokens last), though "Reads…" said it was; the
              route reads live (spec §4.4), so the menu beside reads every game anew when asked */}
          <Tooltip label={INVENTORIES_WORDS} multiline maw={360}>
            <Button
              variant="default"
              leftSection={<IconRefresh size={14} />}
              onClick={() => {
                setPressed('inventories');
                if (readInventories) portfolio.reload();
                else setReadInventories(true);
              }}
              loading={portfolio.loading && pressed === 'inventories'}
            >
              Read Steam inventories
            </Button>
          </Tooltip>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="default" size="input-xs" aria-label="More ways to read the Steam inventories" disabled={portfolio.loading && pressed === 'inventories'}>
                <IconChevronDown size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconRefresh size={14} />}
                onClick={() => {
                  setPressed('inventories');
                  setReadInventories(true);
                  setReadAgain(true);
                  setReadAgainAsks((n) => n + 1);
                }}
              >
                Read every game again
                <Text size="xs" c="dimmed" maw={260}>
                  {READ_AGAIN_WORDS}
                </Text>
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Button variant="default" onClick={refresh} loading={portfolio.loading && pressed === 'refresh'}>
            Refresh
          </Button>
        </>
      }
    >
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={portfolio.reload} />
      ) : (
        <>
          <Group gap="sm" align="stretch" wrap="wrap">
            <StatTile label="Total" testId="portfolio-total" value={<Money cents={p?.total} />} detail={p ? totalWords(p) : 'balance + listed + held'} />
            <StatTile label="Balance" testId="portfolio-balance" value={<Money cents={p?.user?.balance} />} detail={p?.user ? `account #${p.user.id}` : '–'} />
            <StatTile
              label="Listed"
              testId="portfolio-listed"
              value={<Money cents={p?.listed?.value} />}
              detail={
                p?.listed ? (
                  <>
                    {`${plural(p.listed.listingCount, 'listing')} · ${plural(p.listed.itemCount, 'item')} at asking prices`}
                    {/* my-listings/value counts disabled and private listings too: a count beside an empty
                        Active tab must say where the rest are */}
                    {p.listed.listingCount > 0 && (
                      <Anchor
                        component="button"
                        type="button"
                        size="xs"
                        display="block"
                        ta="left"
                        title="Active, disabled and private listings, at their asking prices: open My listings"
                        onClick={() => navigate('my-listings')}
                        data-testid="portfolio-listed-link"
                      >
                        incl. disabled and private →
                      </Anchor>
                    )}
                  </>
                ) : (
                  '–'
                )
              }
            />
            <StatTile
              label="Backpack"
              testId="portfolio-backpack"
              value={<Money cents={p?.backpack?.value} />}
              detail={
                p?.backpack
                  ? // rows and copies as the Listed tile gives listings and items, in the Backpack screen's words
                    `${plural(p.backpack.rows, 'row')} · ${plural(p.backpack.copies, 'copy', 'copies')} at Steam-derived market prices${p.backpack.complete ? '' : ' · may be incomplete: a page failed or the backpack changed while read'}`
                  : '–'
              }
            />
            <StatTile
              label="Steam inventory"
              testId="portfolio-inventory"
              value={<Money cents={p?.inventory.value} />}
              detail={
                !p
                  ? '–'
                  : gamesRead === 0
                    ? 'not read yet'
                    : `${p.inventory.games.map((g) => `${gameShort(g.appId)} ${formatCents(g.value)}`).join(' · ')}${gamesRead < APP_IDS.length ? ` (${gamesRead} of ${APP_IDS.length} games read)` : ''}${oldestInventoryRead ? ` · read ${formatAgo(oldestInventoryRead)}` : ''}`
              }
            />
          </Group>
          <Paper withBorder p="xs" bg="dark.7">
            <Group justify="space-between" mb={4}>
              <Text size="xs" c="dimmed" tt="uppercase" lts={0.4}>
                Value over time
              </Text>
              <SegmentedControl
                value={series}
                onChange={(v) => setSeries(v as Series)}
                data={[
                  { value: 'total', label: 'Total' },
                  { value: 'balance', label: 'Balance' },
                  { value: 'listed', label: 'Listed' },
                  { value: 'held', label: 'Held' },
                ]}
              />
            </Group>
            {p && p.history.length > 1 ? (
              <LineChart
                label={`Portfolio ${series} over time`}
                points={p.history.map((h) => ({ x: Date.parse(h.at), y: h[series] }))}
                height={240}
                area
                formatX={(x) => formatDateTime(new Date(x).toISOString())}
                formatY={(y) => formatCents(Math.round(y))}
                testId="portfolio-chart"
              />
            ) : (
              <Stack gap={2} py="md" align="center" data-testid="portfolio-chart-empty">
                <Text size="sm" c="dimmed">
                  {/* unread is not empty: "No history yet." before the portfolio is read would say there is none */}
                  {!p ? 'Reading the portfolio…' : p.history.length === 1 ? 'One point so far.' : 'No history yet.'}
                </Text>
                <Text size="xs" c="dimmed">
                  The marketplace keeps no history of your portfolio: each refresh of this screen adds a point, once the Steam inventory of every game has been
                  read in the last half hour.
                </Text>
              </Stack>
            )}
          </Paper>
          {p && <HeldPositions positions={p.positions} positionCount={p.positionCount} heldValue={(p.backpack?.value ?? 0) + p.inventory.value} gamesRead={gamesRead} backpackRead={p.backpack !== null} historyRead={Boolean(pnl.data?.computedAt)} paidFor={paid} />}
        </>
      )}
      <TradingResults results={pnl.data} loading={pnl.loading} error={pnl.error} onRead={() => setHistoryReads((n) => n + 1)} />
    </ScreenFrame>
  );
}

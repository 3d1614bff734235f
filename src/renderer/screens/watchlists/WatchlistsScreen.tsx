/**
 * Watchlists: the saved searches on the left (pause, edit, delete, new), the alert feed in the middle
 * with the matching listing one click (or Enter) away in the detail panel, and the auto-buy log below
 * it. Confirm-first alerts are bought with one key (B) on the selected alert — the newest one unless
 * another was chosen — through the same guardrails as automatic purchases.
 */
import { ActionIcon, Alert, Badge, Button, Center, Group, ScrollArea, Stack, Switch, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconEdit, IconPlus, IconShoppingCartBolt, IconTrash, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type AutoBuyEntryView, DISMISSABLE_ALERT_STATES, type WatchAlertView } from '../../../shared/ipc/calls-watch.ts';
import type { BookRow } from '../../../shared/ipc/index.ts';
import { describePriceCondition, type Watchlist } from '../../../shared/watchlist.ts';
import { call } from '../../bridge/index.ts';
import { formatAsOf, formatCents, plural } from '../../format/numbers.ts';
import { useLive } from '../../shell/app-state.ts';
import { type Command, useRegisterCommands } from '../../shell/commands.ts';
import { Keys } from '../../shell/HelpOverlay.tsx';
import { reportFailure } from '../../shell/report-failure.ts';
import { BuyDialog } from '../market/buying/BuyDialog.tsx';
import { addToCart, cartLineOf } from '../market/buying/cart-store.ts';
import { gameShort } from '../account/ui/format.ts';
import { DetailPanel } from '../market/detail/DetailPanel.tsx';
import { describeFilter } from '../market/filters/filter-model.ts';
import { WATCHLISTS_PX, WATCH_DETAIL_PX, watchlistsGiveWay } from './feed-room.ts';
import { WatchlistDialog } from './WatchlistDialog.tsx';
import { type WatchColumn, WatchTableHead } from './WatchTableHead.tsx';
import { alertFeedStore, autoBuyStore, markAlertsSeen, setKillSwitch, updateAlert, watchlistsStore } from './watch-stores.ts';

const STATE_COLORS: Record<WatchAlertView['state'], string> = {
  new: 'blue',
  buying: 'yellow',
  bought: 'teal',
  not_bought: 'red',
  unknown: 'orange',
  blocked: 'gray',
  dismissed: 'dark',
};
const STATE_WORDS: Record<WatchAlertView['state'], string> = {
  new: 'new',
  buying: 'buying…',
  bought: 'bought',
  not_bought: 'not bought',
  unknown: 'unknown — check orders',
  blocked: 'blocked',
  dismissed: 'dismissed',
};
const MODE_WORDS = { off: 'alerts', confirm: 'confirm', auto: 'auto' } as const;
const dismissable = (alert: WatchAlertView) => DISMISSABLE_ALERT_STATES.includes(alert.state);

/**
 * Alerts and purchases are kept across restarts: today's say their time, an earlier day's the date too
 * (a clock alone made yesterday's alert read as this morning's). The time column is as wide as it needs.
 */
const isToday = (iso: string) => new Date(iso).toDateString() === new Date().toDateString();
const timeColumnPx = (times: readonly string[], clockPx: number) => (times.every(isToday) ? clockPx : 116);

// the headers follow the colgroups below, column for column (the ceiling gives way to an open detail)
const alertColumns = (withCeiling: boolean): WatchColumn[] => [
  { label: 'Time' },
  { label: 'Item', title: 'The listing, and the watchlist that caught it' },
  { label: 'Price', align: 'right' },
  ...(withCeiling ? [{ label: 'Ceiling', align: 'right', title: 'The highest price the watchlist alerts at' } as const] : []),
  { label: 'State' },
  { label: 'Actions', align: 'right', unseen: true },
];
/**
 * The ceiling column fits "≤ $100,000.00" on one line: 13 characters of the 12 px monospace (92 px in
 * DejaVu Sans Mono, about as wide in Menlo or JetBrains Mono) and the cell's 16 px of padding. At 84 px
 * "≤ $10,000.00" wrapped, and its row grew from 28 to 36 px, moving every row below it.
 */
const CEILING_COLUMN_PX = 112;

const LOG_COLUMNS: readonly WatchColumn[] = [
  { label: 'Time' },
  { label: 'Mode' },
  { label: 'Item' },
  { label: 'Qty × max', align: 'right', title: 'Copies, each at most this price' },
  { label: 'State' },
  { label: 'Note', title: 'Why it was blocked or not bought, or its order' },
];

/**
 * Whether one key (or click) buys the alert. Pausing a watchlist stops its buying too, also of alerts it
 * raised before the pause; the alert does not know of a later pause, so the watchlists say it.
 */
const buyable = (a: WatchAlertView, pausedIds: ReadonlySet<number>) =>
  a.mode !== 'off' && !pausedIds.has(a.watchlistId) && (a.state === 'new' || a.state === 'blocked');

/** Over an empty feed: what will bring alerts, and not a promise of them while every watchlist is paused. */
function noAlertText(watchlists: readonly Watchlist[] | null): string {
  if (watchlists && watchlists.length > 0 && watchlists.every((w) => w.paused)) {
    return `No alert yet, and none will come while ${watchlists.length === 1 ? 'the watchlist is' : `all ${watchlists.length} watchlists are`} paused.`;
  }
  return 'No alert yet: matching listings show up here the moment they appear.';
}

/** The row the detail panel shows at once while it loads the listing itself. */
function rowOf(a: WatchAlertView): BookRow {
  return {
    id: a.listingId,
    app_id: a.appId,
    market_hash_name: a.marketHashName,
    price: a.price,
    amount: a.amount,
    commodity: a.amount > 1,
    created_at: a.at,
    paint_wear: null,
    paint_seed: null,
    paint_index: null,
    fade: null,
    blue: null,
    stattrak: null,
    souvenir: null,
    stickers: null,
    keychains: null,
    market_price: null,
  };
}

function WatchlistItem({ w, onEdit }: { w: Watchlist; onEdit(): void }) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  // the game is no chip in the book (its panel shows it), but here nothing else would: a CS2-only
  // watchlist read as watching the whole book
  const chips = [...(w.filter.app_id === undefined ? [] : [gameShort(w.filter.app_id)]), ...describeFilter(w.filter)];
  return (
    <Stack gap={2} px="sm" py={6} style={{ borderBottom: '1px solid var(--sd-border)', opacity: w.paused ? 0.6 : 1 }} data-watchlist-id={w.id}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} truncate="end" style={{ flex: 1 }} title={w.name}>
          {w.name}
        </Text>
        <Badge size="xs" variant="light" color={w.auto_buy.mode === 'auto' ? 'red' : w.auto_buy.mode === 'confirm' ? 'yellow' : 'gray'}>
          {MODE_WORDS[w.auto_buy.mode]}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" truncate="end">
        {describePriceCondition(w.price, formatCents)}
        {chips.length > 0 ? ` · ${chips.join(' · ')}` : ' · whole book'}
      </Text>
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Switch
          size="xs"
          label={w.paused ? 'paused' : 'on'}
          checked={!w.paused}
          onChange={(e) => {
            const paused = !e.currentTarget.checked;
            void call('setWatchlistPaused', { id: w.id, paused }).catch((err: unknown) =>
              reportFailure(`${w.name} was not ${paused ? 'paused' : 'resumed'}`, err),
            );
          }}
          aria-label={`${w.paused ? 'Resume' : 'Pause'} ${w.name}`}
        />
        <Group gap={2}>
          <Tooltip label="Edit">
            <ActionIcon size="sm" variant="subtle" onClick={onEdit} aria-label={`Edit ${w.name}`}>
              <IconEdit size={14} />
            </ActionIcon>
          </Tooltip>
          {confirmDelete ? (
            <Button size="compact-xs" color="red" onClick={() => void call('deleteWatchlist', { id: w.id }).catch((err: unknown) => reportFailure(`${w.name} was not deleted`, err))} onBlur={() => setConfirmDelete(false)} autoFocus>
              Delete?
            </Button>
          ) : (
            <Tooltip label="Delete (its alerts and purchases stay in the history)">
              <ActionIcon size="sm" variant="subtle" color="red" onClick={() => setConfirmDelete(true)} aria-label={`Delete ${w.name}`}>
                <IconTrash size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Stack>
  );
}

function LogTable({ log }: { log: readonly AutoBuyEntryView[] }) {
  if (log.length === 0) {
    return (
      <Text size="xs" c="dimmed" p="sm">
        No automatic or confirm-first purchase yet.
      </Text>
    );
  }
  const cell: React.CSSProperties = { padding: '2px 8px', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' };
  return (
    <table data-testid="autobuy-log" style={{ width: '100%', fontSize: 12, borderCollapse: 'collapse', tableLayout: 'fixed' }}>
      <colgroup>
        <col style={{ width: timeColumnPx(log.map((e) => e.at), 80) }} />
        <col style={{ width: 62 }} />
        <col />
        <col style={{ width: 96 }} />
        <col style={{ width: 96 }} />
        <col />
      </colgroup>
      <WatchTableHead columns={LOG_COLUMNS} />
      <tbody>
        {log.map((e) => (
          <tr key={e.id} data-log-id={e.id} style={{ borderBottom: '1px solid var(--sd-border)' }}>
            <td className="sd-num" style={cell}>
              {formatAsOf(e.at)}
            </td>
            <td style={cell}>{e.mode}</td>
            <td style={cell} title={e.marketHashName}>
              {e.marketHashName}
            </td>
            <td className="sd-num" style={{ ...cell, textAlign: 'right' }}>
              {e.amount} × {formatCents(e.maxPrice)}
            </td>
            <td style={cell}>
              <Badge size="xs" variant="light" color={e.decision === 'blocked' ? 'gray' : e.status === 'bought' ? 'teal' : e.status === 'pending' ? 'yellow' : e.status === 'unknown' ? 'orange' : 'red'}>
                {e.decision === 'blocked' ? 'blocked' : (e.status ?? '').replace('_', ' ')}
              </Badge>
            </td>
            <td style={{ ...cell, color: 'var(--sd-muted)' }} title={e.reason ?? undefined}>
              {e.reason ?? (e.orderId ? `order ${e.orderId}` : '')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WatchlistsScreen() {
  const watchlists = useLive(watchlistsStore);
  const feed = useLive(alertFeedStore);
  const autoBuy = useLive(autoBuyStore);
  const [editing, setEditing] = useState<Watchlist | 'new' | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [pinned, setPinned] = useState(false);
  const [detail, setDetail] = useState<WatchAlertView | null>(null);
  const [manualBuy, setManualBuy] = useState<BookRow | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const pausedIds = useMemo(() => new Set((watchlists ?? []).filter((w) => w.paused).map((w) => w.id)), [watchlists]);
  // While the pointer is over the feed, alerts that arrive wait above it, counted: a new row would push
  // every row down a line between aiming at an alert's Buy and the click, which then bought the next
  // one. Alerts shown keep changing state; those waiting come in when the pointer leaves.
  const [heldAfter, setHeldAfter] = useState<number | null>(null);
  const alerts = heldAfter === null ? feed.alerts : feed.alerts.filter((a) => a.id <= heldAfter);
  const waiting = feed.alerts.length - alerts.length;

  // looking at the feed is seeing its alerts
  useEffect(() => markAlertsSeen(), [feed.unseen]);
  // the newest alert shown is the one a key acts on, unless the user picked another
  const selected = alerts.find((a) => a.id === selectedId) ?? (pinned ? undefined : alerts[0]);
  const selectedIndex = selected ? alerts.indexOf(selected) : -1;

  const confirm = useCallback(async (alert: WatchAlertView) => {
    setProblem(null);
    updateAlert({ ...alert, state: 'buying' });
    try {
      const entry = await call('confirmWatchAlert', { id: alert.id });
      const state = entry.decision === 'blocked' ? 'blocked' : (entry.status === 'pending' || entry.status === null ? 'buying' : entry.status);
      updateAlert({ ...alert, state });
      if (entry.decision === 'blocked' || entry.status === 'not_bought') setProblem(`Not bought: ${entry.reason ?? 'refused'}.`);
      if (entry.status === 'unknown') setProblem(`The outcome is unknown — check your orders (${entry.reason ?? 'no answer'}).`);
    } catch (err) {
      updateAlert(alert);
      setProblem((err as Error).message);
    }
  }, []);

  const dismiss = useCallback((alert: WatchAlertView) => {
    void call('dismissWatchAlert', { id: alert.id }).then(updateAlert, (err: unknown) => setProblem((err as Error).message));
  }, []);

  const live = useRef({ alerts, selectedIndex, selected, pausedIds });
  useLayoutEffect(() => {
    live.current = { alerts, selectedIndex, selected, pausedIds };
  });
  const move = useCallback((delta: number) => {
    const { alerts: list, selectedIndex: at } = live.current;
    const next = list[Math.max(0, Math.min(list.length - 1, at + delta))];
    if (next) {
      setSelectedId(next.id);
      setPinned(true);
    }
  }, []);

  const canBuy = selected ? buyable(selected, pausedIds) : false;
  const whyNotBuy = selected && pausedIds.has(selected.watchlistId)
    ? `Watchlist “${selected.watchlistName}” is paused — resume it to buy`
    : 'Select an alert of a watchlist that buys (confirm or auto)';
  const commands = useMemo<Command[]>(
    () => [
      { id: 'watch.new', label: 'New watchlist', group: 'Watchlists', hotkey: 'n', run: () => setEditing('new') },
      { id: 'watch.down', label: 'Next alert', group: 'Watchlists', hotkey: 'arrowdown', paletteHidden: true, run: () => move(1) },
      { id: 'watch.up', label: 'Previous alert', group: 'Watchlists', hotkey: 'arrowup', paletteHidden: true, run: () => move(-1) },
      {
        id: 'watch.newest',
        label: 'Follow the newest alert',
        group: 'Watchlists',
        hotkey: 'home',
        run: () => {
          setPinned(false);
          setSelectedId(null);
        },
      },
      {
        id: 'watch.buy',
        label: 'Buy the selected alert (confirm-first)',
        group: 'Watchlists',
        hotkey: 'b',
        enabled: canBuy,
        disabledReason: whyNotBuy,
        run: () => {
          const { selected: a, pausedIds: paused } = live.current;
          if (a && buyable(a, paused)) void confirm(a);
        },
      },
      {
        id: 'watch.open',
        label: 'Open the alerted listing',
        group: 'Watchlists',
        hotkey: 'enter',
        enabled: selected !== undefined,
        run: () => setDetail(live.current.selected ?? null),
      },
      { id: 'watch.dismiss', label: 'Dismiss the selected alert', group: 'Watchlists', hotkey: 'x', enabled: selected !== undefined && dismissable(selected), run: () => live.current.selected && dismissable(live.current.selected) && dismiss(live.current.selected) },
      { id: 'watch.close', label: 'Close the detail', group: 'Watchlists', hotkey: 'escape', paletteHidden: true, enabled: detail !== null, run: () => setDetail(null) },
    ],
    [move, confirm, dismiss, canBuy, whyNotBuy, selected, detail],
  );
  useRegisterCommands(commands);
  const { ref: screenRef, width: screenWidth } = useElementSize();
  // hidden, not unmounted: the list keeps its scroll and its open confirmations for when the detail closes
  const watchlistsAway = watchlistsGiveWay(screenWidth, detail !== null);

  return (
    <div ref={screenRef} style={{ display: 'flex', flex: 1, minWidth: 0, minHeight: 0 }} data-testid="watchlists-screen">
      <Stack gap={0} w={WATCHLISTS_PX} style={{ flex: 'none', borderRight: '1px solid var(--sd-border)', display: watchlistsAway ? 'none' : undefined }} data-testid="watchlists-list">
        <Group justify="space-between" px="sm" py={6} style={{ borderBottom: '1px solid var(--sd-border)' }}>
          <Text size="sm" fw={700}>
            Watchlists
          </Text>
          <Button size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => setEditing('new')} data-testid="new-watchlist">
            New
          </Button>
        </Group>
        <ScrollArea style={{ flex: 1 }} type="auto">
          {watchlists?.length === 0 && (
            <Text size="xs" c="dimmed" p="sm">
              No watchlist yet. Make one from the book’s filter with “Watch” (W), or here with New.
            </Text>
          )}
          {watchlists?.map((w) => <WatchlistItem key={w.id} w={w} onEdit={() => setEditing(w)} />)}
        </ScrollArea>
      </Stack>
      <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
        <Group gap={8} px="sm" py={6} wrap="nowrap" style={{ borderBottom: '1px solid var(--sd-border)' }}>
          <Text size="sm" fw={700}>
            Alerts
          </Text>
          <Text size="xs" c="dimmed">
            newest first
          </Text>
          <Group gap={4} ml="auto" wrap="nowrap">
            <Text size="xs" c="dimmed">
              buy selected
            </Text>
            <Keys hotkey="b" />
            <Text size="xs" c="dimmed">
              open
            </Text>
            <Keys hotkey="enter" />
          </Group>
          {waiting > 0 && (
            <Badge color="blue" variant="light" size="sm" data-testid="alerts-waiting" title="They come in when the pointer leaves the list">
              {plural(waiting, 'new alert')} above
            </Badge>
          )}
          {autoBuy && !autoBuy.live && (
            <Badge color="orange" variant="light" size="sm">
              not buying: book not live
            </Badge>
          )}
          <Button
            size="compact-xs"
            color={autoBuy?.killSwitch ? 'gray' : 'red'}
            variant={autoBuy?.killSwitch ? 'default' : 'light'}
            onClick={() => void setKillSwitch(!(autoBuy?.killSwitch ?? false))}
            data-testid="screen-kill-switch"
          >
            {autoBuy?.killSwitch ? 'Resume auto-buying' : 'Stop all auto-buying'}
          </Button>
        </Group>
        {problem && (
          <Alert color="red" variant="light" py={4} px="sm" radius={0} withCloseButton onClose={() => setProblem(null)} data-testid="watch-problem">
            <Text size="xs">{problem}</Text>
          </Alert>
        )}
        <ScrollArea
          style={{ flex: 1 }}
          type="auto"
          data-testid="alert-feed"
          onPointerEnter={() => setHeldAfter(feed.alerts[0]?.id ?? null)}
          onPointerLeave={() => setHeldAfter(null)}
        >
          {alerts.length === 0 ? (
            <Center p="xl">
              <Text size="sm" c="dimmed" data-testid="alerts-empty">
                {noAlertText(watchlists)}
              </Text>
            </Center>
          ) : (
            <table style={{ width: '100%', fontSize: 12, borderCollapse: 'collapse', tableLayout: 'fixed' }}>
              <colgroup>
                <col style={{ width: timeColumnPx(alerts.map((a) => a.at), 72) }} />
                <col />
                <col style={{ width: 76 }} />
                {!detail && <col style={{ width: CEILING_COLUMN_PX }} />}
                <col style={{ width: 96 }} />
                <col style={{ width: 92 }} />
              </colgroup>
              <WatchTableHead columns={alertColumns(!detail)} />
              <tbody>
                {alerts.map((a) => {
                  const isSelected = a.id === selected?.id;
                  return (
                    <tr
                      key={a.id}
                      data-alert-id={a.id}
                      data-listing-id={a.listingId}
                      data-state={a.state}
                      className={isSelected ? 'sd-row-selected' : undefined}
                      onClick={() => {
                        setSelectedId(a.id);
                        setPinned(true);
                      }}
                      onDoubleClick={() => setDetail(a)}
                      style={{ cursor: 'pointer', borderBottom: '1px solid var(--sd-border)', height: 28, opacity: a.state === 'dismissed' ? 0.5 : 1 }}
                    >
                      <td className="sd-num" style={{ padding: '0 8px', whiteSpace: 'nowrap', color: 'var(--sd-muted)' }}>
                        {formatAsOf(a.at)}
                      </td>
                      <td style={{ padding: '0 8px', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={`${a.marketHashName} — ${a.watchlistName}${a.origin === 'sweep' ? ' (book check)' : ''}`}>
                        <UnstyledButton
                          onClick={() => setDetail(a)}
                          data-testid="open-alert"
                          // a button is one box to the cell: its own ellipsis, or the cell cuts the name mid-letter
                          style={{ fontSize: 12, fontWeight: 600, color: 'var(--mantine-color-teal-4)', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }}
                        >
                          {a.marketHashName}
                        </UnstyledButton>
                        <Text span size="xs" c="dimmed" ml={6}>
                          {a.watchlistName}
                          {a.origin === 'sweep' ? ' · book check' : ''}
                        </Text>
                      </td>
                      <td className="sd-num" style={{ padding: '0 8px', textAlign: 'right', fontWeight: 600 }} title={a.amount > 1 ? `${formatCents(a.price)} a copy, ${a.amount} copies listed` : undefined}>
                        {formatCents(a.price)}
                        {a.amount > 1 && (
                          <Text span size="xs" c="dimmed" fw={400} ml={4} data-testid="alert-amount">
                            ×{a.amount}
                          </Text>
                        )}
                      </td>
                      {!detail && (
                        <td className="sd-num" style={{ padding: '0 8px', textAlign: 'right', color: 'var(--sd-muted)', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={a.referencePrice === null ? 'the ceiling' : `reference ${formatCents(a.referencePrice)}`}>
                          ≤ {formatCents(a.ceiling)}
                        </td>
                      )}
                      <td style={{ padding: '0 8px' }}>
                        <Badge size="xs" variant="light" color={STATE_COLORS[a.state]} data-testid="alert-state">
                          {STATE_WORDS[a.state]}
                        </Badge>
                      </td>
                      <td style={{ padding: '0 8px', whiteSpace: 'nowrap', textAlign: 'right' }}>
                        {buyable(a, pausedIds) && (
                          <Tooltip label={`Buy at most ${formatCents(a.price)} (B)`}>
                            <Button size="compact-xs" color="teal" leftSection={<IconShoppingCartBolt size={12} />} onClick={() => void confirm(a)} data-testid="alert-buy">
                              Buy
                            </Button>
                          </Tooltip>
                        )}
                        {dismissable(a) && (
                          <ActionIcon size="sm" variant="subtle" color="gray" onClick={() => dismiss(a)} aria-label={`Dismiss the alert on ${a.marketHashName}`} ml={4}>
                            <IconX size={12} />
                          </ActionIcon>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </ScrollArea>
        <Stack gap={0} h={170} style={{ flex: 'none', borderTop: '1px solid var(--sd-border)' }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} px="sm" py={4} style={{ letterSpacing: '0.05em' }}>
            Auto-buy log
          </Text>
          <ScrollArea style={{ flex: 1 }} type="auto">
            <LogTable log={autoBuy?.log ?? []} />
          </ScrollArea>
        </Stack>
      </Stack>
      {detail && (
        <div style={{ width: WATCH_DETAIL_PX, flex: 'none', minHeight: 0 }}>
          <DetailPanel
            row={rowOf(detail)}
            onClose={() => setDetail(null)}
            // an alert the watchlist does not buy (off, or paused) is bought as from the book: through the Buy dialog
            onBuy={(row) => (buyable(detail, pausedIds) ? void confirm(detail) : setManualBuy(row))}
            onAddToCart={(row) => addToCart(cartLineOf(row))}
          />
        </div>
      )}
      {/* the dialog stays open on its answer (bought, with the order; or why not) until closed, as on the book */}
      <BuyDialog row={manualBuy} onClose={() => setManualBuy(null)} onBought={() => undefined} />
      {editing && (
        <WatchlistDialog watchlist={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />
      )}
    </div>
  );
}

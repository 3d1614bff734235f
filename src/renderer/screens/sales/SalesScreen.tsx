/**
 * Sales: the market's time & sales — every sale the mirror saw on the feed, newest first, live, by game
 * and item name, with the item's float, seed and stickers when the mirror had its details, and how long
 * it was listed before it sold. A sale opens its item in the book (Enter).
 */
import { Button, CloseButton, Group, Loader, Text, TextInput } from '@mantine/core';
import { IconArrowUp, IconSearch } from '@tabler/icons-react';
import {
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { AppId } from '../../../shared/api/index.ts';
import type { TapeSale } from '../../../shared/ipc/calls-market.ts';
import { call, usePush } from '../../bridge/index.ts';
import {
  formatCents,
  formatClock,
  formatCount,
  formatFloat,
  formatWait,
  plural,
} from '../../format/numbers.ts';
import { useLive } from '../../shell/app-state.ts';
import { type Command, useRegisterCommands } from '../../shell/commands.ts';
import { showItemInBook } from '../../shell/navigation.ts';
import { useDebounced } from '../account/ui/hooks.ts';
import { ErrorNote } from '../account/ui/ErrorNote.tsx';
import { formatDateTime } from '../account/ui/format.ts';
import { GameFilter } from '../account/ui/GamePicker.tsx';
import { ShowInBook } from '../account/ui/ShowInBook.tsx';
import { GameTag, gridCellClass } from '../market/book/columns.tsx';
import { ExportViewMenu } from '../market/parts/ExportViewMenu.tsx';
import { ItemName } from '../market/parts/item-name.tsx';
import { StickerSlots } from '../market/parts/slots.tsx';
import { WearMini } from '../market/parts/wear.tsx';
import { FloatPhaseFilter } from './FloatPhaseFilter.tsx';
import { SalesTapeStore, type TapeFilter, saleKey, tapeFilterInput } from './sales-tape-store.ts';
import { tapeFilterStore } from './tape-filter.ts';
import { summarizeTape } from './tape-summary.ts';
import { NAME_SEARCH_HINT } from '../../../shared/query.ts';

/** New sales are read at most this often however busy the feed. */
const REFRESH_EVERY_MS = 1_000;
/** Within this many pixels of the end, the next older page is read. */
const LOAD_OLDER_WITHIN_PX = 400;

interface TapeColumn {
  key: string;
  label: string;
  width?: number;
  align?: 'right';
  title?: string;
  /** The header's name for a screen reader where it shows none (a column of buttons). */
  spoken?: string;
  render(sale: TapeSale): ReactNode;
}

const dim = (text: string) => <span style={{ color: 'var(--sd-muted)' }}>{text}</span>;

function soldTime(iso: string): string {
  const at = new Date(iso);
  return at.toDateString() === new Date().toDateString() ? formatClock(iso) : formatDateTime(iso);
}

const COLUMNS: readonly TapeColumn[] = [
  {
    key: 'time',
    label: 'Sold',
    width: 118,
    render: (s) => <span className="sd-num">{soldTime(s.sold_at)}</span>,
  },
  {
    key: 'game',
    label: 'Game',
    width: 46,
    render: (s) => <GameTag app={s.app_id} />,
  },
  {
    key: 'name',
    label: 'Item',
    render: (s) => <ItemName name={s.market_hash_name} paintIndex={s.paint_index} />,
  },
  {
    key: 'price',
    label: 'Price',
    width: 88,
    align: 'right',
    title: 'Per copy',
    render: (s) => <span className="sd-num">{formatCents(s.price)}</span>,
  },
  {
    key: 'amount',
    label: 'Qty',
    width: 48,
    align: 'right',
    render: (s) => <span className="sd-num">{s.amount}</span>,
  },
  {
    key: 'float',
    label: 'Float',
    width: 120,
    align: 'right',
    render: (s) =>
      s.app_id !== 730 ? null : s.paint_wear === null ? (
        dim('–')
      ) : (
        <>
          <WearMini value={s.paint_wear} />
          <span className="sd-num">{formatFloat(s.paint_wear)}</span>
        </>
      ),
  },
  {
    key: 'seed',
    label: 'Seed',
    width: 56,
    align: 'right',
    render: (s) => (s.paint_seed === null ? null : <span className="sd-num">{s.paint_seed}</span>),
  },
  { key: 'stickers', label: 'Stickers', width: 104, render: (s) => <StickerSlots row={s} /> },
  {
    key: 'listed',
    label: 'Listed for',
    width: 76,
    align: 'right',
    title: 'How long the listing was up before it sold',
    // in the summary's and the item detail's words ("1d 23h"): one figure, never "47h" beside "1d 23h"
    render: (s) => (
      <span className="sd-num">{formatWait(Date.parse(s.sold_at) - Date.parse(s.listed_at))}</span>
    ),
  },
  {
    key: 'book',
    label: '',
    spoken: 'Show in book',
    width: 34,
    render: (s) => <ShowInBook appId={s.app_id} name={s.market_hash_name} />,
  },
];

const cellStyle = (c: TapeColumn) => (c.width === undefined ? undefined : { width: c.width });

export function SalesScreen() {
  const store = useMemo(() => new SalesTapeStore((input) => call('getSalesTape', input)), []);
  const tape = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const filter = useLive(tapeFilterStore);
  const { app_id: appId, name } = filter;
  const patchFilter = (patch: Partial<TapeFilter>) =>
    tapeFilterStore.set({ ...tapeFilterStore.get(), ...patch });
  const setAppId = (app_id: AppId | null) => patchFilter({ app_id });
  const setName = (text: string) => patchFilter({ name: text });
  const settledName = useDebounced(name, 200);
  const { float, phases } = filter;
  useEffect(
    () => void store.setFilter({ app_id: appId, name: settledName, float, phases }),
    [store, appId, settledName, float, phases],
  );

  // sales arrive with the book's changes: read the newest page again, at most once a second
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  usePush('bookChanged', () => {
    refreshTimer.current ??= setTimeout(() => {
      refreshTimer.current = null;
      void store.refresh();
    }, REFRESH_EVERY_MS);
  });
  useEffect(() => () => clearTimeout(refreshTimer.current ?? undefined), []);

  // the tape follows the feed only at the top with the pointer elsewhere: nothing moves under a reader
  const body = useRef<HTMLDivElement>(null);
  const [atTop, setAtTop] = useState(true);
  const [pointerIn, setPointerIn] = useState(false);
  useEffect(() => store.setFollowing(atTop && !pointerIn), [store, atTop, pointerIn]);
  const onScroll = () => {
    const el = body.current;
    if (!el) return;
    setAtTop(el.scrollTop < 4);
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_OLDER_WITHIN_PX) void store.loadOlder();
  };
  const toNewest = () => {
    body.current?.scrollTo({ top: 0 });
    setAtTop(true);
    setPointerIn(false);
  };

  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const selectedIndex = selectedKey === null ? -1 : tape.rows.findIndex((s) => saleKey(s) === selectedKey);
  const selected = selectedIndex >= 0 ? tape.rows[selectedIndex] : undefined;
  const live = useRef({ rows: tape.rows, selectedIndex });
  useLayoutEffect(() => {
    live.current = { rows: tape.rows, selectedIndex };
  });
  const search = useRef<HTMLInputElement>(null);
  const commands = useMemo<Command[]>(() => {
    const move = (delta: number) => {
      const { rows, selectedIndex: at } = live.current;
      const next = rows[Math.max(0, Math.min(rows.length - 1, at + delta))];
      if (!next) return;
      setSelectedKey(saleKey(next));
      body.current?.querySelector(`[data-sale-key="${saleKey(next)}"]`)?.scrollIntoView({ block: 'nearest' });
    };
    return [
      {
        id: 'sales.search',
        label: 'Filter sales by item name',
        group: 'Sales',
        hotkey: '/',
        run: () => search.current?.focus(),
      },
      {
        id: 'sales.down',
        label: 'Next sale',
        group: 'Sales',
        hotkey: 'arrowdown',
        paletteHidden: true,
        run: () => move(1),
      },
      {
        id: 'sales.up',
        label: 'Previous sale',
        group: 'Sales',
        hotkey: 'arrowup',
        paletteHidden: true,
        run: () => move(-1),
      },
      { id: 'sales.newest', label: 'Back to the newest sale', group: 'Sales', hotkey: 'home', run: toNewest },
      {
        id: 'sales.book',
        label: 'Show the selected sale’s item in the book',
        group: 'Sales',
        hotkey: 'enter',
        enabled: selected !== undefined,
        disabledReason: 'Select a sale first',
        run: () => {
          const s = live.current.rows[live.current.selectedIndex];
          if (s) showItemInBook(s.app_id, s.market_hash_name);
        },
      },
    ];
  }, [selected]);
  useRegisterCommands(commands);

  const summary = summarizeTape(tape.rows);
  const summaryText =
    summary === null
      ? ''
      : [
          `${plural(summary.sales, 'sale')} since ${soldTime(summary.since)}`,
          `${plural(summary.copies, 'copy', 'copies')}`,
          `${formatCents(summary.volume)} traded`,
          summary.onePrice &&
            `median ${formatCents(summary.onePrice.median)} (${formatCents(summary.onePrice.low)}–${formatCents(summary.onePrice.high)})`,
          `listed ${formatWait(summary.medianTimeOnMarketMs)} before selling (median)`,
        ]
          .filter(Boolean)
          .join(' · ');
  const filtered = appId !== null || settledName.trim() !== '' || float !== null || phases.length > 0;

  return (
    <div className="sd-grid" data-testid="screen-sales" style={{ height: '100%' }}>
      <Group gap="xs" px="xs" py={6} wrap="nowrap" style={{ borderBottom: '1px solid var(--sd-border)' }}>
        <Text size="sm" fw={700} mr={4}>
          Sales
        </Text>
        <GameFilter value={appId} onChange={setAppId} />
        <TextInput
          ref={search}
          size="xs"
          w={260}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Escape' && e.currentTarget.blur()}
          placeholder="Item name…  /"
          title={NAME_SEARCH_HINT}
          aria-label="Filter sales by item name"
          leftSection={<IconSearch size={14} />}
          rightSection={
            name === '' ? null : (
              <CloseButton size="xs" aria-label="Clear the name" onClick={() => setName('')} />
            )
          }
          data-testid="sales-search"
        />
        <FloatPhaseFilter filter={filter} onChange={patchFilter} />
        {/* the whole line on hover: a narrow window cuts it short */}
        <Text size="xs" c="dimmed" truncate style={{ flex: 1 }} title={summaryText} data-testid="sales-summary">
          {summaryText}
        </Text>
        <ExportViewMenu
          // what is typed, not the tape's debounced copy: an export right after typing takes the new name
          view={{ view: 'sales', ...tapeFilterInput(filter) }}
          group="Sales"
          what="sale"
        />
        {tape.waiting > 0 && (
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconArrowUp size={12} />}
            onClick={toNewest}
            data-testid="sales-waiting"
          >
            {plural(tape.waiting, 'new sale')}
          </Button>
        )}
        {tape.loading && <Loader size="xs" />}
      </Group>
      <ErrorNote error={tape.error} title="The sales could not be read" />
      {/* one grid holds the header row and the scrolling rows, as the book's does: a header outside it
          left a screen reader a grid of cells with no column names */}
      <div className="sd-grid" role="grid" aria-label="Sales, newest first" data-testid="sales-grid">
        <div className="sd-grid-head" role="row">
          {COLUMNS.map((c) => (
            <div
              key={c.key}
              role="columnheader"
              aria-label={c.spoken}
              className={gridCellClass(c, 'sd-head-cell')}
              style={cellStyle(c)}
              title={c.title}
            >
              {c.label}
            </div>
          ))}
        </div>
        <div
          ref={body}
          className="sd-tape-body"
          role="rowgroup"
          data-testid="sales-body"
          onScroll={onScroll}
          onPointerEnter={() => setPointerIn(true)}
          onPointerLeave={() => setPointerIn(false)}
        >
          {tape.rows.map((s) => {
            const key = saleKey(s);
            return (
              <div
                key={key}
                role="row"
                data-sale-key={key}
                data-testid="sale-row"
                data-listing-id={s.listing_id}
                className={[
                  'sd-tape-row',
                  key === selectedKey ? 'sd-row-selected' : '',
                  tape.fresh.has(key) ? 'sd-flash-new' : '',
                ].join(' ')}
                onClick={() => setSelectedKey(key)}
                onDoubleClick={() => showItemInBook(s.app_id, s.market_hash_name)}
              >
                {COLUMNS.map((c) => (
                  <div
                    key={c.key}
                    role="gridcell"
                    className={gridCellClass(c, 'sd-cell')}
                    style={cellStyle(c)}
                    title={c.key === 'name' ? s.market_hash_name : undefined}
                  >
                    {c.render(s)}
                  </div>
                ))}
              </div>
            );
          })}
          {/* the notes under the rows are rows of one cell across the columns: text loose in a grid is read out of place */}
          {!tape.loading && tape.rows.length === 0 && (
            <div role="row">
              <Text size="xs" c="dimmed" p="sm" role="gridcell" aria-colspan={COLUMNS.length} data-testid="sales-empty">
                {filtered
                  ? 'No sale of such an item recorded. The mirror records every sale the live feed shows while it runs.'
                  : 'No sale recorded yet. The mirror records every sale the live feed shows while it runs; they appear here as they happen.'}
              </Text>
            </div>
          )}
          {tape.more && (
            <div role="row">
              <Text size="xs" c="dimmed" p="xs" ta="center" role="gridcell" aria-colspan={COLUMNS.length}>
                {formatCount(tape.rows.length)} shown · older sales load as you scroll
              </Text>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

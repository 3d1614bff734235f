/**
 * The live book: filters on the left, the windowed grid in the middle, the item detail on the right,
 * buying in a confirm dialog or a cart. Everything is reachable from the keyboard (the commands below
 * are also the palette's entries and the help overlay's list). The filter and sort in use are saved by
 * the app and restored on the next start.
 */
import { ActionIcon, Alert, Button, Center, Group, Loader, ScrollArea, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch, IconShoppingCart, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { describeBookRead } from '../../../../shared/book-read.ts';
import { upperFirst } from '../../../../shared/sentence.ts';
import type { BookRead, BookRow, SyncStatus } from '../../../../shared/ipc/index.ts';
import type { BookView, FilterPreset, MarketScreenState } from '../../../../shared/ipc/calls-market.ts';
import { NAME_SEARCH_HINT, type BookFilter } from '../../../../shared/query.ts';
import { WEAR_BANDS } from '../../../../shared/wear.ts';
import { call, useCall, usePush } from '../../../bridge/index.ts';
import { formatAsOf, formatCount, plural } from '../../../format/numbers.ts';
import { syncStatusStore, useLive, useTradingState } from '../../../shell/app-state.ts';
import { type Command, useRegisterCommands } from '../../../shell/commands.ts';
import { bookFilterRequest, navigate } from '../../../shell/navigation.ts';
import { reportFailure } from '../../../shell/report-failure.ts';
import { addToCart, cartLineOf, useCart } from '../buying/cart-store.ts';
import { BuyDialog } from '../buying/BuyDialog.tsx';
import { type CartFocus, CartDrawer } from '../buying/CartDrawer.tsx';
import { DetailPanel } from '../detail/DetailPanel.tsx';
import { FilterPanel } from '../filters/FilterPanel.tsx';
import { type PendingEdits, usePendingEdit } from '../filters/pending-edits.ts';
import { NAME_MAX, cleanFilter, describeFilter, wearRange } from '../filters/filter-model.ts';
import { PresetMenu } from '../filters/PresetMenu.tsx';
import { WatchFilterButton } from '../../watchlists/WatchFilterButton.tsx';
import { ExportViewMenu } from '../parts/ExportViewMenu.tsx';
import { BookGrid, type GridController } from './BookGrid.tsx';
import { type BoughtCopies, BookWindowStore } from './book-window-store.ts';
import { FilterChips } from './FilterChips.tsx';
import { type SortField, columnsFor, fitColumns } from './columns.tsx';
import { DETAIL_PX, FILTER_PANEL_PX, panelsTakeTurns } from './panel-room.ts';
import { SEARCH_MIN_PX, toolbarFitFor } from './toolbar-fit.ts';

export const DEFAULT_VIEW: BookView = { filter: {}, sort: { field: 'created_at', dir: 'desc' } };
const SAVE_VIEW_AFTER_MS = 600;
const SEARCH_APPLY_MS = 200;

/** Natural first direction of each sort: cheapest, lowest float, newest, highest fade/blue. */
const FIRST_DIR: Record<SortField, 'asc' | 'desc'> = { price: 'asc', float: 'asc', created_at: 'desc', fade: 'desc', blue: 'desc', id: 'desc' };
const SORT_NAMES: Record<SortField, string> = { price: 'price', float: 'float', created_at: 'age', fade: 'fade', blue: 'blue', id: 'id' };
/**
 * Sorted by a detail figure, the book lists only the listings that have one (a sticker has no float, a
 * Rust item no fade): the count says so, or the book would seem to have lost half its listings.
 */
const SORT_FIGURE: Partial<Record<SortField, string>> = { float: 'a float', fade: 'a fade %', blue: 'a blue %' };
const SORTED_ONLY: Partial<Record<SortField, string>> = Object.fromEntries(Object.entries(SORT_FIGURE).map(([field, figure]) => [field, `with ${figure}`]));

/** The toolbar's count: "19,754 listings", or "10,166 with a float" while the sort leaves the others out. */
function summaryText(total: number, field: SortField, compact: boolean): { text: string; title: string } {
  const only = SORTED_ONLY[field];
  const title = only ? `${plural(total, 'listing')} ${only}: sorted by ${SORT_NAMES[field]}, the book lists only those` : plural(total, 'listing');
  if (compact) return { text: formatCount(total), title };
  return { text: only ? `${formatCount(total)} ${only}` : plural(total, 'listing'), title };
}

export function BookScreen() {
  const state = useCall('getMarketScreenState', {});
  if (state.loading && !state.data) {
    return (
      <Center w="100%">
        <Loader size="sm" />
      </Center>
    );
  }
  return <BookWorkspace initial={state.data ?? { lastView: null, presets: [] }} />;
}

/**
 * Why the book is empty when the market is not followed (the key refused, the market unreachable): an
 * empty book then says nothing about the market. Null while it is followed, or about to be.
 */
function unreadBookReason(status: SyncStatus | null): string | null {
  const notFollowed = status?.state === 'stopped' || status?.state === 'offline';
  return notFollowed && status.problem ? status.problem : null;
}

/**
 * Over an empty grid. While the whole book is being read (a first start: a million listings take a while
 * to arrive) it says so and how far it has come, not that the book is empty; when the market cannot be
 * read, why. Sorted by a detail figure, the book lists only the listings that have one: a game without
 * floats (Rust) sorted by float is empty for that reason, not because the book is.
 */
function emptyBook(filtered: boolean, read: BookRead | null, unread: string | null, sort: SortField): { text: string; why: 'reading' | 'unread' | 'sort' | 'none' } {
  if (read) {
    return { text: `${upperFirst(describeBookRead(read))}…`, why: 'reading' };
  }
  if (unread && !filtered) return { text: unread, why: 'unread' };
  const figure = SORT_FIGURE[sort];
  if (figure) {
    return { text: `No listing ${filtered ? 'that matches these filters ' : ''}has ${figure}: sorted by ${SORT_NAMES[sort]}, the book lists only those that do.`, why: 'sort' };
  }
  return { text: `No listing matches ${filtered ? 'these filters' : 'yet — the book is empty'}.`, why: 'none' };
}

function NameSearch({
  value,
  onChange,
  inputRef,
  minWidth,
  pendingEdits,
}: {
  value: string;
  onChange(v: string): void;
  inputRef: React.RefObject<HTMLInputElement | null>;
  minWidth: number;
  pendingEdits: PendingEdits;
}) {
  const [text, setText] = useState(value);
  const applied = useRef(value);
  useEffect(() => {
    if (value !== applied.current) {
      applied.current = value;
      setText(value);
    }
  }, [value]);
  const applyText = useRef<() => void>(() => undefined);
  useEffect(() => {
    const apply = () => {
      if (text === applied.current) return;
      applied.current = text;
      onChange(text);
    };
    applyText.current = apply;
    if (text === applied.current) return;
    const timer = setTimeout(apply, SEARCH_APPLY_MS);
    return () => clearTimeout(timer);
  }, [text, onChange]);
  // a name still in its pause when the book goes is applied, and saved with the view (see FilterPanel)
  useLayoutEffect(() => () => applyText.current(), []);
  usePendingEdit(pendingEdits, applyText);
  return (
    <TextInput
      ref={inputRef}
      aria-label="Search item names"
      placeholder="Search names…  /"
      title={NAME_SEARCH_HINT}
      maxLength={NAME_MAX}
      leftSection={<IconSearch size={14} />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' || e.key === 'Enter') (e.currentTarget as HTMLInputElement).blur();
      }}
      rightSection={
        text ? (
          <ActionIcon size="xs" color="gray" aria-label="Clear search" onClick={() => setText('')}>
            <IconX size={12} />
          </ActionIcon>
        ) : null
      }
      // the toolbar item that gives way first when the detail panel narrows the row (toolbar-fit.ts)
      style={{ flex: '0 1 260px', minWidth }}
      data-testid="name-search"
    />
  );
}

function BookWorkspace({ initial }: { initial: MarketScreenState }) {
  const [view, setViewState] = useState<BookView>(() => {
    const start = initial.lastView ?? DEFAULT_VIEW;
    const asked = bookFilterRequest.get();
    return asked ? { ...start, filter: cleanFilter(asked) } : start;
  });
  const [presets, setPresets] = useState<readonly FilterPreset[]>(initial.presets);
  const [savePresetOpen, setSavePresetOpen] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(true);
  const [detailOpen, setDetailOpen] = useState(false);
  const [selected, setSelected] = useState(-1);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [detailRow, setDetailRow] = useState<BookRow | null>(null);
  const [buyRow, setBuyRow] = useState<BookRow | null>(null);
  // P opens the cart at its share-link field, to paste a private listing's link at once
  const [cartOpen, setCartOpen] = useState<CartFocus | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const grid = useRef<GridController | null>(null);
  const cart = useCart();
  const trading = useTradingState();
  const status = useLive(syncStatusStore);

  /**
   * The view as last set and, until it is saved, the same view: a filter the filter panel sends as it goes
   * with the book (an edit still in its pause) comes after the book's last render, and is saved from here.
   */
  const latest = useRef(view);
  const unsaved = useRef<BookView | null>(null);
  /** The filter panel's and the name search's edits still in their pause, sent before a save on close. */
  const pendingEdits = useMemo<PendingEdits>(() => new Set(), []);

  /** A new filter or sort starts at the top, with nothing selected. */
  const setView = useCallback((next: BookView | ((v: BookView) => BookView)) => {
    latest.current = typeof next === 'function' ? next(latest.current) : next;
    unsaved.current = latest.current;
    setViewState(latest.current);
    setSelected(-1);
    setSelectedId(null);
    grid.current?.scrollToIndex(0, 'start');
  }, []);

  const store = useMemo(() => new BookWindowStore((input) => call('queryBookWindow', input)), []);
  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => store.setView(view), [store, view]);
  usePush('bookChanged', (change) => store.onBookChanged(change));
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const total = snapshot.total ?? 0;

  // Another screen asked for an item ("show in book"): taken at mount by the initial view, and while the
  // book is shown, from the request store; either way its filter replaces the current one.
  useEffect(() => {
    bookFilterRequest.set(null);
    return bookFilterRequest.subscribe(() => {
      const asked = bookFilterRequest.get();
      if (!asked) return;
      bookFilterRequest.set(null);
      setView((v) => ({ ...v, filter: cleanFilter(asked) }));
    });
  }, [setView]);

  // the app keeps the filter and sort for the next start; a change still waiting to be saved is saved
  // when the book leaves the screen (another screen, the window closing), not dropped with its timer
  const firstView = useRef(true);
  const saveView = useCallback((saved: BookView) => {
    unsaved.current = null;
    void call('setLastBookView', saved).catch((err: unknown) => reportFailure('The filter and sort were not saved for the next start', err));
  }, []);
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    unsaved.current = view;
    const timer = setTimeout(() => saveView(view), SAVE_VIEW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [view, saveView]);
  useEffect(() => {
    const flush = () => {
      for (const send of pendingEdits) send();
      if (unsaved.current) saveView(unsaved.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [saveView, pendingEdits]);

  // the selection follows its listing when rows move; the detail keeps the last known row
  const followed = selectedId === null ? -1 : snapshot.indexOf(selectedId);
  const selectedIndex = followed >= 0 ? followed : selected;
  // The selected listing left the rows read (sold, bought, delisted): nothing is selected — never the
  // listing that slid into its place, which B, A or Enter would otherwise act on unseen. ↓ selects the
  // row that followed it, ↑ the one before.
  const selectionLost = selectedId !== null && followed < 0;
  const detailAt = detailRow ? snapshot.indexOf(detailRow.id) : -1;
  const shownDetail = (detailAt >= 0 ? snapshot.rowAt(detailAt)?.row : undefined) ?? detailRow;
  const { ref: bookRef, width: bookWidth } = useElementSize();
  const takeTurns = panelsTakeTurns(bookWidth);
  /** The listing the detail panel shows, null while it is closed. */
  const openDetail = detailOpen ? shownDetail : null;
  const detailShown = openDetail !== null;
  const filtersShown = filtersOpen && !(takeTurns && detailShown);
  const toggleFilters = useCallback(() => {
    setFiltersOpen(!filtersShown);
    // shown where they take turns: the detail makes way (the selection stays)
    if (!filtersShown && takeTurns && detailShown) setDetailOpen(false);
  }, [filtersShown, takeTurns, detailShown]);
  // the buy dialog follows its listing too: a price the feed changed shows at once
  const buyAt = buyRow ? snapshot.indexOf(buyRow.id) : -1;
  const shownBuy = (buyAt >= 0 ? snapshot.rowAt(buyAt)?.row : undefined) ?? buyRow;

  const rowAt = useCallback((index: number) => {
    const slot = store.getSnapshot().rowAt(index);
    return slot && !slot.gone ? slot.row : null;
  }, [store]);

  const select = useCallback(
    (index: number, scroll = true) => {
      const count = store.getSnapshot().total ?? 0;
      if (count === 0) return;
      const clamped = Math.max(0, Math.min(count - 1, index));
      setSelected(clamped);
      const row = rowAt(clamped);
      setSelectedId(row?.id ?? null);
      if (row && detailOpen) setDetailRow(row);
      if (scroll) grid.current?.scrollToIndex(clamped);
    },
    [store, rowAt, detailOpen],
  );

  const setFilter = useCallback((filter: BookFilter) => setView((v) => ({ ...v, filter: cleanFilter(filter) })), [setView]);
  const setName = useCallback((name: string) => setView((v) => ({ ...v, filter: cleanFilter({ ...v.filter, name }) })), [setView]);
  const sortBy = useCallback(
    (field: SortField) =>
      setView((v) => ({ ...v, sort: { field, dir: v.sort.field === field ? (v.sort.dir === 'asc' ? 'desc' : 'asc') : FIRST_DIR[field] } })),
    [setView],
  );

  const open = useCallback(
    (index: number) => {
      const row = rowAt(index);
      if (!row) return;
      setSelected(index);
      setSelectedId(row.id);
      setDetailRow(row);
      setDetailOpen(true);
    },
    [rowAt],
  );

  const selectedSlot = selectedIndex >= 0 && !selectionLost ? snapshot.rowAt(selectedIndex) : undefined;
  const selectedRow = selectedSlot && !selectedSlot.gone ? selectedSlot.row : null;
  // a row selected before it was read (a page down into rows still loading) is held by its listing once
  // it arrives, so later changes of the book move the selection with it
  if (selectedId === null && selectedRow !== null) setSelectedId(selectedRow.id);
  const startBuy = useCallback((row: BookRow | null) => row && setBuyRow(row), []);
  const addRowToCart = useCallback((row: BookRow | null) => {
    if (!row) return;
    addToCart(cartLineOf(row));
  }, []);
  const onBought = useCallback((lines: readonly BoughtCopies[]) => store.markBought(lines), [store]);
  const onVisible = useCallback((start: number, end: number) => store.setVisible(start, end), [store]);
  const onFrozen = useCallback((frozen: boolean) => store.setFrozen(frozen), [store]);

  // Commands read the selection when they run, not when they were registered: a key held down fires
  // faster than React re-registers the list, and each press must move from where the last one left off.
  const live = useRef({ selectedIndex, selectedRow, total, selectionLost });
  useLayoutEffect(() => {
    live.current = { selectedIndex, selectedRow, total, selectionLost };
  });
  const hasSelection = selectedRow !== null;
  const selectedIsCs = selectedRow?.app_id === 730;

  const commands = useMemo<Command[]>(() => {
    const page = () => grid.current?.pageRows() ?? 20;
    const at = () => live.current.selectedIndex;
    const row = () => live.current.selectedRow;
    // A row key takes the focus to the grid: left on the wear button or game switch just clicked, it
    // made the next Enter click that button again (Enter on a button is the button's), not open the row.
    const moveTo = (index: number) => {
      select(index);
      grid.current?.focus();
    };
    const keyed: Command[] = [
      { id: 'book.search', label: 'Search item names', group: 'Book', hotkey: '/', run: () => searchRef.current?.focus() },
      { id: 'book.down', label: 'Next row', group: 'Book', hotkey: 'arrowdown', paletteHidden: true, run: () => moveTo(live.current.selectionLost ? at() : at() + 1) },
      { id: 'book.up', label: 'Previous row', group: 'Book', hotkey: 'arrowup', paletteHidden: true, run: () => moveTo(at() - 1) },
      { id: 'book.pagedown', label: 'Page down', group: 'Book', hotkey: 'pagedown', paletteHidden: true, run: () => moveTo(at() + page()) },
      { id: 'book.pageup', label: 'Page up', group: 'Book', hotkey: 'pageup', paletteHidden: true, run: () => moveTo(at() - page()) },
      { id: 'book.top', label: 'First row', group: 'Book', hotkey: 'home', run: () => moveTo(0) },
      { id: 'book.bottom', label: 'Last row', group: 'Book', hotkey: 'end', run: () => moveTo(live.current.total - 1) },
      { id: 'book.open', label: 'Open the selected listing', group: 'Book', hotkey: 'enter', enabled: hasSelection, run: () => open(at()) },
      { id: 'book.close', label: 'Close the detail', group: 'Book', hotkey: 'escape', paletteHidden: true, enabled: detailOpen, run: () => setDetailOpen(false) },
      { id: 'book.filters', label: filtersShown ? 'Hide filters' : 'Show filters', group: 'Book', hotkey: 'f', run: toggleFilters },
      { id: 'book.reset', label: 'Clear all filters', group: 'Book', keywords: ['reset'], run: () => setView((v) => ({ ...v, filter: {} })) },
      { id: 'book.savepreset', label: 'Save the filter as a preset', group: 'Book', run: () => setSavePresetOpen(true) },
      {
        id: 'buy.selected',
        label: 'Buy the selected listing',
        group: 'Buying',
        hotkey: 'b',
        enabled: trading.allowed && hasSelection,
        disabledReason: trading.reason ?? 'Select a row first',
        run: () => startBuy(row()),
      },
      { id: 'cart.add', label: 'Add the selected listing to the cart', group: 'Buying', hotkey: 'a', enabled: hasSelection, run: () => addRowToCart(row()) },
      { id: 'cart.open', label: `Open the cart (${cart.length})`, group: 'Buying', hotkey: 'c', run: () => setCartOpen('lines') },
      { id: 'buy.private', label: 'Buy a private listing (paste its share link)', group: 'Buying', hotkey: 'p', keywords: ['share', 'token'], run: () => setCartOpen('private-link') },
      {
        id: 'book.inspect',
        label: 'Inspect the selected item in game',
        group: 'Book',
        hotkey: 'i',
        enabled: selectedIsCs,
        run: () => {
          const selected = row();
          if (selected) void call('openInspectLink', { listingId: selected.id }).catch((err: unknown) => reportFailure('The inspect link did not open', err));
        },
      },
    ];
    const sorts: Command[] = (['price', 'float', 'created_at', 'fade', 'blue'] as const).flatMap((field) =>
      (['asc', 'desc'] as const).map((dir) => ({
          id: `sort.${field}.${dir}`,
          label: `Sort by ${SORT_NAMES[field]} (${dir === 'asc' ? (field === 'created_at' ? 'oldest' : 'lowest') : field === 'created_at' ? 'newest' : 'highest'} first)`,
          group: 'Sort',
          run: () => setView((v) => ({ ...v, sort: { field, dir } })),
      })),
    );
    const wears: Command[] = WEAR_BANDS.map((band) => ({
        id: `wear.${band.code}`,
        label: `Float: ${band.name} only (${band.min}–${band.max})`,
        group: 'Filters',
        keywords: [band.code],
        run: () => setView((v) => ({ ...v, filter: cleanFilter({ ...v.filter, float: wearRange([band.code]) }) })),
    }));
    const presetCommands: Command[] = presets.flatMap((preset) => [
      { id: `preset.${preset.name}`, label: `Preset: ${preset.name}`, group: 'Filters', run: () => setView(preset.view) },
      // the menu's delete cross is for the pointer (a button inside a menu item): from the keyboard, here
      {
        id: `preset.delete.${preset.name}`,
        label: `Delete preset: ${preset.name}`,
        group: 'Filters',
        run: () =>
          void call('deleteFilterPreset', { name: preset.name }).then(
            (state) => setPresets(state.presets),
            (err: unknown) => reportFailure(`The preset “${preset.name}” was not deleted`, err),
          ),
      },
    ]);
    return [...keyed, ...sorts, ...wears, ...presetCommands];
  }, [select, open, detailOpen, filtersShown, toggleFilters, trading, hasSelection, selectedIsCs, startBuy, addRowToCart, cart.length, presets, setView]);
  useRegisterCommands(commands);

  const chips = describeFilter(view.filter);
  // the game is set in the panel, not a chip, and narrows the book as much as any filter
  const filtered = chips.length > 0 || view.filter.app_id !== undefined;
  const empty = emptyBook(filtered, status?.bookRead ?? null, unreadBookReason(status), view.sort.field);
  const { ref: gridAreaRef, width: gridWidth } = useElementSize();
  const columns = fitColumns(columnsFor(view.filter.app_id, detailOpen, view.sort.field), gridWidth, view.sort.field);
  const offline = status?.state === 'offline';
  const { ref: toolbarRef, width: toolbarWidth } = useElementSize();
  const fit = toolbarFitFor(toolbarWidth, chips.length > 0);
  const summary = summaryText(total, view.sort.field, fit !== 'full');

  return (
    <div ref={bookRef} style={{ display: 'flex', flex: 1, minWidth: 0, minHeight: 0 }} data-testid="book-screen">
      {filtersShown && (
        <ScrollArea w={FILTER_PANEL_PX} style={{ flex: 'none', borderRight: '1px solid var(--sd-border)' }} type="auto" scrollbarSize={6}>
          <FilterPanel filter={view.filter} onChange={setFilter} pendingEdits={pendingEdits} />
        </ScrollArea>
      )}
      <Stack ref={gridAreaRef} gap={0} style={{ flex: 1, minWidth: 0 }}>
        <Group ref={toolbarRef} gap={6} px="sm" py={6} wrap="nowrap" data-testid="book-toolbar" style={{ borderBottom: '1px solid var(--sd-border)', overflow: 'hidden' }}>
          <Tooltip label={filtersShown ? 'Hide filters (F)' : takeTurns && detailShown ? 'Show filters (F); the detail closes to make room' : 'Show filters (F)'}>
            <ActionIcon variant={filtersShown ? 'light' : 'subtle'} onClick={toggleFilters} aria-label="Toggle filters" size="md" data-testid="filters-toggle">
              <IconAdjustmentsHorizontal size={16} />
            </ActionIcon>
          </Tooltip>
          <NameSearch value={view.filter.name ?? ''} onChange={setName} inputRef={searchRef} minWidth={SEARCH_MIN_PX[fit]} pendingEdits={pendingEdits} />
          <PresetMenu presets={presets} current={view} onLoad={setView} onPresets={setPresets} saveOpened={savePresetOpen} onSaveOpened={setSavePresetOpen} compact={fit !== 'full'} />
          <WatchFilterButton filter={view.filter} compact={fit !== 'full'} />
          <FilterChips chips={chips} onClear={() => setView((v) => ({ ...v, filter: {} }))} bare={fit === 'tight'} />
          <ExportViewMenu view={{ view: 'book', filter: view.filter, sort: view.sort }} group="Book" what="listing" />
          {fit !== 'tight' && (
            <Text size="xs" c="dimmed" className="sd-num" style={{ whiteSpace: 'nowrap', flex: 'none' }} data-testid="book-summary" title={summary.title}>
              {snapshot.total === null ? '…' : summary.text}
            </Text>
          )}
          <Button
            variant={cart.length > 0 ? 'light' : 'default'}
            leftSection={<IconShoppingCart size={14} />}
            onClick={() => setCartOpen('lines')}
            style={{ flex: 'none' }}
            data-testid="cart-button"
            aria-label={`Cart (${cart.length})`}
          >
            <span className="sd-num">{cart.length}</span>
          </Button>
        </Group>
        {offline && (
          <Group gap={8} px="sm" py={4} wrap="nowrap" data-testid="offline-banner" title={status?.problem ?? undefined} style={{ background: 'rgba(250, 176, 5, 0.1)', borderBottom: '1px solid rgba(250, 176, 5, 0.25)' }}>
            <Text size="xs" c="yellow.4" fw={600} style={{ whiteSpace: 'nowrap' }}>
              Offline
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {status?.bookAsOf
                ? `This is the book as of ${formatAsOf(status.bookAsOf)}, read from disk.`
                : 'No book of this market has been read yet.'}{' '}
              Trading is off until the market is reachable.
            </Text>
          </Group>
        )}
        {snapshot.problem && (
          <Alert color="red" variant="light" py={4} px="sm" radius={0}>
            <Text size="xs">{snapshot.problem}</Text>
          </Alert>
        )}
        <BookGrid
          snapshot={snapshot}
          columns={columns}
          sort={view.sort}
          onSort={sortBy}
          selected={selectionLost ? -1 : selectedIndex}
          onSelect={(i) => select(i, false)}
          onOpen={open}
          onVisible={onVisible}
          onFrozen={onFrozen}
          controllerRef={grid}
          empty={
            <Center pos="absolute" inset={0}>
              <Stack gap={6} align="center">
                <Text size="sm" c="dimmed" data-testid="book-empty" maw={560} ta="center">
                  {empty.text}
                </Text>
                {empty.why === 'unread' && (
                  <Button variant="default" onClick={() => navigate('settings')}>
                    Marketplace settings
                  </Button>
                )}
                {empty.why === 'sort' && (
                  <Button variant="default" onClick={() => setView((v) => ({ ...v, sort: DEFAULT_VIEW.sort }))}>
                    Sort by age
                  </Button>
                )}
                {filtered && (
                  <Button variant="default" onClick={() => setView((v) => ({ ...v, filter: {} }))}>
                    Clear filters
                  </Button>
                )}
              </Stack>
            </Center>
          }
        />
      </Stack>
      {openDetail && (
        <div style={{ width: DETAIL_PX, flex: 'none', minHeight: 0 }}>
          <DetailPanel row={openDetail} onClose={() => setDetailOpen(false)} onBuy={startBuy} onAddToCart={addRowToCart} />
        </div>
      )}
      <BuyDialog row={shownBuy} onClose={() => setBuyRow(null)} onBought={onBought} />
      <CartDrawer opened={cartOpen !== null} focus={cartOpen ?? 'lines'} onClose={() => setCartOpen(null)} onBought={onBought} />
    </div>
  );
}

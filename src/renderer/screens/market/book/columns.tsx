/**
 * The grid's columns, per game: CS2 shows what CS traders sort and filter by (float with its wear bar,
 * seed, stickers, fade and blue), the other games what they have (amount for commodities); all games
 * together show a game tag and the CS columns that apply.
 */
import type { ReactNode } from 'react';
import type { AppId } from '../../../../shared/api/index.ts';
import type { BookRow } from '../../../../shared/ipc/index.ts';
import type { BookView } from '../../../../shared/ipc/calls-market.ts';
import { formatAge, formatAgainst, formatCents, formatFloat, formatPercent } from '../../../format/numbers.ts';
import { gameShort } from '../../account/ui/format.ts';
import { phaseOfPaintIndex } from '../../../../shared/phases.ts';
import { ItemName } from '../parts/item-name.tsx';
import { StickerSlots } from '../parts/slots.tsx';
import { WearMini } from '../parts/wear.tsx';

export type SortField = BookView['sort']['field'];

export interface Column {
  key: string;
  label: string;
  /** Fixed width in px; the name column takes the rest. */
  width?: number;
  align?: 'right';
  sort?: SortField;
  title?: string;
  render(row: BookRow, now: number): ReactNode;
}

/**
 * A row's game in the app's own short names ("Dota 2", as the filter's game buttons and the account
 * screens say it; the tag said "DOTA"), small and muted. The book grid and the sales tape both show it.
 * "Dota 2", the widest, fits the 46 px column without widening it: its cells give up their right padding
 * (.sd-cell-game), the next column's own padding keeping the gap.
 */
export function GameTag({ app }: { app: number }) {
  return <span style={{ color: 'var(--sd-muted)', fontSize: 10 }}>{gameShort(app)}</span>;
}

/**
 * The class names of a grid cell (`base`: a header or a body cell) for its column, in the book and the
 * sales tape alike: the name cell takes the slack, the game cell gives up its right padding (GameTag).
 */
export function gridCellClass(column: { key: string; align?: 'right' }, base: string): string {
  return [base, column.key === 'name' ? 'sd-cell-name' : '', column.key === 'game' ? 'sd-cell-game' : '', column.align === 'right' ? 'sd-cell-right' : '']
    .filter(Boolean)
    .join(' ');
}

const dim = (text: string) => <span style={{ color: 'var(--sd-muted)' }}>{text}</span>;

const game: Column = {
  key: 'game',
  label: 'Game',
  width: 46,
  render: (row) => <GameTag app={row.app_id} />,
};

const name: Column = {
  key: 'name',
  label: 'Item',
  render: (row) => <ItemName name={row.market_hash_name} paintIndex={row.paint_index} />,
};

const price: Column = {
  key: 'price',
  label: 'Price',
  width: 88,
  align: 'right',
  sort: 'price',
  render: (row) => <span className="sd-num">{formatCents(row.price)}</span>,
};

/** Deals stand out: below the market price in green, ten percent or more below it in bold too. */
const againstMarket: Column = {
  key: 'market',
  label: 'vs Mkt',
  width: 62,
  align: 'right',
  title: "The price against the item's market price (the marketplace's prices, read every 5 minutes): below it in green",
  render: (row) => {
    // a Doppler's price follows its phase, and the market price is one per name: no honest figure
    if (phaseOfPaintIndex(row.paint_index) !== null) return <span title="Priced by phase; the market price is one per name (the detail compares within the phase)">{dim('–')}</span>;
    const text = formatAgainst(row.price, row.market_price);
    if (text === null) return null;
    const below = row.market_price !== null && row.price < row.market_price;
    const deal = below && row.price <= (row.market_price ?? 0) * 0.9;
    return (
      <span className="sd-num" style={{ color: below ? 'var(--sd-down)' : 'var(--sd-muted)', fontWeight: deal ? 700 : undefined }}>
        {text}
      </span>
    );
  },
};

const float: Column = {
  key: 'float',
  label: 'Float',
  width: 120,
  align: 'right',
  sort: 'float',
  title: 'Paint wear (0 = factory new); the bar shows the wear bands FN · MW · FT · WW · BS',
  render: (row) =>
    row.app_id !== 730 ? null : row.paint_wear === null ? (
      row.stickers === null ? (
        <span title="Float, seed and stickers arrive with the listing's details" style={{ color: 'var(--sd-muted)', opacity: 0.6 }}>
          ·
        </span>
      ) : (
        dim('–')
      )
    ) : (
      <>
        <WearMini value={row.paint_wear} />
        <span className="sd-num">{formatFloat(row.paint_wear)}</span>
      </>
    ),
};

const seed: Column = {
  key: 'seed',
  label: 'Seed',
  width: 50,
  align: 'right',
  title: 'Paint seed (pattern)',
  render: (row) => (row.paint_seed === null ? null : <span className="sd-num">{row.paint_seed}</span>),
};

const stickers: Column = {
  key: 'stickers',
  label: 'Stickers',
  width: 86,
  render: (row) => <StickerSlots row={row} />,
};

const fade: Column = {
  key: 'fade',
  label: 'Fade',
  width: 58,
  align: 'right',
  sort: 'fade',
  render: (row) => (row.fade === null ? null : <span className="sd-num">{formatPercent(row.fade)}</span>),
};

const blue: Column = {
  key: 'blue',
  label: 'Blue',
  width: 58,
  align: 'right',
  sort: 'blue',
  render: (row) => (row.blue === null ? null : <span className="sd-num">{formatPercent(row.blue)}</span>),
};

const amount: Column = {
  key: 'amount',
  label: 'Qty',
  width: 48,
  align: 'right',
  render: (row) => <span className="sd-num">{row.amount}</span>,
};

const listed: Column = {
  key: 'listed',
  label: 'Age',
  width: 50,
  align: 'right',
  sort: 'created_at',
  title: 'Time since the listing went live',
  render: (row, now) => <span className="sd-num" style={{ color: 'var(--sd-muted)' }}>{formatAge(row.created_at, now)}</span>,
};

/** Narrower fixed columns while the detail panel takes the right side, so names stay readable. */
// the age keeps room for its header with the sort's arrow ("↓ AGE"): the grid's default sort
const COMPACT_WIDTHS: Record<string, number> = { price: 84, float: 118, stickers: 76, listed: 52, seed: 44, amount: 40 };

export function columnsFor(appId: AppId | undefined, compact: boolean, sorted?: SortField): Column[] {
  let columns: Column[];
  // compact, the detail beside the grid shows the market price and names the game: those columns make
  // room for the names
  if (appId === 730) columns = compact ? [name, price, float, seed, stickers, listed] : [name, price, againstMarket, float, seed, stickers, fade, blue, listed];
  else if (appId !== undefined) columns = compact ? [name, price, amount, listed] : [name, price, againstMarket, amount, listed];
  else columns = compact ? [name, price, float, stickers, listed] : [game, name, price, againstMarket, float, seed, stickers, amount, listed];
  // Sorted by fade or blue where those columns are left out (all games, or beside the detail), the
  // grid showed neither the figure it was sorted by nor a header saying so: the sorted column comes in,
  // before the age
  const sortedColumn = sorted === 'fade' ? fade : sorted === 'blue' ? blue : null;
  if (sortedColumn && (appId === undefined || appId === 730) && !columns.includes(sortedColumn)) {
    columns = [...columns.slice(0, -1), sortedColumn, ...columns.slice(-1)];
  }
  return compact ? columns.map((c) => (c.width && COMPACT_WIDTHS[c.key] ? { ...c, width: COMPACT_WIDTHS[c.key] } : c)) : columns;
}

/** The name column's least width (terminal.css .sd-cell-name) and room for the body's scrollbar. */
const NAME_MIN_PX = 140;
const SCROLLBAR_PX = 12;
/** What a grid too narrow for all its columns gives up first: extras before what a trader scans by. */
const DROP_ORDER = ['blue', 'fade', 'market', 'game', 'amount', 'seed'];

const widthNeeded = (columns: readonly Column[]) => columns.reduce((sum, c) => sum + (c.width ?? NAME_MIN_PX), SCROLLBAR_PX);

/**
 * The columns that fit a grid `widthPx` wide, dropping the least needed first, so a narrow window loses
 * the blue % column rather than having its last column (the age) cut off — but never the column the
 * grid is sorted by. `widthPx` 0: not measured yet.
 */
export function fitColumns(columns: Column[], widthPx: number, sorted?: SortField): Column[] {
  if (widthPx <= 0) return columns;
  let kept = columns;
  for (const key of DROP_ORDER) {
    if (widthNeeded(kept) <= widthPx) break;
    kept = kept.filter((c) => c.key !== key || (sorted !== undefined && c.sort === sorted));
  }
  return kept;
}

/**
 * The book grid: a header of sortable columns over a windowed body that only renders the rows in view.
 * Rows come from the window store by position; a row still loading shows a placeholder of the same
 * height, so nothing ever jumps.
 */
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';
import type { BookView } from '../../../../shared/ipc/calls-market.ts';
import { type Column, type SortField, gridCellClass } from './columns.tsx';
import type { DisplayRow, StoreSnapshot } from './book-window-store.ts';
import { type RowWindow, useRowWindow } from './use-row-window.ts';
import { useNow } from '../../account/ui/hooks.ts';

export const ROW_PX = 28;

export interface GridController {
  scrollToIndex(index: number, align?: 'auto' | 'start' | 'center'): void;
  pageRows(): number;
  /** Takes the focus, so Enter and B act on the selected row rather than a button clicked before. */
  focus(): void;
}

export interface BookGridProps {
  snapshot: StoreSnapshot;
  columns: Column[];
  sort: BookView['sort'];
  onSort(field: SortField): void;
  selected: number;
  onSelect(index: number): void;
  onOpen(index: number): void;
  onVisible(start: number, end: number): void;
  onFrozen(frozen: boolean): void;
  controllerRef: RefObject<GridController | null>;
  /** Shown over the body when nothing matches. */
  empty?: React.ReactNode;
}

const cellStyle = (c: Column) => (c.width ? { width: c.width } : undefined);

function Header({ columns, sort, onSort }: Pick<BookGridProps, 'columns' | 'sort' | 'onSort'>) {
  return (
    <div className="sd-grid-head" role="row">
      {columns.map((c) => {
        const field = c.sort;
        const sorted = field !== undefined && field === sort.field;
        const Arrow = sort.dir === 'asc' ? IconArrowUp : IconArrowDown;
        const content = (
          <>
            {c.align === 'right' && sorted && <Arrow size={11} />}
            {c.label}
            {c.align !== 'right' && sorted && <Arrow size={11} />}
          </>
        );
        return (
          <div
            key={c.key}
            role="columnheader"
            aria-sort={sorted ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
            data-sort-field={field}
            title={c.title ?? (field ? `Sort by ${c.label.toLowerCase()}` : undefined)}
            className={[gridCellClass(c, 'sd-head-cell'), field ? 'sd-head-sortable' : '', sorted ? 'sd-head-sorted' : ''].join(' ')}
            style={cellStyle(c)}
          >
            {/* a real button, so Tab reaches the sort and Enter or Space runs it; it fills the cell and
                looks like the plain header it replaces (see .sd-head-button) */}
            {field ? (
              <button type="button" className="sd-head-button" onClick={() => onSort(field)}>
                {content}
              </button>
            ) : (
              content
            )}
          </div>
        );
      })}
    </div>
  );
}

/** Every other row of the book is striped, by its index (see terminal.css). */
function stripe(index: number): string {
  return index % 2 === 1 ? ' sd-row-odd' : '';
}

function flashClass(r: DisplayRow): string {
  return r.flash ? ` sd-flash-${r.flash}` : '';
}

export function BookGrid(props: BookGridProps) {
  const { snapshot, columns, selected, onSelect, onOpen, onVisible, onFrozen, controllerRef } = props;
  const bodyRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const count = snapshot.total ?? 0;
  const win: RowWindow = useRowWindow(bodyRef, count, ROW_PX);
  const now = useNow(1_000);

  const start = win.rows[0]?.index ?? 0;
  const end = (win.rows.at(-1)?.index ?? -1) + 1;
  useEffect(() => {
    // before the first answer the count is 0: still ask for the first screenful
    onVisible(start, Math.max(end, snapshot.total === null ? 60 : end));
  }, [onVisible, start, end, snapshot.total]);

  // Scroll anchoring: rows inserted or removed above the view (a newest-first book gains rows at the top
  // all the time) must not push what the trader is reading. Unless the view is at the very top with
  // nothing selected (watching the feed arrive), the selected row stays where it was while it is in
  // view — rows arriving between the top of the view and it (a price sort gains rows all through the
  // cheap end) would otherwise push it down and off the screen, under the open detail — and the first
  // visible row otherwise.
  const anchor = useRef<{ id: number; index: number } | null>(null);
  useLayoutEffect(() => {
    const held = anchor.current;
    if (held && (held.index > 0 || selected >= 0)) {
      const now = snapshot.indexOf(held.id);
      if (now >= 0 && now !== held.index) win.scrollByRows(now - held.index);
    }
    const at = selected >= win.first && selected < win.last ? selected : win.first;
    const slot = snapshot.rowAt(at);
    anchor.current = slot ? { id: slot.row.id, index: at } : null;
  }, [snapshot, win, selected]);

  useEffect(() => {
    controllerRef.current = {
      scrollToIndex: win.scrollToIndex,
      pageRows: () => win.pageRows,
      focus: () => gridRef.current?.focus({ preventScroll: true }),
    };
  });

  return (
    // focusable from code only (tabIndex -1): the row keys bring the focus here, see BookScreen
    <div ref={gridRef} className="sd-grid" role="grid" aria-rowcount={count} tabIndex={-1} data-testid="book-grid">
      <Header columns={columns} sort={props.sort} onSort={props.onSort} />
      <div
        ref={bodyRef}
        className="sd-grid-body"
        data-testid="book-grid-body"
        onMouseEnter={() => onFrozen(true)}
        onMouseLeave={() => onFrozen(false)}
      >
        <div style={{ height: win.spacerPx, position: 'relative' }}>
          {win.rows.map(({ index, top }) => {
            const slot = snapshot.rowAt(index);
            const isSelected = index === selected;
            if (!slot) {
              return (
                <div key={`loading-${index}`} className={`sd-row sd-row-loading${stripe(index)}`} style={{ top }} role="row" aria-busy>
                  {columns.map((c) => (
                    <div key={c.key} className={gridCellClass(c, 'sd-cell')} style={cellStyle(c)} />
                  ))}
                </div>
              );
            }
            const { row } = slot;
            const classes = `sd-row${stripe(index)}${isSelected ? ' sd-row-selected' : ''}${slot.gone ? ' sd-row-gone' : flashClass(slot)}`;
            return (
              <div
                key={slot.flash ? `${row.id}-${slot.flashAt}` : row.id}
                role="row"
                aria-rowindex={index + 1}
                aria-selected={isSelected}
                {...(slot.gone ? { 'data-gone-id': row.id, 'data-gone': slot.gone } : { 'data-listing-id': row.id })}
                data-price={row.price}
                className={classes}
                style={{ top }}
                onMouseDown={() => onSelect(index)}
                onDoubleClick={() => onOpen(index)}
              >
                {columns.map((c) => (
                  <div key={c.key} role="gridcell" data-col={c.key} className={gridCellClass(c, 'sd-cell')} style={cellStyle(c)} title={c.key === 'name' ? row.market_hash_name : undefined}>
                    {c.key === 'name' && slot.gone ? (
                      <>
                        <span style={{ color: 'var(--mantine-color-red-4)', marginRight: 6, fontSize: 10, textDecoration: 'none' }}>
                          {slot.gone === 'bought' ? 'BOUGHT' : 'GONE'}
                        </span>
                        {c.render(row, now)}
                      </>
                    ) : (
                      c.render(row, now)
                    )}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
        {snapshot.total === 0 && props.empty}
      </div>
    </div>
  );
}

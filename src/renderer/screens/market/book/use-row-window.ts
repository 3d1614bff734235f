/**
 * Windowing for rows of one fixed height: only the rows in view (plus an overscan) exist in the DOM.
 *
 * Why not @tanstack/react-virtual here: it keeps a measurement per row (a million-entry cache rebuilt
 * whenever the row count changes, which on a live book is several times a second) and reads the
 * element's real scroll offset in places a custom offset observer cannot reach, which rules out
 * compressed scrolling. With one row height neither is needed: the first visible row is
 * offset / height, and compression (scroll-geometry.ts) is a scale on that offset.
 */
import { type RefObject, useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { type ScrollGeometry, rowTop, scrollGeometry, toReal, toVirtual } from './scroll-geometry.ts';

export interface WindowRow {
  index: number;
  /** Top of the row inside the spacer, in real pixels. */
  top: number;
}

export interface RowWindow {
  rows: WindowRow[];
  spacerPx: number;
  geometry: ScrollGeometry;
  /** First and one-past-last fully or partly visible row (no overscan). */
  first: number;
  last: number;
  /** Rows that fit in the viewport (page size for PageUp/PageDown). */
  pageRows: number;
  scrollToIndex(index: number, align?: 'auto' | 'start' | 'center'): void;
  /** Moves the view by whole rows without animation (keeps rows in place when others are inserted above). */
  scrollByRows(rows: number): void;
}

export function useRowWindow(scrollRef: RefObject<HTMLElement | null>, count: number, rowPx: number, overscan = 10): RowWindow {
  const [offset, setOffset] = useState(0);
  const [viewport, setViewport] = useState(0);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setOffset(el.scrollTop);
      setViewport(el.clientHeight);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [scrollRef]);

  const geometry = useMemo(() => scrollGeometry(count, rowPx, viewport), [count, rowPx, viewport]);
  const virtualOffset = toVirtual(offset, geometry);
  const first = Math.min(count, Math.max(0, Math.floor(virtualOffset / rowPx)));
  const last = Math.min(count, Math.ceil((virtualOffset + viewport) / rowPx));
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + overscan);
  const rows: WindowRow[] = [];
  for (let index = start; index < end; index++) rows.push({ index, top: rowTop(index * rowPx, offset, geometry) });
  const pageRows = Math.max(1, Math.floor(viewport / rowPx) - 1);

  const scrollToIndex = useCallback(
    (index: number, align: 'auto' | 'start' | 'center' = 'auto') => {
      const el = scrollRef.current;
      if (!el) return;
      const height = el.clientHeight;
      const g = scrollGeometry(count, rowPx, height);
      const current = toVirtual(el.scrollTop, g);
      const rowStart = index * rowPx;
      let target: number | null = null;
      if (align === 'start') target = rowStart;
      else if (align === 'center') target = rowStart - (height - rowPx) / 2;
      else if (rowStart < current) target = rowStart;
      else if (rowStart + rowPx > current + height) target = rowStart + rowPx - height;
      if (target === null) return;
      const max = Math.max(0, count * rowPx - height);
      el.scrollTop = toReal(Math.min(max, Math.max(0, target)), g);
      // read back at once: keyboard navigation must not wait for the scroll event to redraw
      setOffset(el.scrollTop);
    },
    [scrollRef, count, rowPx],
  );

  const scrollByRows = useCallback(
    (delta: number) => {
      const el = scrollRef.current;
      if (!el || delta === 0) return;
      const g = scrollGeometry(count, rowPx, el.clientHeight);
      el.scrollTop = toReal(toVirtual(el.scrollTop, g) + delta * rowPx, g);
      setOffset(el.scrollTop);
    },
    [scrollRef, count, rowPx],
  );

  return { rows, spacerPx: geometry.spacerPx, geometry, first, last, pageRows, scrollToIndex, scrollByRows };
}

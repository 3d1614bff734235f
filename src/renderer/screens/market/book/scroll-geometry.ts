/**
 * Compressed scrolling. Browsers cap an element's height near 33.5 million pixels (Chromium; less in
 * others), so a spacer for 1.3 million rows of 28 px would silently end early and the last rows could
 * never be reached. Below the cap the spacer is simply rows × height; above it the spacer stays at the
 * cap and scroll positions are scaled, so the scrollbar's whole travel still spans every row:
 *
 *   virtual = real × k,  k = (content − viewport) / (spacer − viewport)
 *
 * The virtualizer works in virtual pixels; visible rows are placed at (virtual start − virtual offset)
 * below the real scroll position.
 */

/** Below Chromium's limit with a margin: 1M rows of 28 px (28M px) fit without scaling. */
export const MAX_SCROLL_PX = 30_000_000;

export interface ScrollGeometry {
  /** Height of the scrollable spacer (real pixels). */
  spacerPx: number;
  /** Virtual pixels per real pixel of scrolling (1 when nothing is compressed). */
  scale: number;
}

export function scrollGeometry(rows: number, rowPx: number, viewportPx: number, maxPx: number = MAX_SCROLL_PX): ScrollGeometry {
  const content = Math.max(0, rows * rowPx);
  if (content <= maxPx || viewportPx >= maxPx) return { spacerPx: content, scale: 1 };
  const scale = Math.max(1, (content - viewportPx) / Math.max(1, maxPx - viewportPx));
  return { spacerPx: maxPx, scale };
}

export const toVirtual = (realOffset: number, g: ScrollGeometry): number => realOffset * g.scale;
export const toReal = (virtualOffset: number, g: ScrollGeometry): number => virtualOffset / g.scale;

/** Where a row starting at `virtualStart` is drawn inside the spacer (real pixels). */
export function rowTop(virtualStart: number, realOffset: number, g: ScrollGeometry): number {
  return virtualStart - toVirtual(realOffset, g) + realOffset;
}

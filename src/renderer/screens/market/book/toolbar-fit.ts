/**
 * How much of the book's toolbar fits its width. The detail panel (380 px) and the filter panel (250 px)
 * leave the toolbar about 590 px in a 1280 px window; in narrower ones the two panels take turns
 * (panel-room.ts), which leaves it about 520 px at the least (a 960 px window with the detail open). Its
 * buttons must shrink before they spill over the detail panel. Widths are the toolbar's content box,
 * measured in Chromium: the buttons with their labels and a seven-digit count need about 600 px (the
 * search box at its narrowest), icon-only buttons and a bare count about 390, and without the count
 * about 310. Active filters need room of their own besides (FilterChips: a "3 filters" count and the
 * clear button, whatever chips do not fit hidden), so with filters each step comes that much sooner.
 */
export type ToolbarFit = 'full' | 'compact' | 'tight';

const FULL_MIN_PX = 600;
const COMPACT_MIN_PX = 390;

/** The search box's narrowest width in each fit: the widths above were measured with these. */
export const SEARCH_MIN_PX: Record<ToolbarFit, number> = { full: 140, compact: 90, tight: 90 };

/** The filters' count badge and clear button, with their gaps: what FilterChips keeps at its narrowest. */
const FILTER_SUMMARY_PX = 94;

/** `width` 0 means not measured yet: the full toolbar, as on any window wide enough for the app. */
export function toolbarFitFor(width: number, withFilters = false): ToolbarFit {
  const filters = withFilters ? FILTER_SUMMARY_PX : 0;
  if (width === 0 || width >= FULL_MIN_PX + filters) return 'full';
  return width >= COMPACT_MIN_PX + filters ? 'compact' : 'tight';
}

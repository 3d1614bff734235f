/**
 * Room for the panels beside the book's grid. The filter panel and the detail together take 630 px; in a
 * book narrower than that plus the grid's least useful width (names, price, float, stickers and age at
 * their compact widths, about 520 px: windows under about 1 210 px) the grid would shrink to a sliver with
 * its columns cut off. There the two panels take turns: opening the detail puts the filters away until it
 * closes, and showing the filters closes the detail (the selection stays; Enter opens it again).
 */
export const FILTER_PANEL_PX = 250;
export const DETAIL_PX = 380;
const GRID_MIN_PX = 520;

/** `bookWidth` 0 means not measured yet: both panels, as on any window wide enough for the app. */
export function panelsTakeTurns(bookWidth: number): boolean {
  return bookWidth > 0 && bookWidth < FILTER_PANEL_PX + DETAIL_PX + GRID_MIN_PX;
}

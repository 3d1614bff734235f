/**
 * Room for the alert feed. Its columns but the item's are fixed (time, price, state and actions: 336 px
 * with the detail open, the ceiling put away), and the item column takes the rest: beside the watchlists
 * (300 px) and an open detail (380 px), a window at its 960 px minimum left it a few pixels, and every
 * alert read as nothing. Below the width all three need, the watchlists give way while the detail is
 * open (closing it brings them back), as the book's filters give way to its detail (panel-room.ts).
 */
export const WATCHLISTS_PX = 300;
export const WATCH_DETAIL_PX = 380;
/** Time, price, state and actions with the detail open (today's alerts: the time column is a clock). */
const FIXED_COLUMNS_PX = 72 + 76 + 96 + 92;
/** An item column that shows most names whole: "AK-47 | Redline (Field-Tested)" is about 200 px. */
const ITEM_MIN_PX = 200;

/** `screenWidth` 0 means not measured yet: everything shown, as on any window wide enough for it. */
export function watchlistsGiveWay(screenWidth: number, detailOpen: boolean): boolean {
  return detailOpen && screenWidth > 0 && screenWidth < WATCHLISTS_PX + WATCH_DETAIL_PX + FIXED_COLUMNS_PX + ITEM_MIN_PX;
}

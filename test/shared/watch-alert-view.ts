import type { WatchAlertView } from '../../src/shared/ipc/calls-watch.ts';

/** An alert as the app pushes and lists it, of an auto-buy watchlist: only its id and state vary. */
export function watchAlertView(id: number, state: WatchAlertView['state'] = 'new'): WatchAlertView {
  return {
    id,
    at: '2026-01-01T12:00:00.000Z',
    watchlistId: 1,
    watchlistName: 'Cheap Redlines',
    listingId: id,
    appId: 730,
    marketHashName: 'AK-47 | Redline (Field-Tested)',
    price: 900,
    amount: 1,
    seq: String(id),
    referencePrice: null,
    ceiling: 1_000,
    origin: 'event',
    state,
    mode: 'auto',
    sound: false,
  };
}

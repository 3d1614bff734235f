/**
 * The watchlists side's live values, shared by the screen and the status-bar kill switch: the alert
 * feed (loaded, then kept by the `watchAlerts` push, latest state per alert, and loaded again when a push
 * says a burst left alerts out), the auto-buy state
 * (kill switch, live, log) and the watchlists. Each loads on first use and follows its push.
 */
import type { AutoBuyEntryView, AutoBuyState, WatchAlertView } from '../../../shared/ipc/calls-watch.ts';
import type { Watchlist } from '../../../shared/watchlist.ts';
import { call, hasBridge, subscribe } from '../../bridge/index.ts';
import { LiveStore } from '../../shell/app-state.ts';
import { reportFailure } from '../../shell/report-failure.ts';

/** Alerts kept in the renderer (the app keeps more; the feed shows the newest). */
export const FEED_SIZE = 300;

export interface AlertFeed {
  alerts: readonly WatchAlertView[];
  /** Alerts that arrived (new, from a feed event) since the feed was last looked at. */
  unseen: number;
  /** Pushed alerts a burst left out (read again from the list call). */
  omitted: number;
}

function mergeAlerts(held: readonly WatchAlertView[], incoming: readonly WatchAlertView[]): WatchAlertView[] {
  const byId = new Map(held.map((a) => [a.id, a]));
  for (const a of incoming) byId.set(a.id, a);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, FEED_SIZE);
}

/** Called with the alerts that are new to the renderer (the alert sound listens here). */
type NewAlertsListener = (alerts: readonly WatchAlertView[]) => void;
const newAlertListeners = new Set<NewAlertsListener>();
export function onNewAlerts(listener: NewAlertsListener): () => void {
  newAlertListeners.add(listener);
  return () => newAlertListeners.delete(listener);
}

export const alertFeedStore = new LiveStore<AlertFeed>({ alerts: [], unseen: 0, omitted: 0 }, (store) => {
  if (!hasBridge()) return () => undefined;
  let alive = true;
  // Alerts pushed while a read is under way: they may be newer than its answer, so they are laid over it;
  // null while no read is under way. A read asked for meanwhile is made once this one has answered.
  let pushedDuringRead: WatchAlertView[] | null = null;
  let readAgain = false;
  const read = () => {
    if (pushedDuringRead !== null) {
      readAgain = true;
      return;
    }
    pushedDuringRead = [];
    call('listWatchAlerts', { limit: FEED_SIZE })
      .then(({ alerts }) => {
        // the list's state wins over what is held: a held alert may be one whose change a burst left out
        if (alive) store.set({ ...store.get(), alerts: mergeAlerts(mergeAlerts(store.get().alerts, alerts), pushedDuringRead ?? []) });
      })
      .catch((err: unknown) => alive && reportFailure('The watchlist alerts could not be read', err))
      .finally(() => {
        pushedDuringRead = null;
        if (alive && readAgain) {
          readAgain = false;
          read();
        }
      });
  };
  const off = subscribe('watchAlerts', (pushed) => {
    const current = store.get();
    const known = new Set(current.alerts.map((a) => a.id));
    const fresh = pushed.alerts.filter((a) => !known.has(a.id));
    const incoming = [...pushed.alerts, ...pushed.changed];
    pushedDuringRead?.push(...incoming);
    store.set({
      alerts: mergeAlerts(current.alerts, incoming),
      unseen: current.unseen + fresh.filter((a) => a.origin === 'event').length,
      omitted: current.omitted + pushed.omitted,
    });
    if (fresh.length > 0) for (const listener of newAlertListeners) listener(fresh);
    // what the burst left out (an outcome among them) is in the list call
    if (pushed.omitted > 0) read();
  });
  read();
  return () => {
    alive = false;
    off();
  };
});

export function markAlertsSeen(): void {
  const feed = alertFeedStore.get();
  if (feed.unseen > 0 || feed.omitted > 0) alertFeedStore.set({ ...feed, unseen: 0, omitted: 0 });
}

/** An alert's new state from a call's answer (before its push arrives). */
export function updateAlert(alert: WatchAlertView): void {
  const feed = alertFeedStore.get();
  alertFeedStore.set({ ...feed, alerts: mergeAlerts(feed.alerts, [alert]) });
}

function mergeLog(held: readonly AutoBuyEntryView[], incoming: readonly AutoBuyEntryView[]): AutoBuyEntryView[] {
  const byId = new Map(held.map((e) => [e.id, e]));
  for (const e of incoming) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, 200);
}

export const autoBuyStore = new LiveStore<AutoBuyState | null>(null, (store) => {
  if (!hasBridge()) return () => undefined;
  let alive = true;
  const off = subscribe('autoBuyChanged', (pushed) => {
    const current = store.get();
    store.set({ killSwitch: pushed.killSwitch, live: pushed.live, log: mergeLog(current?.log ?? [], pushed.entries) });
  });
  call('getAutoBuyState', {})
    .then((state) => {
      if (alive) store.set({ ...state, log: mergeLog(state.log, store.get()?.log ?? []) });
    })
    .catch((err: unknown) => alive && reportFailure('The auto-buy state could not be read', err));
  return () => {
    alive = false;
    off();
  };
});

/**
 * Sets the kill switch; the answer (and the push) update the store. A failure is reported: a trader who
 * pressed it must never believe automation stopped when it did not.
 */
export async function setKillSwitch(engaged: boolean): Promise<void> {
  try {
    const state = await call('setAutoBuyKillSwitch', { engaged });
    autoBuyStore.set({ ...state, log: mergeLog(state.log, autoBuyStore.get()?.log ?? []) });
  } catch (err) {
    reportFailure(engaged ? 'The kill switch did not engage' : 'The kill switch was not released', err);
  }
}

export const watchlistsStore = new LiveStore<readonly Watchlist[] | null>(null, (store) => {
  if (!hasBridge()) return () => undefined;
  let alive = true;
  let pushed = false;
  const off = subscribe('watchlistsChanged', ({ watchlists }) => {
    pushed = true;
    store.set(watchlists);
  });
  call('listWatchlists', {})
    .then(({ watchlists }) => {
      if (alive && !pushed) store.set(watchlists);
    })
    .catch((err: unknown) => alive && reportFailure('The watchlists could not be read', err));
  return () => {
    alive = false;
    off();
  };
});

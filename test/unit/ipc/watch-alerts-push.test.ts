// The watchAlerts push in a burst: a 250 ms window that held an auto-buy's outcome (buying → bought) and
// more than 100 new alerts kept only the 100 highest ids, so the outcome of the older alert was dropped and
// it showed "buying…" for good. A state change now always goes, new alerts fill what is left of the cap.
import { describe, expect, it } from 'vitest';
import {
  type WatchAlertsPushed,
  WATCH_PUSH_MAX_ALERTS,
  mergeWatchAlerts,
  watchAlertsPush,
} from '../../../src/shared/ipc/calls-watch.ts';
import { watchAlertView as alert } from '../../shared/watch-alert-view.ts';

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const sentIds = (push: WatchAlertsPushed) => [...push.alerts, ...push.changed].map((a) => a.id);

describe('mergeWatchAlerts', () => {
  it('keeps the state change of an older alert among more new alerts than a push holds, and counts the rest', () => {
    const outcome: WatchAlertsPushed = { alerts: [], changed: [alert(5, 'bought')], omitted: 0 };
    const sweep: WatchAlertsPushed = { alerts: ids(1_000, 150).map((id) => alert(id)).reverse(), changed: [], omitted: 0 };
    for (const merged of [mergeWatchAlerts(outcome, sweep), mergeWatchAlerts(sweep, outcome)]) {
      expect(merged.changed).toEqual([alert(5, 'bought')]);
      expect(merged.alerts.map((a) => a.id)).toEqual(ids(1_051, 99).reverse());
      expect(sentIds(merged)).toHaveLength(WATCH_PUSH_MAX_ALERTS);
      expect(merged.omitted).toBe(51);
    }
  });

  it('sends an alert made and changed within one window once, as new, in its latest state', () => {
    const made: WatchAlertsPushed = { alerts: [alert(7, 'buying')], changed: [], omitted: 0 };
    const merged = mergeWatchAlerts(made, { alerts: [], changed: [alert(7, 'bought')], omitted: 0 });
    expect(merged).toEqual({ alerts: [alert(7, 'bought')], changed: [], omitted: 0 });
  });
});

describe('watchAlertsPush', () => {
  it('caps a single push as the contract says, counting what it leaves out', () => {
    const push = watchAlertsPush(ids(1, 500).map((id) => alert(id)), []);
    expect(push.alerts.map((a) => a.id)).toEqual(ids(401, 100).reverse());
    expect(push.omitted).toBe(400);
  });
});

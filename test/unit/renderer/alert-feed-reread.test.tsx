// A watchAlerts push that says alerts were left out (a burst beyond its cap) made the feed add up a count
// and nothing more: an alert whose outcome was among those left out showed "buying…" for good. The feed
// now reads the list again and takes its states, with what was pushed since the read laid over them.
import { afterEach, describe, expect, it } from 'vitest';
import { alertFeedStore } from '../../../src/renderer/screens/watchlists/watch-stores.ts';
import type { WatchAlertView } from '../../../src/shared/ipc/calls-watch.ts';
import { installFakeApp, resetRendererState } from './fake-app.ts';
import { watchAlertView as alert } from '../../shared/watch-alert-view.ts';

let unsubscribe: () => void = () => undefined;
afterEach(() => {
  unsubscribe();
  resetRendererState();
});

const stateOf = (id: number) => alertFeedStore.get().alerts.find((a) => a.id === id)?.state;

describe('alert feed', () => {
  it('reads the alerts again when a push says some were left out, and shows the state the list holds', async () => {
    let listed = [alert(5, 'buying')];
    const app = installFakeApp({ listWatchAlerts: () => ({ alerts: listed }) });
    unsubscribe = alertFeedStore.subscribe(() => undefined);
    await expect.poll(() => stateOf(5)).toBe('buying');
    // the outcome of alert 5 and a burst of new alerts came in one window; the outcome was left out
    listed = [alert(9, 'new'), alert(8, 'new'), alert(5, 'bought')];
    app.push('watchAlerts', { alerts: [alert(9, 'new')], changed: [], omitted: 2 });
    await expect.poll(() => stateOf(5)).toBe('bought');
    expect(app.calls.filter((c) => c.name === 'listWatchAlerts')).toHaveLength(2);
    expect(alertFeedStore.get().alerts.map((a) => a.id)).toEqual([9, 8, 5]);
  });

  it('does not read again for a push that left nothing out', async () => {
    const app = installFakeApp({ listWatchAlerts: () => ({ alerts: [alert(5, 'buying')] }) });
    unsubscribe = alertFeedStore.subscribe(() => undefined);
    await expect.poll(() => stateOf(5)).toBe('buying');
    app.push('watchAlerts', { alerts: [], changed: [alert(5, 'bought')], omitted: 0 });
    expect(stateOf(5)).toBe('bought');
    expect(app.calls.filter((c) => c.name === 'listWatchAlerts')).toHaveLength(1);
  });

  it('reads once more after a read under way when a push left alerts out meanwhile, keeping what was pushed since', async () => {
    const answers: ((alerts: WatchAlertView[]) => void)[] = [];
    const app = installFakeApp({ listWatchAlerts: () => new Promise((resolve) => answers.push((alerts) => resolve({ alerts }))) });
    unsubscribe = alertFeedStore.subscribe(() => undefined);
    await expect.poll(() => answers.length).toBe(1);
    // the first read was made before this push: its answer cannot hold what the push left out
    app.push('watchAlerts', { alerts: [alert(9, 'new')], changed: [alert(5, 'dismissed')], omitted: 1 });
    answers[0]!([alert(5, 'buying')]);
    await expect.poll(() => answers.length).toBe(2);
    expect(stateOf(5)).toBe('dismissed');
    answers[1]!([alert(9, 'new'), alert(8, 'new'), alert(5, 'dismissed')]);
    await expect.poll(() => alertFeedStore.get().alerts.map((a) => a.id)).toEqual([9, 8, 5]);
    expect(app.calls.filter((c) => c.name === 'listWatchAlerts')).toHaveLength(2);
  });
});

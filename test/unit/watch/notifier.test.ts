/**
 * OS notifications for alerts are coalesced: the first after a quiet spell at once, a burst within the
 * window as one summary at its end, so a flood of matches is never a flood of notifications.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlertNotifier } from '../../../src/core/watch/notifier.ts';
import type { WatchAlert } from '../../../src/core/watch/store.ts';

const alert = (id: number, name = `Item ${id}`, watchlistName = 'cheap'): WatchAlert => ({
  id,
  atMs: 0,
  watchlistId: 1,
  watchlistName,
  listingId: 100 + id,
  appId: 730,
  marketHashName: name,
  price: 1_234,
  amount: 1,
  seq: BigInt(id),
  referencePrice: null,
  ceiling: 2_000,
  origin: 'event',
  state: 'new',
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('alert notifications', () => {
  it('show the first at once and a burst of 500 as one summary', () => {
    const shown: { title: string; body: string }[] = [];
    const n = new AlertNotifier({ notify: (title, body) => shown.push({ title, body }), windowMs: 5_000 });
    n.add([alert(1, 'AK-47 | Redline')]);
    expect(shown).toEqual([{ title: 'Watchlist “cheap”', body: 'AK-47 | Redline at $12.34' }]);
    for (let i = 2; i <= 501; i++) n.add([alert(i)]);
    expect(shown).toHaveLength(1);
    vi.advanceTimersByTime(5_000);
    expect(shown).toHaveLength(2);
    expect(shown[1]?.title).toBe('500 watchlist matches for “cheap”');
    expect(shown[1]?.body).toMatch(/and 497 more$/);
    // quiet again: the next one is shown at once
    vi.advanceTimersByTime(5_000);
    n.add([alert(600, 'M4A4 | Howl')]);
    expect(shown).toHaveLength(3);
    expect(shown[2]?.body).toBe('M4A4 | Howl at $12.34');
    n.close();
  });

  it('a failing notification never stops the next ones', () => {
    let calls = 0;
    const n = new AlertNotifier({
      notify: () => {
        calls++;
        throw new Error('no notification daemon');
      },
      windowMs: 1_000,
    });
    expect(() => n.add([alert(1), alert(2)])).not.toThrow();
    vi.advanceTimersByTime(1_000);
    expect(calls).toBe(2);
    n.close();
  });
});

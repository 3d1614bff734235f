/**
 * The alert of an automatic purchase whose run stopped before writing it (a crash, a kill: see
 * WatchStore.recoverAlerts) is written and told by a run already going too, within its minute — not only
 * by the next run to start — and told once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/core/store/index.ts';
import { WatchService } from '../../../src/core/watch/service.ts';
import { type WatchAlert, WatchStore } from '../../../src/core/watch/store.ts';
import { watchRunsClosedAfterEach } from './watch-runs.ts';

const ITEM = 'AK-47 | Redline (Field-Tested)';

const runs = watchRunsClosedAfterEach();
afterEach(() => {
  vi.useRealTimers();
});

describe('an alert a stopped run left unwritten', () => {
  it('is told by the running watch within a minute, once', async () => {
    // the service's minute timer only: the sweeps and the alert window keep their real timers
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = runs.openStore();
    const notified: string[] = [];
    const told: WatchAlert[] = [];
    const running = new WatchService({
      db: t.db,
      notify: (_title, body) => notified.push(body),
      notifyWindowMs: 10,
    });
    runs.track(running);
    running.on('alerts', (alerts) => told.push(...alerts));
    const w = running.create({
      name: 'snipe',
      filter: { name: ITEM },
      price: { kind: 'ceiling', max_price: 5_000 },
      auto_buy: {
        mode: 'auto',
        guardrails: {
          max_price: 5_000,
          total_budget: 100_000,
          daily_cap: 100_000,
          max_per_hour: 10,
          min_balance: 0,
        },
      },
    });
    await running.sweep();

    // `skindesk watch` beside it sent a purchase and died before the next turn of its event loop: the
    // decision is logged with what its alert says, and no alert row was written
    const otherDb = openDatabase(t.file);
    const entry = new WatchStore(otherDb).addLogEntry({
      atMs: Date.now(),
      watchlistId: w.id,
      alertId: null,
      listingId: 4_242,
      marketHashName: ITEM,
      maxPrice: 900,
      amount: 1,
      triggerSeq: 77n,
      mode: 'auto',
      decision: 'sent',
      reason: null,
      status: 'pending',
      alertFacts: {
        watchlistName: 'snipe',
        appId: 730,
        price: 900,
        amount: 1,
        referencePrice: null,
        ceiling: 5_000,
        origin: 'event',
      },
    });
    otherDb.close();
    expect(running.alerts()).toEqual([]);

    vi.advanceTimersByTime(60_000);
    const alerts = running.alerts();
    expect(alerts).toMatchObject([
      { watchlistId: w.id, listingId: 4_242, price: 900, seq: 77n, state: 'buying' },
    ]);
    expect(running.store.logEntry(entry.id)?.alertId).toBe(alerts[0]!.id);
    expect(told.map((a) => a.id)).toEqual([alerts[0]!.id]);
    expect(notified).toEqual([`${ITEM} at $9.00`]);

    // the minutes after it, and the next run to start, find it written and tell nothing
    vi.advanceTimersByTime(120_000);
    const next = new WatchService({ db: t.db, notify: (_title, body) => notified.push(body) });
    runs.track(next);
    next.on('alerts', (more) => told.push(...more));
    vi.advanceTimersByTime(60_000);
    expect(running.alerts()).toHaveLength(1);
    expect(told).toHaveLength(1);
    expect(notified).toHaveLength(1);
  });
});

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { type PollReport, TradePoller, type TradesSource } from '../../../src/core/trades/poller.ts';
import { TradeTracker } from '../../../src/core/trades/tracker.ts';
import type { Trade, TradeStatus } from '../../../src/shared/api/index.ts';
import { FakeTradesSource } from './fake-trades-source.ts';
import { T0, isoAt, makeTrade } from './fixtures.ts';

function setup(options: { pageLimit?: '500' | '1000' } = {}) {
  const clock = new ManualClock(T0);
  const tracker = new TradeTracker({ db: new Database(':memory:'), clock });
  const source = new FakeTradesSource(() => clock.now());
  const poller = new TradePoller({
    source,
    tracker,
    clock,
    activeIntervalMs: 5_000,
    idleIntervalMs: 120_000,
    nudgeGraceMs: 60_000,
    fullSweepEveryMs: 15 * 60_000,
    ...options,
  });
  const reports: PollReport[] = [];
  poller.on('poll', (r) => reports.push(r));
  return { clock, tracker, source, poller, reports };
}

/** A trade created at `createdMs`, last updated at `updatedMs`. */
function trade(id: number, status: TradeStatus, createdMs: number, updatedMs = createdMs): Trade {
  return makeTrade(id, status, updatedMs, { created_at: isoAt(createdMs) });
}

describe('TradePoller', () => {
  it('type-checks against the real REST client', () => {
    const client: TradesSource = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    expect(typeof client.call).toBe('function');
  });

  it('polls often while trades are in flight and rarely otherwise', async () => {
    const { clock, source, poller } = setup();
    source.put(trade(1, 'Active', T0 - 1000));
    poller.start();
    await clock.advance(0);
    expect(source.calls.map((c) => c.at - T0)).toEqual([0]);

    await clock.advance(15_000);
    expect(source.calls.map((c) => c.at - T0)).toEqual([0, 5_000, 10_000, 15_000]);

    source.put(trade(1, 'Accepted', T0 - 1000, T0 + 16_000));
    await clock.advance(5_000); // sees Accepted: nothing in flight any more
    const afterFinal = source.calls.length;
    await clock.advance(119_000);
    expect(source.calls.length).toBe(afterFinal);
    await clock.advance(1_000);
    expect(source.calls.length).toBe(afterFinal + 1);
    await poller.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('switches to the fast cadence right after a nudge, before the new trade is seen', async () => {
    const { clock, source, poller } = setup();
    poller.start();
    await clock.advance(0);
    expect(source.calls).toHaveLength(1);
    await clock.advance(10_000);
    expect(source.calls).toHaveLength(1); // idle

    poller.nudge();
    await clock.advance(0);
    expect(source.calls).toHaveLength(2);
    await clock.advance(60_000);
    expect(source.calls).toHaveLength(2 + 12); // every 5 s for the grace minute
    await clock.advance(120_000);
    expect(source.calls).toHaveLength(15); // back to idle
    await poller.stop();
  });

  it('walks every page on the first poll, then only as far as needed', async () => {
    const { source, poller, tracker, reports } = setup();
    // 1200 trades: 3 pages of 500. The oldest one is still in flight.
    for (let i = 1; i <= 1200; i++) source.put(trade(i, i === 1 ? 'InEscrow' : 'Accepted', T0 - 10_000_000 + i * 1000));
    await poller.pollNow({ full: true });
    expect(reports.at(-1)).toMatchObject({ full: true, pages: 3, rows: 1200, applied: 1200 });
    expect(tracker.count()).toBe(1200);

    // Incremental: the in-flight trade 1 sits on page 3, so the poll must reach it.
    source.put(trade(1, 'Accepted', T0 - 10_000_000 + 1000, T0 + 1));
    const second = await poller.pollNow();
    expect(second).toMatchObject({ full: false, pages: 3, applied: 1 });
    expect(tracker.get(1)?.status).toBe('Accepted');

    // Nothing in flight and nothing new: page 1 is enough.
    expect(await poller.pollNow()).toMatchObject({ pages: 1, applied: 0 });

    // 600 new trades: page 1's oldest row is unknown, so page 2 too; page 2 ends on known trades.
    for (let i = 1201; i <= 1800; i++) source.put(trade(i, 'Active', T0 + i));
    expect(await poller.pollNow()).toMatchObject({ pages: 2, applied: 600 });
    expect(tracker.count()).toBe(1800);
  });

  it('walks on to a trade in flight created at the same instant as the last row of a page (one sell, two offers)', async () => {
    const { source, poller, tracker } = setup();
    const sellAt = T0 - 10_000_000;
    // one sell of two games: two trades created at the same instant, page 1 ending between them
    source.put(trade(1, 'Active', sellAt), trade(2, 'Accepted', sellAt));
    for (let i = 3; i <= 501; i++) source.put(trade(i, 'Accepted', sellAt + i * 1000));
    await poller.pollNow({ full: true });
    expect(tracker.get(1)?.status).toBe('Active');
    source.put(trade(1, 'Accepted', sellAt, T0 + 1));
    expect(await poller.pollNow()).toMatchObject({ full: false, pages: 2, applied: 1 });
    expect(tracker.get(1)?.status).toBe('Accepted');
  });

  it('does not walk on for a trade in flight it already read on the page (created with the last row)', async () => {
    const { source, poller } = setup();
    const sellAt = T0 - 10_000_000;
    // trade 3 (in flight) and trade 2 (the last row of page 1) come from one sell; trade 1 is on page 2
    source.put(trade(1, 'Accepted', sellAt - 1000), trade(2, 'Accepted', sellAt), trade(3, 'Active', sellAt));
    for (let i = 4; i <= 501; i++) source.put(trade(i, 'Accepted', sellAt + i * 1000));
    await poller.pollNow({ full: true });
    expect(await poller.pollNow()).toMatchObject({ full: false, pages: 1 });
  });

  describe('a history that moves between two page turns', () => {
    // trades 1..n, one a second: page 1 holds the newest 500 (n down to n - 499), page 2 the next
    const history = (source: FakeTradesSource, n: number, status: (id: number) => TradeStatus = () => 'Accepted') => {
      for (let i = 1; i <= n; i++) source.put(trade(i, status(i), T0 - 10_000_000 + i * 1000));
    };
    /** Runs `change` once, just before the first read of page `page`. */
    const onceBefore = (source: FakeTradesSource, page: number, change: () => void) => {
      let done = false;
      source.beforePage = (p) => {
        if (p !== page || done) return;
        done = true;
        change();
      };
    };

    it('a trade created on top: the row pushed onto the next page is applied once', async () => {
      const { source, poller, tracker } = setup();
      history(source, 1000);
      onceBefore(source, 2, () => source.put(trade(1001, 'Active', T0)));
      // trade 501 ends page 1 and, pushed down, begins page 2: read twice before
      expect(await poller.pollNow({ full: true })).toMatchObject({ rows: 1000, applied: 1000, tie: 0 });
      expect(tracker.count()).toBe(1000);
    });

    it('a trade gone from page 1: the row pulled up past the page boundary is not skipped', async () => {
      const { source, poller, tracker } = setup();
      history(source, 1000);
      // 800 leaves: every row below moves up one place, and 500 (first of page 2) onto page 1
      onceBefore(source, 2, () => source.trades.delete(800));
      await poller.pollNow({ full: true });
      expect(tracker.get(500)).not.toBeNull();
      expect(tracker.count()).toBe(1000); // 800 was read before it left
    });

    it('an incremental poll keeps its stop: it walks on past new trades, and finds the one pulled up', async () => {
      const { source, poller, tracker } = setup();
      history(source, 1000);
      await poller.pollNow({ full: true });
      // 600 trades created since: page 1's oldest is new, so the poll walks on (and stops on known ones)
      for (let i = 1001; i <= 1600; i++) source.put(trade(i, 'Active', T0 + i));
      onceBefore(source, 2, () => source.trades.delete(1300));
      const report = await poller.pollNow();
      expect(tracker.get(1100)?.status).toBe('Active');
      expect(report).toMatchObject({ full: false, applied: 600 });
      expect(source.calls.slice(-4).map((c) => c.page)).toEqual([1, 2, 1, 2]); // page 1 read again, then page 2
    });

    it('a sweep the moving history cut short is not taken as one: the next poll sweeps again', async () => {
      const { clock, source, poller, reports } = setup();
      history(source, 1000);
      // a trade leaves page 1 before every read of page 2, past the rereads the read allows
      let leaving = 1000;
      source.beforePage = (p) => {
        if (p === 2 && leaving > 990) source.trades.delete(leaving--);
      };
      poller.start();
      await clock.advance(0);
      expect(reports.at(-1)).toMatchObject({ full: true });
      expect(poller.stats().fullSweeps).toBe(0);
      source.beforePage = null;
      await clock.advance(120_000); // the next idle poll
      expect(reports.at(-1)).toMatchObject({ full: true, pages: 2 });
      expect(poller.stats().fullSweeps).toBe(1);
      await poller.stop();
    });
  });

  it('keeps polling when a row carries a timestamp with more than 9 fractional digits', async () => {
    const { source, poller, tracker } = setup();
    source.put(trade(1, 'Active', T0 - 5_000), trade(2, 'Active', T0 - 4_000));
    // accepted by the contract (any number of fractional digits), so it reaches the poller
    source.put({ ...trade(3, 'Active', T0 - 3_000), updated_at: '2026-11-21T08:59:57.0000000001234Z', created_at: '2026-11-21T08:59:57.0000000001Z' });
    expect(await poller.pollNow({ full: true })).toMatchObject({ applied: 3 });
    source.put({ ...trade(3, 'Accepted', T0 - 3_000), updated_at: '2026-11-21T09:00:01.12345678912Z', created_at: '2026-11-21T08:59:57.0000000001Z' });
    source.put(trade(1, 'Accepted', T0 - 5_000, T0 + 2_000));
    expect(await poller.pollNow()).toMatchObject({ applied: 2 });
    expect(tracker.get(3)?.status).toBe('Accepted');
    expect(tracker.get(1)?.status).toBe('Accepted');
    expect(poller.stats().consecutiveFailures).toBe(0);
  });

  it('does a full sweep again after fullSweepEveryMs, catching a change to a trade held as final', async () => {
    const { clock, source, poller, tracker, reports } = setup();
    for (let i = 1; i <= 700; i++) source.put(trade(i, 'Accepted', T0 - 10_000_000 + i * 1000));
    poller.start();
    await clock.advance(0);
    expect(reports.at(-1)).toMatchObject({ full: true, pages: 2 });
    source.put(trade(1, 'Reversed', T0 - 10_000_000 + 1000, T0 + 60_000));
    await clock.advance(14 * 60_000);
    expect(tracker.get(1)?.status).toBe('Accepted'); // incremental polls stop at page 1
    expect(reports.filter((r) => r.full)).toHaveLength(1);
    await clock.advance(2 * 60_000); // the first idle poll after 15 minutes (at 16) sweeps
    expect(reports.at(-1)).toMatchObject({ full: true, pages: 2 });
    expect(tracker.get(1)?.status).toBe('Reversed');
    await poller.stop();
  });

  it('reports failures, backs off while they last, and recovers', async () => {
    const { clock, source, poller } = setup();
    source.put(trade(1, 'Active', T0));
    const errors: string[] = [];
    poller.on('poll_error', (e) => errors.push(e.message));
    poller.start();
    await clock.advance(0);
    source.failNext = 3;
    await clock.advance(5_000); // fails (1)
    await clock.advance(5_000); // fails (2), next in 10 s
    await clock.advance(10_000); // fails (3), next in 20 s
    // the technical message goes with the event (to the log); the stats, which the trade feeds panel shows, keep words
    expect(poller.stats()).toMatchObject({ consecutiveFailures: 3, lastError: 'The marketplace is failing on its side (a server error).' });
    // failing since the first of the three, not the latest: the Trades screen says for how long
    expect(poller.stats().failingSince).toBe(T0 + 5_000);
    await clock.advance(20_000); // succeeds
    expect(source.calls.map((c) => c.at - T0)).toEqual([0, 5_000, 10_000, 20_000, 40_000]);
    expect(errors).toEqual(Array(3).fill('GET /public/v1/trades: HTTP 503'));
    // a good poll ends the failure: the trade feeds panel must not keep showing the old one
    expect(poller.stats()).toMatchObject({ failures: 3, consecutiveFailures: 0, lastError: null, failingSince: null });
    await clock.advance(5_000);
    expect(source.calls).toHaveLength(6);
    await poller.stop();
  });

  it('coalesces polls asked for before or while one runs', async () => {
    const { source, poller } = setup();
    source.put(trade(1, 'Active', T0));
    const a = poller.pollNow();
    const b = poller.pollNow({ full: true });
    expect(a).toBe(b);
    expect((await a).full).toBe(true);
    expect(source.calls).toHaveLength(1);

    let open: () => void = () => undefined;
    source.gate = new Promise<void>((resolve) => (open = resolve));
    const running = poller.pollNow();
    await new Promise((r) => setImmediate(r));
    expect(source.calls).toHaveLength(2); // the poll is waiting on the server
    const next1 = poller.pollNow();
    const next2 = poller.pollNow();
    expect(next1).toBe(next2);
    expect(next1).not.toBe(running);
    source.gate = null;
    open();
    await Promise.all([running, next1]);
    expect(source.calls).toHaveLength(3);
  });

  it('stop() aborts a poll in progress without counting it as a failure', async () => {
    const { clock, source, poller } = setup();
    const errors: Error[] = [];
    poller.on('poll_error', (e) => errors.push(e));
    source.gate = new Promise<void>(() => undefined); // the server never answers
    poller.start();
    await clock.advance(0);
    expect(source.calls).toHaveLength(1);
    await poller.stop();
    expect(errors).toEqual([]);
    expect(poller.stats()).toMatchObject({ failures: 0, nextPollAt: null });
    expect(clock.pendingTimers).toBe(0);
  });

  it('stop() also drops a poll queued behind the one in progress (a nudge during a poll, then quit)', async () => {
    const { clock, source, poller } = setup();
    source.gate = new Promise<void>(() => undefined); // the server never answers
    poller.start();
    await clock.advance(0);
    const queued = poller.pollNow(); // e.g. a sale's nudge while the first poll waits on the server
    const settled = queued.then(
      () => 'polled',
      (e: unknown) => (e instanceof Error ? e.name : String(e)),
    );
    source.gate = null;
    await poller.stop();
    expect(await settled).toBe('AbortError');
    expect(source.calls).toHaveLength(1); // nothing sent after stop()
    expect(poller.stats()).toMatchObject({ failures: 0, nextPollAt: null });
    expect(clock.pendingTimers).toBe(0);

    // started again, the poller polls as usual
    poller.start();
    await clock.advance(0);
    expect(source.calls).toHaveLength(2);
    await poller.stop();
  });

  it('refreshCadence brings an idle wait forward once trades are in flight, and never delays', async () => {
    const { clock, source, poller, tracker } = setup();
    poller.start();
    await clock.advance(0);
    expect(poller.stats().nextPollAt).toBe(T0 + 120_000);
    poller.refreshCadence();
    expect(poller.stats().nextPollAt).toBe(T0 + 120_000); // nothing in flight: unchanged
    await clock.advance(1_000);
    tracker.apply(trade(9, 'Active', T0), 'webhook');
    poller.refreshCadence();
    expect(poller.stats().nextPollAt).toBe(T0 + 6_000);
    await clock.advance(5_000);
    expect(source.calls).toHaveLength(2);
    await poller.stop();
  });
});


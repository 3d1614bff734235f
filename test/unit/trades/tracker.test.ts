import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareInstants, instantKey } from '../../../src/core/trades/instant.ts';
import { type TradeChange, TradeTracker } from '../../../src/core/trades/tracker.ts';
import { T0, makeTrade } from './fixtures.ts';

function memoryTracker() {
  const db = new Database(':memory:');
  let now = T0;
  const tracker = new TradeTracker({ db, clock: { now: () => now++ } });
  const changes: TradeChange[] = [];
  tracker.on('change', (c) => changes.push(c));
  return { db, tracker, changes };
}

describe('instantKey', () => {
  it('orders instants exactly, across offsets and below the millisecond', () => {
    expect(compareInstants('2026-11-21T09:00:00Z', '2026-11-21T11:00:00+02:00')).toBe(0);
    expect(compareInstants('2026-11-21T09:00:00.000001Z', '2026-11-21T09:00:00Z')).toBe(1);
    expect(compareInstants('2026-11-21T09:00:00.0001Z', '2026-11-21T09:00:00.00011Z')).toBe(-1);
    expect(compareInstants('2026-11-21T08:59:59.999Z', '2026-11-21T09:00:00+00:00')).toBe(-1);
    expect(instantKey('2026-11-21T09:00:00.5Z')).toBe(instantKey('2026-11-21T09:00:00.500000000Z'));
  });
  it('refuses what is not an ISO timestamp', () => {
    expect(() => instantKey('yesterday')).toThrow(/not an ISO 8601/);
  });
  it('takes any number of fractional digits the contract accepts, truncated to the nanosecond', () => {
    // the contract's timestamp (zod iso.datetime) lets 10 or more fractional digits through
    expect(instantKey('2026-11-21T09:00:00.1234567891Z')).toBe(instantKey('2026-11-21T09:00:00.123456789Z'));
    expect(instantKey('2026-11-21T09:00:00.999999999999+02:00')).toBe(instantKey('2026-11-21T07:00:00.999999999Z'));
    expect(compareInstants('2026-11-21T09:00:00.0000000019Z', '2026-11-21T09:00:00.000000002Z')).toBe(-1);
    expect(compareInstants('2026-11-21T09:00:00.12345678900001Z', '2026-11-21T09:00:00.1234567890Z')).toBe(0);
  });
});

describe('TradeTracker', () => {
  it('applies a newer state and ignores an older one or a tie', () => {
    const { tracker, changes } = memoryTracker();
    expect(tracker.apply(makeTrade(1, 'Active', T0 + 1000), 'poll')).toBe('applied');
    expect(tracker.apply(makeTrade(1, 'Accepted', T0 + 3000), 'webhook')).toBe('applied');
    // Arrives late: older than what is held, must not move the trade back.
    expect(tracker.apply(makeTrade(1, 'InEscrow', T0 + 2000), 'webhook')).toBe('older');
    // Same updated_at with a different status: ties are ignored.
    expect(tracker.apply(makeTrade(1, 'Declined', T0 + 3000), 'poll')).toBe('tie');

    expect(tracker.get(1)?.status).toBe('Accepted');
    expect(changes.map((c) => [c.trade.status, c.previous?.status ?? null, c.source, c.statusChanged])).toEqual([
      ['Active', null, 'poll', true],
      ['Accepted', 'Active', 'webhook', true],
    ]);
    expect(tracker.stats()).toMatchObject({ applied: 2, ignoredOlder: 1, ignoredTie: 1, appliedBySource: { poll: 1, webhook: 1, action: 0 } });
  });

  it('lets a final status win a tie with an in-flight one, and keeps the first arrival at any other tie', () => {
    const { tracker, changes } = memoryTracker();
    // Whole-second timestamps: the offer is sent and accepted within the same second.
    const second = T0 + 60_000;
    tracker.apply(makeTrade(1, 'Active', second), 'poll');
    expect(tracker.apply(makeTrade(1, 'Accepted', second), 'webhook')).toBe('applied');
    expect(tracker.get(1)?.status).toBe('Accepted');
    expect(tracker.inFlightCount()).toBe(0);
    expect(changes.at(-1)).toMatchObject({ trade: { status: 'Accepted' }, previous: { status: 'Active' }, statusChanged: true });
    // A later poll still answering the in-flight state cannot take the final one back.
    expect(tracker.apply(makeTrade(1, 'Active', second), 'poll')).toBe('tie');
    // Two final statuses, or two in-flight ones, at the same instant: the first one seen stays.
    expect(tracker.apply(makeTrade(1, 'Declined', second), 'poll')).toBe('tie');
    tracker.apply(makeTrade(2, 'Active', second), 'poll');
    expect(tracker.apply(makeTrade(2, 'InEscrow', second), 'webhook')).toBe('tie');
    expect([tracker.get(1)?.status, tracker.get(2)?.status]).toEqual(['Accepted', 'Active']);
    expect(tracker.stats()).toMatchObject({ applied: 3, ignoredTie: 3 });
  });

  it('puts a final status after an in-flight one of the same instant in the timeline, whichever came first', () => {
    const { tracker } = memoryTracker();
    tracker.apply(makeTrade(3, 'Accepted', T0 + 60_000), 'poll');
    tracker.apply(makeTrade(3, 'Active', T0 + 60_000), 'webhook'); // late delivery of the earlier step
    expect(tracker.timeline(3).map((e) => [e.status, e.source])).toEqual([
      ['Active', 'webhook'],
      ['Accepted', 'poll'],
    ]);
  });

  it('keeps a timeline of every status seen, including ones that arrived late', () => {
    const { tracker } = memoryTracker();
    tracker.apply(makeTrade(5, 'CreatedNeedsConfirmation', T0), 'poll');
    tracker.apply(makeTrade(5, 'Accepted', T0 + 3000), 'poll');
    tracker.apply(makeTrade(5, 'Active', T0 + 1000), 'webhook'); // late, fills the gap
    tracker.apply(makeTrade(5, 'Accepted', T0 + 3000), 'webhook'); // same state twice: one step
    expect(tracker.timeline(5).map((e) => [e.status, e.at, e.source])).toEqual([
      ['CreatedNeedsConfirmation', new Date(T0).toISOString(), 'poll'],
      ['Active', new Date(T0 + 1000).toISOString(), 'webhook'],
      ['Accepted', new Date(T0 + 3000).toISOString(), 'poll'],
    ]);
  });

  it('reports a change that keeps the status as not a status change', () => {
    const { tracker, changes } = memoryTracker();
    tracker.apply(makeTrade(2, 'Active', T0), 'poll');
    tracker.apply(makeTrade(2, 'Active', T0 + 10, { steam_offer_id: '6000002' }), 'poll');
    expect(changes.map((c) => c.statusChanged)).toEqual([true, false]);
    expect(tracker.get(2)?.steam_offer_id).toBe('6000002');
    expect(tracker.timeline(2)).toHaveLength(1);
  });

  it('counts trades in flight and finds trades by deposit id', () => {
    const { tracker } = memoryTracker();
    const counts = tracker.applyMany(
      [
        makeTrade(1, 'Active', T0),
        makeTrade(2, 'InEscrow', T0),
        makeTrade(3, 'Accepted', T0),
        makeTrade(4, 'CreatedNeedsConfirmation', T0, { deposit_id: 77 }),
        makeTrade(4, 'CreatedNeedsConfirmation', T0, { deposit_id: 77 }),
      ],
      'poll',
    );
    expect(counts).toEqual({ applied: 4, older: 0, tie: 1 });
    expect(tracker.inFlightCount()).toBe(3);
    expect(tracker.inFlight().map((t) => t.id)).toEqual([4, 2, 1]);
    expect(tracker.byDepositId(77).map((t) => t.id)).toEqual([4]);
    expect(tracker.list().map((t) => t.id)).toEqual([4, 3, 2, 1]);
  });

  it('survives a restart: the state held and its guard come back from SQLite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skindesk-tracker-'));
    try {
      const file = join(dir, 'trades.db');
      const first = new Database(file);
      new TradeTracker({ db: first }).apply(makeTrade(9, 'Accepted', T0 + 5000), 'webhook');
      first.close();

      const second = new Database(file);
      const tracker = new TradeTracker({ db: second });
      expect(tracker.get(9)?.status).toBe('Accepted');
      expect(tracker.apply(makeTrade(9, 'Active', T0 + 1000), 'poll')).toBe('older');
      expect(tracker.timeline(9).map((e) => e.status)).toEqual(['Active', 'Accepted']);
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compares updated_at as instants, not as text', () => {
    const { tracker } = memoryTracker();
    tracker.apply({ ...makeTrade(3, 'Active', T0), updated_at: '2026-11-21T10:00:00+02:00' }, 'poll'); // 08:00Z
    expect(tracker.apply({ ...makeTrade(3, 'Accepted', T0), updated_at: '2026-11-21T09:00:00Z' }, 'webhook')).toBe('applied');
    expect(tracker.get(3)?.status).toBe('Accepted');
  });
});

import { describe, expect, it } from 'vitest';
import {
  BOOK_CHANGE_MAX_IDS,
  type BookChanged,
  IPC_PUSHES,
  PushCoalescer,
  type Timers,
  mergeTradeUpdates,
} from '../../../src/shared/ipc/index.ts';

/** Manual clock: timers fire only when the test advances time. */
class FakeTimers implements Timers {
  time = 0;
  #next = 1;
  readonly #due = new Map<number, { at: number; fn: () => void }>();
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const handle = this.#next++;
    this.#due.set(handle, { at: this.time + ms, fn });
    return handle;
  };
  clearTimeout = (handle: unknown) => {
    this.#due.delete(handle as number);
  };
  advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.#due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > end) break;
      this.#due.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
  }
}

const change = (version: number, ids: number[]): BookChanged => ({
  version,
  lastSeq: String(version),
  reset: false,
  upserted: ids.length,
  removed: 0,
  ids,
  idsTruncated: false,
});

describe('PushCoalescer', () => {
  it('delivers book changes at most ~60 times a second and loses nothing of their sum', () => {
    const timers = new FakeTimers();
    const sent: BookChanged[] = [];
    const sentAt: number[] = [];
    const coalescer = new PushCoalescer((name, payload) => {
      if (name === 'bookChanged') sent.push(payload as BookChanged);
      sentAt.push(timers.now());
    }, timers);
    // 5,000 single-row changes spread over one second
    for (let i = 1; i <= 5000; i++) {
      coalescer.publish('bookChanged', change(i, [i]));
      timers.advance(0.2);
    }
    timers.advance(100);
    // 5,000 changes in one second (plus the tail) become at most 60 + 1 deliveries
    expect(sent.length).toBeLessThanOrEqual(61);
    expect(sent.length).toBeGreaterThan(30);
    const gaps = sentAt.slice(1).map((t, i) => t - (sentAt[i] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 60);
    expect(sent.reduce((sum, c) => sum + c.upserted, 0)).toBe(5000);
    expect(sent.at(-1)?.version).toBe(5000);
    expect(sent.at(-1)?.lastSeq).toBe('5000');
  });

  it('sends the first payload at once and the merged rest after the interval', () => {
    const timers = new FakeTimers();
    const sent: BookChanged[] = [];
    const coalescer = new PushCoalescer((_name, payload) => sent.push(payload as BookChanged), timers);
    coalescer.publish('bookChanged', change(1, [1]));
    coalescer.publish('bookChanged', change(2, [2]));
    coalescer.publish('bookChanged', { ...change(3, [2, 3]), reset: true });
    expect(sent).toHaveLength(1);
    timers.advance(IPC_PUSHES.bookChanged.intervalMs);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({
      version: 3,
      lastSeq: '3',
      reset: true,
      upserted: 3,
      removed: 0,
      ids: [2, 3],
      idsTruncated: false,
    });
  });

  it('caps the ids of a merged batch and says so', () => {
    const timers = new FakeTimers();
    const sent: BookChanged[] = [];
    const coalescer = new PushCoalescer((_n, p) => sent.push(p as BookChanged), timers);
    coalescer.publish('bookChanged', change(1, [1]));
    for (let i = 0; i < 3; i++) {
      coalescer.publish(
        'bookChanged',
        change(
          2 + i,
          Array.from({ length: 600 }, (_, k) => 10_000 * (i + 1) + k),
        ),
      );
    }
    timers.advance(50);
    expect(sent[1]?.ids).toHaveLength(BOOK_CHANGE_MAX_IDS);
    expect(sent[1]?.idsTruncated).toBe(true);
  });

  it('keeps only the latest status, and delivers every notification at once', () => {
    const timers = new FakeTimers();
    const names: string[] = [];
    const statuses: unknown[] = [];
    const coalescer = new PushCoalescer((name, payload) => {
      names.push(name);
      if (name === 'syncStatus') statuses.push(payload);
    }, timers);
    const status = IPC_PUSHES.syncStatus.example;
    coalescer.publish('syncStatus', { ...status, rows: 1 });
    coalescer.publish('syncStatus', { ...status, rows: 2 });
    coalescer.publish('syncStatus', { ...status, rows: 3 });
    for (let i = 0; i < 3; i++)
      coalescer.publish('notification', { ...IPC_PUSHES.notification.example, id: `n${i}` });
    timers.advance(1000);
    expect(statuses).toEqual([
      { ...status, rows: 1 },
      { ...status, rows: 3 },
    ]);
    expect(names.filter((n) => n === 'notification')).toHaveLength(3);
  });

  it('drops pending payloads when closed', () => {
    const timers = new FakeTimers();
    const sent: unknown[] = [];
    const coalescer = new PushCoalescer((_n, p) => sent.push(p), timers);
    coalescer.publish('bookChanged', change(1, [1]));
    coalescer.publish('bookChanged', change(2, [2]));
    coalescer.close();
    timers.advance(1000);
    coalescer.publish('bookChanged', change(3, [3]));
    expect(sent).toHaveLength(1);
  });
});

describe('mergeTradeUpdates', () => {
  it('keeps the newest state of each trade by updated_at', () => {
    const base = {
      type: 'SELL',
      deposit_id: 1,
      withdraw_id: null,
      steam_offer_id: null,
      value: 100,
      error: null,
      created_at: '2026-01-01T00:00:00Z',
      items: [],
    };
    const merged = mergeTradeUpdates(
      { trades: [{ ...base, id: 1, status: 'Accepted', updated_at: '2026-01-01T00:00:05Z' }] },
      {
        trades: [
          { ...base, id: 1, status: 'Active', updated_at: '2026-01-01T00:00:01Z' },
          { ...base, id: 2, status: 'Active', updated_at: '2026-01-01T00:00:02Z' },
        ],
      },
    );
    expect(merged.trades.map((t) => [t.id, t.status])).toEqual([
      [1, 'Accepted'],
      [2, 'Active'],
    ]);
  });
});

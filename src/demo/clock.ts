/**
 * Time for the demo market. Two separate ideas:
 * - `now()` is wall-clock time plus an offset that tests can move forward (`advance`), so token expiry,
 *   price decay and date filters can be exercised without waiting.
 * - Every timer (trade progress, withdrawal settlement, webhook back-off and time-out) is divided by
 *   `timeScale`, so `--time-scale 100` makes a 20 s trade step take 200 ms. Timers are tracked so that
 *   closing the market cancels all of them.
 */
export class Clock {
  readonly timeScale: number;
  private offsetMs = 0;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(timeScale = 1) {
    if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new RangeError('timeScale must be a positive number');
    this.timeScale = timeScale;
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves `now()` forward; timers are not fired by this (they run on real time, scaled). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('can only advance the clock forward');
    this.offsetMs += ms;
  }

  /** A duration of market time expressed in real milliseconds. */
  scaled(ms: number): number {
    return ms / this.timeScale;
  }

  /** Runs `fn` after `marketMs` of market time (scaled). Returns a cancel function. */
  after(marketMs: number, fn: () => void): () => void {
    if (this.closed) return () => {};
    const handle = setTimeout(() => {
      this.timers.delete(handle);
      fn();
    }, Math.max(0, Math.round(this.scaled(marketMs))));
    this.timers.add(handle);
    return () => {
      clearTimeout(handle);
      this.timers.delete(handle);
    };
  }

  /** Cancels every pending timer; later `after` calls do nothing. */
  close(): void {
    this.closed = true;
    for (const handle of this.timers) clearTimeout(handle);
    this.timers.clear();
  }
}

/**
 * ISO 8601 formatting that reuses the date-and-time prefix of the previous call when it falls in the same
 * second: book snapshots format a million timestamps, mostly close together, and Date#toISOString is the
 * single most expensive step of building one.
 */
export class IsoFormatter {
  private lastSecond = Number.NaN;
  private lastPrefix = '';

  format(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      this.lastPrefix = new Date(second * 1000).toISOString().slice(0, 19);
    }
    const milli = ms - second * 1000;
    return `${this.lastPrefix}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

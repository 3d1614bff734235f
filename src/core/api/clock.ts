/**
 * Time as a dependency. The governor, the client's timeouts and the purchase reconciler read time only
 * through a Clock, so tests (and the soak suite) can drive hours of rate-limit behaviour in milliseconds
 * with a ManualClock and prove properties that a real clock could only sample.
 */

export interface Clock {
  /** Milliseconds since the Unix epoch (rate-limit `X-RateLimit-Reset` headers are epoch seconds). */
  now(): number;
  /**
   * Milliseconds on a clock that never jumps, for intervals (rate windows, waits): the wall clock can be
   * stepped back or forward (NTP, a user fixing the time) and would empty a window or block an endpoint
   * for as long as the step. Absent: `now()` is taken to run evenly (a ManualClock does).
   */
  monotonic?(): number;
  /** Runs `callback` once after `ms`; returns a function that cancels it. */
  setTimer(ms: number, callback: () => void): () => void;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Time for intervals (waits, windows, rates): the clock's monotonic time when it has one, else `now()`. */
export function intervalTime(clock: Pick<Clock, 'now' | 'monotonic'>): number {
  return clock.monotonic ? clock.monotonic() : clock.now();
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Builds `sleep` from `setTimer`, so every Clock cancels the same way. */
function sleepWith(clock: Pick<Clock, 'setTimer'>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      cancel();
      reject(abortReason(signal as AbortSignal));
    };
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimer(ms, callback) {
    const handle = setTimeout(callback, Math.max(0, ms));
    return () => clearTimeout(handle);
  },
  sleep(ms, signal) {
    return sleepWith(systemClock, ms, signal);
  },
};

interface ManualTimer {
  at: number;
  order: number;
  callback: () => void;
}

/**
 * A clock that moves only when told to. `advance(ms)` fires due timers in time order, letting promise
 * continuations run between them, so code that awaits and re-arms timers behaves as it would in real
 * time. For tests and simulations only; production code uses `systemClock`.
 */
export class ManualClock implements Clock {
  #now: number;
  #timers: ManualTimer[] = [];
  #order = 0;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: ManualTimer = { at: this.#now + Math.max(0, ms), order: this.#order++, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  /** Number of timers not yet fired. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await flushMicrotasks();
      const next = this.#nextDue(target);
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = Math.max(this.#now, next.at);
      next.callback();
    }
    this.#now = target;
    await flushMicrotasks();
  }

  /** Advances to the next timer (if any) and fires it; returns false when no timer is pending. */
  async advanceToNextTimer(): Promise<boolean> {
    await flushMicrotasks();
    const next = this.#nextDue(Number.POSITIVE_INFINITY);
    if (!next) return false;
    await this.advance(next.at - this.#now);
    return true;
  }

  #nextDue(limit: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const t of this.#timers) {
      if (t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.order < best.order)) best = t;
    }
    return best;
  }
}

/** Lets queued promise continuations (several hops deep) run before the clock moves on. */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}

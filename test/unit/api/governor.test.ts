import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { RateGovernor, readRateHeaders, type Permit, type Priority } from '../../../src/core/api/governor.ts';
import { ENDPOINTS, rateLimitKey, type EndpointName } from '../../../src/shared/api/index.ts';
import { createRng } from '../../bench/generate.ts';
import { maxInAnyWindow } from './windows.ts';

/** Deterministic PRNG: the bursts are random but every run is the same run. */
const prng = createRng;

describe('RateGovernor: strict sliding window', () => {
  const limited: EndpointName[] = ['listings', 'book', 'sales', 'orders', 'purchase', 'prices', 'steamInventory'];

  it.each(limited)('never releases more than the limit of %s in any window, across bursts of concurrent callers', async (name) => {
    const limit = ENDPOINTS[name].rateLimit;
    if (!limit) throw new Error('expected a limited endpoint');
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    const key = rateLimitKey(name);
    governor.define(key, limit);
    const random = prng(limit.limit * 7919 + limit.windowMs);
    const released: number[] = [];
    const total = limit.limit * 3 + 7;
    const pending: Promise<void>[] = [];
    let issued = 0;
    // Bursts of concurrent callers at random moments; each request "takes" a random latency.
    while (issued < total) {
      const burst = Math.min(total - issued, 1 + Math.floor(random() * limit.limit * 1.5));
      for (let i = 0; i < burst; i++, issued++) {
        const priority: Priority = random() < 0.3 ? 'interactive' : 'background';
        pending.push(
          governor.acquire(key, priority).then((permit) => {
            released.push(permit.grantedAt);
            clock.setTimer(Math.floor(random() * 300), () => permit.complete({ status: 200, remaining: null, resetAtMs: null, retryAfterMs: null }));
          }),
        );
      }
      await clock.advance(Math.floor(random() * limit.windowMs * 0.7));
    }
    // Let the queue drain: bounded, since every wait is at most one window.
    for (let i = 0; i < total * 3 && released.length < total; i++) await clock.advance(limit.windowMs / 4);
    await Promise.all(pending);
    expect(released).toHaveLength(total);
    expect(maxInAnyWindow(released, limit.windowMs)).toBe(limit.limit);
    // Strict: the (i + limit)-th release is at least one full window after the i-th.
    const sorted = [...released].sort((a, b) => a - b);
    for (let i = 0; i + limit.limit < sorted.length; i++) {
      expect((sorted[i + limit.limit] as number) - (sorted[i] as number)).toBeGreaterThanOrEqual(limit.windowMs);
    }
    const stats = governor.stats().endpoints.find((e) => e.key === key);
    expect(stats?.sent).toBe(total);
    expect(stats?.waits).toBeGreaterThan(0);
  });

  it('tells how long a request sent now would wait: the window, then a Retry-After', async () => {
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 100 });
    governor.define('GET /book', { limit: 2, windowMs: 60_000 });
    expect(governor.waitMs('GET /book')).toBe(0);
    (await governor.acquire('GET /book')).complete();
    await clock.advance(10_000);
    (await governor.acquire('GET /book')).complete(readRateHeaders(500, new Headers(), clock.now()));
    // the first of the two leaves the window (plus the margin) 60.1 s after it went
    expect(governor.waitMs('GET /book')).toBe(50_100);
    await clock.advance(50_100);
    expect(governor.waitMs('GET /book')).toBe(0);
    (await governor.acquire('GET /book')).complete(readRateHeaders(429, new Headers({ 'retry-after': '30' }), clock.now()));
    expect(governor.waitMs('GET /book')).toBe(30_000); // longer than the window's 10 s left
    expect(governor.waitMs('GET /other')).toBe(0);
  });

  it('adds the jitter margin to every window', async () => {
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 100 });
    governor.define('k', { limit: 1, windowMs: 1000 });
    const first = await governor.acquire('k');
    first.complete();
    const second = governor.acquire('k');
    await clock.advance(1000);
    let released = false;
    void second.then(() => (released = true));
    await clock.advance(0);
    expect(released).toBe(false);
    await clock.advance(100);
    expect((await second).grantedAt - first.grantedAt).toBe(1100);
  });
});

describe('RateGovernor: a wall clock that jumps', () => {
  /** The machine's time set back or forward (NTP step, a user fixing the clock) while time flows evenly. */
  function steppedClock() {
    const manual = new ManualClock(1_800_000_000_000);
    const clock = {
      step: 0,
      manual,
      now: () => manual.now() + clock.step,
      monotonic: () => manual.now(),
      setTimer: (ms: number, callback: () => void) => manual.setTimer(ms, callback),
      sleep: (ms: number, signal?: AbortSignal) => manual.sleep(ms, signal),
    };
    return clock;
  }

  it('set back ten minutes: an endpoint whose window has passed is not blocked for ten minutes', async () => {
    const clock = steppedClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('GET /book', { limit: 6, windowMs: 60_000 });
    for (let i = 0; i < 6; i++) (await governor.acquire('GET /book')).complete();
    await clock.manual.advance(60_000);
    clock.step = -10 * 60_000;
    expect(governor.waitMs('GET /book')).toBe(0);
    const next = governor.acquire('GET /book');
    let released = false;
    void next.then(() => (released = true));
    await clock.manual.advance(0);
    expect(released).toBe(true);
  });

  it('set forward half an hour: the window is not emptied, no burst beyond the limit', async () => {
    const clock = steppedClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('GET /book', { limit: 6, windowMs: 60_000 });
    for (let i = 0; i < 6; i++) (await governor.acquire('GET /book')).complete();
    clock.step = 30 * 60_000;
    expect(governor.waitMs('GET /book')).toBe(60_000);
    const released: number[] = [];
    const next = governor.acquire('GET /book').then((p) => (released.push(clock.manual.now()), p.complete()));
    await clock.manual.advance(59_999);
    expect(released).toEqual([]);
    await clock.manual.advance(1);
    await next;
    expect(released).toHaveLength(1);
  });

  it('a Retry-After keeps its length across a jump of the wall clock', async () => {
    const clock = steppedClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 60, windowMs: 60_000 });
    (await governor.acquire('k')).complete(readRateHeaders(429, new Headers({ 'retry-after': '7' }), clock.now()));
    clock.step = 3600_000;
    expect(governor.waitMs('k')).toBe(7000);
    clock.step = -3600_000;
    expect(governor.waitMs('k')).toBe(7000);
  });

  it('a 429 with Retry-After: 0 (under a second left, rounded down) still waits a second, not a burst of retries', async () => {
    const clock = steppedClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 60, windowMs: 60_000 });
    (await governor.acquire('k')).complete(readRateHeaders(429, new Headers({ 'retry-after': '0' }), clock.now()));
    expect(governor.waitMs('k')).toBe(1000);
  });

  it('an X-RateLimit-Reset read before the jump still ends when the server said', async () => {
    const clock = steppedClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 30, windowMs: 60_000 });
    const resetSec = Math.floor(clock.now() / 1000) + 40;
    (await governor.acquire('k')).complete(
      readRateHeaders(200, new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetSec) }), clock.now()),
    );
    clock.step = 3600_000;
    expect(governor.waitMs('k')).toBe(40_000);
    expect(governor.stats().endpoints[0]?.blockedUntil).toBe(clock.now() + 40_000);
  });
});

describe('RateGovernor: the server wins', () => {
  const ok = { status: 200, remaining: null, resetAtMs: null, retryAfterMs: null };

  it('Retry-After: 7 → no request to that endpoint for 7 seconds, other endpoints unaffected', async () => {
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('GET /a', { limit: 60, windowMs: 60_000 });
    governor.define('GET /b', { limit: 60, windowMs: 60_000 });
    const first = await governor.acquire('GET /a');
    const t429 = clock.now();
    first.complete(readRateHeaders(429, new Headers({ 'retry-after': '7' }), clock.now()));
    const releases: number[] = [];
    const waiting = Array.from({ length: 5 }, () => governor.acquire('GET /a').then((p: Permit) => releases.push(p.grantedAt)));
    const other = await governor.acquire('GET /b');
    expect(other.grantedAt).toBe(t429);
    for (let s = 0; s < 7; s++) {
      await clock.advance(999);
      expect(releases).toEqual([]);
      await clock.advance(1);
    }
    await Promise.all(waiting);
    expect(Math.min(...releases)).toBeGreaterThanOrEqual(t429 + 7000);
    const stats = governor.stats();
    expect(stats.totals.rateLimited).toBe(1);
    expect(stats.endpoints.find((e) => e.key === 'GET /a')?.rateLimited).toBe(1);
  });

  it('X-RateLimit-Remaining: 0 blocks until X-RateLimit-Reset even when the local window is empty (after a restart)', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 30, windowMs: 60_000 });
    const permit = await governor.acquire('k');
    const resetSec = Math.floor(clock.now() / 1000) + 40;
    permit.complete(readRateHeaders(200, new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetSec) }), clock.now()));
    expect(governor.stats().endpoints[0]?.headroom).toBe(0);
    const next = governor.acquire('k');
    let grantedAt = 0;
    void next.then((p) => (grantedAt = p.grantedAt));
    await clock.advance(39_999);
    expect(grantedAt).toBe(0);
    await clock.advance(1);
    await next;
    expect(grantedAt).toBe(resetSec * 1000);
    (await next).complete(ok);
  });

  it('a wild Retry-After (a day, a date years ahead) blocks no longer than a wild X-RateLimit-Reset would', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const governor = new RateGovernor({ clock, marginMs: 0, maxResetWaitMs: 10 * 60_000 });
    governor.define('k', { limit: 30, windowMs: 60_000 });
    (await governor.acquire('k')).complete(readRateHeaders(429, new Headers({ 'retry-after': '86400' }), clock.now()));
    expect(governor.waitMs('k')).toBe(10 * 60_000);
    const inYears = new Date(clock.now() + 5 * 365 * 86_400_000).toUTCString();
    await clock.advance(10 * 60_000);
    (await governor.acquire('k')).complete(readRateHeaders(429, new Headers({ 'retry-after': inYears }), clock.now()));
    expect(governor.waitMs('k')).toBe(10 * 60_000);
  });

  it('a lower X-RateLimit-Remaining caps the local headroom until the reset', async () => {
    const clock = new ManualClock(1_800_000_000_000);
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 30, windowMs: 60_000 });
    const resetSec = Math.floor(clock.now() / 1000) + 20;
    const first = await governor.acquire('k');
    first.complete(readRateHeaders(200, new Headers({ 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': String(resetSec) }), clock.now()));
    expect(governor.stats().endpoints[0]?.serverRemaining).toBe(2);
    const releases: number[] = [];
    const all = Array.from({ length: 4 }, () => governor.acquire('k').then((p) => (releases.push(p.grantedAt), p.complete(ok))));
    await clock.advance(0);
    expect(releases).toEqual([clock.now(), clock.now()]);
    await clock.advance(20_000);
    await Promise.all(all);
    expect(releases.slice(2)).toEqual([resetSec * 1000, resetSec * 1000]);
  });

  // X-RateLimit-Reset is the server's clock; the governor waits on ours. 5 minutes of skew either way.
  it.each([
    ['ahead of', -300_000],
    ['behind', 300_000],
  ])('a local clock 5 minutes %s the server still waits exactly until the server\'s reset', async (_how, offsetMs) => {
    const serverNow = 1_800_000_000_000;
    const clock = new ManualClock(serverNow - offsetMs); // offset = server clock minus ours
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 30, windowMs: 60_000 });
    const permit = await governor.acquire('k');
    const resetSec = serverNow / 1000 + 40; // the server's window ends in 40 s
    permit.complete(readRateHeaders(200, new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetSec) }), clock.now(), offsetMs));
    // Remaining: 0 is honoured (a clock ahead would otherwise think the reset long past) ...
    expect(governor.stats().endpoints[0]?.headroom).toBe(0);
    expect(governor.waitMs('k')).toBe(40_000);
    const start = clock.now();
    let grantedAt = 0;
    const next = governor.acquire('k').then((p) => ((grantedAt = p.grantedAt), p));
    await clock.advance(39_999);
    expect(grantedAt).toBe(0);
    // ... and lifted after 40 s (a clock behind would otherwise wait 5 min 40 s)
    await clock.advance(1);
    (await next).complete(ok);
    expect(grantedAt - start).toBe(40_000);
  });

  it('a Retry-After date is the server\'s clock too', () => {
    const serverNow = Date.UTC(2026, 0, 1);
    const localNow = serverNow + 300_000; // ours is 5 minutes ahead
    const date = new Date(serverNow + 12_000).toUTCString();
    expect(readRateHeaders(429, new Headers({ 'retry-after': date }), localNow, -300_000).retryAfterMs).toBe(12_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(readRateHeaders(429, new Headers({ 'retry-after': '7' }), now).retryAfterMs).toBe(7000);
    const date = new Date(now + 12_000).toUTCString();
    expect(readRateHeaders(429, new Headers({ 'retry-after': date }), now).retryAfterMs).toBe(12_000);
    expect(readRateHeaders(429, new Headers({ 'retry-after': 'soon' }), now).retryAfterMs).toBeNull();
  });
});

describe('RateGovernor: priorities', () => {
  it('interactive calls overtake queued background calls; each priority stays in arrival order', async () => {
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('GET /listings', { limit: 1, windowMs: 1000 });
    const order: string[] = [];
    const take = (label: string, priority: Priority) =>
      governor.acquire('GET /listings', priority).then((p) => {
        order.push(label);
        p.complete();
      });
    const all = [take('bg1', 'background'), take('bg2', 'background'), take('bg3', 'background'), take('bg4', 'background')];
    await clock.advance(0);
    expect(order).toEqual(['bg1']);
    expect(governor.stats().endpoints[0]).toMatchObject({ queuedBackground: 3, queuedInteractive: 0, headroom: 0 });
    all.push(take('ui1', 'interactive'), take('ui2', 'interactive'));
    await clock.advance(0);
    expect(governor.stats().endpoints[0]?.queuedInteractive).toBe(2);
    for (let i = 0; i < 5; i++) await clock.advance(1000);
    await Promise.all(all);
    expect(order).toEqual(['bg1', 'ui1', 'ui2', 'bg2', 'bg3', 'bg4']);
  });

  it('an aborted waiter leaves the queue and the others keep their turn', async () => {
    const clock = new ManualClock();
    const governor = new RateGovernor({ clock, marginMs: 0 });
    governor.define('k', { limit: 1, windowMs: 1000 });
    (await governor.acquire('k')).complete();
    const controller = new AbortController();
    const aborted = governor.acquire('k', 'interactive', controller.signal);
    const next = governor.acquire('k', 'background');
    controller.abort(new Error('user closed the dialog'));
    await expect(aborted).rejects.toThrow('user closed the dialog');
    await clock.advance(1000);
    expect((await next).grantedAt).toBe(clock.now());
  });
});

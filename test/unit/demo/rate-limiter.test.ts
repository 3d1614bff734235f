import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/demo/server/rate-limiter.ts';

describe('RateLimiter', () => {
  it('allows `limit` requests per window, then refuses with a Retry-After until the window resets', () => {
    const limiter = new RateLimiter();
    const rule = { limit: 3, windowMs: 60_000 };
    const t0 = 1_000_000;
    const decisions = [0, 1, 2, 3].map((i) => limiter.take('k', rule, t0 + i * 1000));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(decisions[3]!.resetAt).toBe(t0 + 60_000);
    expect(decisions[3]!.retryAfter).toBe(57);
    expect(limiter.take('other', rule, t0).allowed).toBe(true);
    expect(limiter.take('k', rule, t0 + 60_000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('shortens windows by a scale and can be told never to refuse (tests only)', () => {
    const fast = new RateLimiter(60);
    expect(fast.take('k', { limit: 1, windowMs: 60_000 }, 0).allowed).toBe(true);
    expect(fast.take('k', { limit: 1, windowMs: 60_000 }, 500).allowed).toBe(false);
    expect(fast.take('k', { limit: 1, windowMs: 60_000 }, 1000).allowed).toBe(true);
    const lenient = new RateLimiter(1, false);
    for (let i = 0; i < 5; i++) expect(lenient.take('k', { limit: 1, windowMs: 1000 }, 0).allowed).toBe(true);
  });
});

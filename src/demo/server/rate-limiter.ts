/**
 * Fixed-window rate limits per caller and endpoint (spec part 8): the caller is the API key's account,
 * or the IP address for requests without a valid key. Answers what the X-RateLimit-* headers and a 429's
 * Retry-After need.
 */
import type { RateLimit } from '../../shared/api/index.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the window resets. */
  resetAt: number;
  /** Whole seconds until a retry can succeed (at least 1). */
  retryAfter: number;
}

interface Window {
  start: number;
  count: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly windowScale: number;
  private readonly enforce: boolean;

  /**
   * `windowScale` > 1 shortens every window; `enforce` false counts and reports but never refuses.
   * Both exist for tests only: the CLI always runs the spec's limits.
   */
  constructor(windowScale = 1, enforce = true) {
    this.windowScale = windowScale;
    this.enforce = enforce;
  }

  take(key: string, rule: RateLimit, now = Date.now()): RateDecision {
    const windowMs = Math.max(1, Math.round(rule.windowMs / this.windowScale));
    let w = this.windows.get(key);
    if (!w || now - w.start >= w.windowMs) {
      w = { start: now, count: 0, windowMs };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.prune(now);
    }
    const resetAt = w.start + w.windowMs;
    const allowed = w.count < rule.limit || !this.enforce;
    if (allowed) w.count++;
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - w.count),
      resetAt,
      retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
    };
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= w.windowMs) this.windows.delete(key);
  }
}

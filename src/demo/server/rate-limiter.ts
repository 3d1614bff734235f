/**
 * Fixed-window rate limits per caller and endpoint (spec part 8): the caller is the API key (named by
 * its account and a digest of the key: http-server.ts `rateLimitCaller`), or the IP address for
 * requests without a valid key. Answers what the X-RateLimit-* headers and a 429's
 * Retry-After need.
 *
 * It also audits callers, for the soak suite's "no request exceeded a rate limit, every Retry-After was
 * honoured": per caller+endpoint key it counts requests refused because the window was full, and
 * requests that arrived while a Retry-After the caller had already received was still running.
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

/** What one caller+endpoint key did wrong. */
export interface RateAuditEntry {
  /** Requests beyond the limit (answered 429 because the window was full). */
  refused: number;
  /** Requests that arrived before a Retry-After the caller had been given ran out. */
  earlyRetries: number;
}

export interface RateAudit extends RateAuditEntry {
  /** Keys with anything to report, `<caller> <endpoint>` → counts. */
  keys: Record<string, RateAuditEntry>;
  /**
   * Every refusal and early retry (the latest 1,000), with the start of the window or wait it broke and
   * the previous request's arrival: enough to tell what caused it (a caller that restarted, say).
   */
  events: RateAuditEvent[];
}

export interface RateAuditEvent {
  at: number;
  key: string;
  what: 'refused' | 'early_retry';
  /** The window (refusals) or the Retry-After wait (early retries) it broke, from. */
  windowStart: number;
  /** When the previous request with this key arrived. */
  previous: number | null;
}

interface Window {
  start: number;
  count: number;
  windowMs: number;
}

/**
 * A request sent before the caller could have read the 429 is not ignoring it: requests arriving within
 * this long after the 429 was written are not counted as early retries.
 */
export const RETRY_AFTER_GRACE_MS = 250;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly windowScale: number;
  private readonly enforce: boolean;
  private readonly audits = new Map<string, RateAuditEntry>();
  /** Per key: a Retry-After in force, from (answer delivered + grace) until it runs out. */
  private readonly retryBlocks = new Map<string, { from: number; until: number }>();
  private readonly events: RateAuditEvent[] = [];
  /** Arrival of the previous request per key (for the audit's events). */
  private readonly previous = new Map<string, number>();

  /**
   * `windowScale` > 1 shortens every window; `enforce` false counts and reports but never refuses.
   * Both exist for tests only: the CLI always runs the spec's limits.
   */
  constructor(windowScale = 1, enforce = true) {
    this.windowScale = windowScale;
    this.enforce = enforce;
  }

  take(key: string, rule: RateLimit, now = Date.now()): RateDecision {
    this.checkRetryAfter(key, now);
    const previous = this.previous.get(key) ?? null;
    this.previous.set(key, now);
    const windowMs = Math.max(1, Math.round(rule.windowMs / this.windowScale));
    let w = this.windows.get(key);
    if (!w || now - w.start >= w.windowMs) {
      w = { start: now, count: 0, windowMs };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.prune(now);
    }
    const resetAt = w.start + w.windowMs;
    const withinLimit = w.count < rule.limit;
    const allowed = withinLimit || !this.enforce;
    if (allowed) w.count++;
    if (!withinLimit) {
      this.entry(key).refused++;
      this.note({ at: now, key, what: 'refused', windowStart: w.start, previous });
    }
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - w.count),
      resetAt,
      retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
    };
  }

  /**
   * Records that a 429 telling the caller to wait `retryAfterSeconds` was written at `deliveredAt`.
   * Requests on `key` arriving after the grace and before the wait ran out are counted as early retries.
   * Returns when that wait runs out (epoch ms; a longer one the key was given before still holds): the
   * 429's X-RateLimit-Reset names it, so the header and the audit never disagree.
   */
  noteRetryAfter(key: string, deliveredAt: number, retryAfterSeconds: number): number {
    const held = this.retryBlocks.get(key);
    const until = Math.max(deliveredAt + retryAfterSeconds * 1000, held?.until ?? 0);
    this.retryBlocks.set(key, {
      from: held && held.until > deliveredAt ? Math.min(held.from, deliveredAt + RETRY_AFTER_GRACE_MS) : deliveredAt + RETRY_AFTER_GRACE_MS,
      until,
    });
    return until;
  }

  /** Refusals and early retries so far, of every key starting with `prefix` (all keys by default). */
  audit(prefix = ''): RateAudit {
    const out: RateAudit = { refused: 0, earlyRetries: 0, keys: {}, events: this.events.filter((r) => r.key.startsWith(prefix)) };
    for (const [key, entry] of this.audits) {
      if (!key.startsWith(prefix)) continue;
      out.refused += entry.refused;
      out.earlyRetries += entry.earlyRetries;
      out.keys[key] = { ...entry };
    }
    return out;
  }

  private checkRetryAfter(key: string, now: number): void {
    const block = this.retryBlocks.get(key);
    if (!block) return;
    if (now >= block.until) this.retryBlocks.delete(key);
    else if (now >= block.from) {
      this.entry(key).earlyRetries++;
      this.note({ at: now, key, what: 'early_retry', windowStart: block.from, previous: this.previous.get(key) ?? null });
    }
  }

  private note(event: RateAuditEvent): void {
    this.events.push(event);
    if (this.events.length > 1_000) this.events.shift();
  }

  private entry(key: string): RateAuditEntry {
    let entry = this.audits.get(key);
    if (!entry) {
      entry = { refused: 0, earlyRetries: 0 };
      this.audits.set(key, entry);
    }
    return entry;
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= w.windowMs) this.windows.delete(key);
    for (const [key, block] of this.retryBlocks) if (now >= block.until) this.retryBlocks.delete(key);
    for (const [key, at] of this.previous) if (now - at > 3_600_000) this.previous.delete(key);
  }
}

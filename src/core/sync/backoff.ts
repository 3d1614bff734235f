/**
 * Reconnect delays: full-jitter exponential backoff (a random delay between 0 and min(cap, base·2^n)), so
 * a fleet of clients dropped together does not reconnect together and then exhaust the 6/min snapshot
 * budget in lockstep. A 4429 (too many connections) waits longer and never less than its floor.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** Lowest delay ever returned (0 for plain full jitter). */
  floorMs: number;
}

export const RECONNECT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000, floorMs: 0 };
export const TOO_MANY_CONNECTIONS_BACKOFF: BackoffPolicy = { baseMs: 10_000, capMs: 60_000, floorMs: 10_000 };

export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.max(policy.floorMs, Math.floor(random() * ceiling));
}

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

/**
 * After a failed read of /book (a 5xx, a time-out, a dropped connection): ~1 s, doubling, never more than
 * `capMs`, the wait for an answer that was too old (it must outlast the server's /book cache; a failure
 * has nothing cached to wait out). The rate governor keeps the 6/min budget however often this fires, so
 * one transient error no longer holds the book off live for the whole cap.
 */
export function snapshotFailureBackoff(capMs: number): BackoffPolicy {
  return { baseMs: Math.min(1_000, capMs), capMs, floorMs: Math.min(500, capMs) };
}

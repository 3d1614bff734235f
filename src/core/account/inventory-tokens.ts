/**
 * External-inventory tokens live 30 minutes from when the inventory was read (spec §5.7, §8). The app
 * only knows when it fetched them, so that is the clock: a token is treated as expired once
 * `fetched_at + 30 min` has passed, minus a safety margin for the time a sell request takes to arrive.
 */
import { LIMITS } from '../../shared/api/index.ts';

/** Default margin: a token this close to expiry is refreshed before use rather than sent and refused. */
export const TOKEN_SAFETY_MARGIN_MS = 60_000;

export function tokenExpiresAt(fetchedAt: number): number {
  return fetchedAt + LIMITS.inventoryTokenLifetimeMs;
}

export function tokenRemainingMs(fetchedAt: number, now: number): number {
  return Math.max(0, tokenExpiresAt(fetchedAt) - now);
}

export function isTokenExpired(fetchedAt: number, now: number, marginMs = TOKEN_SAFETY_MARGIN_MS): boolean {
  return now >= tokenExpiresAt(fetchedAt) - marginMs;
}

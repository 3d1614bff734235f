/** Constants of spec part 8 and the choices made where it says "not shown" (docs/api-assumptions.md). */
import type { CryptoTicker } from './resources.ts';

export const LIMITS = {
  groupsPerBody: 50,
  entriesPerGroup: 50,
  bulkEditOrDelist: 50,
  copiesPerGameOffer: 500,
  tradesInFlight: 15,
  decayMinHours: 24,
  decayMaxHours: 168,
  inventoryTokenLifetimeMs: 30 * 60_000,
  backpackSearchMin: 1,
  backpackSearchMax: 200,
  websocketConnectionsPerUser: 3,
  pricesAllCacheMs: 60_000,
  bookCacheMs: 10_000,
  averagesCacheMs: 10 * 60_000,
  averagesWindowDays: 30,
  webhookTimeoutMs: 10_000,
  webhookAttempts: 6,
  webhookInitialBackoffMs: 5_000,
  /** Not shown: the backoff factor and cap we chose. */
  webhookBackoffFactor: 2,
  webhookBackoffCapMs: 5 * 60_000,
  webhookFailuresBeforeRemoval: 20,
  webhookSignatureToleranceMs: 5 * 60_000,
  /**
   * Not shown: the account's ceiling on simultaneously listed items. This is the demo market's; the app
   * checks it only against the demo market (a real market's ceiling is unknown).
   */
  listedItemsCeiling: 1_000,
} as const;

/**
 * Not shown: minimum crypto withdrawal per currency, in cents of balance, and (below) the platform fee.
 * These are the demo market's; the app states and checks them only against the demo market.
 */
export const CRYPTO_MINIMUM_CENTS: Record<CryptoTicker, number> = {
  BTC: 2_000,
  ETH: 1_000,
  LTC: 500,
  SOL: 500,
  USDC: 1_000,
};
/** Not shown: the platform fee on crypto withdrawals, in basis points of `amount`. */
export const CRYPTO_PLATFORM_FEE_BPS = 100;
export const CRYPTO_FEE_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
/** Not shown: selling commission on sold orders, in basis points. */
export const SALE_FEE_BPS = 200;

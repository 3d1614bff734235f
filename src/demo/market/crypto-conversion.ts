/**
 * What a crypto withdrawal's balance amount becomes in coins (spec §4.6): the platform fee comes off,
 * the rest is converted at the spot rate and rounded down to the currency's smallest unit.
 */
import { CRYPTO_PLATFORM_FEE_BPS, type CryptoTicker } from '../../shared/api/index.ts';
import { bpsOf } from '../../shared/money.ts';

/** Spot prices in cents per coin. */
export const SPOT_CENTS: Record<CryptoTicker, number> = { BTC: 6_500_000, ETH: 320_000, LTC: 8_500, SOL: 15_000, USDC: 100 };
/** Decimals of each currency's smallest unit. */
export const TOKEN_DECIMALS: Record<CryptoTicker, number> = { BTC: 8, ETH: 8, LTC: 8, SOL: 6, USDC: 2 };

/**
 * Coins paid out for `amountCents` of balance. The rounding down is done on whole smallest units in
 * BigInt, never on a float quotient: 995 / 100 is 9.949999… as a double, whose floor at 2 decimals is
 * 9.94, one unit short of the 9.95 owed (so for about 4.6 % of USDC amounts, 3.9 % of ETH ones).
 */
export function tokenAmountFor(amountCents: number, ticker: CryptoTicker): number {
  const netCents = amountCents - bpsOf(amountCents, CRYPTO_PLATFORM_FEE_BPS);
  const decimals = TOKEN_DECIMALS[ticker];
  const scale = 10n ** BigInt(decimals);
  const units = (BigInt(netCents) * scale) / BigInt(SPOT_CENTS[ticker]);
  // Read from its decimal text: the double nearest the exact amount, whose JSON is those very digits
  // whenever a double holds them (Number(units) / 10^decimals would round twice past 2^53 units).
  return Number(`${units / scale}.${(units % scale).toString().padStart(decimals, '0')}`);
}

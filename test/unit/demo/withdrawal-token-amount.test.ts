/**
 * The coins a demo crypto withdrawal pays out (src/demo/market/withdrawals.ts, spec §4.6): the platform
 * fee off, the rest converted at the spot rate and rounded down to the smallest unit. Checked for every
 * ticker over a run of amounts against an exact BigInt reference, on a market stand-in.
 */
import { describe, expect, it } from 'vitest';
import { CRYPTO_MINIMUM_CENTS, CRYPTO_PLATFORM_FEE_BPS, CRYPTO_TICKERS, type CryptoTicker } from '../../../src/shared/api/index.ts';
import { SPOT_CENTS, TOKEN_DECIMALS } from '../../../src/demo/market/crypto-conversion.ts';
import type { Market } from '../../../src/demo/market/market.ts';
import type { Account } from '../../../src/demo/market/records.ts';
import { WithdrawalEngine } from '../../../src/demo/market/withdrawals.ts';

/** Just what WithdrawalEngine.create asks of the market; its timers never run. */
function standIn() {
  let id = 0;
  const market = { now: () => 1_700_000_000_000, nextId: () => ++id, moveBalance: () => {}, clock: { after: () => () => {} } };
  const account = { twoFactorCode: null, balance: Number.MAX_SAFE_INTEGER, withdrawals: new Map() } as unknown as Account;
  return { engine: new WithdrawalEngine(market as unknown as Market), account };
}

/** The exact payout as decimal text, read as a number: integers only, the fee rounded half up like bpsOf. */
function exactTokenAmount(amountCents: number, ticker: CryptoTicker): number {
  const amount = BigInt(amountCents);
  const fee = (amount * BigInt(CRYPTO_PLATFORM_FEE_BPS) + 5_000n) / 10_000n;
  const decimals = TOKEN_DECIMALS[ticker];
  const scale = 10n ** BigInt(decimals);
  const units = ((amount - fee) * scale) / BigInt(SPOT_CENTS[ticker]);
  return Number(`${units / scale}.${(units % scale).toString().padStart(decimals, '0')}`);
}

const LARGE_AMOUNTS = [10 ** 6, 10 ** 8, 10 ** 10, 10 ** 12].flatMap((base) => Array.from({ length: 200 }, (_, k) => base + k * 7));

describe('crypto withdrawal token_amount', () => {
  it('is exact for every ticker, from the minimum on and for large amounts', () => {
    const { engine, account } = standIn();
    const wrong: string[] = [];
    for (const ticker of CRYPTO_TICKERS) {
      const minimum = CRYPTO_MINIMUM_CENTS[ticker];
      const amounts = [...Array.from({ length: 5_000 }, (_, k) => minimum + k), ...LARGE_AMOUNTS];
      for (const amount of amounts) {
        const got = engine.create(account, { amount, ticker, address: 'addr', fee_level: 'LOW' }).tokenAmount;
        const want = exactTokenAmount(amount, ticker);
        if (got !== want) wrong.push(`${amount} cents → ${got} ${ticker}, owed ${want}`);
      }
    }
    expect(wrong.slice(0, 10), `${wrong.length} amounts wrong`).toEqual([]);
  });

  it('pays the 9.95 USDC owed for 1005 cents (995 after the fee), not 9.94', () => {
    const { engine, account } = standIn();
    expect(engine.create(account, { amount: 1_005, ticker: 'USDC', address: 'addr', fee_level: 'LOW' }).tokenAmount).toBe(9.95);
  });
});

/**
 * Crypto withdrawals (spec §3.3, §4.6): the full amount leaves the balance at once; the platform fee
 * comes off it and the rest is converted at the spot rate. PENDING → CONFIRMING (tx_hash and network fee
 * set) → SUCCESS, or FAILED with the amount refunded to the balance. Steps run on scaled timers.
 */
import { CRYPTO_MINIMUM_CENTS, type CryptoTicker, type CryptoWithdrawal } from '../../shared/api/index.ts';
import { iso, SECOND } from '../clock.ts';
import { TOKEN_DECIMALS, tokenAmountFor } from './crypto-conversion.ts';
import { MarketError } from './errors.ts';
import type { Market } from './market.ts';
import type { Account, WithdrawalRecord } from './records.ts';

/** Network fee per level, in coins. */
const NETWORK_FEE: Record<CryptoTicker, [low: number, medium: number, high: number]> = {
  BTC: [0.000012, 0.00002, 0.000045],
  ETH: [0.00021, 0.00042, 0.0009],
  LTC: [0.0001, 0.0002, 0.0005],
  SOL: [0.000005, 0.00001, 0.00005],
  USDC: [0.5, 1, 2.5],
};
export const WITHDRAWAL_TIMING = { broadcast: 5 * SECOND, settle: 20 * SECOND };
const FAILURE_ODDS = 0.1;

export interface CryptoWithdrawRequest {
  amount: number;
  ticker: CryptoTicker;
  address: string;
  fee_level: 'LOW' | 'MEDIUM' | 'HIGH';
  two_factor_auth_token?: string | undefined;
}

export class WithdrawalEngine {
  private readonly market: Market;
  private readonly cancels = new Set<() => void>();
  /** When set, every withdrawal settles this way (tests). */
  forcedOutcome: 'SUCCESS' | 'FAILED' | null = null;

  constructor(market: Market) {
    this.market = market;
  }

  create(account: Account, request: CryptoWithdrawRequest): WithdrawalRecord {
    const minimum = CRYPTO_MINIMUM_CENTS[request.ticker];
    if (request.amount < minimum) {
      throw new MarketError('WITHDRAWAL_BELOW_MINIMUM', `the minimum ${request.ticker} withdrawal is ${minimum} cents`, { minimum, ticker: request.ticker });
    }
    if (account.twoFactorCode !== null && request.two_factor_auth_token !== account.twoFactorCode) {
      throw new MarketError(
        'TWO_FACTOR_REQUIRED',
        request.two_factor_auth_token === undefined ? 'this account needs two_factor_auth_token for withdrawals' : 'the two-factor code is not valid',
      );
    }
    if (request.amount > account.balance) {
      throw new MarketError('INSUFFICIENT_BALANCE', `the balance is ${account.balance} cents; ${request.amount} requested`, { balance: account.balance });
    }
    const now = this.market.now();
    const record: WithdrawalRecord = {
      id: this.market.nextId('withdrawal'),
      status: 'PENDING',
      balanceAmount: request.amount,
      tokenAmount: tokenAmountFor(request.amount, request.ticker),
      ticker: request.ticker,
      address: request.address,
      feeLevel: request.fee_level,
      createdAt: now,
      txHash: null,
      networkFee: null,
    };
    account.withdrawals.set(record.id, record);
    this.market.moveBalance(account, 'CRYPTO_WITHDRAWAL', -request.amount, `Withdrawal to ${request.ticker} ${request.address}`, record.id);
    this.after(WITHDRAWAL_TIMING.broadcast, () => this.broadcast(record));
    this.after(WITHDRAWAL_TIMING.broadcast + WITHDRAWAL_TIMING.settle, () => this.settle(account, record));
    return record;
  }

  view(record: WithdrawalRecord): CryptoWithdrawal {
    return {
      withdrawal_id: record.id,
      status: record.status,
      balance_amount: record.balanceAmount,
      token_amount: record.tokenAmount,
      ticker: record.ticker,
      created_at: iso(record.createdAt),
      tx_hash: record.txHash,
      network_fee: record.networkFee,
    };
  }

  close(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
  }

  private broadcast(record: WithdrawalRecord): void {
    if (record.status !== 'PENDING') return;
    record.status = 'CONFIRMING';
    const hex = this.market.random.tokens.hex(32);
    record.txHash = record.ticker === 'ETH' || record.ticker === 'USDC' ? `0x${hex}` : hex;
    const level = record.feeLevel === 'HIGH' ? 2 : record.feeLevel === 'MEDIUM' ? 1 : 0;
    record.networkFee = NETWORK_FEE[record.ticker][level].toFixed(TOKEN_DECIMALS[record.ticker]);
  }

  private settle(account: Account, record: WithdrawalRecord): void {
    if (record.status !== 'CONFIRMING') return;
    const failed = this.forcedOutcome ? this.forcedOutcome === 'FAILED' : this.market.random.outcomes.chance(FAILURE_ODDS);
    record.status = failed ? 'FAILED' : 'SUCCESS';
    if (failed) this.market.moveBalance(account, 'CRYPTO_REFUND', record.balanceAmount, `Refund of failed withdrawal ${record.id}`, record.id);
  }

  private after(ms: number, fn: () => void): void {
    const cancel = this.market.clock.after(ms, () => {
      this.cancels.delete(cancel);
      fn();
    });
    this.cancels.add(cancel);
  }
}

/**
 * Crypto withdrawals: what one would cost and what is wrong with it (checked as the user types), the
 * send, and the status followed until SUCCESS or FAILED (a FAILED one is refunded to the balance).
 */
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { DEMO_WITHDRAWAL_TERMS, checkCryptoWithdrawal, quoteCryptoWithdrawal } from '../../account/crypto-withdrawal.ts';
import { ApiError } from '../../api/errors.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AppLog } from '../log.ts';
import type { AccountRuntime } from './account-runtime.ts';
import { checkedOf, refusal, withdrawalViewOf } from './views.ts';

export function walletHandlers(
  runtime: AccountRuntime,
  log: AppLog,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getWithdrawals' | 'checkWithdrawal' | 'createWithdrawal'>> {
  return {
    getWithdrawals: () => {
      const { withdrawals } = runtime.account();
      return { withdrawals: withdrawals.list().map((w) => withdrawalViewOf(withdrawals, w)) };
    },

    checkWithdrawal: ({ ticker, amount, address }) => {
      const account = runtime.account();
      const terms = termsOf(runtime);
      const quote = quoteCryptoWithdrawal(amount, ticker, terms);
      const balance = account.reads.cached('user')?.data.balance ?? null;
      const check = checkCryptoWithdrawal({ ticker, amount, address }, { terms, ...(balance === null ? {} : { balance }) });
      return {
        minimum: quote.minimumCents,
        platformFee: quote.platformFeeCents,
        converted: quote.convertedCents,
        feeBps: terms?.platformFeeBps ?? null,
        balance,
        check: checkedOf(check),
      };
    },

    createWithdrawal: async ({ ticker, address, amount, feeLevel, twoFactorCode }) => {
      const account = runtime.account();
      const client = account.client();
      // The stored balance may be stale (a sale since), so only the server judges the balance.
      const check = checkCryptoWithdrawal({ ticker, amount, address }, { terms: termsOf(runtime) });
      if (!check.ok) throw refusal(check.problems);
      const withdrawal = await client
        .cryptoWithdraw(
          {
            amount,
            ticker,
            address,
            fee_level: feeLevel,
            ...(twoFactorCode !== null ? { two_factor_auth_token: twoFactorCode } : {}),
          },
          { priority: 'interactive' },
        )
        .catch((err: unknown) => {
          throw belowMinimumOf(err);
        });
      account.withdrawals.record(withdrawal);
      account.withdrawals.follow(withdrawal.withdrawal_id, { signal: account.stopping.signal }).catch((err: unknown) => {
        if (account.stopping.signal.aborted) return;
        log.warn(`crypto withdrawal ${withdrawal.withdrawal_id}: ${err instanceof Error ? err.message : String(err)}`);
      });
      return withdrawalViewOf(account.withdrawals, withdrawal);
    },
  };
}

/**
 * The minimum and the platform fee are known only on the demo market (its own values); a real market
 * does not publish them (spec §8), so there the app neither states nor enforces them: the server decides.
 */
function termsOf(runtime: AccountRuntime) {
  return runtime.demo ? DEMO_WITHDRAWAL_TERMS : null;
}

/**
 * The spec's one codeless refusal (§7: "HTTP 400, no code given" for an amount below the currency's
 * minimum). The minimum is not published, so the server is the one that knows it: its bare 400 is read
 * as that refusal, with the code the rest of the app explains in plain words.
 */
function belowMinimumOf(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.kind !== 'api' || err.status !== 400 || err.code !== null) return err;
  return new ApiError({
    kind: 'api',
    route: err.route,
    status: err.status,
    code: 'WITHDRAWAL_BELOW_MINIMUM',
    message: err.message,
    details: err.details,
    maybeDelivered: err.maybeDelivered,
  });
}

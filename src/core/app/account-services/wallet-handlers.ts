/**
 * Crypto withdrawals: what one would cost and what is wrong with it (checked as the user types), the
 * send, and the status followed until SUCCESS or FAILED (a FAILED one is refunded to the balance).
 *
 * Every send goes through the withdrawal journal (withdrawal-guard.ts): one whose answer was lost is
 * kept as unknown and holds the next until the balance, the ledger or the trader settles it.
 */
import type { CryptoWithdrawal } from '../../../shared/api/index.ts';
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import { DEMO_WITHDRAWAL_TERMS, checkCryptoWithdrawal, quoteCryptoWithdrawal } from '../../account/crypto-withdrawal.ts';
import { WithdrawalHeldError, WithdrawalOutcomeUnknownError } from '../../account/withdrawal-guard.ts';
import { ApiError } from '../../api/errors.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AppLog } from '../log.ts';
import type { AccountRuntime } from './account-runtime.ts';
import { attemptView, checkedOf, refusal, withdrawalViewOf } from './views.ts';
import { checkUnsettledWithdrawals, evidenceOf, follow } from './withdrawal-check.ts';

export function walletHandlers(
  runtime: AccountRuntime,
  log: AppLog,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getWithdrawals' | 'checkWithdrawal' | 'createWithdrawal' | 'settleWithdrawal'>> {
  return {
    getWithdrawals: () => {
      const account = runtime.account();
      const { withdrawals } = account;
      return {
        // a new key's account not met yet: those followed are the previous key's account's
        withdrawals: (account.awaitingAccount ? [] : withdrawals.list()).map((w) => withdrawalViewOf(withdrawals, w)),
        unsettled: account.unsettledWithdrawals().map(attemptView),
      };
    },

    settleWithdrawal: async ({ id, answer }) => {
      const account = runtime.account();
      const guard = account.withdrawalGuard;
      if (answer !== 'check') {
        // only an entry the wallet shows for this key's account; while that account is not known yet (offline,
        // say), not one another account's key left: the trader's word would lift that account's hold
        const shown = account.unsettledWithdrawals().find((a) => a.intentId === id);
        if (shown && shown.account !== null && account.account === null) {
          throw new SkindeskError({
            code: 'REFUSED',
            message: 'Skindesk does not know yet which account this key belongs to, so it cannot tell whether that withdrawal is this account’s; settle it once connected.',
          });
        }
        const settled = shown ? guard.acknowledge(id, answer) : null;
        if (!settled) throw new SkindeskError({ code: 'REFUSED', message: 'That withdrawal is settled already (or is being sent right now).' });
        return attemptView(settled);
      }
      const result = await checkUnsettledWithdrawals(account, log);
      const attempt = [...result.settled, ...result.open].find((a) => a.intentId === id);
      if (!attempt) throw new SkindeskError({ code: 'REFUSED', message: 'That withdrawal is settled already.' });
      return attemptView(attempt);
    },

    checkWithdrawal: ({ ticker, amount, address }) => {
      const account = runtime.account();
      const terms = termsOf(runtime);
      const quote = quoteCryptoWithdrawal(amount, ticker, terms);
      const balance = account.latestBalance();
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
      const send = () =>
        client
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
            throw belowMinimumOf(withoutSecret(err, twoFactorCode));
          });
      let withdrawal: CryptoWithdrawal;
      try {
        withdrawal = await account.withdrawalGuard.send({ amount, ticker, address, feeLevel }, evidenceOf(account), send);
      } catch (err) {
        if (err instanceof WithdrawalHeldError) {
          for (const w of err.found) follow(account, w, log);
          throw new SkindeskError({
            code: 'REFUSED',
            message: err.message,
            apiCode: err.reason === 'was_sent' ? 'EARLIER_WITHDRAWAL_SENT' : 'WITHDRAWAL_OUTCOME_UNKNOWN',
          });
        }
        if (err instanceof WithdrawalOutcomeUnknownError) {
          const cause = err.error instanceof ApiError ? err.error : null;
          log.warn(`crypto withdrawal ${err.attempt.intentId}: outcome unknown (${cause?.message ?? String(err.error)})`);
          throw new SkindeskError({ code: 'MARKET', message: err.message, apiCode: cause?.code ?? null, outcomeUnknown: true });
        }
        throw err;
      }
      follow(account, withdrawal, log);
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
 * An error of the send without the two-factor code in it: a marketplace that echoes the body (in its
 * message or details) would otherwise carry the code into the screen and the log.
 */
function withoutSecret(err: unknown, secret: string | null): unknown {
  return err instanceof ApiError && secret !== null ? err.redacted([secret]) : err;
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

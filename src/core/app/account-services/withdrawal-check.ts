/**
 * Crypto withdrawals whose outcome is unknown, checked against what the marketplace shows: the wallet's
 * "Check again" and the check the app runs by itself once a session is connected (AccountRuntime) go
 * through checkUnsettledWithdrawals; a new request goes through the guard's send with the same evidence.
 * A withdrawal the check finds is stored and followed like any other.
 */
import type { CryptoWithdrawal } from '../../../shared/api/index.ts';
import type { CheckResult, LedgerRead, WithdrawalEvidence } from '../../account/withdrawal-guard.ts';
import { accountKey } from '../../api/purchase-journal.ts';
import type { AppLog } from '../log.ts';
import type { AccountSession } from './account-session.ts';

/** Ledger pages (100 rows each) read back to an unknown withdrawal at most. */
const LEDGER_PAGES = 5;

/** Stores a withdrawal and follows it to SUCCESS or FAILED (until the session ends). */
export function follow(account: AccountSession, withdrawal: CryptoWithdrawal, log: AppLog): void {
  account.withdrawals.record(withdrawal);
  account.withdrawals
    .follow(withdrawal.withdrawal_id, { signal: account.stopping.signal })
    .catch((err: unknown) => {
      if (account.stopping.signal.aborted) return;
      log.warn(
        `crypto withdrawal ${withdrawal.withdrawal_id}: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
}

/**
 * Looks at the evidence for the open entries of the key's account, settles what it shows, and follows
 * each withdrawal found. `requireAccount`: see WithdrawalGuard.check; `signal` ends the reads. Throws
 * when not connected.
 */
export async function checkUnsettledWithdrawals(
  account: AccountSession,
  log: AppLog,
  options: { requireAccount?: boolean; signal?: AbortSignal } = {},
): Promise<CheckResult> {
  const { signal, ...checkOptions } = options;
  const result = await account.withdrawalGuard.check(evidenceOf(account, signal), checkOptions);
  for (const w of result.found) follow(account, w, log);
  return result;
}

/**
 * What the marketplace can tell about an unknown withdrawal: the balance (GET /user, fresh, never the
 * stored copy), the ledger (GET /transactions: its shape is assumed, so a read that does not parse is
 * no evidence), and a withdrawal by id (GET /crypto-withdraw/:id). A failed (or aborted) read is no
 * evidence.
 */
export function evidenceOf(account: AccountSession, signal?: AbortSignal): WithdrawalEvidence {
  const client = account.client();
  const opts = signal ? { signal } : {};
  return {
    market: client.baseUrl,
    balance: async () => {
      try {
        const read = await account.reads.user({ priority: 'interactive', ...opts });
        return read.fromCache
          ? null
          : { account: accountKey(client.baseUrl, read.data.id), balance: read.data.balance };
      } catch {
        return null;
      }
    },
    ledgerSince: async (sinceMs): Promise<LedgerRead | null> => {
      try {
        return await client.newestFirst('transactions', { limit: '100' }, {
          priority: 'interactive',
          maxPages: LEDGER_PAGES,
          olderThanWanted: (row) => Date.parse(row.created_at) < sinceMs,
          ...opts,
        });
      } catch {
        return null;
      }
    },
    withdrawal: (id) =>
      client.call('cryptoWithdrawal', { id }, { priority: 'interactive', ...opts }).catch(() => null),
    serverOffsetMs: () => client.serverTimeOffsetMs(),
  };
}

/**
 * Turning core results into the account calls' answers: freshness of a cached read, pre-send problems
 * (answered, or thrown as a REFUSED error when the user really sent), bulk result tables, withdrawals,
 * undercut guards.
 */
import { type BulkResult, type CryptoWithdrawal, type PAGE_LIMITS } from '../../../shared/api/index.ts';
import type {
  BulkRow,
  Freshness,
  SendProblem,
  UndercutGuardView,
  WithdrawalAttemptView,
  WithdrawalView,
} from '../../../shared/ipc/calls-account.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import type { CachedRead } from '../../account/account-reads.ts';
import { type CryptoWithdrawalTracker, type WithdrawalCheckTrouble, refundedCents } from '../../account/crypto-withdrawal.ts';
import type { PreSendProblem, PreSendResult } from '../../account/presend-checks.ts';
import type { GuardView } from '../../account/undercut-guard.ts';
import { attemptWords } from '../../account/withdrawal-guard.ts';
import type { WithdrawalAttempt } from '../../account/withdrawal-journal.ts';
import { ApiError, refusalWords } from '../../api/errors.ts';

export const iso = (ms: number): string => new Date(ms).toISOString();

/** Page and limit as the routes take them (strings; the IPC input already allowed only valid limits). */
export function pageQuery(page: number, limit: 5 | 10 | 25 | 30 | 50 | 100) {
  return { page: String(page), limit: String(limit) as (typeof PAGE_LIMITS)[number] };
}

/** Why a refresh failed, in words for the screen's "as of" note. */
export function refreshProblem(error: Error): string {
  if (error instanceof ApiError) {
    if (error.message.includes('not connected')) return 'Not connected to the marketplace yet; showing what was stored.';
    return `${error.explanation} Showing what was stored.`;
  }
  return 'The refresh failed; showing what was stored.';
}

export function guardView(g: GuardView): UndercutGuardView {
  return { ...g, lastEditAt: g.lastEditAt === null ? null : iso(g.lastEditAt) };
}

export function freshnessOf(read: CachedRead<unknown>): Freshness {
  return {
    fetchedAt: iso(read.fetchedAt),
    fromCache: read.fromCache,
    problem: read.refreshError ? refreshProblem(read.refreshError) : null,
  };
}

export function sendProblems(problems: readonly PreSendProblem[]): SendProblem[] {
  return problems.map((p) => ({ code: p.code, message: p.message, group: p.group ?? null, entry: p.entry ?? null, blocking: true }));
}

export function checkedOf(result: PreSendResult): { ok: boolean; problems: SendProblem[] } {
  return { ok: result.ok, problems: sendProblems(result.problems) };
}

/**
 * A send whose answer was lost (`err.outcomeUnknown`: the marketplace may have made it), in the client's
 * words, then what the app does about it (`then`).
 */
export function lostAnswer(err: ApiError, then: string): SkindeskError {
  return new SkindeskError({ code: 'MARKET', message: `${err.explanation} ${then}`, apiCode: err.code, outcomeUnknown: true });
}

/** A send the checks stopped: nothing left the app. The first problem names the code, all are listed. */
export function refusal(problems: readonly PreSendProblem[]): SkindeskError {
  const [first] = problems;
  const more = problems.length > 1 ? ` (${problems.length - 1} more problem${problems.length > 2 ? 's' : ''} listed)` : '';
  return new SkindeskError({
    code: 'REFUSED',
    message: `Nothing was sent: ${first?.message ?? 'the request is not valid'}${more}.`,
    apiCode: first?.code ?? null,
    issues: problems.map((p) => ({
      path: p.group !== undefined ? `group ${p.group + 1}${p.entry !== undefined ? `, item ${p.entry + 1}` : ''}` : p.entry !== undefined ? `item ${p.entry + 1}` : '(request)',
      message: p.message,
    })),
  });
}

export function explain(code: string | null | undefined): string | null {
  if (!code) return null;
  return refusalWords(code, null);
}

/** Results come back in the order sent; each row is matched to the listing it was sent for. */
export function bulkRows(listingIds: readonly number[], results: readonly BulkResult[]): BulkRow[] {
  return listingIds.map((listingId, i) => {
    const result = results[i];
    if (!result) {
      return { listingId, ok: false, error: null, explanation: 'The marketplace answered without a result for this row; check My listings.' };
    }
    const error = result.ok ? null : (result.error ?? 'UNKNOWN');
    if (!result.ok && !result.error) return { listingId, ok: false, error, explanation: 'The marketplace refused this row without saying why.' };
    return { listingId, ok: result.ok, error, explanation: result.ok ? null : explain(error) };
  });
}

export function withdrawalViewOf(tracker: CryptoWithdrawalTracker, withdrawal: CryptoWithdrawal): WithdrawalView {
  return {
    withdrawal,
    statuses: tracker.statuses(withdrawal.withdrawal_id).map((s) => ({ status: s.status, seenAt: iso(s.firstSeenAt) })),
    refunded: refundedCents(withdrawal),
    checkTrouble: troubleView(tracker.checkTrouble(withdrawal.withdrawal_id)),
  };
}

function troubleView(t: WithdrawalCheckTrouble | null): WithdrawalView['checkTrouble'] {
  return t && { lastSeenAt: iso(t.lastSeenAt), failingSince: iso(t.failingSince), problem: t.problem, retrying: t.retrying };
}

/** A journaled withdrawal as the wallet shows it (an unknown one with its last check). */
export function attemptView(a: WithdrawalAttempt): WithdrawalAttemptView {
  return {
    id: a.intentId,
    at: iso(a.createdAtMs),
    amount: a.amount,
    ticker: a.ticker,
    address: a.address,
    state: a.state,
    withdrawalId: a.withdrawalId,
    settledBy: a.settledBy,
    words: attemptWords(a),
    lastCheck: a.note !== null && a.checkedAtMs !== null ? { at: iso(a.checkedAtMs), note: a.note } : null,
  };
}

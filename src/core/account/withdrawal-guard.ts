/**
 * Crypto withdrawals that are never sent twice by accident.
 *
 * A withdrawal is journaled before it is sent and resolved after (withdrawal-journal.ts). A clear answer
 * decides it: the withdrawal (sent), or a refusal (an error code, a 429, a connection that never
 * opened: nothing left the balance). A timeout, a dropped connection, a 5xx or an unreadable answer
 * leaves it unknown, and nothing retries it. While an earlier withdrawal of the account is unknown, a
 * new one is held back (WithdrawalHeldError) until it is settled:
 *
 *  - automatically, each time a withdrawal is asked for (or a check is asked for; the app also runs one
 *    when a session connects), from the evidence:
 *    - sent: one CRYPTO_WITHDRAWAL row of the ledger (`GET /transactions`, whose shape is assumed: used
 *      only when it parses) of exactly that amount, no earlier than the intent (less a clock skew
 *      tolerance), not already another withdrawal's (confirmed by `GET /crypto-withdraw/:id` when the
 *      row names one; a read that names another amount or currency rules the row out); or, with one
 *      open entry, a balance (read fresh) exactly the amount below the one read just before sending;
 *    - not sent: the ledger read back past the intent shows no movement at all since, the balance is
 *      the one read before sending, and the failure is at least `notSentAfterMs` old (the marketplace
 *      may still be applying a request that timed out);
 *  - or by the trader, who checked the marketplace's website or the wallet ("it was sent" / "it was not
 *    sent").
 *
 * When the check finds that the earlier withdrawal did go out, the new request is not sent either: the
 * trader asked again because the first seemed lost, so it is answered with what was found instead
 * (reason `was_sent`); sending again after that is a deliberate second withdrawal.
 */
import { randomUUID } from 'node:crypto';
import type { BalanceTransaction, CryptoTicker, CryptoWithdrawal } from '../../shared/api/index.ts';
import { formatCents } from '../../shared/money.ts';
import { shortAddress } from '../../shared/short-address.ts';
import { utcMinute } from '../../shared/utc-words.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { ApiError } from '../api/errors.ts';
import { isAccountOf } from '../api/purchase-journal.ts';
import type { WithdrawalAttempt, WithdrawalJournal } from './withdrawal-journal.ts';

export interface WithdrawalRequest {
  amount: number;
  ticker: CryptoTicker;
  address: string;
  feeLevel: string;
}

/** The ledger's rows newest first back to some instant, and whether the read reached it. */
export interface LedgerRead {
  rows: readonly BalanceTransaction[];
  complete: boolean;
}

/** Where the guard looks for what became of an unknown withdrawal (the app reads the marketplace). */
export interface WithdrawalEvidence {
  /** The market's base URL: with the account unknown, entries of another market's accounts do not count. */
  readonly market?: string;
  /** The key's account (accountKey) and its balance, read fresh; null when the read failed. */
  balance(): Promise<{ account: string; balance: number } | null>;
  /** The ledger back to `sinceMs`; null when the route does not answer or its answer does not parse. */
  ledgerSince(sinceMs: number): Promise<LedgerRead | null>;
  /** One withdrawal by id; null when it could not be read. */
  withdrawal(id: number): Promise<CryptoWithdrawal | null>;
  /**
   * The marketplace's clock minus ours (its Date header), null while unknown. The ledger's times are the
   * marketplace's: on a computer whose clock is minutes ahead, the row of a withdrawal that went out
   * would look older than the request and be passed over.
   */
  serverOffsetMs?(): number | null;
}

export interface WithdrawalGuardOptions {
  journal: WithdrawalJournal;
  clock?: Clock;
  /** Withdrawal ids the app already follows: never taken for an open entry. */
  knownIds?: () => Iterable<number>;
  /** Tolerance between our clock and the ledger's timestamps (default 30 s). */
  clockSkewMs?: number;
  /** A "nothing happened" reading counts only this long after the failure (default 60 s). */
  notSentAfterMs?: number;
}

export interface CheckResult {
  /** Entries settled by this check. */
  settled: WithdrawalAttempt[];
  /** Entries still unknown. */
  open: WithdrawalAttempt[];
  /** Withdrawals read while matching (to be stored and followed). */
  found: CryptoWithdrawal[];
}

/**
 * Why a withdrawal was not sent: one is being sent right now; an earlier one's outcome is unknown; or
 * the check just found that the earlier one did go out.
 */
export type HeldReason = 'sending' | 'unknown' | 'was_sent';

export class WithdrawalHeldError extends Error {
  override readonly name = 'WithdrawalHeldError';
  readonly reason: HeldReason;
  /** The earlier withdrawal it is held for (null: the one being sent has no entry yet). */
  readonly attempt: WithdrawalAttempt | null;
  readonly found: CryptoWithdrawal[];

  constructor(reason: HeldReason, attempt: WithdrawalAttempt | null, found: CryptoWithdrawal[] = []) {
    super(heldWords(reason, attempt));
    this.reason = reason;
    this.attempt = attempt;
    this.found = found;
  }
}

/** The send got no clear answer: the withdrawal may have gone out. `error` is what the client threw. */
export class WithdrawalOutcomeUnknownError extends Error {
  override readonly name = 'WithdrawalOutcomeUnknownError';
  readonly attempt: WithdrawalAttempt;
  readonly error: unknown;

  constructor(attempt: WithdrawalAttempt, error: unknown) {
    super(`${attemptWords(attempt)} ${SETTLE_WORDS}`);
    this.attempt = attempt;
    this.error = error;
  }
}

const REASONS: Record<string, string> = {
  timeout: 'the marketplace did not answer in time',
  network: 'the connection broke before the answer came',
  server: 'the marketplace failed on its side',
  invalid_response: 'the marketplace’s answer could not be read',
  interrupted: 'Skindesk stopped before the answer came',
};

function what(a: WithdrawalAttempt): string {
  return `${formatCents(a.amount)} in ${a.ticker} to ${shortAddress(a.address)}, asked at ${utcMinute(a.createdAtMs)}`;
}

/** An entry in plain words: what is (or was) not known, and how it was settled. */
export function attemptWords(a: WithdrawalAttempt): string {
  switch (a.state) {
    case 'intent':
    case 'unknown':
      return `The withdrawal of ${what(a)}, got no clear answer (${REASONS[a.errorKind ?? ''] ?? 'no answer was read'}): it may have been sent.`;
    case 'sent':
      return `The withdrawal of ${what(a)}, was sent${a.withdrawalId !== null ? ` (#${a.withdrawalId})` : ''}${settledWords(a)}.`;
    case 'not_sent':
      return `The withdrawal of ${what(a)}, was not sent${settledWords(a)}.`;
    case 'refused':
      return `The withdrawal of ${what(a)}, was refused by the marketplace: nothing left the balance.`;
  }
}

function settledWords(a: WithdrawalAttempt): string {
  switch (a.settledBy) {
    case 'ledger':
      return a.state === 'sent'
        ? ': it is in the ledger'
        : ': the ledger shows no movement since and the balance did not change';
    case 'balance':
      return ': the balance fell by exactly that amount';
    case 'trader':
      return ': you said so';
    default:
      return '';
  }
}

export const SETTLE_WORDS =
  'Look it up on the marketplace’s website or in the receiving wallet, then say in the wallet whether it was sent; Skindesk also checks the balance and the ledger when it connects and each time a withdrawal is asked for.';

function heldWords(reason: HeldReason, a: WithdrawalAttempt | null): string {
  if (reason === 'sending' || a === null)
    return 'Nothing was sent: a withdrawal is being sent right now; wait for its answer.';
  if (reason === 'was_sent') {
    return `Nothing was sent now: ${attemptWords(a).replace(/^The/, 'the')} Send again only if you want a second withdrawal.`;
  }
  return `Nothing was sent: ${attemptWords(a).replace(/^The/, 'the')} New withdrawals are held until it is settled. ${SETTLE_WORDS}`;
}

/**
 * Whether an open entry holds the withdrawals of `account`. Unknown on either side: it does, unless it
 * names an account that is not of this market (a gone demo market's, say).
 */
function holds(a: WithdrawalAttempt, account: string | null, market: string | null): boolean {
  if (a.account === null) return true;
  if (account !== null) return a.account === account;
  return market === null || isAccountOf(a.account, market);
}

export class WithdrawalGuard {
  readonly #journal: WithdrawalJournal;
  readonly #clock: Clock;
  readonly #knownIds: () => Iterable<number>;
  readonly #skewMs: number;
  readonly #notSentAfterMs: number;
  /** Set while a withdrawal is on its way (from the first read to the answer). */
  #sending: string | null = null;
  /** Resolves when the withdrawal on its way has its outcome written (see idle). */
  #sent: Promise<void> = Promise.resolve();
  /** The last look at the evidence queued: looks run one at a time (see #oneCheckAtATime). */
  #checks: Promise<unknown> = Promise.resolve();

  constructor(options: WithdrawalGuardOptions) {
    this.#journal = options.journal;
    this.#clock = options.clock ?? systemClock;
    this.#knownIds = options.knownIds ?? (() => []);
    this.#skewMs = options.clockSkewMs ?? 30_000;
    this.#notSentAfterMs = options.notSentAfterMs ?? 60_000;
  }

  /**
   * Open entries holding `account`'s withdrawals on the market at `market` (its base URL), not the one
   * being sent right now, oldest first.
   */
  open(account: string | null, market: string | null = null): WithdrawalAttempt[] {
    return this.#journal.open().filter((a) => a.intentId !== this.#sending && holds(a, account, market));
  }

  /**
   * Sends a withdrawal through the journal: held while an earlier one is unknown (after checking the
   * evidence), journaled before `post` is called, resolved after. Throws WithdrawalHeldError (nothing
   * sent), WithdrawalOutcomeUnknownError (it may have been sent), or the client's refusal.
   */
  async send(
    request: WithdrawalRequest,
    evidence: WithdrawalEvidence,
    post: () => Promise<CryptoWithdrawal>,
  ): Promise<CryptoWithdrawal> {
    if (this.#sending !== null) throw new WithdrawalHeldError('sending', null);
    this.#sending = '(checking)';
    let answered!: () => void;
    this.#sent = new Promise<void>((resolve) => (answered = resolve));
    try {
      const fresh = await evidence.balance();
      const result = await this.#oneCheckAtATime(() => {
        const open = this.open(fresh?.account ?? null, evidence.market ?? null);
        return open.length > 0 ? this.#check(evidence, open, fresh) : null;
      });
      if (result) {
        const [first] = result.open;
        if (first) throw new WithdrawalHeldError('unknown', first, result.found);
        const wentOut = result.settled.find((a) => a.state === 'sent');
        if (wentOut) throw new WithdrawalHeldError('was_sent', wentOut, result.found);
      }
      const intentId = randomUUID();
      this.#journal.recordIntent({
        intentId,
        createdAtMs: this.#clock.now(),
        account: fresh?.account ?? null,
        amount: request.amount,
        ticker: request.ticker,
        address: request.address,
        feeLevel: request.feeLevel,
        balanceBefore: fresh?.balance ?? null,
      });
      this.#sending = intentId;
      let withdrawal: CryptoWithdrawal;
      try {
        withdrawal = await post();
      } catch (err) {
        const unknown = !(err instanceof ApiError) || err.outcomeUnknown;
        this.#journal.recordOutcome(
          intentId,
          {
            state: unknown ? 'unknown' : 'refused',
            errorKind: err instanceof ApiError ? err.kind : 'unexpected',
            errorCode: err instanceof ApiError ? err.code : null,
          },
          this.#clock.now(),
        );
        if (unknown) throw new WithdrawalOutcomeUnknownError(this.#journal.get(intentId)!, err);
        throw err;
      }
      this.#journal.recordOutcome(
        intentId,
        { state: 'sent', withdrawalId: withdrawal.withdrawal_id, settledBy: 'response' },
        this.#clock.now(),
      );
      return withdrawal;
    } finally {
      this.#sending = null;
      answered();
    }
  }

  /**
   * Resolves once no withdrawal is on its way (at once when none is): its outcome is then in the journal.
   * The session waits for it before letting its database go, since the next session on the same desk
   * takes an entry still without an answer for one a crash cut off (markInterrupted) and does not know it
   * is on its way, and the answer, arriving after the connection closed, could no longer be written.
   */
  idle(): Promise<void> {
    return this.#sent;
  }

  /**
   * Looks at the evidence for every open entry of the key's account; settles what it can. With
   * `requireAccount`, a balance that could not be read (so the key's account is not known) throws and
   * leaves every entry as it was: the app's own check at connecting must not take another account's
   * entry for this one (the trader's "Check again" still looks, with that doubt shown).
   */
  async check(evidence: WithdrawalEvidence, options: { requireAccount?: boolean } = {}): Promise<CheckResult> {
    const fresh = await evidence.balance();
    if (fresh === null && options.requireAccount) {
      throw new Error('the balance could not be read, so it is not known which account’s withdrawals to check');
    }
    return this.#oneCheckAtATime(() => {
      const open = this.open(fresh?.account ?? null, evidence.market ?? null);
      return open.length > 0 ? this.#check(evidence, open, fresh) : { settled: [], open: [], found: [] };
    });
  }

  /**
   * Runs `work` after every look queued before it has ended. The app's check at connecting, the
   * trader's "Check again" and a new request's check may come at once: run side by side, each would
   * read the same withdrawal off the ledger, both would hand it on to be followed, and the one that
   * lost the race to settle it would report it as still open. Run in turn, a later look finds it settled.
   */
  #oneCheckAtATime<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.#checks.then(work, work);
    this.#checks = run.catch(() => undefined);
    return run;
  }

  /** The trader's word on an open entry. Null when it is not open (settled already, or no such entry). */
  acknowledge(intentId: string, answer: 'sent' | 'not_sent'): WithdrawalAttempt | null {
    if (intentId === this.#sending) return null;
    const settled = this.#journal.settle(intentId, { state: answer, settledBy: 'trader' }, this.#clock.now());
    return settled ? this.#journal.get(intentId) : null;
  }

  async #check(
    evidence: WithdrawalEvidence,
    open: readonly WithdrawalAttempt[],
    fresh: { account: string; balance: number } | null,
  ): Promise<CheckResult> {
    const now = this.#clock.now();
    // each request's time on the marketplace's clock, less the tolerance (the ledger is stamped by it)
    const offsetMs = evidence.serverOffsetMs?.() ?? 0;
    const ledger = await evidence.ledgerSince(open[0]!.createdAtMs + offsetMs - this.#skewMs);
    const claimed = new Set([...this.#journal.claimedWithdrawalIds(), ...this.#knownIds()]);
    const settled: WithdrawalAttempt[] = [];
    const stillOpen: WithdrawalAttempt[] = [];
    const found: CryptoWithdrawal[] = [];
    for (const a of open) {
      const since = a.createdAtMs + offsetMs - this.#skewMs;
      const notes: string[] = [];
      let verdict: {
        state: 'sent' | 'not_sent';
        settledBy: 'ledger' | 'balance';
        withdrawalId: number | null;
        /** The withdrawal the ledger named, read: followed once this entry is settled by it. */
        read?: CryptoWithdrawal | null;
      } | null = null;
      let quiet = false;
      if (ledger) {
        // each movement once: the ledger is read in offset pages, and a movement landing between two
        // pages pushes a row onto the next, where it comes again (one withdrawal read as two that fit)
        const once = [...new Map(ledger.rows.map((r) => [r.id, r])).values()];
        const after = once.filter((r) => Date.parse(r.created_at) >= since);
        quiet = after.length === 0 && ledger.complete;
        const matches: { id: number | null; read: CryptoWithdrawal | null }[] = [];
        for (const row of after) {
          if (row.type !== 'CRYPTO_WITHDRAWAL' || row.amount !== -a.amount) continue;
          if (row.reference_id !== null && claimed.has(row.reference_id)) continue;
          const read = row.reference_id !== null ? await evidence.withdrawal(row.reference_id) : null;
          // the row names another withdrawal (another currency, another amount): not this one
          if (read && (read.ticker !== a.ticker || read.balance_amount !== a.amount)) continue;
          matches.push({ id: row.reference_id, read });
        }
        const [match] = matches;
        if (matches.length === 1 && match) {
          verdict = { state: 'sent', settledBy: 'ledger', withdrawalId: match.id, read: match.read };
          if (match.id !== null) claimed.add(match.id);
        } else if (matches.length > 1) {
          notes.push(
            `the ledger shows ${matches.length} withdrawals of that amount since then, so which one it is cannot be told`,
          );
        } else {
          notes.push(
            quiet
              ? 'the ledger shows no movement since'
              : 'the ledger shows no withdrawal of that amount since',
          );
        }
      } else {
        notes.push('the ledger could not be read');
      }
      if (!verdict && a.balanceBefore !== null && fresh) {
        const failedAt = a.resolvedAtMs ?? a.createdAtMs;
        if (open.length === 1 && fresh.balance === a.balanceBefore - a.amount) {
          verdict = { state: 'sent', settledBy: 'balance', withdrawalId: null };
        } else if (quiet && fresh.balance === a.balanceBefore && now - failedAt >= this.#notSentAfterMs) {
          verdict = { state: 'not_sent', settledBy: 'ledger', withdrawalId: null };
        } else {
          notes.push(
            fresh.balance !== a.balanceBefore
              ? 'the balance moved by other amounts too'
              : quiet
                ? 'the balance has not changed, but it is too soon after the failure to be sure'
                : 'the balance has not changed',
          );
        }
      } else if (!verdict) {
        notes.push(
          a.balanceBefore === null ? 'the balance before it is not known' : 'the balance could not be read',
        );
      }
      if (verdict) {
        const { read, ...outcome } = verdict;
        if (this.#journal.settle(a.intentId, outcome, now)) {
          settled.push(this.#journal.get(a.intentId)!);
          if (read) found.push(read);
        }
        continue;
      }
      const current = this.#journal.get(a.intentId);
      // settled while the evidence was read (the trader's word, another process on the same desk): not open
      if (current?.state !== 'unknown' && current?.state !== 'intent') continue;
      this.#journal.noteCheck(a.intentId, `Checked: ${notes.join('; ')}.`, now);
      stillOpen.push(this.#journal.get(a.intentId)!);
    }
    return { settled, open: stillOpen, found };
  }
}

/**
 * The crypto withdrawal journal: every withdrawal is written down before it is sent (amount, currency,
 * address, fee level, the balance just before, and when) and again once its outcome is known. The
 * marketplace has no idempotency key and no list of withdrawals, so after a timeout, a dropped
 * connection, a 5xx or an unreadable answer this table is what remembers that money may have left, and
 * what holds the next withdrawal back until that is settled (withdrawal-guard.ts). It survives restarts.
 *
 * Never written here: the API key and the two-factor code (nor an error's text, which may echo the body).
 *
 * Each entry names the account (accountKey) whose key sent it, when known: an open entry of another
 * account does not hold this one's withdrawals. A new demo market (a new account behind the same
 * origin and ids) renames the open entries as a gone market's (`assignOpenWithdrawals`).
 */
import type Database from 'better-sqlite3';
import type { CryptoTicker } from '../../shared/api/index.ts';
import { WITHDRAWAL_ATTEMPT_STATES, WITHDRAWAL_SETTLED_BY } from '../../shared/ipc/calls-account.ts';
import { createDeskTables } from '../store/desk.ts';

/**
 * `intent`: written, not answered yet (or Skindesk stopped before the answer). `sent`: the marketplace
 * took it (or the evidence or the trader says so). `refused`: a definite refusal, nothing left the
 * balance. `unknown`: no clear answer. `not_sent`: settled as never applied.
 */
export type WithdrawalAttemptState = (typeof WITHDRAWAL_ATTEMPT_STATES)[number];
/** How the outcome was learned. */
export type WithdrawalSettledBy = (typeof WITHDRAWAL_SETTLED_BY)[number];

export interface WithdrawalIntent {
  intentId: string;
  createdAtMs: number;
  account: string | null;
  amount: number;
  ticker: CryptoTicker;
  address: string;
  feeLevel: string;
  /** The balance read just before sending (cents), when the read answered. */
  balanceBefore: number | null;
}

export interface WithdrawalAttempt extends WithdrawalIntent {
  state: WithdrawalAttemptState;
  withdrawalId: number | null;
  settledBy: WithdrawalSettledBy | null;
  /** The ApiError kind of a failed send (`timeout`, `network`, `server`, …; `interrupted`: Skindesk stopped). */
  errorKind: string | null;
  errorCode: string | null;
  /** When the send failed (or the outcome was settled). */
  resolvedAtMs: number | null;
  /** What the last automatic check saw, in words. */
  note: string | null;
  checkedAtMs: number | null;
}

export interface WithdrawalOutcomeRecord {
  state: Exclude<WithdrawalAttemptState, 'intent'>;
  withdrawalId?: number | null;
  settledBy?: WithdrawalSettledBy | null;
  errorKind?: string | null;
  errorCode?: string | null;
  note?: string | null;
}

interface Row {
  intent_id: string;
  created_at_ms: number;
  account: string | null;
  amount: number;
  ticker: CryptoTicker;
  address: string;
  fee_level: string;
  balance_before: number | null;
  state: WithdrawalAttemptState;
  withdrawal_id: number | null;
  settled_by: WithdrawalSettledBy | null;
  error_kind: string | null;
  error_code: string | null;
  resolved_at_ms: number | null;
  note: string | null;
  checked_at_ms: number | null;
}

/** `'a', 'b'`: constant words for a CHECK constraint. */
const sqlList = (words: readonly string[]): string => words.map((w) => `'${w}'`).join(', ');

const SCHEMA = `
CREATE TABLE IF NOT EXISTS crypto_withdrawal_journal (
  intent_id      TEXT PRIMARY KEY,
  created_at_ms  INTEGER NOT NULL,
  account        TEXT,
  amount         INTEGER NOT NULL CHECK (amount > 0),
  ticker         TEXT NOT NULL,
  address        TEXT NOT NULL,
  fee_level      TEXT NOT NULL,
  balance_before INTEGER,
  state          TEXT NOT NULL CHECK (state IN (${sqlList(WITHDRAWAL_ATTEMPT_STATES)})),
  withdrawal_id  INTEGER,
  settled_by     TEXT CHECK (settled_by IN (${sqlList(WITHDRAWAL_SETTLED_BY)})),
  error_kind     TEXT,
  error_code     TEXT,
  resolved_at_ms INTEGER,
  note           TEXT,
  checked_at_ms  INTEGER
);
CREATE INDEX IF NOT EXISTS crypto_withdrawal_journal_by_state ON crypto_withdrawal_journal (state, created_at_ms);
`;

function toAttempt(row: Row): WithdrawalAttempt {
  return {
    intentId: row.intent_id,
    createdAtMs: row.created_at_ms,
    account: row.account,
    amount: row.amount,
    ticker: row.ticker,
    address: row.address,
    feeLevel: row.fee_level,
    balanceBefore: row.balance_before,
    state: row.state,
    withdrawalId: row.withdrawal_id,
    settledBy: row.settled_by,
    errorKind: row.error_kind,
    errorCode: row.error_code,
    resolvedAtMs: row.resolved_at_ms,
    note: row.note,
    checkedAtMs: row.checked_at_ms,
  };
}

/** Open entries of an account that no longer exists are named as that gone account's (see the file's note). */
export function assignOpenWithdrawals(db: Database.Database, account: string): void {
  createDeskTables(db, SCHEMA);
  db.prepare("UPDATE crypto_withdrawal_journal SET account = ? WHERE state IN ('intent', 'unknown')").run(
    account,
  );
}

export class WithdrawalJournal {
  readonly #sql;

  constructor(db: Database.Database) {
    createDeskTables(db, SCHEMA);
    this.#sql = {
      insert: db.prepare(`
        INSERT INTO crypto_withdrawal_journal (intent_id, created_at_ms, account, amount, ticker, address, fee_level,
          balance_before, state)
        VALUES (@intent_id, @created_at_ms, @account, @amount, @ticker, @address, @fee_level, @balance_before, 'intent')`),
      resolve: db.prepare(`
        UPDATE crypto_withdrawal_journal SET state = @state, withdrawal_id = @withdrawal_id, settled_by = @settled_by,
          error_kind = @error_kind, error_code = @error_code, note = @note, resolved_at_ms = @resolved_at_ms
        WHERE intent_id = @intent_id`),
      settle: db.prepare(`
        UPDATE crypto_withdrawal_journal SET state = @state, withdrawal_id = @withdrawal_id, settled_by = @settled_by,
          note = @note, resolved_at_ms = @resolved_at_ms
        WHERE intent_id = @intent_id AND state IN ('intent', 'unknown')`),
      checked: db.prepare(
        'UPDATE crypto_withdrawal_journal SET note = ?, checked_at_ms = ? WHERE intent_id = ?',
      ),
      get: db.prepare<[string], Row>('SELECT * FROM crypto_withdrawal_journal WHERE intent_id = ?'),
      open: db.prepare<[], Row>(
        "SELECT * FROM crypto_withdrawal_journal WHERE state IN ('intent', 'unknown') ORDER BY created_at_ms, intent_id",
      ),
      claimed: db
        .prepare<[], number>(
          'SELECT withdrawal_id FROM crypto_withdrawal_journal WHERE withdrawal_id IS NOT NULL',
        )
        .pluck(),
      interrupted: db.prepare(
        "UPDATE crypto_withdrawal_journal SET state = 'unknown', error_kind = 'interrupted', resolved_at_ms = created_at_ms WHERE state = 'intent'",
      ),
    };
  }

  /**
   * An intent left without an answer by an earlier run of the app (it stopped or crashed while sending)
   * is unknown: the request may have reached the marketplace. Called once when the journal is opened.
   */
  markInterrupted(): void {
    this.#sql.interrupted.run();
  }

  /** Written (and committed) before the withdrawal is sent. */
  recordIntent(intent: WithdrawalIntent): void {
    this.#sql.insert.run({
      intent_id: intent.intentId,
      created_at_ms: intent.createdAtMs,
      account: intent.account,
      amount: intent.amount,
      ticker: intent.ticker,
      address: intent.address,
      fee_level: intent.feeLevel,
      balance_before: intent.balanceBefore,
    });
  }

  /** The answer (or the lack of one) to the send. */
  recordOutcome(intentId: string, outcome: WithdrawalOutcomeRecord, atMs: number): void {
    this.#sql.resolve.run({
      intent_id: intentId,
      state: outcome.state,
      withdrawal_id: outcome.withdrawalId ?? null,
      settled_by: outcome.settledBy ?? null,
      error_kind: outcome.errorKind ?? null,
      error_code: outcome.errorCode ?? null,
      note: outcome.note ?? null,
      resolved_at_ms: atMs,
    });
  }

  /** Settles an open entry as sent or not sent; false when it was not open (settled already, or no such entry). */
  settle(
    intentId: string,
    outcome: {
      state: 'sent' | 'not_sent';
      settledBy: WithdrawalSettledBy;
      withdrawalId?: number | null;
      note?: string | null;
    },
    atMs: number,
  ): boolean {
    const info = this.#sql.settle.run({
      intent_id: intentId,
      state: outcome.state,
      withdrawal_id: outcome.withdrawalId ?? null,
      settled_by: outcome.settledBy,
      note: outcome.note ?? null,
      resolved_at_ms: atMs,
    });
    return info.changes === 1;
  }

  /** What an automatic check saw, when it could not settle the entry. */
  noteCheck(intentId: string, note: string, atMs: number): void {
    this.#sql.checked.run(note, atMs, intentId);
  }

  get(intentId: string): WithdrawalAttempt | null {
    const row = this.#sql.get.get(intentId);
    return row ? toAttempt(row) : null;
  }

  /** Entries without a definite outcome (not answered yet, or unknown), oldest first. */
  open(): WithdrawalAttempt[] {
    return this.#sql.open.all().map(toAttempt);
  }

  /** Withdrawal ids some entry already accounts for. */
  claimedWithdrawalIds(): Set<number> {
    return new Set(this.#sql.claimed.all());
  }
}

/**
 * Crypto withdrawals: what a request will cost before it is sent, the checks that can be made locally,
 * and a tracker that follows a withdrawal (`GET /crypto-withdraw/:id`) until SUCCESS or FAILED
 * (spec §3.3; a FAILED withdrawal is refunded to the balance automatically).
 *
 * Each state seen is kept in SQLite, so the wallet screen shows it offline and a withdrawal still
 * pending when the app quit is followed again on the next start (`resumePending`).
 */
import { EventEmitter } from 'node:events';
import type Database from 'better-sqlite3';
import {
  CRYPTO_MINIMUM_CENTS,
  CRYPTO_PLATFORM_FEE_BPS,
  type CryptoTicker,
  type CryptoWithdrawal,
  type ResponseOf,
  cryptoWithdrawal as cryptoWithdrawalSchema,
} from '../../shared/api/index.ts';
import { bpsOf, formatCents } from '../../shared/money.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { ApiError } from '../api/errors.ts';
import type { Priority } from '../api/governor.ts';
import { checkCryptoAddress } from './crypto-address.ts';
import type { PreSendProblem, PreSendResult } from './presend-checks.ts';
import { createDeskTables } from '../store/desk.ts';

export const FINAL_WITHDRAWAL_STATUSES = ['SUCCESS', 'FAILED'] as const;

export function isWithdrawalFinal(w: Pick<CryptoWithdrawal, 'status'>): boolean {
  return (FINAL_WITHDRAWAL_STATUSES as readonly string[]).includes(w.status);
}

/** Cents returned to the balance: the whole deducted amount once a withdrawal FAILED, else 0. */
export function refundedCents(w: Pick<CryptoWithdrawal, 'status' | 'balance_amount'>): number {
  return w.status === 'FAILED' ? w.balance_amount : 0;
}

/**
 * What a market says about its crypto withdrawals: the minimum per currency and the platform fee. The
 * spec gives neither value (§8: "not shown"), so a real market's are unknown and the app neither states
 * nor enforces them there (its codeless 400 is the minimum speaking); the demo market has its own.
 */
export interface WithdrawalTerms {
  /** Whose terms they are, for the words shown ("the demo market"). */
  market: string;
  minimumCents: Readonly<Record<CryptoTicker, number>>;
  platformFeeBps: number;
}

/** The demo market's terms (it applies them as its server behaviour). */
export const DEMO_WITHDRAWAL_TERMS: WithdrawalTerms = {
  market: 'the demo market',
  minimumCents: CRYPTO_MINIMUM_CENTS,
  platformFeeBps: CRYPTO_PLATFORM_FEE_BPS,
};

export interface WithdrawalQuote {
  /** Null when the market's terms are unknown (a real market). */
  minimumCents: number | null;
  belowMinimum: boolean;
  /** The platform's fee, taken off `amount` first; null when unknown. */
  platformFeeCents: number | null;
  /** What is converted to the currency at the spot rate (the network fee is then paid out of it); null when unknown. */
  convertedCents: number | null;
}

/**
 * What an amount becomes (spec §4.6): fee off the top, the rest converted; the network fee is known only
 * once broadcast. `terms` null (a real market): only that the fee comes off is known, not how much.
 */
export function quoteCryptoWithdrawal(amountCents: number, ticker: CryptoTicker, terms: WithdrawalTerms | null): WithdrawalQuote {
  if (!terms) return { minimumCents: null, belowMinimum: false, platformFeeCents: null, convertedCents: null };
  const minimumCents = terms.minimumCents[ticker];
  const platformFeeCents = bpsOf(amountCents, terms.platformFeeBps);
  return {
    minimumCents,
    belowMinimum: amountCents < minimumCents,
    platformFeeCents,
    convertedCents: Math.max(0, amountCents - platformFeeCents),
  };
}

export interface WithdrawalRequestDraft {
  amount: number;
  ticker: CryptoTicker;
  address: string;
  two_factor_auth_token?: string;
}

export interface WithdrawalCheckContext {
  /** Balance in cents, when known. */
  balance?: number;
  /** Whether the account needs a 2FA token for withdrawals, when known. */
  twoFactorRequired?: boolean;
  /** The market's terms, when known (the demo market): only then is the minimum checked here. */
  terms?: WithdrawalTerms | null;
}

export function checkCryptoWithdrawal(draft: WithdrawalRequestDraft, ctx: WithdrawalCheckContext = {}): PreSendResult {
  const problems: PreSendProblem[] = [];
  if (!Number.isInteger(draft.amount) || draft.amount <= 0) {
    problems.push({ code: 'VALIDATION_ERROR', message: 'the amount must be a whole number of cents above 0' });
  } else {
    const quote = quoteCryptoWithdrawal(draft.amount, draft.ticker, ctx.terms ?? null);
    if (quote.belowMinimum && quote.minimumCents !== null) {
      problems.push({ code: 'WITHDRAWAL_BELOW_MINIMUM', message: `the minimum ${draft.ticker} withdrawal on ${ctx.terms?.market} is ${formatCents(quote.minimumCents)}` });
    }
    if (ctx.balance !== undefined && draft.amount > ctx.balance) {
      problems.push({ code: 'INSUFFICIENT_BALANCE', message: `the balance is ${formatCents(ctx.balance)}; ${formatCents(draft.amount)} requested` });
    }
  }
  const address = checkCryptoAddress(draft.ticker, draft.address);
  if (!address.ok) problems.push({ code: 'VALIDATION_ERROR', message: `address: ${address.reason}` });
  if (ctx.twoFactorRequired && !draft.two_factor_auth_token) {
    problems.push({ code: 'TWO_FACTOR_REQUIRED', message: 'this account needs the two-factor code for withdrawals' });
  }
  return { ok: problems.length === 0, problems };
}

/** What the tracker needs of the REST client (`ApiClient` satisfies it). */
export interface WithdrawalSource {
  call(
    name: 'cryptoWithdrawal',
    input: { id: number },
    opts: { priority: Priority; signal?: AbortSignal },
  ): Promise<ResponseOf<'cryptoWithdrawal'>>;
}

export interface WithdrawalTrackerOptions {
  source: WithdrawalSource;
  db: Database.Database;
  clock?: Clock;
  /** Between polls of one withdrawal (default 5 s; the route allows 30 a minute). */
  intervalMs?: number;
  /** Longest wait between polls after consecutive failures (default 2 minutes). */
  maxBackoffMs?: number;
  /** Give up following after this long (default 24 hours); the state stays stored and can be resumed. */
  timeoutMs?: number;
}

export interface WithdrawalUpdate {
  withdrawal: CryptoWithdrawal;
  previousStatus: string | null;
}

export interface WithdrawalTrackerEvents {
  /** A new status (or tx_hash/network_fee) was seen. */
  update: [WithdrawalUpdate];
  /** A poll failed; the tracker keeps trying unless the failure is final. */
  poll_error: [ApiError | Error, number];
  /** The status checks of a withdrawal started or stopped failing (see checkTrouble). */
  check_trouble: [number];
}

/** Why a followed withdrawal's status is not being seen now: its checks fail. */
export interface WithdrawalCheckTrouble {
  /** When its status was last read (or stored) successfully. */
  lastSeenAt: number;
  /** When the failures going on now began. */
  failingSince: number;
  /** The latest failure in plain words. */
  problem: string;
  /** False once the failure is one that checking again cannot mend (the tracker stopped). */
  retrying: boolean;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS crypto_withdrawals (
  withdrawal_id INTEGER PRIMARY KEY,
  status TEXT NOT NULL,
  body TEXT NOT NULL,
  seen_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS crypto_withdrawal_statuses (
  withdrawal_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  first_seen_at INTEGER NOT NULL,
  PRIMARY KEY (withdrawal_id, status)
) WITHOUT ROWID;
`;

/** Errors after which polling again cannot help. */
function isPermanent(err: unknown): boolean {
  return err instanceof ApiError && (err.kind === 'api' || err.kind === 'invalid_request');
}

export class WithdrawalTimeoutError extends Error {
  override readonly name = 'WithdrawalTimeoutError';
}

export class CryptoWithdrawalTracker extends EventEmitter<WithdrawalTrackerEvents> {
  readonly #source: WithdrawalSource;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #maxBackoffMs: number;
  readonly #timeoutMs: number;
  readonly #following = new Map<number, Promise<CryptoWithdrawal>>();
  /** Withdrawals whose checks fail now: kept in memory, as a new session checks afresh. */
  readonly #trouble = new Map<number, WithdrawalCheckTrouble>();
  readonly #sql;

  constructor(options: WithdrawalTrackerOptions) {
    super();
    this.#source = options.source;
    this.#clock = options.clock ?? systemClock;
    this.#intervalMs = options.intervalMs ?? 5_000;
    this.#maxBackoffMs = options.maxBackoffMs ?? 120_000;
    this.#timeoutMs = options.timeoutMs ?? 24 * 60 * 60_000;
    createDeskTables(options.db, SCHEMA);
    const db = options.db;
    this.#sql = {
      get: db.prepare<[number], { body: string }>('SELECT body FROM crypto_withdrawals WHERE withdrawal_id = ?'),
      seenAt: db.prepare<[number], { seen_at: number }>('SELECT seen_at FROM crypto_withdrawals WHERE withdrawal_id = ?'),
      put: db.prepare('INSERT OR REPLACE INTO crypto_withdrawals (withdrawal_id, status, body, seen_at) VALUES (?, ?, ?, ?)'),
      status: db.prepare('INSERT OR IGNORE INTO crypto_withdrawal_statuses (withdrawal_id, status, first_seen_at) VALUES (?, ?, ?)'),
      statuses: db.prepare<[number], { status: string; first_seen_at: number }>(
        `SELECT status, first_seen_at FROM crypto_withdrawal_statuses WHERE withdrawal_id = ?
         ORDER BY first_seen_at, CASE status WHEN 'CREATED' THEN 0 WHEN 'PENDING' THEN 1 WHEN 'CONFIRMING' THEN 2 ELSE 3 END`,
      ),
      pending: db.prepare<[], { withdrawal_id: number }>(
        "SELECT withdrawal_id FROM crypto_withdrawals WHERE status NOT IN ('SUCCESS', 'FAILED') ORDER BY withdrawal_id",
      ),
      all: db.prepare<[], { body: string }>('SELECT body FROM crypto_withdrawals ORDER BY withdrawal_id DESC'),
    };
  }

  /**
   * Stores a withdrawal as seen (the POST's response, or a poll). Emits `update` when its status,
   * tx_hash or network fee changed. A final state is never replaced by a non-final one.
   */
  record(w: CryptoWithdrawal): void {
    const held = this.get(w.withdrawal_id);
    if (held && isWithdrawalFinal(held) && !isWithdrawalFinal(w)) return;
    const now = this.#clock.now();
    this.#sql.put.run(w.withdrawal_id, w.status, JSON.stringify(w), now);
    this.#sql.status.run(w.withdrawal_id, w.status, now);
    if (!held || held.status !== w.status || held.tx_hash !== w.tx_hash || held.network_fee !== w.network_fee) {
      this.emit('update', { withdrawal: w, previousStatus: held?.status ?? null });
    }
  }

  get(id: number): CryptoWithdrawal | null {
    const row = this.#sql.get.get(id);
    return row ? cryptoWithdrawalSchema.parse(JSON.parse(row.body)) : null;
  }

  list(): CryptoWithdrawal[] {
    return this.#sql.all.all().map((r) => cryptoWithdrawalSchema.parse(JSON.parse(r.body)));
  }

  /** Why a withdrawal's status is not being seen now (its checks fail); null while they succeed. */
  checkTrouble(id: number): WithdrawalCheckTrouble | null {
    const trouble = this.#trouble.get(id);
    return trouble ? { ...trouble } : null;
  }

  /** Statuses seen for a withdrawal, in the order first seen. */
  statuses(id: number): { status: string; firstSeenAt: number }[] {
    return this.#sql.statuses.all(id).map((r) => ({ status: r.status, firstSeenAt: r.first_seen_at }));
  }

  /**
   * Polls until SUCCESS or FAILED and resolves with the final state. Following the same id twice shares
   * one loop. Transient failures (network, timeouts, 5xx, 429) are retried with back-off and emitted
   * as `poll_error`; a refusal by the server (e.g. WITHDRAWAL_NOT_FOUND) rejects at once.
   */
  follow(id: number, options: { signal?: AbortSignal } = {}): Promise<CryptoWithdrawal> {
    const existing = this.#following.get(id);
    if (existing) return existing;
    const promise = this.#follow(id, options.signal).finally(() => {
      this.#following.delete(id);
      // no loop checks it any more (given up, refused, or stopped): a card must not say "retrying"
      const trouble = this.#trouble.get(id);
      if (trouble?.retrying) {
        trouble.retrying = false;
        this.emit('check_trouble', id);
      }
    });
    this.#following.set(id, promise);
    return promise;
  }

  /** Follows every stored withdrawal that had not settled (after a restart). */
  resumePending(options: { signal?: AbortSignal } = {}): Promise<CryptoWithdrawal>[] {
    return this.#sql.pending.all().map((r) => this.follow(r.withdrawal_id, options));
  }

  async #follow(id: number, signal: AbortSignal | undefined): Promise<CryptoWithdrawal> {
    const held = this.get(id);
    if (held && isWithdrawalFinal(held)) return held;
    const deadline = this.#clock.now() + this.#timeoutMs;
    let failures = 0;
    for (;;) {
      signal?.throwIfAborted();
      try {
        const w = await this.#source.call('cryptoWithdrawal', { id }, { priority: 'background', signal });
        failures = 0;
        this.record(w);
        if (this.#trouble.delete(id)) this.emit('check_trouble', id);
        if (isWithdrawalFinal(w)) return w;
      } catch (err) {
        if (signal?.aborted) throw err;
        failures++;
        const error = err instanceof Error ? err : new Error(String(err));
        const now = this.#clock.now();
        // the wallet card says it: the status shown is as old as lastSeenAt, and why it is not newer
        this.#trouble.set(id, {
          lastSeenAt: this.#sql.seenAt.get(id)?.seen_at ?? now,
          failingSince: this.#trouble.get(id)?.failingSince ?? now,
          problem: error instanceof ApiError ? error.explanation : error.message,
          retrying: !isPermanent(err),
        });
        this.emit('poll_error', error, id);
        this.emit('check_trouble', id);
        if (isPermanent(err)) throw err;
      }
      if (this.#clock.now() >= deadline) {
        throw new WithdrawalTimeoutError(`withdrawal ${id} did not settle within ${Math.round(this.#timeoutMs / 60_000)} minutes; it is still stored and can be followed again`);
      }
      const wait = failures === 0 ? this.#intervalMs : Math.min(this.#intervalMs * 2 ** failures, this.#maxBackoffMs);
      await this.#clock.sleep(wait, signal);
    }
  }
}

// The crypto withdrawal journal and guard: an unknown outcome (timeout, dropped connection, 5xx) holds
// the next withdrawal back until it is settled, by the trader's word or by evidence (the ledger, the
// balance); a definite refusal holds nothing; the journal survives a restart and never keeps the 2FA code.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  type LedgerRead,
  WithdrawalGuard,
  WithdrawalHeldError,
  WithdrawalOutcomeUnknownError,
  type WithdrawalEvidence,
  type WithdrawalRequest,
} from '../../../src/core/account/withdrawal-guard.ts';
import { WithdrawalJournal, assignOpenWithdrawals } from '../../../src/core/account/withdrawal-journal.ts';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import type { BalanceTransaction, CryptoWithdrawal } from '../../../src/shared/api/index.ts';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const ACCOUNT = 'http://market.test account 7';
const REQUEST: WithdrawalRequest = {
  amount: 2_500,
  ticker: 'ETH',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  feeLevel: 'LOW',
};

function withdrawal(id: number, over: Partial<CryptoWithdrawal> = {}): CryptoWithdrawal {
  return {
    withdrawal_id: id,
    status: 'PENDING',
    balance_amount: 2_500,
    token_amount: 0.01,
    ticker: 'ETH',
    created_at: new Date(T0).toISOString(),
    tx_hash: null,
    network_fee: null,
    ...over,
  };
}

function ledgerRow(
  id: number,
  type: string,
  amount: number,
  atMs: number,
  referenceId: number | null,
): BalanceTransaction {
  return {
    id,
    type,
    amount,
    balance: 0,
    description: type,
    reference_id: referenceId,
    created_at: new Date(atMs).toISOString(),
  };
}

const timeout = () =>
  new ApiError({
    kind: 'timeout',
    route: 'POST /public/v1/crypto-withdraw',
    message: 'timed out after 10000 ms',
    maybeDelivered: true,
  });
const refused = () =>
  new ApiError({
    kind: 'api',
    route: 'POST /public/v1/crypto-withdraw',
    status: 402,
    code: 'INSUFFICIENT_BALANCE',
    message: 'no money',
  });

/** A marketplace as the guard sees it: a balance, a ledger (or none that parses), withdrawals by id. */
class FakeMarket implements WithdrawalEvidence {
  balanceCents: number | null = 10_000;
  ledger: BalanceTransaction[] | null = [];
  readonly withdrawals = new Map<number, CryptoWithdrawal>();
  reads = { balance: 0, ledger: 0 };
  async balance() {
    this.reads.balance++;
    return this.balanceCents === null ? null : { account: ACCOUNT, balance: this.balanceCents };
  }
  async ledgerSince(): Promise<LedgerRead | null> {
    this.reads.ledger++;
    return this.ledger === null ? null : { rows: [...this.ledger].reverse(), complete: true };
  }
  async withdrawal(id: number) {
    return this.withdrawals.get(id) ?? null;
  }
  /** The marketplace's clock minus ours, when known. */
  serverOffset: number | null = null;
  serverOffsetMs() {
    return this.serverOffset;
  }
  /** Applies a withdrawal the way the marketplace does: money out, a ledger row, a record. */
  apply(id: number, clock: ManualClock, amount = 2_500): CryptoWithdrawal {
    this.balanceCents = (this.balanceCents ?? 0) - amount;
    this.ledger?.push(ledgerRow(100 + id, 'CRYPTO_WITHDRAWAL', -amount, clock.now(), id));
    const w = withdrawal(id, { balance_amount: amount });
    this.withdrawals.set(id, w);
    return w;
  }
}

/**
 * A withdrawal that went out (withdrawal 31), its answer lost to a timeout, while a sale moved the
 * balance: the balance alone cannot tell it was sent.
 */
async function sentWithTheAnswerLost(guard: WithdrawalGuard, market: FakeMarket, clock: ManualClock): Promise<void> {
  await guard
    .send(REQUEST, market, async () => {
      await clock.advance(1_000);
      market.apply(31, clock);
      market.balanceCents = 99_999;
      throw timeout();
    })
    .catch(() => undefined);
}

function setup(db = new Database(':memory:')) {
  const clock = new ManualClock(T0);
  const journal = new WithdrawalJournal(db);
  const guard = new WithdrawalGuard({ journal, clock, notSentAfterMs: 60_000 });
  return { db, clock, journal, guard, market: new FakeMarket() };
}

describe('withdrawal guard', () => {
  it('a timeout leaves the withdrawal unknown, and the next one is held without being sent', async () => {
    const { guard, journal, market } = setup();
    const error = await guard.send(REQUEST, market, () => Promise.reject(timeout())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WithdrawalOutcomeUnknownError);
    const unknown = (error as WithdrawalOutcomeUnknownError).attempt;
    expect(unknown).toMatchObject({
      state: 'unknown',
      errorKind: 'timeout',
      amount: 2_500,
      ticker: 'ETH',
      balanceBefore: 10_000,
      account: ACCOUNT,
    });
    expect((error as Error).message).toContain('$25.00 in ETH to 0x5290…9EE7');
    expect((error as Error).message).toContain('did not answer in time');

    // the balance and the ledger tell nothing (they did not move, but it is too soon to call it not sent)
    let posted = 0;
    const held = await guard
      .send(REQUEST, market, async () => (posted++, withdrawal(1)))
      .catch((e: unknown) => e);
    expect(held).toBeInstanceOf(WithdrawalHeldError);
    expect(held).toMatchObject({ reason: 'unknown', attempt: { intentId: unknown.intentId } });
    expect((held as Error).message).toMatch(
      /^Nothing was sent: the withdrawal of \$25\.00 in ETH to 0x5290…9EE7, asked at 2026-11-21 12:00 UTC, got no clear answer/,
    );
    expect((held as Error).message).toContain('say in the wallet whether it was sent');
    expect(posted).toBe(0);
    expect(journal.get(unknown.intentId)?.note).toContain('too soon after the failure');
    expect(guard.open(ACCOUNT).map((a) => a.intentId)).toEqual([unknown.intentId]);
  });

  it('a 5xx and a dropped connection are unknown too; a definite refusal holds nothing', async () => {
    const { guard, market } = setup();
    const server = new ApiError({
      kind: 'server',
      route: 'POST /x',
      status: 502,
      message: '502',
      maybeDelivered: true,
    });
    await expect(guard.send(REQUEST, market, () => Promise.reject(server))).rejects.toBeInstanceOf(
      WithdrawalOutcomeUnknownError,
    );
    guard.acknowledge(guard.open(ACCOUNT)[0]!.intentId, 'not_sent');

    const err = await guard.send(REQUEST, market, () => Promise.reject(refused())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(guard.open(ACCOUNT)).toEqual([]);
    // a connection that never opened reached nothing: refused as well
    const notSent = new ApiError({
      kind: 'network',
      route: 'POST /x',
      message: 'ECONNREFUSED',
      maybeDelivered: false,
    });
    await expect(guard.send(REQUEST, market, () => Promise.reject(notSent))).rejects.toBe(notSent);
    expect(guard.open(ACCOUNT)).toEqual([]);
    await expect(guard.send(REQUEST, market, async () => withdrawal(9))).resolves.toMatchObject({
      withdrawal_id: 9,
    });
  });

  it('settled by the trader: "it was not sent" lets the next one go, once', async () => {
    const { guard, journal, market } = setup();
    await guard.send(REQUEST, market, () => Promise.reject(timeout())).catch(() => undefined);
    const [open] = guard.open(ACCOUNT);
    expect(guard.acknowledge(open!.intentId, 'not_sent')).toMatchObject({
      state: 'not_sent',
      settledBy: 'trader',
    });
    // settled already: a second word changes nothing
    expect(guard.acknowledge(open!.intentId, 'sent')).toBeNull();
    const sent = await guard.send(REQUEST, market, async () => withdrawal(5));
    expect(sent.withdrawal_id).toBe(5);
    expect(journal.claimedWithdrawalIds()).toEqual(new Set([5]));
  });

  it('settled by the trader: "it was sent" releases the hold', async () => {
    const { guard, market } = setup();
    await guard.send(REQUEST, market, () => Promise.reject(timeout())).catch(() => undefined);
    expect(guard.acknowledge(guard.open(ACCOUNT)[0]!.intentId, 'sent')).toMatchObject({
      state: 'sent',
      settledBy: 'trader',
    });
    expect(guard.open(ACCOUNT)).toEqual([]);
  });

  it('settled by the balance: it fell by exactly the amount; the new request is answered with that, not sent', async () => {
    const { guard, market, clock } = setup();
    market.ledger = null; // the ledger's shape is an assumption: here it does not parse
    await guard
      .send(REQUEST, market, async () => {
        market.apply(31, clock);
        throw timeout();
      })
      .catch(() => undefined);
    await clock.advance(5_000);
    let posted = 0;
    const err = await guard
      .send(REQUEST, market, async () => (posted++, withdrawal(32)))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      reason: 'was_sent',
      attempt: { state: 'sent', settledBy: 'balance', withdrawalId: null },
    });
    expect((err as Error).message).toContain('the balance fell by exactly that amount');
    expect((err as Error).message).toContain('Send again only if you want a second withdrawal');
    expect(posted).toBe(0);
    // asked again, deliberately: now it goes
    await expect(guard.send(REQUEST, market, async () => (posted++, withdrawal(32)))).resolves.toMatchObject({
      withdrawal_id: 32,
    });
    expect(posted).toBe(1);
  });

  it('settled by the ledger: the withdrawal row names the withdrawal, read to be followed', async () => {
    const { market, clock } = setup();
    market.withdrawals.set(30, withdrawal(30)); // an earlier one the app follows already
    market.ledger!.push(ledgerRow(1, 'CRYPTO_WITHDRAWAL', -2_500, T0 - 10_000, 30));
    const known = new WithdrawalGuard({
      journal: new WithdrawalJournal(new Database(':memory:')),
      clock,
      knownIds: () => [30],
    });
    await sentWithTheAnswerLost(known, market, clock);
    const result = await known.check(market);
    expect(result.open).toEqual([]);
    expect(result.settled).toMatchObject([{ state: 'sent', settledBy: 'ledger', withdrawalId: 31 }]);
    expect(result.found.map((w) => w.withdrawal_id)).toEqual([31]);
  });

  it('two checks at once (the one at connecting, a "Check again"): one settles and finds it, the other finds it settled', async () => {
    const { market, clock, guard } = setup();
    await sentWithTheAnswerLost(guard, market, clock);
    const results = await Promise.all([guard.check(market), guard.check(market)]);
    // one verdict, one withdrawal to follow: the second check never reports as open what the first settled
    expect(results.flatMap((r) => r.settled).map((a) => a.withdrawalId)).toEqual([31]);
    expect(results.flatMap((r) => r.found).map((w) => w.withdrawal_id)).toEqual([31]);
    expect(results.flatMap((r) => r.open)).toEqual([]);
  });

  it('the trader settles it while a check reads the ledger: the check does not call it open', async () => {
    const { market, clock, guard } = setup();
    await guard.send(REQUEST, market, () => Promise.reject(timeout())).catch(() => undefined);
    const [entry] = guard.open(ACCOUNT);
    const readLedger = market.ledgerSince.bind(market);
    market.ledgerSince = async () => {
      guard.acknowledge(entry!.intentId, 'not_sent');
      return readLedger();
    };
    await clock.advance(1_000);
    const result = await guard.check(market);
    expect(result).toEqual({ settled: [], open: [], found: [] });
    expect(guard.open(ACCOUNT)).toEqual([]);
  });

  it("the ledger's times are the marketplace's: a computer clock minutes ahead of it still finds the withdrawal", async () => {
    const { guard, market, clock } = setup();
    const marketBehindMs = 3 * 60_000;
    await sentWithTheAnswerLost(guard, market, clock);
    // the marketplace stamped its ledger row by its own clock, three minutes behind ours
    const row = market.ledger!.at(-1)!;
    market.ledger![market.ledger!.length - 1] = { ...row, created_at: new Date(Date.parse(row.created_at) - marketBehindMs).toISOString() };
    market.serverOffset = -marketBehindMs; // as the REST client measured it from the Date header
    const result = await guard.check(market);
    expect(result.open).toEqual([]);
    expect(result.settled).toMatchObject([{ state: 'sent', settledBy: 'ledger', withdrawalId: 31 }]);
  });

  it('a ledger row read twice (a movement landing between two pages shifts it onto the next) is one withdrawal, settled sent', async () => {
    const { guard, market, clock } = setup();
    await sentWithTheAnswerLost(guard, market, clock);
    const row = market.ledger!.at(-1)!;
    market.ledgerSince = async () => ({ rows: [row, row], complete: true });
    const result = await guard.check(market);
    expect(result.open).toEqual([]);
    expect(result.settled).toMatchObject([{ state: 'sent', settledBy: 'ledger', withdrawalId: 31 }]);
  });

  it('a ledger row of another currency, or two that fit, settle nothing', async () => {
    const { guard, market, clock } = setup();
    await guard
      .send(REQUEST, market, async () => {
        market.apply(40, clock);
        market.withdrawals.set(40, withdrawal(40, { ticker: 'BTC' }));
        market.balanceCents = 1;
        throw timeout();
      })
      .catch(() => undefined);
    let result = await guard.check(market);
    expect(result.open).toHaveLength(1);
    expect(result.open[0]!.note).toContain('the ledger shows no withdrawal of that amount');
    market.apply(41, clock);
    market.apply(42, clock);
    market.balanceCents = 1;
    result = await guard.check(market);
    expect(result.open[0]!.note).toContain('2 withdrawals of that amount');
  });

  it('settled as not sent by the evidence only when nothing moved and the failure is old enough', async () => {
    const { guard, market, clock } = setup();
    await guard.send(REQUEST, market, () => Promise.reject(timeout())).catch(() => undefined);
    await clock.advance(59_000);
    expect((await guard.check(market)).open).toHaveLength(1);
    await clock.advance(1_000);
    const result = await guard.check(market);
    expect(result.settled).toMatchObject([{ state: 'not_sent', settledBy: 'ledger' }]);
  });

  it('without a readable ledger, an unchanged balance never counts as not sent', async () => {
    const { guard, market, clock } = setup();
    market.ledger = null;
    await guard.send(REQUEST, market, () => Promise.reject(timeout())).catch(() => undefined);
    await clock.advance(3_600_000);
    const result = await guard.check(market);
    expect(result.open).toHaveLength(1);
    expect(result.open[0]!.note).toBe('Checked: the ledger could not be read; the balance has not changed.');
  });

  it('two sends at once: the second is refused while the first is on its way', async () => {
    const { guard, market } = setup();
    let release!: (w: CryptoWithdrawal) => void;
    const first = guard.send(REQUEST, market, () => new Promise((r) => (release = r)));
    await expect(guard.send(REQUEST, market, async () => withdrawal(2))).rejects.toMatchObject({
      reason: 'sending',
    });
    await new Promise((r) => setTimeout(r, 0));
    release(withdrawal(1));
    await expect(first).resolves.toMatchObject({ withdrawal_id: 1 });
  });

  it('survives a restart: an unknown entry, and one that never got an answer, still hold', async () => {
    const db = new Database(':memory:');
    const a = setup(db);
    await a.guard.send(REQUEST, a.market, () => Promise.reject(timeout())).catch(() => undefined);
    // a send cut short by the app stopping: written as an intent, never answered
    a.journal.recordIntent({
      intentId: 'cut-short',
      createdAtMs: T0 + 1,
      account: ACCOUNT,
      amount: 700,
      ticker: 'BTC',
      address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      feeLevel: 'LOW',
      balanceBefore: null,
    });

    const b = setup(db);
    b.journal.markInterrupted();
    const open = b.guard.open(ACCOUNT);
    expect(open.map((x) => [x.state, x.errorKind])).toEqual([
      ['unknown', 'timeout'],
      ['unknown', 'interrupted'],
    ]);
    await expect(b.guard.send(REQUEST, b.market, async () => withdrawal(1))).rejects.toMatchObject({
      reason: 'unknown',
    });
    // another account's open entry does not hold this one; a gone demo market's neither
    assignOpenWithdrawals(db, 'an earlier demo market, gone since');
    expect(b.guard.open(ACCOUNT)).toEqual([]);
    expect(b.guard.open(null)).toHaveLength(2);
    // with the account not known yet, the market alone tells that they are not of this one
    expect(b.guard.open(null, 'http://market.test')).toEqual([]);
  });

  it('keeps neither the two-factor code nor the error text in the journal', async () => {
    const { db, guard, market } = setup();
    const echoed = new ApiError({
      kind: 'server',
      route: 'POST /x',
      status: 500,
      message: 'body {"two_factor_auth_token":"123456"}',
      maybeDelivered: true,
    });
    await guard.send(REQUEST, market, () => Promise.reject(echoed)).catch(() => undefined);
    const dump = JSON.stringify(db.prepare('SELECT * FROM crypto_withdrawal_journal').all());
    expect(dump).not.toContain('123456');
    expect(dump).toContain('"error_kind":"server"');
  });
});

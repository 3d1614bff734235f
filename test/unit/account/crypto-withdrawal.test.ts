import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import {
  CryptoWithdrawalTracker,
  DEMO_WITHDRAWAL_TERMS,
  type WithdrawalSource,
  type WithdrawalUpdate,
  checkCryptoWithdrawal,
  quoteCryptoWithdrawal,
  refundedCents,
} from '../../../src/core/account/crypto-withdrawal.ts';
import type { CryptoWithdrawal } from '../../../src/shared/api/index.ts';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

function withdrawal(status: CryptoWithdrawal['status'], over: Partial<CryptoWithdrawal> = {}): CryptoWithdrawal {
  const broadcast = status === 'CONFIRMING' || status === 'SUCCESS' || status === 'FAILED';
  return {
    withdrawal_id: 42,
    status,
    balance_amount: 5_000,
    token_amount: 0.0123,
    ticker: 'ETH',
    created_at: new Date(T0).toISOString(),
    tx_hash: broadcast ? '0xabc' : null,
    network_fee: broadcast ? '0.0004' : null,
    ...over,
  };
}

/** Answers each poll with the next scripted step (a state, or an error to throw). */
class ScriptedSource implements WithdrawalSource {
  readonly calls: number[] = [];
  readonly #steps: (CryptoWithdrawal | Error)[];
  readonly #clock: ManualClock;
  constructor(clock: ManualClock, steps: (CryptoWithdrawal | Error)[]) {
    this.#clock = clock;
    this.#steps = steps;
  }
  async call(_name: 'cryptoWithdrawal', input: { id: number }): Promise<CryptoWithdrawal> {
    this.calls.push(this.#clock.now() - T0);
    const step = this.#steps.length > 1 ? this.#steps.shift() : this.#steps[0];
    if (step instanceof Error) throw step;
    if (!step) throw new Error('script exhausted');
    return { ...step, withdrawal_id: input.id };
  }
}

function setup(steps: (CryptoWithdrawal | Error)[], db = new Database(':memory:')) {
  const clock = new ManualClock(T0);
  const source = new ScriptedSource(clock, steps);
  const tracker = new CryptoWithdrawalTracker({ source, db, clock, intervalMs: 5_000, maxBackoffMs: 60_000 });
  const updates: WithdrawalUpdate[] = [];
  tracker.on('update', (u) => updates.push(u));
  return { clock, source, tracker, updates, db };
}

const transient = () => new ApiError({ kind: 'server', route: 'GET /public/v1/crypto-withdraw/:id', message: 'HTTP 503', status: 503, maybeDelivered: true });

describe('CryptoWithdrawalTracker', () => {
  it('type-checks against the real REST client', () => {
    const client: WithdrawalSource = new ApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    expect(typeof client.call).toBe('function');
  });

  it('polls until SUCCESS, recording each status once', async () => {
    const { clock, source, tracker, updates } = setup([
      withdrawal('PENDING'),
      withdrawal('PENDING'),
      withdrawal('CONFIRMING'),
      withdrawal('SUCCESS'),
    ]);
    tracker.record(withdrawal('PENDING')); // the POST's answer
    const done = tracker.follow(42);
    await clock.advance(20_000);
    const final = await done;
    expect(final.status).toBe('SUCCESS');
    expect(source.calls).toEqual([0, 5_000, 10_000, 15_000]);
    expect(updates.map((u) => [u.previousStatus, u.withdrawal.status])).toEqual([
      [null, 'PENDING'],
      ['PENDING', 'CONFIRMING'],
      ['CONFIRMING', 'SUCCESS'],
    ]);
    expect(tracker.statuses(42).map((s) => s.status)).toEqual(['PENDING', 'CONFIRMING', 'SUCCESS']);
    expect(refundedCents(final)).toBe(0);
  });

  it('ends at FAILED with the refund, retrying transient errors with back-off', async () => {
    const { clock, source, tracker } = setup([withdrawal('PENDING'), transient(), transient(), withdrawal('CONFIRMING'), withdrawal('FAILED')]);
    const errors: string[] = [];
    tracker.on('poll_error', (e) => errors.push(e.message));
    const done = tracker.follow(42);
    await clock.advance(60_000);
    const final = await done;
    expect(final.status).toBe('FAILED');
    expect(refundedCents(final)).toBe(5_000);
    // 5 s, then 10 s and 20 s after the two failures, then 5 s again.
    expect(source.calls).toEqual([0, 5_000, 15_000, 35_000, 40_000]);
    expect(errors).toEqual(['HTTP 503', 'HTTP 503']);
  });

  it('tells why a withdrawal is not seen while its checks fail, since when, and forgets it once seen again', async () => {
    const { clock, tracker } = setup([withdrawal('CONFIRMING'), transient(), transient(), withdrawal('CONFIRMING'), withdrawal('SUCCESS')]);
    const troubles: number[] = [];
    tracker.on('check_trouble', (id) => troubles.push(id));
    const done = tracker.follow(42);
    await clock.advance(0); // CONFIRMING seen at T0
    expect(tracker.checkTrouble(42)).toBeNull();
    await clock.advance(5_000); // fails
    await clock.advance(10_000); // fails again
    expect(tracker.checkTrouble(42)).toEqual({
      lastSeenAt: T0,
      failingSince: T0 + 5_000,
      problem: 'The marketplace is failing on its side (a server error).',
      retrying: true,
    });
    await clock.advance(20_000); // seen again
    expect(tracker.checkTrouble(42)).toBeNull();
    await clock.advance(5_000);
    expect((await done).status).toBe('SUCCESS');
    // told when it began (twice: the reason may change) and when it ended, for the wallet card to follow
    expect(troubles).toEqual([42, 42, 42]);
  });

  it('says a withdrawal is no longer checked once the server refuses, rather than "retrying"', async () => {
    const notFound = new ApiError({ kind: 'api', route: 'GET /public/v1/crypto-withdraw/:id', message: 'WITHDRAWAL_NOT_FOUND (HTTP 404)', code: 'WITHDRAWAL_NOT_FOUND', status: 404 });
    const { clock, tracker } = setup([withdrawal('PENDING'), notFound]);
    const done = tracker.follow(42);
    const outcome = expect(done).rejects.toMatchObject({ code: 'WITHDRAWAL_NOT_FOUND' });
    await clock.advance(5_000);
    await outcome;
    expect(tracker.checkTrouble(42)).toMatchObject({ lastSeenAt: T0, failingSince: T0 + 5_000, retrying: false });
  });

  it('stops at once when the server refuses (no such withdrawal)', async () => {
    const notFound = new ApiError({ kind: 'api', route: 'GET /public/v1/crypto-withdraw/:id', message: 'WITHDRAWAL_NOT_FOUND (HTTP 404)', code: 'WITHDRAWAL_NOT_FOUND', status: 404 });
    const { clock, tracker } = setup([notFound]);
    const done = tracker.follow(42);
    const outcome = expect(done).rejects.toMatchObject({ code: 'WITHDRAWAL_NOT_FOUND' });
    await clock.advance(0);
    await outcome;
  });

  it('gives up after its time-out and can be followed again later', async () => {
    const clock = new ManualClock(T0);
    const source = new ScriptedSource(clock, [withdrawal('PENDING')]);
    const tracker = new CryptoWithdrawalTracker({ source, db: new Database(':memory:'), clock, intervalMs: 1_000, timeoutMs: 10_000 });
    const done = tracker.follow(42);
    const outcome = expect(done).rejects.toThrow(/did not settle/);
    await clock.advance(11_000);
    await outcome;
    expect(source.calls.length).toBeLessThanOrEqual(12);
    expect(tracker.get(42)?.status).toBe('PENDING');
  });

  it('resumes unsettled withdrawals from SQLite after a restart, and shares one loop per id', async () => {
    const db = new Database(':memory:');
    const first = setup([withdrawal('PENDING')], db);
    first.tracker.record(withdrawal('CONFIRMING', { withdrawal_id: 7 }));
    first.tracker.record(withdrawal('SUCCESS', { withdrawal_id: 8 }));

    const second = setup([withdrawal('SUCCESS')], db);
    const resumed = second.tracker.resumePending();
    expect(resumed).toHaveLength(1);
    expect(second.tracker.follow(7)).toBe(resumed[0]);
    await second.clock.advance(0);
    expect((await resumed[0])?.status).toBe('SUCCESS');
    expect(second.source.calls).toHaveLength(1);
    // A settled withdrawal needs no request at all.
    expect((await second.tracker.follow(8)).status).toBe('SUCCESS');
    expect(second.source.calls).toHaveLength(1);
  });

  it('never lets a late non-final state replace a final one', () => {
    const { tracker } = setup([withdrawal('PENDING')]);
    tracker.record(withdrawal('FAILED'));
    tracker.record(withdrawal('CONFIRMING'));
    expect(tracker.get(42)?.status).toBe('FAILED');
  });
});

describe('withdrawal quote and checks', () => {
  it("explains the demo market's platform fee and minimum", () => {
    expect(quoteCryptoWithdrawal(5_000, 'ETH', DEMO_WITHDRAWAL_TERMS)).toEqual({ minimumCents: 1_000, belowMinimum: false, platformFeeCents: 50, convertedCents: 4_950 });
    expect(quoteCryptoWithdrawal(1_999, 'BTC', DEMO_WITHDRAWAL_TERMS)).toMatchObject({ minimumCents: 2_000, belowMinimum: true, platformFeeCents: 20 });
  });

  it('states no fee or minimum when the market does not publish them (a real market)', () => {
    // Spec §8: "Minimum crypto withdrawal per currency: not shown"; the platform fee's size is not given either.
    expect(quoteCryptoWithdrawal(1, 'BTC', null)).toEqual({ minimumCents: null, belowMinimum: false, platformFeeCents: null, convertedCents: null });
    // a small amount is not refused locally: the server judges its own minimum (a bare 400)
    expect(checkCryptoWithdrawal({ amount: 100, ticker: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })).toEqual({ ok: true, problems: [] });
    expect(checkCryptoWithdrawal({ amount: 100, ticker: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, { terms: null }).ok).toBe(true);
  });

  it('reports every local problem at once', () => {
    expect(checkCryptoWithdrawal({ amount: 5_000, ticker: 'ETH', address: ETH_ADDRESS }, { balance: 10_000, terms: DEMO_WITHDRAWAL_TERMS })).toEqual({ ok: true, problems: [] });
    const r = checkCryptoWithdrawal({ amount: 900, ticker: 'ETH', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, { balance: 800, twoFactorRequired: true, terms: DEMO_WITHDRAWAL_TERMS });
    expect(r.problems.map((p) => p.code)).toEqual(['WITHDRAWAL_BELOW_MINIMUM', 'INSUFFICIENT_BALANCE', 'VALIDATION_ERROR', 'TWO_FACTOR_REQUIRED']);
    // in dollars, as the form shows every other amount ("2000 cents" beside "$20.00" read as another figure)
    expect(r.problems[0]?.message).toBe('the minimum ETH withdrawal on the demo market is $10.00');
    expect(r.problems[1]?.message).toBe('the balance is $8.00; $9.00 requested');
    expect(checkCryptoWithdrawal({ amount: 12.5, ticker: 'SOL', address: 'So11111111111111111111111111111111111111112' }).problems).toEqual([
      { code: 'VALIDATION_ERROR', message: 'the amount must be a whole number of cents above 0' },
    ]);
  });
});

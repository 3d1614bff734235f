// Crypto withdrawals whose answer is lost, over the real core and the demo market: the market applies
// the withdrawal and drops the connection → exactly one withdrawal, and pressing withdraw again is
// answered with the one found (ledger, then GET /crypto-withdraw/:id) instead of sending a second; a
// request that hangs and drops with nothing applied → held until the trader says it was not sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src/core/app/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { SkindeskError } from '../../../src/shared/ipc/index.ts';
import { type DemoCore, failure, startDemoCore } from './demo-core.ts';
import { until } from './until.ts';

let started: DemoCore;
let core: AppCore;
let demo: DemoMarket;

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const REQUEST = { ticker: 'ETH', address: ADDRESS, amount: 2_500, feeLevel: 'LOW' } as const;

/** What the demo market itself holds: the withdrawals made, and the balance. */
const truth = () => {
  const account = demo.state.account(1)!;
  return { withdrawals: account.withdrawals.size, balance: account.balance };
};

beforeAll(async () => {
  started = await startDemoCore(23, { poller: { activeIntervalMs: 300, idleIntervalMs: 1_000 }, withdrawalPollMs: 150 });
  ({ core, demo } = started);
  demo.setWithdrawalOutcome('SUCCESS');
});

afterAll(async () => {
  await started?.close();
});

describe('crypto withdrawals whose answer is lost', () => {
  it('applied, then the connection dropped: one withdrawal, and the retry is answered with it, not sent', async () => {
    const before = truth();
    demo.chaos.set({ rest: { withdrawalLostRate: 1, hangMs: 0 } });
    const lost = await failure(core.call('createWithdrawal', REQUEST));
    demo.chaos.set({ rest: { withdrawalLostRate: 0 } });
    expect(lost).toBeInstanceOf(SkindeskError);
    expect(lost).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(lost!.message).toMatch(
      /^The withdrawal of \$25\.00 in ETH to 0x5290…9EE7, asked at .+ UTC, got no clear answer/,
    );
    expect(truth().withdrawals).toBe(before.withdrawals + 1);

    const { unsettled } = await core.call('getWithdrawals', {});
    expect(unsettled).toMatchObject([{ state: 'unknown', amount: 2_500, ticker: 'ETH', address: ADDRESS }]);

    // the trader presses withdraw again: the ledger shows the withdrawal; nothing more is sent
    const again = await failure(core.call('createWithdrawal', REQUEST));
    expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'EARLIER_WITHDRAWAL_SENT' });
    expect(again!.message).toContain('was sent');
    expect(again!.message).toContain('Send again only if you want a second withdrawal');
    expect(truth()).toEqual({ withdrawals: before.withdrawals + 1, balance: before.balance - 2_500 });

    // the one found is followed like any other, and nothing is left unsettled
    const after = await core.call('getWithdrawals', {});
    expect(after.unsettled).toEqual([]);
    await until('the found withdrawal followed to SUCCESS', async () => {
      const { withdrawals } = await core.call('getWithdrawals', {});
      return withdrawals.some(
        (w) => w.withdrawal.balance_amount === 2_500 && w.withdrawal.status === 'SUCCESS',
      );
    });
  });

  it('no answer and nothing to go by: held until the trader says it was not sent, then sent once', async () => {
    const before = truth();
    // every request hangs and drops, nothing applied: the balance before it could not be read either
    demo.chaos.set({ rest: { timeoutRate: 1, hangMs: 200 } });
    const lost = await failure(core.call('createWithdrawal', { ...REQUEST, amount: 3_100 }));
    demo.chaos.calm();
    expect(lost).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(truth().withdrawals).toBe(before.withdrawals);

    const held = await failure(core.call('createWithdrawal', { ...REQUEST, amount: 3_100 }));
    expect(held).toMatchObject({ code: 'REFUSED', apiCode: 'WITHDRAWAL_OUTCOME_UNKNOWN' });
    expect(held!.message).toMatch(
      /^Nothing was sent: the withdrawal of \$31\.00 in ETH to 0x5290…9EE7, asked at .+, got no clear answer/,
    );
    expect(held!.message).toContain('say in the wallet whether it was sent');
    expect(truth().withdrawals).toBe(before.withdrawals);

    const [entry] = (await core.call('getWithdrawals', {})).unsettled;
    const checked = await core.call('settleWithdrawal', { id: entry!.id, answer: 'check' });
    expect(checked.state).toBe('unknown');
    expect(checked.lastCheck?.note).toContain('the balance before it is not known');

    expect(await core.call('settleWithdrawal', { id: entry!.id, answer: 'not_sent' })).toMatchObject({
      state: 'not_sent',
      settledBy: 'trader',
    });
    await expect(core.call('settleWithdrawal', { id: entry!.id, answer: 'sent' })).rejects.toMatchObject({
      code: 'REFUSED',
    });
    const sent = await core.call('createWithdrawal', { ...REQUEST, amount: 3_100 });
    expect(sent.withdrawal.balance_amount).toBe(3_100);
    expect(truth().withdrawals).toBe(before.withdrawals + 1);
    expect((await core.call('getWithdrawals', {})).unsettled).toEqual([]);
  });
});

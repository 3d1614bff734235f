/**
 * A crypto withdrawal whose status checks fail is pushed to the wallet with why, so its card does not
 * sit at CONFIRMING as if all were well; before, the failure was only logged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.ts';
import type { WithdrawalView } from '../../../src/shared/ipc/calls-account.ts';
import { type AccountRig, startAccountRig } from './account-rig.ts';

let rig: AccountRig;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    // the key was revoked meanwhile: checking again cannot help, so the tracker stops at once
    return json(401, { error: { code: 'UNAUTHORIZED', message: `invalid API key for ${url.pathname}` } });
  }) as typeof globalThis.fetch;
  rig = startAccountRig({
    client: new ApiClient({ baseUrl: 'http://market.test', apiKey: 'key_for_tests', fetch }),
  });
});

afterEach(() => rig.close());

describe('withdrawal check trouble', () => {
  it('pushes the withdrawal with when it was last seen and why it is not checked now', async () => {
    const { withdrawals } = rig.runtime.account();
    withdrawals.record({
      withdrawal_id: 41,
      status: 'CONFIRMING',
      balance_amount: 2_500,
      token_amount: 0.01,
      ticker: 'ETH',
      created_at: new Date().toISOString(),
      tx_hash: '0xabc',
      network_fee: null,
    });
    await expect(withdrawals.follow(41)).rejects.toBeTruthy();
    const pushed = rig.pushes
      .filter((p) => p.name === 'withdrawalUpdated')
      .map((p) => p.payload as WithdrawalView);
    const last = pushed.at(-1)!;
    expect(last.withdrawal.status).toBe('CONFIRMING');
    expect(last.checkTrouble).toMatchObject({ retrying: false });
    expect(last.checkTrouble!.problem).toBeTruthy();
    expect(Date.parse(last.checkTrouble!.lastSeenAt)).toBeLessThanOrEqual(
      Date.parse(last.checkTrouble!.failingSince),
    );
  });
});

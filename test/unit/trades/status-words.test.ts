import { describe, expect, it } from 'vitest';
import { TRADE_STATUS_WORDS, describeStatusChange } from '../../../src/core/trades/status-words.ts';
import { TRADE_STATUSES } from '../../../src/shared/api/index.ts';
import { T0, makeTrade } from './fixtures.ts';

describe('describeStatusChange', () => {
  it('has words for every status of the contract', () => {
    for (const status of TRADE_STATUSES) expect(TRADE_STATUS_WORDS[status]).toMatch(/^the /);
  });

  it('tells a status change in plain words and stays silent otherwise', () => {
    const previous = makeTrade(12, 'Active', T0);
    const trade = makeTrade(12, 'Accepted', T0 + 1000, {
      items: [
        { app_id: 730, market_hash_name: 'Revolution Case', steam_asset_id: '1', amount: 3, value: 150 },
        { app_id: 730, market_hash_name: 'Kilowatt Case', steam_asset_id: '2', amount: 2, value: 100 },
      ],
    });
    expect(describeStatusChange({ trade, previous, source: 'webhook', statusChanged: true })).toEqual({
      title: 'Trade #12 (sale offer, deposit 1012): Accepted',
      body: 'Revolution Case and 1 more (5 items): the trade was accepted.',
      final: true,
    });
    const declined = makeTrade(13, 'Declined', T0, { type: 'DEPOSIT', error: 'The user declined the offer.' });
    expect(describeStatusChange({ trade: declined, previous: null, source: 'poll', statusChanged: true })?.body).toBe(
      'AK-47 | Redline (Field-Tested): the trade offer was declined. The user declined the offer.',
    );
    expect(describeStatusChange({ trade, previous: trade, source: 'poll', statusChanged: false })).toBeNull();
  });

  it('titles a run-together status in words, as the badges read it', () => {
    const waiting = makeTrade(16, 'CreatedNeedsConfirmation', T0, { type: 'DEPOSIT' });
    expect(describeStatusChange({ trade: waiting, previous: null, source: 'poll', statusChanged: true })?.title).toBe('Trade #16 (deposit 1016): Needs confirmation');
    const canceled = makeTrade(17, 'CanceledBySecondFactor', T0, { type: 'WITHDRAW', deposit_id: null, withdraw_id: 800_017 });
    expect(describeStatusChange({ trade: canceled, previous: null, source: 'poll', statusChanged: true })?.title).toBe('Trade #17 (withdrawal 800017): Canceled by 2FA');
  });

  // Review of the account screens: the send dialog said "Withdrawal 800004 … trade #700009" and the
  // notification "Withdrawal #700009: Accepted", a withdrawal number that never was.
  it('names the trade by its own id and the withdrawal or deposit by theirs, never one as the other', () => {
    const title = (extra: Parameters<typeof makeTrade>[3]) =>
      describeStatusChange({ trade: makeTrade(700_009, 'Accepted', T0, extra), previous: null, source: 'poll', statusChanged: true })?.title;
    expect(title({ type: 'WITHDRAW', deposit_id: null, withdraw_id: 800_004 })).toBe('Trade #700009 (withdrawal 800004): Accepted');
    expect(title({ type: 'DEPOSIT', deposit_id: 800_002 })).toBe('Trade #700009 (deposit 800002): Accepted');
    expect(title({ type: 'SELL', deposit_id: 800_003 })).toBe('Trade #700009 (sale offer, deposit 800003): Accepted');
    // the spec's ids may be missing (null) or the type one the contract does not know: said as it is
    expect(title({ type: 'WITHDRAW', deposit_id: null, withdraw_id: null })).toBe('Trade #700009 (withdrawal): Accepted');
    expect(title({ type: 'SWAP', deposit_id: 5, withdraw_id: 6 })).toBe('Trade #700009 (SWAP, deposit 5, withdrawal 6): Accepted');
  });

  it('does not repeat a reason that only restates the status', () => {
    // The demo (like the platform) fills `error` with the status in words.
    const expired = makeTrade(14, 'Expired', T0, { error: 'The trade offer expired before it was accepted.' });
    expect(describeStatusChange({ trade: expired, previous: null, source: 'poll', statusChanged: true })?.body).toBe(
      'AK-47 | Redline (Field-Tested): the trade offer expired before it was accepted.',
    );
    const declined = makeTrade(15, 'Declined', T0, { error: '  the trade offer was declined ' });
    expect(describeStatusChange({ trade: declined, previous: null, source: 'poll', statusChanged: true })?.body).toBe(
      'AK-47 | Redline (Field-Tested): the trade offer was declined.',
    );
  });
});

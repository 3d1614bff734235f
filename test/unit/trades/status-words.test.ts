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
      title: 'Sale offer #12: Accepted',
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
    expect(describeStatusChange({ trade: waiting, previous: null, source: 'poll', statusChanged: true })?.title).toBe('Deposit #16: Needs confirmation');
    const canceled = makeTrade(17, 'CanceledBySecondFactor', T0, { type: 'WITHDRAW' });
    expect(describeStatusChange({ trade: canceled, previous: null, source: 'poll', statusChanged: true })?.title).toBe('Withdrawal #17: Canceled by 2FA');
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

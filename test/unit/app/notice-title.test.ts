import { describe, expect, it } from 'vitest';
import { accountNoticeTitle } from '../../../src/core/app/account-services/notice-title.ts';

describe('accountNoticeTitle', () => {
  it("says a notice is about the demo market's account, and leaves the real market's as they are", () => {
    expect(accountNoticeTitle('Trade #700006 (deposit 800006): Needs confirmation', 'demo')).toBe(
      'Demo market · Trade #700006 (deposit 800006): Needs confirmation',
    );
    expect(accountNoticeTitle('Trade #700006 (deposit 800006): Needs confirmation', 'real')).toBe(
      'Trade #700006 (deposit 800006): Needs confirmation',
    );
  });
});

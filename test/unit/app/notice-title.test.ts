import { describe, expect, it } from 'vitest';
import { accountNoticeTitle } from '../../../src/core/app/account-services/notice-title.ts';

describe('accountNoticeTitle', () => {
  it("says a notice is about the demo market's account, and leaves the real market's as they are", () => {
    expect(accountNoticeTitle('Deposit #700006: Needs confirmation', 'demo')).toBe(
      'Demo market · Deposit #700006: Needs confirmation',
    );
    expect(accountNoticeTitle('Deposit #700006: Needs confirmation', 'real')).toBe(
      'Deposit #700006: Needs confirmation',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { describeWatchlistIssues } from '../../../src/renderer/screens/watchlists/watchlist-issues.ts';
import { watchlistInput, type WatchlistInput } from '../../../src/shared/watchlist.ts';

const valid: WatchlistInput = { name: 'Blue gems', filter: {}, price: { kind: 'ceiling', max_price: 1_000 } };
const issuesOf = (draft: unknown) => {
  const checked = watchlistInput.safeParse(draft);
  if (checked.success) throw new Error('the draft was valid');
  return describeWatchlistIssues(checked.error.issues);
};

describe('watchlist dialog issues', () => {
  it('says in plain words what is missing or out of range, with the labels of the dialog', () => {
    expect(watchlistInput.safeParse(valid).success).toBe(true);
    expect(issuesOf({ ...valid, name: '  ' })).toEqual(['Give the watchlist a name.']);
    expect(issuesOf({ ...valid, name: 'x'.repeat(101) })).toEqual([
      'Name: is too long (100 characters at most).',
    ]);
    expect(issuesOf({ ...valid, price: { kind: 'below', reference: 'average_30d', percent: 0 } })).toEqual([
      'Percent below: must be above 0.',
    ]);
    expect(issuesOf({ ...valid, price: { kind: 'ceiling', max_price: 0 } })).toEqual([
      'Highest price per copy: must be above $0.00.',
    ]);
    const rails = {
      max_price: 0,
      total_budget: 20_000,
      daily_cap: 10_000,
      max_per_hour: 0,
      min_balance: 1_000,
    };
    expect(issuesOf({ ...valid, auto_buy: { mode: 'auto', copies: 1, guardrails: rails } })).toEqual([
      'Max price per item: must be above $0.00.',
      'Purchases per hour: must be at least 1.',
    ]);
    expect(
      issuesOf({ ...valid, alerts: { notify: true, sound: false, webhook: 'ftp://example.com/hook' } })[0],
    ).toMatch(/^Alert webhook: must be an https:\/\/ URL/);
  });

  it('never shows a schema path or a validator message', () => {
    const lines = issuesOf({
      name: '',
      filter: {},
      price: { kind: 'below', reference: 'average_30d', percent: 120 },
    });
    for (const line of lines) expect(line).not.toMatch(/Too small|Too big|expected|price\.percent|>=|<=/);
  });
});

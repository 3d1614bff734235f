/**
 * What is wrong with a watchlist draft, in the words of the dialog: its field labels instead of schema
 * paths ("Max price per item" for auto_buy.guardrails.max_price) and sentences instead of validator
 * messages ("Give the watchlist a name." for a string too small).
 */
import type { z } from 'zod';
import { formatCents } from '../../../shared/money.ts';

const LABELS: Record<string, string> = {
  name: 'Name',
  'price.max_price': 'Highest price per copy',
  'price.percent': 'Percent below',
  'alerts.webhook': 'Alert webhook',
  'auto_buy.copies': 'Copies',
  'auto_buy.guardrails.max_price': 'Max price per item',
  'auto_buy.guardrails.total_budget': 'Total budget',
  'auto_buy.guardrails.daily_cap': 'Daily cap',
  'auto_buy.guardrails.max_per_hour': 'Purchases per hour',
  'auto_buy.guardrails.min_balance': 'Minimum balance left',
};

/** Money fields: their bounds are cents, shown as money. */
const MONEY = new Set([
  'price.max_price',
  'auto_buy.guardrails.max_price',
  'auto_buy.guardrails.total_budget',
  'auto_buy.guardrails.daily_cap',
  'auto_buy.guardrails.min_balance',
]);

function sentence(issue: z.core.$ZodIssue, path: string): string {
  const money = MONEY.has(path);
  const bound = (n: number | bigint) => (money ? formatCents(Number(n)) : String(n));
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return path === 'name' ? 'Give the watchlist a name.' : 'is required.';
      return issue.inclusive === false
        ? `must be above ${bound(issue.minimum)}.`
        : `must be at least ${bound(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `is too long (${issue.maximum} characters at most).`;
      return issue.inclusive === false
        ? `must be below ${bound(issue.maximum)}.`
        : `must be at most ${bound(issue.maximum)}.`;
    case 'invalid_type':
      return 'is missing or not a number.';
    default:
      return `${issue.message.replace(/\.$/, '')}.`;
  }
}

/** The dialog's label of a field, by its schema path ("auto_buy.guardrails.min_balance" → "Minimum balance left"). */
export function fieldLabel(path: string): string {
  return LABELS[path] ?? (path.startsWith('filter') ? `Filter (${path.slice('filter.'.length) || 'all'})` : path || 'Watchlist');
}

export function describeWatchlistIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines = issues.map((issue) => {
    const path = issue.path.join('.');
    const words = sentence(issue, path);
    if (path === 'name' && issue.code === 'too_small') return words;
    return `${fieldLabel(path)}: ${words}`;
  });
  return [...new Set(lines)];
}

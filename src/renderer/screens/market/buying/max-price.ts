/**
 * The maximum price per copy a trader types for a purchase (the Buy dialog, the cart's lines, a private
 * listing): why it cannot be sent, in plain words, so a greyed-out button is never left unexplained.
 */
import { parseCents, pastTenWholeDigits } from '../../../../shared/money.ts';

/** Why the typed maximum cannot be sent, in plain words (null: it can). */
export function maxPriceProblem(maxText: string): string | null {
  const text = maxText.trim().replace(/^\$/, '');
  if (text === '') return 'Enter the most you will pay for each copy.';
  const cents = parseCents(text);
  if (cents === null)
    return pastTenWholeDigits(text)
      ? 'The maximum takes at most 10 digits before the point.'
      : 'The maximum is not a price.';
  if (cents <= 0) return 'A maximum of $0.00 buys nothing: enter the most you will pay for each copy.';
  return null;
}

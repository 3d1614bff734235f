/**
 * What an edit of a listing will do, said before it is sent (spec §4.4, PATCH /list rules 1–6). The
 * surprising one is the partial reprice: lowering the amount while sending a price (or a decay) keeps
 * the requested copies at the new price and leaves the surplus on the market as a NEW listing at the
 * old price — the presence of a price decides it, not whether the price changed.
 */
import type { DecayCurve } from '../../../../shared/api/index.ts';
import { formatCents, formatHours, plural } from '../ui/format.ts';
import { copiesInRange } from '../../market/buying/copies.ts';

/** The verb that agrees with a count: "1 copy stays", "3 copies stay". */
const agree = (count: number, one: string, many: string): string => (count === 1 ? one : many);

export interface ListingNow {
  amount: number;
  price: number;
  commodity: boolean;
  /** Copies of the same item the backpack can still add to the stack. */
  available: number;
}

export interface EditDraft {
  price: number | null;
  amount: number | null;
  decay: DecayCurve | null;
}

export type EditKind = 'none' | 'out_of_range' | 'partial_reprice' | 'reduce' | 'raise' | 'reprice' | 'decay' | 'raise_and_price';

export interface EditExplanation {
  kind: EditKind;
  lines: string[];
  /** The user should read this twice (a second listing appears). */
  warning: boolean;
}

/** How many copies the stack can hold, and why: "1 to 7 (5 listed, 2 more in the backpack)". */
export function copiesListedRange(now: ListingNow): string {
  return `1 to ${now.amount + now.available} (${now.amount} listed, ${now.available} more in the backpack)`;
}

/** Whether the stack can hold `amount` copies: at least one, and no more than it has and the backpack adds. */
export function canHold(now: ListingNow, amount: number): boolean {
  return copiesInRange(amount, now.amount + now.available);
}

export function explainEdit(now: ListingNow, draft: EditDraft): EditExplanation {
  const priced = draft.price !== null || draft.decay !== null;
  const amount = draft.amount;
  // an amount the stack cannot hold is no edit at all: explaining one ("keeps 0 copies", "96 more copies
  // are taken from your backpack") told of something that cannot happen
  if (amount !== null && !canHold(now, amount)) {
    return { kind: 'out_of_range', warning: false, lines: [`${plural(amount, 'copy', 'copies')} cannot be listed: the listing can hold ${copiesListedRange(now)}.`] };
  }
  const newPrice = draft.decay
    ? `a price falling from ${formatCents(draft.decay.start_price)} to ${formatCents(draft.decay.end_price)} over ${formatHours(draft.decay.total_hours)}`
    : draft.price !== null
      ? formatCents(draft.price)
      : null;
  if (!priced && (amount === null || amount === now.amount)) {
    return { kind: 'none', lines: ['Nothing changes: give a new price, amount or decay.'], warning: false };
  }
  if (amount !== null && amount < now.amount) {
    const surplus = now.amount - amount;
    if (priced) {
      return {
        kind: 'partial_reprice',
        warning: true,
        lines: [
          `Partial reprice: this listing keeps ${plural(amount, 'copy', 'copies')} at ${newPrice}.`,
          `The other ${plural(surplus, 'copy', 'copies')} ${agree(surplus, 'stays', 'stay')} on the market as a NEW listing at the old price ${formatCents(now.price)}.`,
          `To send the surplus back to your backpack instead, leave the price at ${formatCents(now.price)}.`,
        ],
      };
    }
    return {
      kind: 'reduce',
      warning: false,
      lines: [`The listing keeps ${plural(amount, 'copy', 'copies')} at ${formatCents(now.price)}; ${plural(surplus, 'copy', 'copies')} ${agree(surplus, 'goes', 'go')} back to your backpack.`],
    };
  }
  if (amount !== null && amount > now.amount) {
    const more = amount - now.amount;
    const take = `${plural(more, 'more copy', 'more copies')} ${agree(more, 'is', 'are')} taken from your backpack (the same item, not in a trade hold).`;
    if (priced) return { kind: 'raise_and_price', warning: false, lines: [take, `All ${plural(amount, 'copy', 'copies')} are then listed at ${newPrice}.`] };
    return { kind: 'raise', warning: false, lines: [take, `They join the listing at ${formatCents(now.price)}.`] };
  }
  if (draft.decay) {
    return { kind: 'decay', warning: false, lines: [`The whole stack of ${plural(now.amount, 'copy', 'copies')} gets ${newPrice}, replacing the fixed price.`] };
  }
  if (draft.price === now.price) {
    return { kind: 'none', lines: ['Nothing changes: the listing already asks that price.'], warning: false };
  }
  return { kind: 'reprice', warning: false, lines: [`The whole stack of ${plural(now.amount, 'copy', 'copies')} is repriced in place to ${newPrice}.`] };
}

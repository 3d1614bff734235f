/**
 * How many copies of a commodity listing a trader asks to buy (the Buy dialog, the cart's lines): why the
 * figure cannot be sent, in plain words, so a greyed-out button is never left unexplained.
 */
import { plural } from '../../../format/numbers.ts';

/** Whether `copies` is a whole number from 1 to `most`: what a listing (or a stack) can hold or sell. */
export function copiesInRange(copies: number | null, most: number): copies is number {
  return copies !== null && Number.isInteger(copies) && copies >= 1 && copies <= most;
}

/** Why `copies` cannot be bought from a listing that holds `available` (null: they can). */
export function copiesProblem(copies: number | null, available: number): string | null {
  if (copiesInRange(copies, available)) return null;
  const range = available === 1 ? 'only 1 can be bought' : `enter 1 to ${available}`;
  return `The listing has ${plural(available, 'copy', 'copies')}: ${range}.`;
}

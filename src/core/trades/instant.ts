/**
 * A sortable key for the contract's ISO 8601 timestamps. `updated_at` decides which state of a trade
 * wins, so the comparison must be exact: Date.parse keeps only milliseconds and would call two
 * microsecond-apart updates a tie, and string comparison fails across offsets (`+02:00` vs `Z`).
 *
 * Key: epoch milliseconds zero-padded to 15 digits, then the sub-millisecond digits padded to 6
 * (nanosecond resolution). Two keys compare with `<` exactly as the instants they stand for, in JS and
 * in SQLite TEXT columns alike.
 *
 * The contract's timestamp takes any number of fractional digits; digits past the ninth are truncated
 * (two instants less than a nanosecond apart become a tie), never refused: one such row must not fail
 * every poll of its page.
 */

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

export class InvalidInstantError extends Error {
  override readonly name = 'InvalidInstantError';
}

export function instantKey(iso: string): string {
  const m = ISO.exec(iso);
  if (!m || m[1] === undefined || m[3] === undefined) throw new InvalidInstantError(`not an ISO 8601 timestamp: ${iso}`);
  const fraction = (m[2] ?? '').slice(0, 9).padEnd(9, '0');
  const wholeMs = Date.parse(`${m[1]}.${fraction.slice(0, 3)}${m[3].toUpperCase()}`);
  if (!Number.isFinite(wholeMs) || wholeMs < 0) throw new InvalidInstantError(`timestamp out of range: ${iso}`);
  return `${String(wholeMs).padStart(15, '0')}${fraction.slice(3)}`;
}

/** Negative when `a` is earlier than `b`, 0 for the same instant, positive when later. */
export function compareInstants(a: string, b: string): number {
  const ka = instantKey(a);
  const kb = instantKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

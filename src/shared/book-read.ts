/**
 * A read of the whole book in words: the same in the status bar, over an empty book and in
 * `skindesk sync`'s progress line.
 */
import type { BookRead } from './ipc/contract.ts';

const count = new Intl.NumberFormat('en-US');
const megabytes = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function describeBookRead(read: BookRead): string {
  const size = read.bytes > 0 ? ` (${megabytes.format(read.bytes / 1_048_576)} MB)` : '';
  return read.phase === 'reading'
    ? `reading the book: ${count.format(read.rows)} listings${size}`
    : `writing ${count.format(read.merged)} of ${count.format(read.rows)} listings into the book`;
}

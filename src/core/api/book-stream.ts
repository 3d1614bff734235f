/**
 * A `/book` answer read as a stream into columns: the body is scanned as it arrives (book-scanner.ts),
 * each piece of listings is checked against the contract's listing schema and appended to compact
 * columns (listing-columns.ts), and the parsed objects are garbage a piece later. Peak memory is the
 * columns (~41 MB for a million listings) plus one piece, where reading the text whole held the text,
 * its parse and its checked copy at once (over a GB for a million).
 *
 * The rows are held until the end because `seq` may come after them, and the sync engine must see the
 * seq before it accepts a snapshot (an older one is thrown away and asked for again): holding the rows
 * compactly keeps that decision where it was, with nothing written before it is taken.
 */
import { ENDPOINTS, type LeanListing } from '../../shared/api/index.ts';
import { BookBodyError, BookBodyScanner } from './book-scanner.ts';
import { summarizeIssues } from '../../shared/contract-issues.ts';
import { ListingColumns } from './listing-columns.ts';

export { BookBodyError } from './book-scanner.ts';

/** How far a `/book` read has come: listings checked and kept so far, and bytes of the body received. */
export interface BookReadProgress {
  rows: number;
  bytes: number;
}

/** A book snapshot as the client returns it: the exact seq and the listings in columns. */
export interface StreamedBook {
  seq: bigint;
  listings: ListingColumns;
}

const bookResponse = ENDPOINTS.book.response;
/** The contract's own schema of the listings array (never a second copy of it). */
const listingsSchema = bookResponse.shape.listings;

/**
 * Reads a 2xx `/book` body. Throws BookBodyError (plain words, no body text) when the body is not JSON,
 * ends early or breaks the contract; the whole snapshot is then refused, since nothing was kept.
 */
export async function readBookBody(
  body: ReadableStream<Uint8Array> | null,
  pieceBytes?: number,
  onProgress?: (progress: BookReadProgress) => void,
): Promise<StreamedBook> {
  const columns = new ListingColumns();
  const scanner = new BookBodyScanner({
    listings(values, first) {
      const checked = listingsSchema.safeParse(values);
      if (!checked.success) {
        // Issue paths count from the piece's start; name them as indexes of the whole array.
        const issues = checked.error.issues.map((issue) => ({
          ...issue,
          path: ['listings', (issue.path[0] as number) + first, ...issue.path.slice(1)],
        }));
        throw new BookBodyError(`the response does not match the contract: ${summarizeIssues({ issues })}`);
      }
      for (const row of checked.data as LeanListing[]) columns.append(row);
    },
  }, pieceBytes);
  let bytes = 0;
  if (body) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        scanner.push(value);
        bytes += value.byteLength;
        onProgress?.({ rows: columns.length, bytes });
      }
    } catch (err) {
      // Stop the download too: nothing more of this body will be read.
      await reader.cancel().catch(() => {});
      throw err;
    } finally {
      reader.releaseLock();
    }
  }
  const top = scanner.finish();
  // the last piece is checked only now: the final count is all of them
  onProgress?.({ rows: columns.length, bytes });
  const checked = bookResponse.safeParse({ seq: top.seq, listings: top.listingsArray ? [] : top.listingsOther });
  if (!checked.success) throw new BookBodyError(`the response does not match the contract: ${summarizeIssues(checked.error)}`);
  return { seq: checked.data.seq, listings: columns.seal() };
}

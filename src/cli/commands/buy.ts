/**
 * `skindesk buy`: one journaled purchase from a script. Prints exactly one JSON line
 * `{"status":"bought"|"not_bought"|"unknown","order_id":…,"error":…}` and exits 0 only when bought, so
 * a script can branch on the exit code and read the line for details.
 */
import { z } from 'zod';
import { ApiClient } from '../../core/api/client.ts';
import { failureReason } from '../../core/api/errors.ts';
import { PurchaseJournal } from '../../core/api/purchase-journal.ts';
import { deskRateGovernor } from '../../core/api/release-ledger.ts';
import { isDamagedDatabaseError } from '../../core/store/damage.ts';
import { type Db, refuseForeignBookFile } from '../../core/store/database.ts';
import { deskFileFor, openDeskFile } from '../../core/store/desk.ts';
import { type PurchaseOutcome, type PurchaseStatus, Purchaser } from '../../core/api/purchaser.ts';
import { maximumBelowKnownPrice } from '../../core/app/market-buying/purchase-words.ts';
import { defaultDatabaseFile } from '../../core/paths.ts';
import { type FlagSpec, parseFlags } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { findApiKey } from '../command-start.ts';
import { damagedDeskText, failureText, refuseDirectory } from '../mirror-output.ts';
import { writeLine } from '../stdout.ts';

/** Exit codes: bought 0, not bought 1, usage 2 (shared by every command), unknown 3. */
export const BUY_EXIT_CODES: Record<PurchaseStatus, number> = { bought: 0, not_bought: 1, unknown: 3 };

const positiveInt = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/, `${what} must be a positive integer of at most 15 digits, without leading zeros`)
    .transform(Number);

const flags: FlagSpec = {
  'base-url': { type: 'string' },
  listing: { type: 'string' },
  amount: { type: 'string' },
  'max-price': { type: 'string' },
  'private-token': { type: 'string' },
  db: { type: 'string' },
};

const schema = z.strictObject({
  'base-url': z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  listing: positiveInt('the listing id'),
  amount: positiveInt('the amount').optional(),
  'max-price': positiveInt('the maximum price (cents per copy)'),
  'private-token': z.string().min(1).optional(),
  db: z.string().min(1).optional(),
});

export interface BuyLine {
  status: PurchaseStatus;
  order_id: number | null;
  error: { kind: string; code: string | null; message: string } | null;
}

function errorJson(outcome: PurchaseOutcome, maxPrice: number): BuyLine['error'] {
  const { error, note, status } = outcome;
  if (status === 'bought') return null;
  if (!error) return { kind: 'unknown', code: null, message: note ?? 'outcome unknown — check orders' };
  // The code's own words blame a seller's raise; with the price read before buying already above the
  // maximum, no seller moved (the app words it so too): same code, the trader's maximum told instead.
  if (error.code === 'LISTING_PRICE_CHANGED' && maximumBelowKnownPrice(outcome.listedPrice, maxPrice)) {
    const message = `the listing's price of ${outcome.listedPrice} cents per copy was already above your maximum of ${maxPrice}, so nothing was bought`;
    return { kind: error.kind, code: error.code, message };
  }
  // the code's general words speak of a backpack row (listing from the backpack); a purchase meets it
  // when the listing holds fewer copies than --amount
  if (error.code === 'INSUFFICIENT_ITEMS') {
    return { kind: error.kind, code: error.code, message: 'the listing has fewer copies left than --amount asked for, so nothing was bought' };
  }
  // plain words: the kind and the spec's code are fields of their own, the request line is for logs
  const reason = failureReason(error, { withCause: true });
  const message = status === 'unknown' && note ? `${note} (${reason})` : reason;
  return { kind: error.kind, code: error.code, message };
}

/**
 * The line for a purchase, and for a retry the purchaser did not send because this listing's earlier
 * purchase, whose answer was lost, is bought or still unknown: a script retrying after "unknown" (exit 3)
 * is told that purchase's outcome — bought with its order (exit 0: nothing more to retry), or unknown
 * still (exit 3) — never "not bought", which would invite one more retry that sends a second purchase.
 */
function retryLine(outcome: PurchaseOutcome, maxPrice: number): BuyLine {
  const held = outcome.heldBackBy;
  if (held?.state === 'bought') {
    process.stderr.write(`skindesk buy: not sent — ${outcome.error?.message ?? 'the earlier purchase of this listing was bought'}\n`);
    return { status: 'bought', order_id: held.orderId, error: null };
  }
  const error = errorJson(outcome, maxPrice);
  if (held?.state === 'unknown') return { status: 'unknown', order_id: null, error };
  return { status: outcome.status, order_id: outcome.orderId, error };
}

function print(line: BuyLine): void {
  writeLine(JSON.stringify(line));
}

export const buyCommand: CliCommand = {
  name: 'buy',
  summary: 'buy one listing through the purchase journal; prints one JSON line',
  usage: [
    'Usage: skindesk buy --base-url URL --listing ID [--amount N] --max-price CENTS [--private-token T] [--db FILE]',
    '',
    'Buys a listing (never more than once: the purchase is journaled, and after a timeout or a server',
    'error the outcome is read back from the order history instead of retrying).',
    '',
    '  --base-url URL        the marketplace REST address, e.g. https://market.example',
    '  --listing ID          listing id',
    '  --amount N            copies to buy (default 1)',
    '  --max-price CENTS     highest price per copy you accept, in cents',
    '  --private-token T     share-link token of a private listing',
    '  --db FILE             the book database (default: the app\'s database in its data folder); the',
    '                        journal is kept beside it in its desk file (book.db → book.desk.db),',
    '                        shared with the app',
    '',
    'The API key comes from SKINDESK_API_KEY or the OS keychain.',
    'Prints {"status":"bought"|"not_bought"|"unknown","order_id":…,"error":…}.',
    'Exit code: 0 bought, 1 not bought, 3 unknown (check orders), 2 bad flags.',
    '',
    'Run again after "unknown" and the earlier purchase is settled from the order history first: if it was',
    'bought, nothing is sent and its order is printed as bought (exit 0); if it is still unknown, nothing',
    'is sent and "unknown" is printed again (exit 3) — once; a further run sends the purchase.',
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    const found = await findApiKey();
    if (found.key === null) {
      print({ status: 'not_bought', order_id: null, error: { kind: 'invalid_request', code: 'UNAUTHORIZED', message: found.problem } });
      return BUY_EXIT_CODES.not_bought;
    }
    const apiKey = found.key;
    let db: Db | null = null;
    let purchaser: Purchaser;
    const book = opts.db ?? defaultDatabaseFile();
    // the journal lives in the desk file beside the book (store/desk.ts), where the app keeps it too
    const file = deskFileFor(book);
    try {
      refuseDirectory(book);
      refuseForeignBookFile(book);
      db = openDeskFile(book);
      // the desk records every release: the app with this key on this data folder, or a `buy` just
      // before, counts inside the same windows (api/release-ledger.ts); stdout keeps its one line
      const governor = deskRateGovernor({
        db,
        baseUrl: opts['base-url'],
        apiKey,
        onLedgerError: (message) => process.stderr.write(`skindesk buy: ${message}\n`),
      });
      const client = new ApiClient({ baseUrl: opts['base-url'], apiKey, governor });
      purchaser = new Purchaser({ client, journal: new PurchaseJournal(db) });
    } catch (err) {
      db?.close();
      // Nothing was sent: the journal or the client could not even be set up.
      // the only file opened here is the desk: a damaged one is named, with what to do
      const message = isDamagedDatabaseError(err) ? damagedDeskText(file, (err as Error).message) : failureText('buy', err);
      print({ status: 'not_bought', order_id: null, error: { kind: 'local', code: null, message } });
      return BUY_EXIT_CODES.not_bought;
    }
    try {
      const outcome = await purchaser.buy({
        listingId: opts.listing,
        amount: opts.amount ?? 1,
        maxPrice: opts['max-price'],
        privateToken: opts['private-token'],
        source: 'cli',
      });
      const line = retryLine(outcome, opts['max-price']);
      print(line);
      return BUY_EXIT_CODES[line.status];
    } catch (err) {
      // A local failure in the middle of a purchase (the journal's disk, say): it may have been sent.
      const message = `${(err as Error).message} — check orders`;
      print({ status: 'unknown', order_id: null, error: { kind: 'local', code: null, message } });
      return BUY_EXIT_CODES.unknown;
    } finally {
      db.close();
    }
  },
};

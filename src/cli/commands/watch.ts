/**
 * `skindesk watch`: watchlists without a window. Mirrors the book, judges every new listing and price
 * change against the watchlists of a JSON file, and (with --auto-buy) buys for watchlists in automatic
 * mode within their guardrails. Prints one JSON line per match and per purchase outcome on stdout;
 * progress and warnings go to stderr. Runs until SIGINT or SIGTERM, then waits for purchases in flight.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { defaultDatabaseFile } from '../../core/paths.ts';
import type { EngineStatus } from '../../core/sync/engine.ts';
import { describeLengthyStep } from '../../core/store/index.ts';
import { HeadlessWatch } from '../../core/watch/headless.ts';
import type { AlertRecord, AutoBuyLogEntry, WatchMatch } from '../../core/watch/index.ts';
import { BLOCK_REASONS, type BlockReason } from '../../core/watch/guardrails.ts';
import { describeBookRead } from '../../shared/book-read.ts';
import { watchlistsFile, type WatchlistInput } from '../../shared/watchlist.ts';
import { UsageError, parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { onStdoutGone, writeLine } from '../stdout.ts';
import { damagedFileText, failureText, refuseDirectory } from '../mirror-output.ts';
import { releaseStopHandling, whenStopRequested } from '../stop-request.mjs';
import { startLongRunning } from '../command-start.ts';

export const WATCH_EXIT = { ok: 0, failed: 1 } as const;

const flags: FlagSpec = {
  'base-url': { type: 'string' },
  watchlists: { type: 'string' },
  'auto-buy': { type: 'boolean' },
  db: { type: 'string' },
};

const schema = z.strictObject({
  'base-url': z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  watchlists: z.string().min(1),
  'auto-buy': z.boolean().default(false),
  db: z.string().min(1).optional(),
});

/**
 * One stdout line per match: the alert record a webhook also receives (`seq`: the triggering event's,
 * or for a sweep the listing's last seq, as a decimal string).
 */
export type MatchLine = { type: 'match' } & AlertRecord;

/** One stdout line per purchase outcome (or decision not to buy). */
export interface PurchaseLine {
  type: 'purchase';
  watchlist_id: number;
  listing_id: number;
  market_hash_name: string;
  seq: string;
  max_price: number;
  amount: number;
  status: 'bought' | 'not_bought' | 'unknown' | 'blocked';
  order_id: number | null;
  /** Why it was not sent (a guardrail), when blocked. */
  reason: string | null;
  error: string | null;
}

export function matchLine(m: WatchMatch): MatchLine {
  return {
    type: 'match',
    watchlist_id: m.watchlist.id,
    watchlist: m.watchlist.name,
    listing_id: m.listing.id,
    app_id: m.listing.app_id,
    market_hash_name: m.listing.market_hash_name,
    price: m.listing.price,
    amount: m.listing.amount,
    seq: m.seq.toString(),
    ceiling: m.ceiling,
    reference_price: m.referencePrice,
    origin: m.origin,
  };
}

export function purchaseLine(e: AutoBuyLogEntry): PurchaseLine | null {
  if (e.decision === 'sent' && (e.status === null || e.status === 'pending')) return null;
  return {
    type: 'purchase',
    watchlist_id: e.watchlistId,
    listing_id: e.listingId,
    market_hash_name: e.marketHashName,
    seq: e.triggerSeq.toString(),
    max_price: e.maxPrice,
    amount: e.amount,
    status: e.decision === 'blocked' ? 'blocked' : (e.status as PurchaseLine['status']),
    order_id: e.orderId,
    reason: e.reason === null ? null : `${e.reason}: ${BLOCK_REASONS[e.reason as BlockReason] ?? e.reason}`,
    error: e.error,
  };
}

type Issue = z.core.$ZodIssue;

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * A union that failed reports every branch's problems nested inside one "Invalid input" (paths relative
 * to the union): take the branch that got furthest into the value (its deepest problem), with full paths.
 */
function unionLeaves(issue: Issue, prefix: readonly PropertyKey[] = []): (Issue & { at: PropertyKey[] })[] {
  const at = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, at }];
  const depth = (branch: Issue[]) => Math.max(0, ...branch.map((i) => i.path.length));
  const furthest = issue.errors.reduce((best, branch) => (depth(branch) > depth(best) ? branch : best));
  return furthest.flatMap((i) => unionLeaves(i, at));
}

/**
 * Every problem of a watchlists file in words: which watchlist (by position and name), which field,
 * what is wrong and, for a choice such as price.kind, what is allowed.
 */
export function watchlistProblems(raw: unknown, issues: readonly Issue[]): string[] {
  const shapes = 'the file must hold an array of watchlists, or {"watchlists": [...]}';
  // the file's own shape picks the branch of watchlistsFile: an array, or the object holding one
  const list = Array.isArray(raw) ? raw : valueAt(raw, ['watchlists']);
  if (!Array.isArray(list)) return [shapes];
  const branch = Array.isArray(raw) ? 0 : 1;
  const problems = issues.flatMap((issue) =>
    issue.code === 'invalid_union' && issue.path.length === 0 && issue.errors[branch]
      ? issue.errors[branch].flatMap((i) => unionLeaves(i))
      : unionLeaves(issue),
  );
  return [
    ...new Set(
      problems.map((issue) => {
        const path = Array.isArray(raw) ? issue.at : issue.at.slice(1);
        if (!Array.isArray(raw) && issue.at[0] !== 'watchlists') {
          return issue.code === 'unrecognized_keys' ? `${issue.message}: ${shapes}` : `${shapes} (${issue.message})`;
        }
        const [index, ...field] = path;
        const value = valueAt(raw, issue.at);
        let what: string;
        if (issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)) {
          const allowed = (issue.options as unknown[]).map((o) => JSON.stringify(o)).join(', ');
          what = `must be one of ${allowed}${value === undefined ? ' (it is missing)' : `, not ${JSON.stringify(value)}`}`;
        } else if (issue.code === 'invalid_type' && value === undefined) {
          what = 'is required';
        } else {
          what = issue.message;
        }
        if (typeof index !== 'number') return `${Array.isArray(raw) ? 'the file' : 'watchlists'}: ${what}`;
        const name = valueAt(list, [index, 'name']);
        const which = `watchlist ${index + 1}${typeof name === 'string' ? ` (${JSON.stringify(name)})` : ''}`;
        return field.length === 0 ? `${which}: ${what}` : `${which}: ${field.map(String).join('.')}: ${what}`;
      }),
    ),
  ];
}

function readWatchlists(file: string): WatchlistInput[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--watchlists: ${file} is not a readable JSON file (${(err as Error).message})`);
  }
  const parsed = watchlistsFile.safeParse(raw);
  if (!parsed.success) {
    const problems = watchlistProblems(raw, parsed.error.issues);
    const more = problems.length > 8 ? `; and ${problems.length - 8} more` : '';
    throw new UsageError(`--watchlists: ${file} does not hold valid watchlists: ${problems.slice(0, 8).join('; ')}${more}`);
  }
  const names = new Set<string>();
  for (const w of parsed.data) {
    const name = w.name.trim();
    if (names.has(name)) throw new UsageError(`--watchlists: two watchlists are named "${name}"`);
    names.add(name);
  }
  return parsed.data;
}

function statusLine(status: EngineStatus): string {
  const parts = [
    status.state,
    `${status.rows.toLocaleString('en-US')} listings`,
    status.bookRead ? describeBookRead(status.bookRead) : null,
    status.lastSeq ? `seq ${status.lastSeq}` : null,
    status.problem,
  ];
  return `skindesk watch: ${parts.filter((p) => p !== null).join(' · ')}\n`;
}

export const watchCommand: CliCommand = {
  name: 'watch',
  summary: 'run watchlists without a window; one JSON line per match and per purchase',
  usage: [
    'Usage: skindesk watch --base-url URL --watchlists FILE.json [--auto-buy] [--db FILE]',
    '',
    'Mirrors the book and judges every new listing and price change against the watchlists in',
    'FILE.json (an array of watchlists, or {"watchlists": [...]}; see the README). They are saved in the',
    'database by name, and the whole book is checked once when the feed is live.',
    '',
    '  --base-url URL        the marketplace REST address, e.g. https://market.example',
    '  --watchlists FILE     the watchlists to run (JSON)',
    '  --auto-buy            buy for watchlists whose auto_buy mode is "auto", within their guardrails',
    '                        (without it nothing is ever bought)',
    "  --db FILE             the book database (default: the app's database in its data folder)",
    '',
    'Prints on stdout, one JSON object per line:',
    '  {"type":"match","watchlist_id":…,"listing_id":…,"price":…,"seq":"…","origin":"event"|"sweep",…}',
    '  {"type":"purchase","listing_id":…,"status":"bought"|"not_bought"|"unknown"|"blocked","order_id":…,',
    '   "reason":…,"error":…,…}',
    'Runs until SIGINT or SIGTERM; purchases in flight get their outcome first.',
    'The API key comes from SKINDESK_API_KEY or the OS keychain.',
    'Exit code: 0 stopped as asked, 1 failed (the marketplace unreachable or answering with an error at',
    'the start, key refused, database unusable), 2 bad flags or file. A marketplace lost once the watch',
    'runs is retried until stopped, and the exit is still 0.',
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    const watchlists = readWatchlists(opts.watchlists);
    // a signal before the watch runs: nothing is in flight yet, so it stops here with exit 0
    const begun = await startLongRunning('skindesk watch', 'the watch started — nothing in flight');
    if (begun.start !== 'go') return begun.start === 'stopped' ? WATCH_EXIT.ok : WATCH_EXIT.failed;
    const print = (line: object) => writeLine(JSON.stringify(line));
    let lastState = '';
    /** Purchases can be in flight only once the book was live (a watch refused at the start has none). */
    let wentLive = false;
    let finish: (why: 'stop' | 'failed') => void = () => {};
    const finished = new Promise<'stop' | 'failed'>((resolve) => (finish = resolve));
    let failure: string | null = null;

    const dbPath = opts.db ?? defaultDatabaseFile();
    refuseDirectory(dbPath);
    const run = await HeadlessWatch.start({
      dbPath,
      baseUrl: opts['base-url'],
      apiKey: begun.key,
      watchlists,
      autoBuy: opts['auto-buy'],
      onWarning: (message) => process.stderr.write(`skindesk watch: ${message}\n`),
      onLengthyStep: (step) => process.stderr.write(`skindesk watch: ${describeLengthyStep(step)}\n`),
      onStatus: (status) => {
        if (status.state === 'live') wentLive = true;
        if (status.authFailed) {
          // said once, as the last line
          failure = status.problem ?? 'the marketplace refused the API key';
          finish('failed');
          return;
        }
        if (status.state !== lastState) process.stderr.write(statusLine(status));
        lastState = status.state;
      },
      // a watch that no longer follows the book must not look alive to the script that runs it; the
      // failure is its sync worker's, whose only file is the book
      onFailure: (error) => {
        failure ??= failureText('sync', error);
        finish('failed');
      },
    }).catch((err: unknown) => {
      // the book or the desk SQLite cannot read at the start: say which, and what to do (as sync does)
      const damaged = damagedFileText(dbPath, err);
      throw damaged === null ? err : new Error(damaged, { cause: err });
    });
    run.service.on('match', (m) => print(matchLine(m)));
    run.service.on('swept', ({ watchlists: judged, matches }) => {
      if (judged > 0) process.stderr.write(`skindesk watch: checked the whole book for ${judged} watchlist(s): ${matches} new match(es)\n`);
    });
    run.service.on('purchase', (entry) => {
      const line = purchaseLine(entry);
      if (line) print(line);
    });
    const auto = run.watchlists.filter((w) => w.auto_buy.mode === 'auto').length;
    process.stderr.write(
      `skindesk watch: ${run.watchlists.length} watchlist(s)${opts['auto-buy'] ? `, auto-buy on for ${auto}` : ', auto-buy off'}\n`,
    );
    // also a signal that came while HeadlessWatch was starting: it stops now, after the start
    void whenStopRequested().then(() => finish('stop'));
    // the script reading the lines went away (`| head -1`) or they cannot be written: a watch nobody
    // hears stops as if asked to, purchases in flight first (main tells a write failure, exit 1)
    onStdoutGone(() => finish('stop'));
    const outcome = await finished;
    releaseStopHandling();
    if (outcome === 'stop' || wentLive) process.stderr.write('skindesk watch: stopping — waiting for purchases in flight\n');
    await run.stop();
    if (outcome === 'failed') {
      process.stderr.write(`skindesk watch: ${failure ?? 'failed'}\n`);
      return WATCH_EXIT.failed;
    }
    return WATCH_EXIT.ok;
  },
};

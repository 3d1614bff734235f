/**
 * `skindesk sync`: keeps the local book equal to the marketplace's until SIGINT/SIGTERM or --duration,
 * then applies every event already received, closes the database and exits 0. Progress goes to stderr.
 * The sync itself runs in the same worker thread the app uses (src/core/sync/mirror-worker.ts).
 */
import { z } from 'zod';
import { defaultDatabaseFile } from '../../core/paths.ts';
import { describeLengthyStep, openDatabase } from '../../core/store/index.ts';
import type { BackfillProgress } from '../../core/sync/backfill.ts';
import type { EngineStatus } from '../../core/sync/engine.ts';
import { MirrorWorker } from '../../core/sync/mirror-worker.ts';
import { digitsToNumber, parseFlags, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { appIdFlag, failureText, refuseDirectory } from '../mirror-output.ts';
import { ProgressThrottle } from '../progress-throttle.ts';
import { releaseStopHandling, whenStopRequested } from '../stop-request.mjs';
import { startLongRunning } from '../command-start.ts';
import { describeBookRead } from '../../shared/book-read.ts';

/**
 * Exit codes: 0 stopped as asked, 1 the sync could not start or go on (the marketplace not read at the
 * start, the key refused, the database unusable, the worker crashed), 2 bad flags.
 */
export const SYNC_EXIT = { ok: 0, failed: 1 } as const;

const flags: FlagSpec = {
  'base-url': { type: 'string' },
  'ws-url': { type: 'string' },
  db: { type: 'string' },
  'app-id': { type: 'string', multiple: true },
  duration: { type: 'string' },
};

const schema = z.strictObject({
  'base-url': z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  'ws-url': z.url({ protocol: /^wss?$/, error: 'must be a ws(s) URL' }).optional(),
  db: z.string().min(1).optional(),
  'app-id': z.array(appIdFlag).optional(),
  duration: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a number of seconds')
    .transform(digitsToNumber)
    .pipe(z.number().positive())
    .optional(),
});

const count = (n: number) => n.toLocaleString('en-US');
function eta(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return s < 90 ? ` (ETA ${s}s)` : s < 5400 ? ` (ETA ${Math.round(s / 60)}m)` : ` (ETA ${(s / 3600).toFixed(1)}h)`;
}

/** The longest delay setTimeout takes: Node fires a longer one at once (after 1 ms, with a warning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `fn` after `ms`, however long (`--duration` of a month is 2.6e9 ms), in steps Node can time. */
function after(ms: number, fn: () => void): { clear(): void } {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    const step = Math.min(left, MAX_TIMER_MS);
    timer = setTimeout(() => (left > step ? arm(left - step) : fn()), step);
  };
  arm(ms);
  return { clear: () => clearTimeout(timer) };
}

/** `problem`: the status's own unless told (the last line drops the refusal the failure line says). */
function progressLine(status: EngineStatus, backfill: BackfillProgress | null, problem = status.problem): string {
  const parts = [
    status.state,
    `${count(status.rows)} listings`,
    backfill ? `details ${count(backfill.detailed)}/${count(backfill.total)}${backfill.state === 'running' ? eta(backfill.etaMs) : ''}` : null,
    status.bookRead ? describeBookRead(status.bookRead) : null,
    status.lastSeq === null ? null : `seq ${status.lastSeq}`,
    `${status.eventsPerSecond.toFixed(1)} events/s`,
    problem,
  ];
  return `skindesk sync: ${parts.filter((p) => p !== null).join(' · ')}\n`;
}

export const syncCommand: CliCommand = {
  name: 'sync',
  summary: 'mirror the marketplace book into the local database until stopped',
  usage: [
    'Usage: skindesk sync --base-url URL [--ws-url URL] [--db FILE] [--app-id N]... [--duration SECONDS]',
    '',
    'Loads the book, follows the live feed and fills in listing details in the background. On SIGINT,',
    'SIGTERM or after --duration it applies every event received, closes the database and exits 0.',
    'Progress goes to stderr.',
    '',
    '  --base-url URL        the marketplace REST address, e.g. https://market.example',
    '  --ws-url URL          the WebSocket feed (default: discovered from the REST address)',
    "  --db FILE             the book database (default: the app's database in its data folder)",
    '  --app-id N            mirror only this game; repeat for several (default: every game)',
    '  --duration SECONDS    stop by itself after this long',
    '',
    'The API key comes from SKINDESK_API_KEY or the OS keychain.',
    'Exit code: 0 stopped as asked; 1 the sync could not start or go on: the marketplace unreachable or',
    'answering with an error at the start (without --ws-url its first request reads the feed address',
    'there), the key refused, the database unusable; 2 bad flags. A marketplace lost once the sync runs',
    '(or, with --ws-url, not there at the start) is retried until stopped, and the exit is still 0.',
  ].join('\n'),

  async run(argv) {
    const opts = parseFlags(argv, flags, schema);
    // a signal before the worker runs: there is nothing to apply yet, so it stops here with exit 0
    const begun = await startLongRunning('skindesk sync', 'the sync started — nothing to apply');
    if (begun.start !== 'go') return begun.start === 'stopped' ? SYNC_EXIT.ok : SYNC_EXIT.failed;
    const file = opts.db ?? defaultDatabaseFile();
    refuseDirectory(file);
    // creates or upgrades the schema here, where a failure is easy to report; an upgrade that takes a
    // while (seconds on a large book, once) is said first, or the command looked stuck before its first line
    openDatabase(file, { onLengthyStep: (step) => process.stderr.write(`skindesk sync: ${describeLengthyStep(step)}\n`) }).close();

    const mirror = new MirrorWorker({
      dbPath: file,
      baseUrl: opts['base-url'],
      apiKey: begun.key,
      wsUrl: opts['ws-url'] ?? null,
      appIds: opts['app-id'] ?? null,
    });
    const throttle = new ProgressThrottle();
    let failure: string | null = null;
    // Once the run ends, progress lines wait for the one summary after the stop: the engine's own
    // `stopped` status comes before the backfill's last count, so printed as it came it showed stale
    // detail counts, and a second `stopped` line followed.
    let ending = false;
    const print = () => {
      const status = mirror.status;
      if (!status || ending || status.state === 'stopped') return;
      const line = progressLine(status, mirror.backfill);
      // the monotonic clock: the wall clock set back an hour would hold routine progress lines for that hour
      if (throttle.take(line, `${status.state}|${status.problem ?? ''}`, performance.now())) process.stderr.write(line);
    };
    /**
     * Whether the run got under way (a book read, events received, the feed live): only then does a stop
     * that ends a failed run have something to apply. A run refused or unreachable at the start has not.
     */
    let underWay = false;
    let workerGone = false;

    let finish: (why: 'stop' | 'failed') => void = () => {};
    const finished = new Promise<'stop' | 'failed'>((resolve) => (finish = resolve));
    // One signal stops cleanly; the handlers are removed then, so a second one ends the process at once.
    void whenStopRequested().then(() => finish('stop'));
    const timer = opts.duration === undefined ? null : after(opts.duration * 1000, () => finish('stop'));
    mirror.on('status', (status) => {
      if (status.state === 'live' || status.bookRead !== null || status.bufferedEvents > 0) underWay = true;
      if (status.authFailed) {
        // said once, as the last line
        failure = status.problem ?? 'the marketplace refused the API key';
        finish('failed');
        return;
      }
      print();
    });
    mirror.on('backfill', () => print());
    mirror.on('warning', (message) => process.stderr.write(`skindesk sync: ${message}\n`));
    mirror.on('error', (error) => {
      failure = failureText('sync', error);
      finish('failed');
    });
    mirror.on('exit', (code) => {
      workerGone = true;
      failure ??= `the sync worker stopped unexpectedly (exit code ${code})`;
      finish('failed');
    });
    mirror.start();
    const outcome = await finished;
    timer?.clear();
    releaseStopHandling();
    mirror.removeAllListeners('exit');
    ending = true;
    // asked to stop, the sync runs (perhaps still trying to connect); a failed one may have nothing left
    if (!workerGone && (outcome === 'stop' || underWay)) {
      process.stderr.write('skindesk sync: stopping — applying received events and closing the database\n');
    }
    await mirror.stop();
    // the run's summary, counted from the file after the last write (what `skindesk status` reads); a
    // worker that crashed reported no stop, and its last status is not one
    const last = mirror.status;
    if (last?.state === 'stopped' && !workerGone) {
      process.stderr.write(progressLine(last, mirror.backfill, last.authFailed ? null : last.problem));
    }
    if (outcome === 'failed') {
      process.stderr.write(`skindesk sync: ${failure ?? 'failed'}\n`);
      return SYNC_EXIT.failed;
    }
    return SYNC_EXIT.ok;
  },
};

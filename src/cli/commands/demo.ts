/**
 * `skindesk demo`: runs the demo marketplace (src/demo) until SIGINT/SIGTERM. Prints exactly one JSON
 * line on stdout — base_url, ws_url, api_key, webhook_secret — so scripts and tests can read where it
 * listens; everything else goes to stderr.
 */
import { z } from 'zod';
import { stringifyJson } from '../../shared/api/index.ts';
import { DEMO_DEFAULTS, MAX_SEQ_START, MarketError, startDemoMarket } from '../../demo/index.ts';
import { digitsToNumber, parseFlags, UsageError, type FlagSpec } from '../args.ts';
import type { CliCommand } from '../command.ts';
import { flushStdout, stdoutFailureText } from '../stdout.ts';
import { stopRequested, whenStopRequested } from '../stop-request.mjs';

const FLAGS: FlagSpec = {
  port: { type: 'string' },
  host: { type: 'string' },
  listings: { type: 'string' },
  rate: { type: 'string' },
  reorder: { type: 'string' },
  duplicate: { type: 'string' },
  'seq-start': { type: 'string' },
  'time-scale': { type: 'string' },
  seed: { type: 'string' },
  'webhook-url': { type: 'string' },
};

// whole by the pattern; no .int() after it, whose own "Too big" for digits beyond 2^53 came before the range
const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(digitsToNumber)
    .pipe(z.number().min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`));
const decimal = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a number')
    .transform(digitsToNumber)
    .pipe(z.number().min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`));

const schema = z.strictObject({
  port: integer(0, 65_535).optional(),
  host: z.string().min(1).optional(),
  listings: integer(0, 5_000_000).optional(),
  rate: decimal(0, 1_000_000).optional(),
  reorder: decimal(0, 1).optional(),
  duplicate: decimal(0, 1).optional(),
  // int64: read as a bigint, never through a JavaScript number; any number of digits is a whole number,
  // one above the demo's limit (the int64 maximum less room for the events after it) is out of range
  'seq-start': z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform((v) => BigInt(v))
    .refine((v) => v <= MAX_SEQ_START, `is out of range: at most ${MAX_SEQ_START} (the int64 maximum less room for the events that follow)`)
    .optional(),
  'time-scale': z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a number')
    .transform(digitsToNumber)
    .pipe(z.number().positive())
    .optional(),
  seed: integer(0, 4_294_967_295).optional(),
  'webhook-url': z.string().min(1).optional(),
});

const USAGE = `Usage: skindesk demo [--port N] [--host H] [--listings N] [--rate EVENTS_PER_S] [--reorder P]
                     [--duplicate P] [--seq-start N] [--time-scale X] [--seed N] [--webhook-url URL]

Runs the demo marketplace: every route of the marketplace API under /public/v1, the WebSocket feed at
/public/v1/ws and webhooks, over a simulated market. Prints one JSON line on stdout,
  {"base_url":…,"ws_url":…,"api_key":…,"webhook_secret":…}
then serves until SIGINT or SIGTERM. base_url is the REST base (routes are base_url + /public/v1/…);
ws_url is the WebSocket feed's full address; api_key and webhook_secret belong to the demo user.

Flags:
  --port N              TCP port (default ${DEMO_DEFAULTS.port}; 0 picks a free port)
  --host H              address to listen on (default ${DEMO_DEFAULTS.host})
  --listings N          listings on the book at startup, up to 5000000 (default ${DEMO_DEFAULTS.listings})
  --rate EVENTS_PER_S   simulated market events per second: new listings, reprices, purchases, delists
                        (default ${DEMO_DEFAULTS.rate}; 0 = a still market; 5000 and more for benchmarks)
  --reorder P           probability (0..1) that a WebSocket event of a listing is overtaken by a later one
                        of the same listing, as from a service on several processes (default ${DEMO_DEFAULTS.reorder})
  --duplicate P         probability (0..1) that a WebSocket event is delivered twice (default ${DEMO_DEFAULTS.duplicate})
  --seq-start N         seq of the opening book; events count up from it with gaps (default
                        ${DEMO_DEFAULTS.seqStart}, above 2^53, written as a plain JSON integer)
  --time-scale X        divides every timer: trade steps, withdrawal settlement, webhook back-off and
                        time-out (default ${DEMO_DEFAULTS.timeScale}; 100 makes a 20 s trade step 200 ms)
  --seed N              same seed, same catalog prices, book, accounts and activity (default ${DEMO_DEFAULTS.seed})
  --webhook-url URL     the demo user's webhook URL: https to a public address, or http(s) to loopback
                        (demo mode only)

The limits of the API (rate limits, 3 WebSocket connections per key, 30-minute inventory tokens) apply
exactly as specified.`;

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'run the demo marketplace (the whole API over a live simulated market); prints one JSON line',
  usage: USAGE,
  async run(argv) {
    const flags = parseFlags(argv, FLAGS, schema);
    // A signal that came while the CLI was starting (main.ts listens from the first moment): nothing
    // is served yet, so stop here, as asked, with exit 0.
    const early = stopRequested();
    if (early) {
      process.stderr.write(`demo market: ${early} before it started, not starting\n`);
      return 0;
    }
    const stopped = whenStopRequested();
    let market;
    try {
      market = await startDemoMarket({
        port: flags.port ?? DEMO_DEFAULTS.port,
        ...(flags.host !== undefined && { host: flags.host }),
        ...(flags.listings !== undefined && { listings: flags.listings }),
        ...(flags.rate !== undefined && { rate: flags.rate }),
        ...(flags.reorder !== undefined && { reorder: flags.reorder }),
        ...(flags.duplicate !== undefined && { duplicate: flags.duplicate }),
        ...(flags['seq-start'] !== undefined && { seqStart: flags['seq-start'] }),
        ...(flags['time-scale'] !== undefined && { timeScale: flags['time-scale'] }),
        ...(flags.seed !== undefined && { seed: flags.seed }),
        ...(flags['webhook-url'] !== undefined && { webhookUrl: flags['webhook-url'] }),
      });
    } catch (err) {
      if (err instanceof MarketError && err.code === 'INVALID_WEBHOOK_URL') throw new UsageError(`--webhook-url: ${err.message}`);
      throw err;
    }
    // a signal during the start: close the market again, without announcing an address that is gone
    const during = stopRequested();
    if (during) {
      process.stderr.write(`demo market: ${during}, shutting down\n`);
      await market.close();
      return 0;
    }
    process.stdout.write(
      `${stringifyJson({ base_url: market.baseUrl, ws_url: market.wsUrl, api_key: market.apiKey, webhook_secret: market.webhookSecret })}\n`,
    );
    // That line is how a script learns the market's address and key: when it could not be written (a
    // full disk), nobody can use the market, so it stops now (main says why, exit 1) rather than serve
    // unannounced until a signal.
    await flushStdout();
    if (stdoutFailureText() !== null) {
      await market.close();
      return 1;
    }
    const o = market.options;
    process.stderr.write(
      `demo market: ${o.listings} listings, ${o.rate} events/s, seed ${o.seed}, seq from ${o.seqStart}, ready in ${Math.round(market.startupMs)} ms at ${market.baseUrl}\n`,
    );
    const signal = await stopped;
    process.stderr.write(`demo market: ${signal}, shutting down\n`);
    await market.close();
    return 0;
  },
};

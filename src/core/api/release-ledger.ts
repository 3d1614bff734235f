/**
 * The rate governor's record of releases in the desk (store/desk.ts): one row per request the governor
 * let go, so that its strict sliding window (governor.ts) counts the releases of an earlier run of this
 * process and of every other process using the same key on the same data folder — the app and the
 * `skindesk` CLI side by side. Without it, each started from an empty window and a burst right after a
 * restart (or from the two at once) went past the server's count: a 429, a purchase refused.
 *
 * Beside the releases it keeps the blocks the server announced (a Retry-After, a budget spent until its
 * reset), one row per endpoint, so a process that was not told waits as well (governor.ts).
 *
 * Rows are keyed by the market (its base URL), by the key's identity and by the endpoint. The key itself
 * is never written, nor anything it could be read back from: its identity is a short one-way hash
 * (`apiKeyId`), enough to keep two keys' budgets apart. Rows older than the longest window are dropped.
 *
 * Cheap by design: a read is one indexed SELECT, a write one INSERT (and, at most once a window, one
 * DELETE of the rows that have aged out). A write waits for another process's hold on the desk at most
 * `busyWaitMs`, not the connection's busy timeout: past that it fails, and the governor counts on its
 * own for that release rather than keep a purchase waiting.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ENDPOINTS, ENDPOINT_NAMES } from '../../shared/api/index.ts';
import { createDeskTables, deskWriteLock } from '../store/desk.ts';
import type { Clock } from './clock.ts';
import { RateGovernor, type ReleaseLedger } from './governor.ts';

export const RELEASE_LEDGER_SCHEMA = `
CREATE TABLE IF NOT EXISTS rate_releases (
  market   TEXT NOT NULL,
  key_id   TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  at_ms    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_releases_by_endpoint ON rate_releases (market, key_id, endpoint, at_ms);
CREATE INDEX IF NOT EXISTS rate_releases_by_time ON rate_releases (at_ms);
CREATE TABLE IF NOT EXISTS rate_blocks (
  market   TEXT NOT NULL,
  key_id   TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  until_ms INTEGER NOT NULL,
  PRIMARY KEY (market, key_id, endpoint)
) WITHOUT ROWID;
`;

/** The longest window of any published limit (spec part 8): older rows count in no window. */
export const LONGEST_RATE_WINDOW_MS = Math.max(
  ...ENDPOINT_NAMES.map((name) => ENDPOINTS[name].rateLimit?.windowMs ?? 0),
);

/** Kept a little past the longest window, for the governor's jitter margin. */
const DEFAULT_RETAIN_MS = LONGEST_RATE_WINDOW_MS + 10_000;

/**
 * A key's identity in the desk: the first 16 hex digits of SHA-256 over a fixed prefix and the key. One
 * way, and too short to confirm a guess at a full key with any confidence worth having.
 */
export function apiKeyId(apiKey: string): string {
  return createHash('sha256').update(`skindesk rate ledger\u0000${apiKey}`).digest('hex').slice(0, 16);
}

/** The market as the client names it: the base URL without trailing slashes (client.ts). */
function marketOf(baseUrl: string): string {
  return new URL(baseUrl).href.replace(/\/+$/, '');
}

export interface SqliteReleaseLedgerOptions {
  baseUrl: string;
  /** Only its hash (`apiKeyId`) is kept, here and in the file. */
  apiKey: string;
  /** How long rows are kept (default: the longest published window, plus a margin). */
  retainMs?: number;
  /** The longest a write waits for another process's hold on the desk (default 20 ms). */
  busyWaitMs?: number;
  /** Wall clock, for pruning (default Date.now). */
  now?: () => number;
}

export class SqliteReleaseLedger implements ReleaseLedger {
  readonly #db: Database.Database;
  readonly #market: string;
  readonly #keyId: string;
  readonly #retainMs: number;
  readonly #busyWaitMs: number;
  readonly #now: () => number;
  readonly #recent: Database.Statement<[string, string, string, number], number>;
  readonly #insert: Database.Statement<[string, string, string, number]>;
  readonly #prune: Database.Statement<[number]>;
  readonly #count: Database.Statement<[string, string, string, number], number>;
  readonly #takeDeskLock: Database.Statement<[]>;
  readonly #claim: Database.Transaction<(endpointKey: string, atMs: number, sinceMs: number, limit: number) => boolean>;
  readonly #block: Database.Statement<[string, string, string, number]>;
  readonly #blockedUntil: Database.Statement<[string, string, string], number>;
  readonly #pruneBlocks: Database.Statement<[number]>;
  #prunedAt = Number.NEGATIVE_INFINITY;

  /** Creates the table when missing; throws when the connection cannot (closed, read-only without it). */
  constructor(db: Database.Database, options: SqliteReleaseLedgerOptions) {
    this.#db = db;
    this.#market = marketOf(options.baseUrl);
    this.#keyId = apiKeyId(options.apiKey);
    this.#retainMs = options.retainMs ?? DEFAULT_RETAIN_MS;
    this.#busyWaitMs = options.busyWaitMs ?? 20;
    this.#now = options.now ?? Date.now;
    createDeskTables(db, RELEASE_LEDGER_SCHEMA);
    this.#recent = db
      .prepare<[string, string, string, number], number>(
        'SELECT at_ms FROM rate_releases WHERE market = ? AND key_id = ? AND endpoint = ? AND at_ms > ? ORDER BY at_ms',
      )
      .pluck();
    this.#insert = db.prepare(
      'INSERT INTO rate_releases (market, key_id, endpoint, at_ms) VALUES (?, ?, ?, ?)',
    );
    this.#prune = db.prepare('DELETE FROM rate_releases WHERE at_ms < ?');
    this.#count = db
      .prepare<[string, string, string, number], number>(
        'SELECT count(*) FROM rate_releases WHERE market = ? AND key_id = ? AND endpoint = ? AND at_ms > ?',
      )
      .pluck();
    this.#takeDeskLock = deskWriteLock(db, 'rate_blocks');
    // The count and the insert in one transaction that holds the ledger's write lock from its first
    // statement, so no other process can take a slot between the two.
    this.#claim = db.transaction((endpointKey: string, atMs: number, sinceMs: number, limit: number) => {
      this.#takeDeskLock.run();
      if (this.#count.get(this.#market, this.#keyId, endpointKey, Math.floor(sinceMs))! >= limit) return false;
      this.#write(endpointKey, atMs);
      return true;
    });
    // a block is only ever lengthened: two processes told different lengths both wait the longer one
    this.#block = db.prepare(
      `INSERT INTO rate_blocks (market, key_id, endpoint, until_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (market, key_id, endpoint) DO UPDATE SET until_ms = max(until_ms, excluded.until_ms)`,
    );
    this.#blockedUntil = db
      .prepare<[string, string, string], number>('SELECT until_ms FROM rate_blocks WHERE market = ? AND key_id = ? AND endpoint = ?')
      .pluck();
    this.#pruneBlocks = db.prepare('DELETE FROM rate_blocks WHERE until_ms < ?');
  }

  recent(endpointKey: string, sinceMs: number): number[] {
    // closed with its session (a market switch, quitting): whatever is still in flight counts on its own
    if (!this.#db.open) return [];
    return this.#recent.all(this.#market, this.#keyId, endpointKey, Math.floor(sinceMs));
  }

  note(endpointKey: string, atMs: number): void {
    if (!this.#db.open) return;
    this.#briefly(() => this.#write(endpointKey, atMs));
  }

  /**
   * Records the release only if the window (rows later than `sinceMs`) holds fewer than `limit`: false
   * when another process took the last slot. Throws what SQLite throws otherwise (a desk held too long).
   */
  claim(endpointKey: string, atMs: number, sinceMs: number, limit: number): boolean {
    if (!this.#db.open) return true;
    // the lock before the count: a transaction that read the window first, and a process that wrote before
    // it could write, made SQLite refuse it (SQLITE_BUSY_SNAPSHOT), to be counted again; this one waits its
    // turn (the brief busy timeout) and counts what every process has written
    return this.#briefly(() => this.#claim(endpointKey, atMs, sinceMs, limit));
  }

  #write(endpointKey: string, atMs: number): void {
    const now = this.#now();
    if (now - this.#prunedAt >= this.#retainMs) {
      this.#prune.run(now - this.#retainMs);
      this.#pruneBlocks.run(now);
      this.#prunedAt = now;
    }
    this.#insert.run(this.#market, this.#keyId, endpointKey, Math.floor(atMs));
  }

  block(endpointKey: string, untilMs: number): void {
    if (!this.#db.open) return;
    this.#briefly(() => this.#block.run(this.#market, this.#keyId, endpointKey, Math.ceil(untilMs)));
  }

  blockedUntil(endpointKey: string): number | null {
    if (!this.#db.open) return null;
    return this.#blockedUntil.get(this.#market, this.#keyId, endpointKey) ?? null;
  }

  /**
   * Runs a write with the connection's busy timeout cut to `busyWaitMs` (the journal and the caches on
   * the same connection keep theirs): a desk held by another process fails the write quickly instead.
   */
  #briefly<T>(write: () => T): T {
    const before = this.#db.pragma('busy_timeout', { simple: true }) as number;
    if (before <= this.#busyWaitMs) return write();
    this.#db.pragma(`busy_timeout = ${this.#busyWaitMs}`);
    try {
      return write();
    } finally {
      this.#db.pragma(`busy_timeout = ${before}`);
    }
  }
}

export interface DeskRateGovernorOptions {
  /** A connection holding the desk: attached as `desk` (the app, `skindesk watch`) or the desk file itself. */
  db: Database.Database;
  baseUrl: string;
  apiKey: string;
  clock?: Clock;
  marginMs?: number;
  /**
   * Hears, once, that the desk could not keep the record (in words, never with the key): from then on
   * requests may be paced by this run's own count only.
   */
  onLedgerError?: (message: string) => void;
}

/** What to tell the user when the record fails; SQLite's own words never hold the key (it is not in the SQL). */
function ledgerProblem(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `the desk's record of rate-limited requests could not be used (${reason}): requests are paced by this process's own count, so another Skindesk process using the same key may be answered 429`;
}

/**
 * The governor for a client whose key and market share the desk with other runs: its windows count the
 * releases recorded there. Never throws: a desk that cannot hold the record gives a governor without one.
 */
export function deskRateGovernor(options: DeskRateGovernorOptions): RateGovernor {
  const report = (error: unknown) => options.onLedgerError?.(ledgerProblem(error));
  const base = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.marginMs === undefined ? {} : { marginMs: options.marginMs }),
  };
  let ledger: SqliteReleaseLedger;
  try {
    const now = options.clock ? () => (options.clock as Clock).now() : Date.now;
    ledger = new SqliteReleaseLedger(options.db, { baseUrl: options.baseUrl, apiKey: options.apiKey, now });
  } catch (error) {
    report(error);
    return new RateGovernor(base);
  }
  return new RateGovernor({ ...base, ledger, onLedgerError: report });
}

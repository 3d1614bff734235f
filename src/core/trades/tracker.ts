/**
 * The one trade tracker. Webhooks and the `GET /trades` poller both feed it, in any order and with
 * duplicates; it keeps, per trade id, the state with the newest `updated_at` (spec §6.2 rule 4: deliveries
 * are not ordered). A state that is older than the one held changes nothing. A state exactly as old (a
 * tie) changes nothing either, with one exception: a final status beats an in-flight one at the same
 * `updated_at` (see `winsTie`).
 *
 * Besides the current state it keeps a status timeline per trade: every status seen, at the
 * `updated_at` it was seen with and from which source. A late delivery cannot move a trade back, but
 * it can still fill a gap in the timeline (the poller may have skipped `CreatedNeedsConfirmation`
 * between two polls and the webhook for it arrives last).
 *
 * Everything lives in SQLite, so the trades screen opens offline with what was last seen. The tables
 * are created here (`CREATE TABLE IF NOT EXISTS`), in the desk file when one is attached: a webhook's
 * write must never wait for the sync worker's hold on the book (desk.ts).
 */
import { EventEmitter } from 'node:events';
import type Database from 'better-sqlite3';
import { FINAL_TRADE_STATUSES, IN_FLIGHT_TRADE_STATUSES, type Trade, type TradeStatus, trade as tradeSchema } from '../../shared/api/index.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { instantKey } from './instant.ts';
import { createDeskTables } from '../store/desk.ts';

/** Where a state came from: a signed webhook delivery, a `GET /trades` poll, or our own write's answer. */
export type TradeSource = 'webhook' | 'poll' | 'action';

export interface TradeChange {
  trade: Trade;
  /** The state held before, or null for a trade seen for the first time. */
  previous: Trade | null;
  source: TradeSource;
  /** True when the status differs from the one held before (always true for a new trade). */
  statusChanged: boolean;
}

export type ApplyOutcome = 'applied' | 'older' | 'tie';

export interface TimelineEntry {
  status: TradeStatus;
  /** The trade's `updated_at` when it had this status. */
  at: string;
  source: TradeSource;
  /** When this process first saw it (epoch ms of our clock). */
  observedAt: number;
}

export interface TrackerStats {
  applied: number;
  ignoredOlder: number;
  ignoredTie: number;
  appliedBySource: Record<TradeSource, number>;
}

export interface TradeTrackerOptions {
  db: Database.Database;
  clock?: Pick<Clock, 'now'>;
}

export interface TradeTrackerEvents {
  change: [TradeChange];
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS trades (
  id INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  deposit_id INTEGER,
  withdraw_id INTEGER,
  created_at TEXT NOT NULL,
  created_key TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- instantKey(updated_at): compared as text, exact to the nanosecond and across offsets
  updated_key TEXT NOT NULL,
  -- the whole trade row as last applied (JSON), re-parsed with the contract on every read
  body TEXT NOT NULL,
  source TEXT NOT NULL,
  applied_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS trades_status ON trades(status, created_key);
CREATE INDEX IF NOT EXISTS trades_created ON trades(created_key);
CREATE INDEX IF NOT EXISTS trades_deposit ON trades(deposit_id) WHERE deposit_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS trades_withdraw ON trades(withdraw_id) WHERE withdraw_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS trade_timeline (
  trade_id INTEGER NOT NULL,
  updated_key TEXT NOT NULL,
  status TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  source TEXT NOT NULL,
  observed_at INTEGER NOT NULL,
  PRIMARY KEY (trade_id, updated_key, status)
) WITHOUT ROWID;
`;

interface TradeRow {
  body: string;
  status: string;
  updated_key: string;
}

interface TimelineRow {
  status: string;
  updated_at: string;
  source: string;
  observed_at: number;
}

const IN_FLIGHT_SQL = sqlList(IN_FLIGHT_TRADE_STATUSES);
const FINAL_SQL = sqlList(FINAL_TRADE_STATUSES);

function sqlList(statuses: readonly TradeStatus[]): string {
  return statuses.map((s) => `'${s}'`).join(', ');
}

export function createTradeTables(db: Database.Database): void {
  createDeskTables(db, SCHEMA);
}

export class TradeTracker extends EventEmitter<TradeTrackerEvents> {
  readonly #db: Database.Database;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #stats: TrackerStats = {
    applied: 0,
    ignoredOlder: 0,
    ignoredTie: 0,
    appliedBySource: { webhook: 0, poll: 0, action: 0 },
  };
  readonly #sql;

  constructor(options: TradeTrackerOptions) {
    super();
    this.#db = options.db;
    this.#clock = options.clock ?? systemClock;
    createTradeTables(this.#db);
    const db = this.#db;
    this.#sql = {
      held: db.prepare<[number], TradeRow>('SELECT body, status, updated_key FROM trades WHERE id = ?'),
      upsert: db.prepare(`
        INSERT INTO trades (id, type, status, deposit_id, withdraw_id, created_at, created_key, updated_at, updated_key, body, source, applied_at)
        VALUES (@id, @type, @status, @deposit_id, @withdraw_id, @created_at, @created_key, @updated_at, @updated_key, @body, @source, @applied_at)
        ON CONFLICT(id) DO UPDATE SET
          type = excluded.type, status = excluded.status, deposit_id = excluded.deposit_id,
          withdraw_id = excluded.withdraw_id, created_at = excluded.created_at, created_key = excluded.created_key,
          updated_at = excluded.updated_at, updated_key = excluded.updated_key, body = excluded.body,
          source = excluded.source, applied_at = excluded.applied_at
        -- #applyOne decides ties (winsTie); this only guarantees that a trade never moves back in time
        WHERE excluded.updated_key >= trades.updated_key`),
      timeline: db.prepare(`
        INSERT OR IGNORE INTO trade_timeline (trade_id, updated_key, status, updated_at, source, observed_at)
        VALUES (?, ?, ?, ?, ?, ?)`),
      // At one instant a final status is the later step (winsTie), whichever feed reported it first.
      readTimeline: db.prepare<[number], TimelineRow>(
        `SELECT status, updated_at, source, observed_at FROM trade_timeline WHERE trade_id = ?
         ORDER BY updated_key, status IN (${FINAL_SQL}), observed_at`,
      ),
      all: db.prepare<[], { body: string }>('SELECT body FROM trades ORDER BY created_key DESC, id DESC'),
      inFlight: db.prepare<[], { body: string }>(
        `SELECT body FROM trades WHERE status IN (${IN_FLIGHT_SQL}) ORDER BY created_key DESC, id DESC`,
      ),
      inFlightCount: db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM trades WHERE status IN (${IN_FLIGHT_SQL})`),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM trades'),
      byDeposit: db.prepare<[number], { body: string }>('SELECT body FROM trades WHERE deposit_id = ?'),
      byWithdraw: db.prepare<[number], { body: string }>('SELECT body FROM trades WHERE withdraw_id = ?'),
    };
  }

  /** Applies one trade state if it is newer than the one held. Emits `change` when applied. */
  apply(trade: Trade, source: TradeSource): ApplyOutcome {
    const { outcome, change } = this.#db.transaction(() => this.#applyOne(trade, source))();
    if (change) this.emit('change', change);
    return outcome;
  }

  /** Applies a batch (a polled page) in one transaction; `change` events follow the commit. */
  applyMany(trades: readonly Trade[], source: TradeSource): Record<ApplyOutcome, number> {
    const counts: Record<ApplyOutcome, number> = { applied: 0, older: 0, tie: 0 };
    const changes = this.#db.transaction(() => {
      const out: TradeChange[] = [];
      for (const t of trades) {
        const { outcome, change } = this.#applyOne(t, source);
        counts[outcome]++;
        if (change) out.push(change);
      }
      return out;
    })();
    for (const change of changes) this.emit('change', change);
    return counts;
  }

  #applyOne(incoming: Trade, source: TradeSource): { outcome: ApplyOutcome; change: TradeChange | null } {
    const updatedKey = instantKey(incoming.updated_at);
    const now = this.#clock.now();
    // The timeline takes every status seen, even from a state too old to become current.
    this.#sql.timeline.run(incoming.id, updatedKey, incoming.status, incoming.updated_at, source, now);
    const held = this.#sql.held.get(incoming.id);
    if (held && updatedKey < held.updated_key) {
      this.#stats.ignoredOlder++;
      return { outcome: 'older', change: null };
    }
    if (held && updatedKey === held.updated_key && !winsTie(incoming.status, held.status)) {
      this.#stats.ignoredTie++;
      return { outcome: 'tie', change: null };
    }
    this.#sql.upsert.run({
      id: incoming.id,
      type: incoming.type,
      status: incoming.status,
      deposit_id: incoming.deposit_id,
      withdraw_id: incoming.withdraw_id,
      created_at: incoming.created_at,
      created_key: instantKey(incoming.created_at),
      updated_at: incoming.updated_at,
      updated_key: updatedKey,
      body: JSON.stringify(incoming),
      source,
      applied_at: now,
    });
    this.#stats.applied++;
    this.#stats.appliedBySource[source]++;
    const previous = held ? parseTrade(held.body) : null;
    return {
      outcome: 'applied',
      change: { trade: incoming, previous, source, statusChanged: previous === null || previous.status !== incoming.status },
    };
  }

  get(id: number): Trade | null {
    const row = this.#sql.held.get(id);
    return row ? parseTrade(row.body) : null;
  }

  /** Updated_at of the state held for a trade, or null when the trade is unknown. */
  heldUpdatedAt(id: number): string | null {
    return this.get(id)?.updated_at ?? null;
  }

  /** Every trade held, newest created first. */
  list(): Trade[] {
    return this.#sql.all.all().map((r) => parseTrade(r.body));
  }

  /** Trades whose status counts against the in-flight cap, newest created first. */
  inFlight(): Trade[] {
    return this.#sql.inFlight.all().map((r) => parseTrade(r.body));
  }

  inFlightCount(): number {
    return this.#sql.inFlightCount.get()?.n ?? 0;
  }

  count(): number {
    return this.#sql.count.get()?.n ?? 0;
  }

  /** Trades created by a sell or deposit, matched by the `deposit_ids` its response returned. */
  byDepositId(depositId: number): Trade[] {
    return this.#sql.byDeposit.all(depositId).map((r) => parseTrade(r.body));
  }

  byWithdrawId(withdrawId: number): Trade[] {
    return this.#sql.byWithdraw.all(withdrawId).map((r) => parseTrade(r.body));
  }

  /**
   * The statuses a trade went through, oldest first. Consecutive entries with the same status are
   * one step (a poll and a webhook that saw the same status at different update times).
   */
  timeline(id: number): TimelineEntry[] {
    const out: TimelineEntry[] = [];
    for (const row of this.#sql.readTimeline.all(id)) {
      if (out.at(-1)?.status === row.status) continue;
      out.push({
        status: tradeSchema.shape.status.parse(row.status),
        at: row.updated_at,
        source: row.source as TradeSource,
        observedAt: row.observed_at,
      });
    }
    return out;
  }

  stats(): TrackerStats {
    return { ...this.#stats, appliedBySource: { ...this.#stats.appliedBySource } };
  }
}

/**
 * Whether a state with the same `updated_at` as the one held replaces it. Whole-second timestamps (the spec
 * does not rule them out) put an offer's `Active` and its `Accepted` in the same second; were the first
 * arrival kept, a trade could stay in flight for good (every later poll ties again), held against the
 * 15-trade cap and never announced as accepted. A final status never changes again, so at a tie it can
 * only be the later state; any other tie is undecidable and keeps the first arrival.
 */
function winsTie(incoming: TradeStatus, held: string): boolean {
  return isFinal(incoming) && !isFinal(held);
}

function isFinal(status: string): boolean {
  return (FINAL_TRADE_STATUSES as readonly string[]).includes(status);
}

function parseTrade(body: string): Trade {
  return tradeSchema.parse(JSON.parse(body));
}

/**
 * Which webhook deliveries were already accepted, so a replay (an attacker resending a captured
 * delivery, or the service retrying one whose 2xx we sent but it never received) is not applied twice.
 *
 * A bounded LRU answers the common case from memory; a SQLite table, when given, keeps every id for
 * `retentionMs`, so a replay after a restart is still caught. Retention must outlast the signature
 * tolerance (older deliveries are rejected as stale anyway) and the service's retry schedule (a retry
 * carries a fresh timestamp and the same id); the default of one hour covers both with room to spare.
 */
import type Database from 'better-sqlite3';
import { createDeskTables } from '../store/desk.ts';

export interface DeliveryLogOptions {
  db?: Database.Database;
  /** Ids held in memory (default 10 000). */
  maxInMemory?: number;
  /** How long an id is remembered (default one hour). */
  retentionMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  delivery_id TEXT PRIMARY KEY,
  accepted_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_deliveries_age ON webhook_deliveries(accepted_at);
`;

/** Prune the table once per this many accepted deliveries (pruning every time would cost a scan each). */
const PRUNE_EVERY = 256;

export class DeliveryLog {
  readonly #recent = new Map<string, number>();
  readonly #maxInMemory: number;
  readonly retentionMs: number;
  readonly #sql: {
    insert: Database.Statement<[{ id: string; now: number; expired: number }]>;
    prune: Database.Statement<[number]>;
  } | null;
  #sinceLastPrune = 0;

  constructor(options: DeliveryLogOptions = {}) {
    this.#maxInMemory = options.maxInMemory ?? 10_000;
    this.retentionMs = options.retentionMs ?? 60 * 60_000;
    if (options.db) {
      createDeskTables(options.db, SCHEMA);
      this.#sql = {
        // `changes` is 1 when the id is new or its record has expired (not yet pruned), 0 for a replay.
        insert: options.db.prepare(`
          INSERT INTO webhook_deliveries (delivery_id, accepted_at) VALUES (@id, @now)
          ON CONFLICT(delivery_id) DO UPDATE SET accepted_at = excluded.accepted_at
          WHERE webhook_deliveries.accepted_at < @expired`),
        prune: options.db.prepare('DELETE FROM webhook_deliveries WHERE accepted_at < ?'),
      };
    } else {
      this.#sql = null;
    }
  }

  /**
   * Records `id` as accepted at `now`. Returns false when it was already recorded within the retention
   * window (a replay), true when it is new. Check and record are one step, so two concurrent copies of
   * one delivery cannot both pass.
   */
  accept(id: string, now: number): boolean {
    const seenAt = this.#recent.get(id);
    if (seenAt !== undefined && now - seenAt < this.retentionMs) {
      // Refresh its LRU position: a replayed id is likely to be replayed again.
      this.#recent.delete(id);
      this.#recent.set(id, seenAt);
      return false;
    }
    if (this.#sql) {
      if (++this.#sinceLastPrune >= PRUNE_EVERY) {
        this.#sinceLastPrune = 0;
        this.#sql.prune.run(now - this.retentionMs);
      }
      if (this.#sql.insert.run({ id, now, expired: now - this.retentionMs }).changes === 0) {
        this.#remember(id, now);
        return false;
      }
    }
    this.#remember(id, now);
    return true;
  }

  /** Drops ids older than the retention window from memory and disk. */
  prune(now: number): void {
    for (const [id, at] of this.#recent) if (now - at >= this.retentionMs) this.#recent.delete(id);
    this.#sql?.prune.run(now - this.retentionMs);
  }

  get sizeInMemory(): number {
    return this.#recent.size;
  }

  #remember(id: string, at: number): void {
    this.#recent.delete(id);
    this.#recent.set(id, at);
    while (this.#recent.size > this.#maxInMemory) {
      const oldest = this.#recent.keys().next().value;
      if (oldest === undefined) break;
      this.#recent.delete(oldest);
    }
  }
}

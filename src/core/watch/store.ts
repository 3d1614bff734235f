/**
 * Reads and writes of the watchlist tables (tables.ts): the watchlists themselves, the match memory,
 * the alert feed, the auto-buy log and the kill switch. Every definition is parsed with the shared
 * schema on the way in and on the way out, so a hand-edited row can never reach the evaluator unchecked.
 */
import type { Statement } from 'better-sqlite3';
import { z } from 'zod';
import { type Watchlist, type WatchlistDefinition, type WatchlistInput, watchlistInput } from '../../shared/watchlist.ts';
import type { Db } from '../store/database.ts';
import { deskWriteLock } from '../store/desk.ts';
import { ensureWatchTables } from './tables.ts';

export type AlertOrigin = 'event' | 'sweep';

/**
 * The ways an alert is told outside the app: an OS notification, a post to its watchlist's webhook. Each
 * is owed once, and the alert row says which it is still owed (OWED_COLUMNS): written with the alert,
 * cleared by whichever run tells it, so one a run held in a coalescing window when it crashed is told by
 * the next (WatchService).
 */
export type AlertChannel = 'notification' | 'webhook';
const OWED_COLUMNS: Record<AlertChannel, string> = { notification: 'notify_pending', webhook: 'webhook_pending' };
export const ALERT_CHANNELS = Object.keys(OWED_COLUMNS) as readonly AlertChannel[];

export const ALERT_STATES = ['new', 'buying', 'bought', 'not_bought', 'unknown', 'blocked', 'dismissed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export interface WatchAlert {
  id: number;
  atMs: number;
  watchlistId: number;
  watchlistName: string;
  listingId: number;
  appId: number;
  marketHashName: string;
  /** The price seen in the event (the purchase's max_price). */
  price: number;
  amount: number;
  seq: bigint;
  /** The reference price of a "below" condition, null for a ceiling. */
  referencePrice: number | null;
  /** The highest price the condition accepted. */
  ceiling: number;
  origin: AlertOrigin;
  state: AlertState;
}

export type AutoBuyStatus = 'pending' | 'bought' | 'not_bought' | 'unknown';

export interface AutoBuyLogEntry {
  id: number;
  atMs: number;
  watchlistId: number;
  alertId: number | null;
  listingId: number;
  marketHashName: string;
  maxPrice: number;
  amount: number;
  triggerSeq: bigint;
  mode: 'confirm' | 'auto';
  decision: 'sent' | 'blocked';
  /** Why it was blocked (a guardrail code, see guardrails.ts), null when sent. */
  reason: string | null;
  intentId: string | null;
  status: AutoBuyStatus | null;
  orderId: number | null;
  error: string | null;
  resolvedAtMs: number | null;
}

export class WatchlistNameTaken extends Error {
  constructor(name: string) {
    super(`a watchlist named "${name}" already exists`);
    this.name = 'WatchlistNameTaken';
  }
}

export class WatchlistNotFound extends Error {
  constructor(id: number) {
    super(`watchlist ${id} does not exist`);
    this.name = 'WatchlistNotFound';
  }
}

interface WatchlistRow {
  id: number;
  definition: string;
  paused: number;
  created_at_ms: number;
  updated_at_ms: number;
}

interface AlertRow {
  id: number;
  at_ms: number;
  watchlist_id: number;
  watchlist_name: string;
  listing_id: number;
  app_id: number;
  market_hash_name: string;
  price: number;
  amount: number;
  seq: bigint;
  reference_price: number | null;
  ceiling: number;
  origin: AlertOrigin;
  state: AlertState;
}

interface LogRow {
  id: number;
  at_ms: number;
  watchlist_id: number;
  alert_id: number | null;
  listing_id: number;
  market_hash_name: string;
  max_price: number;
  amount: number;
  trigger_seq: bigint;
  mode: 'confirm' | 'auto';
  decision: 'sent' | 'blocked';
  reason: string | null;
  intent_id: string | null;
  status: AutoBuyStatus | null;
  order_id: number | null;
  error: string | null;
  resolved_at_ms: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A purchase's failure as the log keeps it: `CODE: words`, either part alone when the other is missing. */
export function failureWords(code: string | null | undefined, words: string | null | undefined): string | null {
  return [code, words].filter((part) => part).join(': ') || null;
}

/** JSON with object keys sorted: two parses of the same rule give the same text whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whether two definitions match the same listings: the same filter and price condition. */
function sameRule(a: Pick<WatchlistDefinition, 'filter' | 'price'>, b: Pick<WatchlistDefinition, 'filter' | 'price'>): boolean {
  return canonical(a.filter) === canonical(b.filter) && canonical(a.price) === canonical(b.price);
}

function toWatchlist(row: WatchlistRow): Watchlist {
  const definition = watchlistInput.parse(JSON.parse(row.definition));
  return {
    ...definition,
    paused: row.paused === 1,
    id: row.id,
    created_at: iso(row.created_at_ms),
    updated_at: iso(row.updated_at_ms),
  };
}

/** Rows read with safeIntegers come back as bigint; everything but the seqs fits a number. */
function numbers<T extends object>(row: T, keep: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'bigint' && !keep.includes(k) ? Number(v) : v;
  return out as T;
}

function toAlert(raw: AlertRow): WatchAlert {
  const r = numbers(raw, ['seq']);
  return {
    id: r.id,
    atMs: r.at_ms,
    watchlistId: r.watchlist_id,
    watchlistName: r.watchlist_name,
    listingId: r.listing_id,
    appId: r.app_id,
    marketHashName: r.market_hash_name,
    price: r.price,
    amount: r.amount,
    seq: r.seq,
    referencePrice: r.reference_price,
    ceiling: r.ceiling,
    origin: r.origin,
    state: r.state,
  };
}

function toLogEntry(raw: LogRow): AutoBuyLogEntry {
  const r = numbers(raw, ['trigger_seq']);
  return {
    id: r.id,
    atMs: r.at_ms,
    watchlistId: r.watchlist_id,
    alertId: r.alert_id,
    listingId: r.listing_id,
    marketHashName: r.market_hash_name,
    maxPrice: r.max_price,
    amount: r.amount,
    triggerSeq: r.trigger_seq,
    mode: r.mode,
    decision: r.decision,
    reason: r.reason,
    intentId: r.intent_id,
    status: r.status,
    orderId: r.order_id,
    error: r.error,
    resolvedAtMs: r.resolved_at_ms,
  };
}

interface JournalSettlement {
  id: number;
  intent_id: string;
  state: Exclude<AutoBuyStatus, 'pending'>;
  order_id: number | null;
  error_code: string | null;
  error_message: string | null;
  note: string | null;
}

export type NewAlert = Omit<WatchAlert, 'id' | 'state'>;

/**
 * What an alert needs beyond its auto-buy log entry (which holds its time, watchlist, listing, name and
 * seq): kept in the entry of an automatic decision until the alert row is written (recoverAlerts).
 */
const alertFacts = z.object({
  watchlistName: z.string(),
  appId: z.number().int(),
  price: z.number().int(),
  amount: z.number().int(),
  referencePrice: z.number().int().nullable(),
  ceiling: z.number().int(),
  origin: z.enum(['event', 'sweep']),
});
export type AlertFacts = z.infer<typeof alertFacts>;

export interface NewLogEntry
  extends Omit<AutoBuyLogEntry, 'id' | 'status' | 'orderId' | 'error' | 'resolvedAtMs' | 'intentId'> {
  status: AutoBuyStatus | null;
  /** The alert of a decision taken before its alert row was written (an automatic purchase's match). */
  alertFacts?: AlertFacts | null;
}

interface UnwrittenAlertRow {
  id: number;
  at_ms: number;
  watchlist_id: number;
  listing_id: number;
  market_hash_name: string;
  trigger_seq: bigint;
  decision: 'sent' | 'blocked';
  status: AutoBuyStatus | null;
  alert_facts: string;
}

/** Alerts kept in the feed; older ones are pruned (the auto-buy log and the journal keep the history). */
export const ALERTS_KEPT = 2_000;

/** How the kill switch is stored in watch_settings: read by the store and by killSwitchEngaged alike. */
const KILL_SWITCH = { key: 'kill_switch', engaged: '1', released: '0' } as const;
const SETTING_SQL = 'SELECT value FROM watch_settings WHERE key = ?';

export class WatchStore {
  readonly db: Db;
  readonly #now: () => number;
  readonly #s: Record<string, Statement>;
  /** Per channel: claim an alert's telling, read the alerts owed one, release those owed too long. */
  readonly #owed: Record<AlertChannel, { claim: Statement; owed: Statement; release: Statement }>;

  constructor(db: Db, now: () => number = Date.now) {
    this.db = db;
    this.#now = now;
    ensureWatchTables(db);
    const p = (sql: string) => db.prepare(sql);
    this.#s = {
      list: p('SELECT * FROM watchlists ORDER BY id'),
      takeDeskLock: deskWriteLock(db, 'watch_settings'),
      get: p('SELECT * FROM watchlists WHERE id = ?'),
      byName: p('SELECT * FROM watchlists WHERE name = ?'),
      insert: p(
        'INSERT INTO watchlists (name, definition, paused, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?)',
      ),
      update: p('UPDATE watchlists SET name = ?, definition = ?, paused = ?, updated_at_ms = ? WHERE id = ?'),
      delete: p('DELETE FROM watchlists WHERE id = ?'),
      deleteMatches: p('DELETE FROM watch_matches WHERE watchlist_id = ?'),
      matches: p('SELECT watchlist_id, listing_id, price FROM watch_matches').raw(),
      putMatch: p(
        'INSERT INTO watch_matches (watchlist_id, listing_id, price, seq) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (watchlist_id, listing_id) DO UPDATE SET price = excluded.price, seq = excluded.seq',
      ),
      clearMatch: p('DELETE FROM watch_matches WHERE watchlist_id = ? AND listing_id = ?'),
      pruneMatches: p(
        `DELETE FROM watch_matches WHERE listing_id NOT IN (SELECT id FROM listings WHERE alive = 1)`,
      ),
      addAlert: p(
        `INSERT INTO watch_alerts (at_ms, watchlist_id, watchlist_name, listing_id, app_id, market_hash_name, price,
           amount, seq, reference_price, ceiling, origin, ${ALERT_CHANNELS.map((c) => OWED_COLUMNS[c]).join(', ')})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${ALERT_CHANNELS.map(() => '?').join(', ')})`,
      ),
      alert: p('SELECT * FROM watch_alerts WHERE id = ?').safeIntegers(true),
      alerts: p('SELECT * FROM watch_alerts WHERE id > ? ORDER BY id DESC LIMIT ?').safeIntegers(true),
      setAlertState: p('UPDATE watch_alerts SET state = ? WHERE id = ?'),
      pruneAlerts: p('DELETE FROM watch_alerts WHERE id <= (SELECT max(id) FROM watch_alerts) - ?'),
      pruneBlocked: p("DELETE FROM auto_buy_log WHERE decision = 'blocked' AND at_ms < ?"),
      addLog: p(
        `INSERT INTO auto_buy_log (at_ms, watchlist_id, alert_id, listing_id, market_hash_name, max_price, amount,
           trigger_seq, mode, decision, reason, status, alert_facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      linkAlert: p('UPDATE auto_buy_log SET alert_id = ?, alert_facts = NULL WHERE id = ?'),
      unwrittenAlerts: p(
        `SELECT id, at_ms, watchlist_id, listing_id, market_hash_name, trigger_seq, decision, status, alert_facts
         FROM auto_buy_log WHERE alert_id IS NULL AND alert_facts IS NOT NULL ORDER BY id`,
      ).safeIntegers(true),
      // the memory a match gets, unless a later match of the same listing wrote its own (or the watchlist is gone)
      recallMatch: p(
        'INSERT OR IGNORE INTO watch_matches (watchlist_id, listing_id, price, seq) SELECT id, ?, ?, ? FROM watchlists WHERE id = ?',
      ),
      resolveLog: p(
        'UPDATE auto_buy_log SET status = ?, order_id = ?, error = ?, resolved_at_ms = ?, intent_id = coalesce(?, intent_id) WHERE id = ?',
      ),
      logEntry: p('SELECT * FROM auto_buy_log WHERE id = ?').safeIntegers(true),
      log: p('SELECT * FROM auto_buy_log ORDER BY id DESC LIMIT ?').safeIntegers(true),
      spend: p(
        `SELECT coalesce(sum(max_price * amount), 0) AS total,
           coalesce(sum(CASE WHEN at_ms >= @day THEN max_price * amount END), 0) AS day,
           count(CASE WHEN at_ms >= @hour THEN 1 END) AS hour
         FROM auto_buy_log WHERE watchlist_id = @watchlist AND decision = 'sent' AND status <> 'not_bought'`,
      ),
      attempts: p(
        `SELECT trigger_seq, status FROM auto_buy_log WHERE listing_id = ? AND decision = 'sent' ORDER BY id`,
      ).safeIntegers(true),
      setting: p(SETTING_SQL).pluck(),
      putSetting: p(
        'INSERT INTO watch_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
    const owedOf = (column: string) => ({
      claim: p(`UPDATE watch_alerts SET ${column} = 0 WHERE id = ? AND ${column} = 1`),
      owed: p(`SELECT * FROM watch_alerts WHERE ${column} = 1 AND at_ms <= ? ORDER BY id`).safeIntegers(true),
      release: p(`UPDATE watch_alerts SET ${column} = 0 WHERE ${column} = 1 AND at_ms < ?`),
    });
    this.#owed = { notification: owedOf(OWED_COLUMNS.notification), webhook: owedOf(OWED_COLUMNS.webhook) };
  }

  // ---- watchlists -------------------------------------------------------------------------------

  list(): Watchlist[] {
    return (this.#s.list!.all() as WatchlistRow[]).map(toWatchlist);
  }

  get(id: number): Watchlist | null {
    const row = this.#s.get!.get(id) as WatchlistRow | undefined;
    return row ? toWatchlist(row) : null;
  }

  byName(name: string): Watchlist | null {
    const row = this.#s.byName!.get(name) as WatchlistRow | undefined;
    return row ? toWatchlist(row) : null;
  }

  create(input: WatchlistInput | WatchlistDefinition): Watchlist {
    const def = watchlistInput.parse(input);
    const now = this.#now();
    try {
      const info = this.#s.insert!.run(def.name, JSON.stringify(def), def.paused ? 1 : 0, now, now);
      return this.get(Number(info.lastInsertRowid)) as Watchlist;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new WatchlistNameTaken(def.name);
      throw err;
    }
  }

  /**
   * Runs `fn` in a transaction that holds the desk's write lock from its first statement, so another
   * process's `exclusively` waits for this one to commit and then reads what it wrote (the auto-buyer's
   * check-then-claim). The lock is the desk file's only: a no-op write takes it, where an IMMEDIATE
   * transaction would wait for the book's writer too (desk.ts, deskWriteLock).
   */
  exclusively<T>(fn: () => T): T {
    return this.db
      .transaction(() => {
        this.#s.takeDeskLock!.run();
        return fn();
      })
      .deferred();
  }

  /**
   * Replaces a watchlist's definition. Its match memory is forgotten only when its rule (filter or price
   * condition) changed: the new rule judges afresh. A new name, alert channel or guardrail — or the same
   * file saved again by `skindesk watch` — does not make the listings it already alerted news again.
   * `ruleChanged` says which it was, for a caller holding the memory in memory too.
   */
  update(id: number, input: WatchlistInput | WatchlistDefinition): { watchlist: Watchlist; ruleChanged: boolean } {
    const def = watchlistInput.parse(input);
    let ruleChanged: boolean;
    try {
      ruleChanged = this.db
        .transaction(() => {
          const before = this.get(id);
          const info = this.#s.update!.run(def.name, JSON.stringify(def), def.paused ? 1 : 0, this.#now(), id);
          if (info.changes === 0 || before === null) throw new WatchlistNotFound(id);
          const changed = !sameRule(before, def);
          if (changed) this.#s.deleteMatches!.run(id);
          return changed;
        })
        .deferred(); // desk tables only: an IMMEDIATE one would lock the book too (desk.ts)
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new WatchlistNameTaken(def.name);
      throw err;
    }
    return { watchlist: this.get(id) as Watchlist, ruleChanged };
  }

  setPaused(id: number, paused: boolean): Watchlist {
    const current = this.get(id);
    if (!current) throw new WatchlistNotFound(id);
    const { id: _id, created_at: _c, updated_at: _u, ...def } = current;
    const info = this.#s.update!.run(def.name, JSON.stringify({ ...def, paused }), paused ? 1 : 0, this.#now(), id);
    if (info.changes === 0) throw new WatchlistNotFound(id);
    return this.get(id) as Watchlist;
  }

  /** Deletes the watchlist and its match memory; its alerts and auto-buy log stay as history. */
  delete(id: number): boolean {
    return this.db
      .transaction(() => {
        this.#s.deleteMatches!.run(id);
        return this.#s.delete!.run(id).changes > 0;
      })
      .deferred(); // desk tables only: an IMMEDIATE one would lock the book too (desk.ts)
  }

  // ---- match memory -----------------------------------------------------------------------------

  /** Every remembered match as [watchlistId, listingId, price]. */
  matches(): [number, number, number][] {
    return this.#s.matches!.all() as [number, number, number][];
  }

  putMatch(watchlistId: number, listingId: number, price: number, seq: bigint): void {
    this.#s.putMatch!.run(watchlistId, listingId, price, seq);
  }

  clearMatch(watchlistId: number, listingId: number): void {
    this.#s.clearMatch!.run(watchlistId, listingId);
  }

  /** Forgets matches of listings that left the book. */
  pruneMatches(): number {
    return this.#s.pruneMatches!.run().changes;
  }

  // ---- alerts -----------------------------------------------------------------------------------

  /**
   * `owed`: the ways the alert is owed being told (its watchlist asks for them, and this run can tell
   * them: an OS notification needs a host that shows them).
   */
  addAlert(alert: NewAlert, owed: readonly AlertChannel[] = []): WatchAlert {
    const info = this.#s.addAlert!.run(
      alert.atMs,
      alert.watchlistId,
      alert.watchlistName,
      alert.listingId,
      alert.appId,
      alert.marketHashName,
      alert.price,
      alert.amount,
      alert.seq,
      alert.referencePrice,
      alert.ceiling,
      alert.origin,
      ...ALERT_CHANNELS.map((channel) => (owed.includes(channel) ? 1 : 0)),
    );
    return { ...alert, id: Number(info.lastInsertRowid), state: 'new' };
  }

  /**
   * Takes the telling of these alerts on `channel` (their OS notification, their webhook post) for the
   * caller: returns those still owed it, and marks it done. Under the desk's write lock, so of two runs
   * (the app and one that started beside it) only one ever tells an alert on a channel.
   */
  claimOwed(channel: AlertChannel, alerts: readonly WatchAlert[]): WatchAlert[] {
    const claim = this.#owed[channel].claim;
    return this.exclusively(() => alerts.filter((a) => claim.run(a.id).changes > 0));
  }

  /**
   * The alerts written by `writtenByMs` still owed their telling on `channel`, oldest first: a run that
   * stopped (a crash) while a coalescing window held them. Not claimed: claimOwed is. Those written
   * before `writtenSinceMs` are owed none any more (marked so, in the feed as they were): a notification
   * or a post is a call to act on a listing, and one about a match hours old would send the trader after
   * a listing long gone.
   */
  owedAlerts(channel: AlertChannel, writtenByMs: number, writtenSinceMs: number): WatchAlert[] {
    const { owed, release } = this.#owed[channel];
    release.run(writtenSinceMs);
    return (owed.all(writtenByMs) as AlertRow[]).map(toAlert);
  }

  alert(id: number): WatchAlert | null {
    const row = this.#s.alert!.get(id) as AlertRow | undefined;
    return row ? toAlert(row) : null;
  }

  /** Newest first; `afterId` returns only alerts newer than it. */
  alerts(limit = 200, afterId = 0): WatchAlert[] {
    return (this.#s.alerts!.all(afterId, limit) as AlertRow[]).map(toAlert);
  }

  setAlertState(id: number, state: AlertState): void {
    this.#s.setAlertState!.run(state, id);
  }

  pruneAlerts(keep = ALERTS_KEPT): number {
    return this.#s.pruneAlerts!.run(keep).changes;
  }

  /**
   * Forgets blocked decisions older than `beforeMs` (a kill switch left on can block thousands); sent
   * purchases stay, since the spend guardrails and the never-twice rule read them.
   */
  pruneBlocked(beforeMs: number): number {
    return this.#s.pruneBlocked!.run(beforeMs).changes;
  }

  // ---- auto-buy log -----------------------------------------------------------------------------

  addLogEntry({ alertFacts: facts = null, ...entry }: NewLogEntry): AutoBuyLogEntry {
    const info = this.#s.addLog!.run(
      entry.atMs,
      entry.watchlistId,
      entry.alertId,
      entry.listingId,
      entry.marketHashName,
      entry.maxPrice,
      entry.amount,
      entry.triggerSeq,
      entry.mode,
      entry.decision,
      entry.reason,
      entry.status,
      facts === null ? null : JSON.stringify(facts),
    );
    return { ...entry, id: Number(info.lastInsertRowid), intentId: null, orderId: null, error: null, resolvedAtMs: null };
  }

  /** Ties an automatic purchase to the alert written for its match (written after the purchase left). */
  linkAlert(entryId: number, alertId: number): void {
    this.#s.linkAlert!.run(alertId, entryId);
  }

  /**
   * Writes the alerts of automatic decisions whose alert row a run never wrote: it stopped (a crash, a
   * kill) in the turn of the event loop between sending a purchase — safe in this log and the purchase
   * journal — and writing its alert. Each gets the row and the match memory that run would have written,
   * with the state its decision has reached (a pending purchase's is "buying" until settleFromJournal
   * settles it), and is linked to its entry, so a second call writes nothing. Under the desk's write
   * lock: a live run's own pending alerts (the app's, while `skindesk watch` starts) are either written
   * here and found linked by that run, or written by it first and not seen here. Returns those written;
   * `owes` says how each watchlist's alerts are owed being told by the caller (addAlert).
   */
  recoverAlerts(owes: (watchlistId: number) => readonly AlertChannel[] = () => []): WatchAlert[] {
    return this.exclusively(() => {
      const written: WatchAlert[] = [];
      for (const row of this.#s.unwrittenAlerts!.all() as UnwrittenAlertRow[]) {
        const r = numbers(row, ['trigger_seq']);
        const parsed = alertFacts.safeParse(parseJson(r.alert_facts));
        if (!parsed.success) continue; // a hand-edited row: no alert is better than a wrong one
        const facts = parsed.data;
        const alert = this.addAlert({
          atMs: r.at_ms,
          watchlistId: r.watchlist_id,
          listingId: r.listing_id,
          marketHashName: r.market_hash_name,
          seq: r.trigger_seq,
          ...facts,
        }, owes(r.watchlist_id));
        this.linkAlert(r.id, alert.id);
        this.#s.recallMatch!.run(r.listing_id, facts.price, r.trigger_seq, r.watchlist_id);
        const state: AlertState = r.decision === 'blocked' ? 'blocked' : r.status === 'pending' || r.status === null ? 'buying' : r.status;
        this.setAlertState(alert.id, state);
        written.push({ ...alert, state });
      }
      return written;
    });
  }

  resolveLogEntry(
    id: number,
    outcome: { status: AutoBuyStatus; orderId: number | null; error: string | null; intentId: string | null },
  ): AutoBuyLogEntry {
    this.#s.resolveLog!.run(outcome.status, outcome.orderId, outcome.error, this.#now(), outcome.intentId, id);
    return this.logEntry(id) as AutoBuyLogEntry;
  }

  logEntry(id: number): AutoBuyLogEntry | null {
    const row = this.#s.logEntry!.get(id) as LogRow | undefined;
    return row ? toLogEntry(row) : null;
  }

  log(limit = 200): AutoBuyLogEntry[] {
    return (this.#s.log!.all(limit) as LogRow[]).map(toLogEntry);
  }

  /**
   * What a watchlist committed, not-bought purchases excluded: cents ever and since `dayMs`, and
   * purchases sent since `hourMs`.
   */
  spend(watchlistId: number, dayMs: number, hourMs: number): { total: number; day: number; hour: number } {
    return this.#s.spend!.get({ watchlist: watchlistId, day: dayMs, hour: hourMs }) as { total: number; day: number; hour: number };
  }

  /**
   * Sent purchases this log still holds as pending or unknown whose journal entry has settled since: a
   * purchase in flight when its process stopped (a crash, a kill) stays pending here for ever otherwise,
   * its alert "buying" and its ceiling counted against the budget even once the order history says it
   * was not bought. Matched to the journal by what a watchlist purchase is journaled with (its listing,
   * watchlist, triggering seq and mode). Entries `inFlight` in this process are left to their sender.
   * Returns the entries settled.
   */
  settleFromJournal(inFlight: ReadonlySet<number> = new Set()): AutoBuyLogEntry[] {
    let rows: JournalSettlement[];
    try {
      rows = this.db
        .prepare(
          `SELECT l.id, j.intent_id, j.state, j.order_id, j.error_code, j.error_message, j.note
           FROM auto_buy_log l JOIN purchase_journal j ON j.listing_id = l.listing_id AND j.watchlist_id = l.watchlist_id
             AND j.trigger_seq = CAST(l.trigger_seq AS TEXT) AND j.source = 'watch:' || l.mode
           WHERE l.decision = 'sent' AND l.status IN ('pending', 'unknown')
             AND (j.state IN ('bought', 'not_bought') OR (j.state = 'unknown' AND l.status = 'pending'))`,
        )
        .all() as JournalSettlement[];
    } catch (err) {
      // no purchase was ever journaled in this file: nothing to settle
      if (err instanceof Error && /no such table/.test(err.message)) return [];
      throw err;
    }
    return rows
      .filter((r) => !inFlight.has(r.id))
      .map((r) =>
        this.resolveLogEntry(r.id, {
          status: r.state,
          orderId: r.order_id,
          error: r.state === 'bought' ? null : failureWords(r.error_code, r.note ?? r.error_message),
          intentId: r.intent_id,
        }),
      );
  }

  /** Purchases sent for a listing, oldest first. */
  attempts(listingId: number): { triggerSeq: bigint; status: AutoBuyStatus | null }[] {
    return (this.#s.attempts!.all(listingId) as { trigger_seq: bigint; status: AutoBuyStatus | null }[]).map((r) => ({
      triggerSeq: r.trigger_seq,
      status: r.status,
    }));
  }

  // ---- settings ---------------------------------------------------------------------------------

  killSwitch(): boolean {
    return this.#s.setting!.get(KILL_SWITCH.key) === KILL_SWITCH.engaged;
  }

  setKillSwitch(engaged: boolean): void {
    this.#s.putSetting!.run(KILL_SWITCH.key, engaged ? KILL_SWITCH.engaged : KILL_SWITCH.released);
  }
}

/**
 * The kill switch as stored, for automation outside the watch service (the undercut guards): engaged
 * stops every automatic action. False while no watch table exists yet (nothing was ever switched).
 */
export function killSwitchEngaged(db: Db): boolean {
  try {
    return db.prepare(SETTING_SQL).pluck().get(KILL_SWITCH.key) === KILL_SWITCH.engaged;
  } catch (err) {
    if (err instanceof Error && /no such table/.test(err.message)) return false;
    throw err;
  }
}

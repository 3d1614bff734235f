/**
 * The purchase journal: every purchase is written down before it is sent (the intent, under an id we
 * generate) and again when its outcome is known. The marketplace has no idempotency key, so after a
 * crash, a timeout or a 5xx this table is what lets us reconcile from the order history instead of
 * guessing — and what stops an order from being claimed by two intents.
 *
 * It lives in its own table of whatever SQLite database it is given (the app's store adopts it in its
 * migrations; the CLI opens the same file), created with IF NOT EXISTS so either can come first.
 *
 * Each entry names the account whose key sent it (`account`, see accountKey), when that was known: the
 * order history that settles an open outcome is the sending account's, and one file serves every key
 * the user ever saved. An entry of another account is never checked against this key's orders — a
 * match there would be someone else's purchase, and a miss would call a real purchase "not bought".
 */
import type Database from 'better-sqlite3';
import { addDeskColumn, createDeskTables } from '../store/desk.ts';

export type PurchaseState = 'intent' | 'bought' | 'not_bought' | 'unknown';
/** How the outcome was learned: from the purchase response itself, or from the order history. */
export type PurchaseResolution = 'response' | 'reconciled';

export interface PurchaseIntent {
  intentId: string;
  /** Our wall clock when the intent was written. */
  createdAtMs: number;
  /**
   * The server's clock when the intent was written (ours plus the offset its Date header showed), when
   * known: where the order history that settles it begins, wherever our clock is set later.
   */
  serverCreatedAtMs?: number | null;
  listingId: number;
  amount: number;
  maxPrice: number;
  appId: number | null;
  marketHashName: string | null;
  /** Seq of the feed event that triggered an automatic purchase (int64, exact). */
  triggerSeq: bigint | null;
  /** The watchlist rule that triggered an automatic purchase. */
  watchlistId: number | null;
  /** Who asked: 'app', 'cli', 'auto'… */
  source: string;
  /** The account whose key sends it (accountKey), when known; the journal's own `account` otherwise. */
  account?: string | null;
  /**
   * Names the cart (one atomic POST /purchase of several lines) this line was bought with: its lines are
   * settled together, by one order that covers them all, never one by one.
   */
  cartId?: string | null;
}

export interface PurchaseOutcomeRecord {
  state: Exclude<PurchaseState, 'intent'>;
  orderId: number | null;
  resolution: PurchaseResolution;
  errorKind?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  note?: string | null;
}

export interface JournalEntry extends PurchaseIntent {
  serverCreatedAtMs: number | null;
  account: string | null;
  cartId: string | null;
  state: PurchaseState;
  orderId: number | null;
  resolution: PurchaseResolution | null;
  errorKind: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  note: string | null;
  /** When the outcome was written; an open one (unknown) keeps the time of the failure that left it open. */
  resolvedAtMs: number | null;
  /**
   * When a repeat of this open purchase was held back with its risk told (see Purchaser): the next repeat
   * is sent. Kept in the file, for the CLI's next run is another process that must honour the same words.
   */
  warnedAtMs: number | null;
}

interface Row {
  intent_id: string;
  created_at_ms: number;
  server_created_at_ms: number | null;
  listing_id: number;
  amount: number;
  max_price: number;
  app_id: number | null;
  market_hash_name: string | null;
  trigger_seq: string | null;
  watchlist_id: number | null;
  source: string;
  account: string | null;
  cart_id: string | null;
  state: PurchaseState;
  order_id: number | null;
  resolution: PurchaseResolution | null;
  error_kind: string | null;
  error_code: string | null;
  error_message: string | null;
  note: string | null;
  resolved_at_ms: number | null;
  warned_at_ms: number | null;
}

export const PURCHASE_JOURNAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS purchase_journal (
  intent_id        TEXT PRIMARY KEY,
  created_at_ms    INTEGER NOT NULL,
  server_created_at_ms INTEGER,
  listing_id       INTEGER NOT NULL,
  amount           INTEGER NOT NULL CHECK (amount > 0),
  max_price        INTEGER NOT NULL CHECK (max_price > 0),
  app_id           INTEGER,
  market_hash_name TEXT,
  trigger_seq      TEXT,
  watchlist_id     INTEGER,
  source           TEXT NOT NULL,
  account          TEXT,
  cart_id          TEXT,
  state            TEXT NOT NULL CHECK (state IN ('intent', 'bought', 'not_bought', 'unknown')),
  order_id         INTEGER,
  resolution       TEXT CHECK (resolution IN ('response', 'reconciled')),
  error_kind       TEXT,
  error_code       TEXT,
  error_message    TEXT,
  note             TEXT,
  resolved_at_ms   INTEGER
);
CREATE INDEX IF NOT EXISTS purchase_journal_by_state ON purchase_journal (state, created_at_ms);
CREATE UNIQUE INDEX IF NOT EXISTS purchase_journal_order_once ON purchase_journal (order_id) WHERE order_id IS NOT NULL;
`;

/** One account on one market: account ids are the market's own, and two markets may both have a 42. */
export function accountKey(baseUrl: string, accountId: number): string {
  return `${new URL(baseUrl).origin} account ${accountId}`;
}

/** Whether `account` (an accountKey) is an account of the market at `baseUrl`. */
export function isAccountOf(account: string, baseUrl: string): boolean {
  return account.startsWith(`${new URL(baseUrl).origin} account `);
}

/**
 * The journal's table, in a file of any version: a column added later is NULL in the entries written
 * before it (no account named, no cart, no server time: the cut-off is then taken from our clock).
 */
function ensureJournalTable(db: Database.Database): void {
  createDeskTables(db, PURCHASE_JOURNAL_SCHEMA);
  addDeskColumn(db, 'purchase_journal', 'account', 'TEXT');
  addDeskColumn(db, 'purchase_journal', 'cart_id', 'TEXT');
  addDeskColumn(db, 'purchase_journal', 'server_created_at_ms', 'INTEGER');
  addDeskColumn(db, 'purchase_journal', 'warned_at_ms', 'INTEGER');
}

/**
 * Names every open purchase as `account`'s, whatever it named before: for an account that no longer
 * exists (the demo market is a new market on every start, with the same origin and account ids), so
 * that its purchases are never settled from the order history of the one that replaced it.
 */
export function assignOpenPurchases(db: Database.Database, account: string): void {
  ensureJournalTable(db);
  db.prepare("UPDATE purchase_journal SET account = ? WHERE state IN ('intent', 'unknown')").run(account);
}

export interface PurchaseJournalOptions {
  /** The account (accountKey) whose key the purchases are sent with, when known without a request. */
  account?: () => string | null;
}

function toEntry(row: Row): JournalEntry {
  return {
    intentId: row.intent_id,
    createdAtMs: row.created_at_ms,
    serverCreatedAtMs: row.server_created_at_ms ?? null,
    listingId: row.listing_id,
    amount: row.amount,
    maxPrice: row.max_price,
    appId: row.app_id,
    marketHashName: row.market_hash_name,
    triggerSeq: row.trigger_seq === null ? null : BigInt(row.trigger_seq),
    watchlistId: row.watchlist_id,
    source: row.source,
    account: row.account,
    cartId: row.cart_id ?? null,
    state: row.state,
    orderId: row.order_id,
    resolution: row.resolution,
    errorKind: row.error_kind,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    note: row.note,
    resolvedAtMs: row.resolved_at_ms,
    warnedAtMs: row.warned_at_ms ?? null,
  };
}

export class PurchaseJournal {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #resolve: Database.Statement;
  readonly #get: Database.Statement<[string], Row>;
  readonly #unresolved: Database.Statement<[], Row>;
  readonly #claimed: Database.Statement<[], { order_id: number }>;
  readonly #recent: Database.Statement<[number], Row>;
  readonly #tag: Database.Statement<[string, string]>;
  readonly #warn: Database.Statement<[number, string]>;
  readonly #account: () => string | null;

  constructor(db: Database.Database, options: PurchaseJournalOptions = {}) {
    this.#db = db;
    this.#account = options.account ?? (() => null);
    // entries written before the journal named accounts: NULL, checked against whichever key is in use
    ensureJournalTable(db);
    this.#insert = db.prepare(`
      INSERT INTO purchase_journal (intent_id, created_at_ms, server_created_at_ms, listing_id, amount, max_price,
        app_id, market_hash_name, trigger_seq, watchlist_id, source, account, cart_id, state)
      VALUES (@intent_id, @created_at_ms, @server_created_at_ms, @listing_id, @amount, @max_price,
        @app_id, @market_hash_name, @trigger_seq, @watchlist_id, @source, @account, @cart_id, 'intent')`);
    this.#resolve = db.prepare(`
      UPDATE purchase_journal SET state = @state, order_id = @order_id, resolution = @resolution,
        error_kind = @error_kind, error_code = @error_code, error_message = @error_message, note = @note,
        resolved_at_ms = @resolved_at_ms
      WHERE intent_id = @intent_id`);
    this.#get = db.prepare('SELECT * FROM purchase_journal WHERE intent_id = ?');
    this.#unresolved = db.prepare(
      "SELECT * FROM purchase_journal WHERE state IN ('intent', 'unknown') ORDER BY created_at_ms, intent_id",
    );
    this.#claimed = db.prepare('SELECT order_id FROM purchase_journal WHERE order_id IS NOT NULL');
    this.#recent = db.prepare('SELECT * FROM purchase_journal ORDER BY created_at_ms DESC, intent_id DESC LIMIT ?');
    this.#tag = db.prepare('UPDATE purchase_journal SET account = ? WHERE intent_id = ? AND account IS NULL');
    this.#warn = db.prepare('UPDATE purchase_journal SET warned_at_ms = ? WHERE intent_id = ? AND warned_at_ms IS NULL');
  }

  /** The account purchases are sent with, when the journal's owner knows it (see the options). */
  knownAccount(): string | null {
    return this.#account();
  }

  /** Written (and committed) before the purchase is sent. */
  recordIntent(intent: PurchaseIntent): void {
    this.#insert.run({
      intent_id: intent.intentId,
      created_at_ms: intent.createdAtMs,
      server_created_at_ms: intent.serverCreatedAtMs ?? null,
      listing_id: intent.listingId,
      amount: intent.amount,
      max_price: intent.maxPrice,
      app_id: intent.appId,
      market_hash_name: intent.marketHashName,
      trigger_seq: intent.triggerSeq === null ? null : intent.triggerSeq.toString(),
      watchlist_id: intent.watchlistId,
      source: intent.source,
      account: intent.account ?? this.#account(),
      cart_id: intent.cartId ?? null,
    });
  }

  /** Names the account of an entry written without one (learned later, before it is reconciled). */
  tagAccount(intentId: string, account: string): void {
    this.#tag.run(account, intentId);
  }

  /** Notes that a repeat of this open purchase was held back with its risk told. */
  markWarned(intentId: string, atMs: number): void {
    this.#warn.run(atMs, intentId);
  }

  /**
   * Records the outcome. Throws when `orderId` is already claimed by another intent (the unique index):
   * one order can never account for two purchases.
   */
  recordOutcome(intentId: string, outcome: PurchaseOutcomeRecord, resolvedAtMs: number): void {
    const info = this.#resolve.run({
      intent_id: intentId,
      state: outcome.state,
      order_id: outcome.orderId,
      resolution: outcome.resolution,
      error_kind: outcome.errorKind ?? null,
      error_code: outcome.errorCode ?? null,
      error_message: outcome.errorMessage ?? null,
      note: outcome.note ?? null,
      resolved_at_ms: resolvedAtMs,
    });
    if (info.changes !== 1) throw new Error(`no purchase intent ${intentId} in the journal`);
  }

  get(intentId: string): JournalEntry | null {
    const row = this.#get.get(intentId);
    return row ? toEntry(row) : null;
  }

  /** Intents without a definite outcome (crashed before one, or left unknown), oldest first. */
  unresolved(): JournalEntry[] {
    return this.#unresolved.all().map(toEntry);
  }

  /** Order ids already accounted for by some intent. */
  claimedOrderIds(): Set<number> {
    return new Set(this.#claimed.all().map((r) => r.order_id));
  }

  recent(limit = 50): JournalEntry[] {
    return this.#recent.all(limit).map(toEntry);
  }

  get database(): Database.Database {
    return this.#db;
  }
}

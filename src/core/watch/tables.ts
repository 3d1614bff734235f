/**
 * The watchlist tables. They belong to one market's mirror (demo watchlists never buy on the real
 * market) and live in its desk file (store/desk.ts) beside the book, created with IF NOT EXISTS like the
 * purchase journal, so the app, the CLI and an older file all get them on first use without a migration.
 *
 * Seqs are int64 and stored as INTEGER; they are always read with safeIntegers.
 */
import type { Db } from '../store/database.ts';
import { addDeskColumn, createDeskTables } from '../store/desk.ts';

export const WATCH_SCHEMA = `
CREATE TABLE IF NOT EXISTS watchlists (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  -- the validated WatchlistDefinition (src/shared/watchlist.ts) as JSON, name and paused included
  definition TEXT NOT NULL,
  paused INTEGER NOT NULL DEFAULT 0,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
);

-- Match memory: the price at which a listing last matched a watchlist. A listing matches again only
-- after its price changed (or after it stopped matching in between).
CREATE TABLE IF NOT EXISTS watch_matches (
  watchlist_id INTEGER NOT NULL,
  listing_id INTEGER NOT NULL,
  price INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (watchlist_id, listing_id)
) WITHOUT ROWID;

-- The alert feed: one row per match, newest last.
CREATE TABLE IF NOT EXISTS watch_alerts (
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  watchlist_id INTEGER NOT NULL,
  watchlist_name TEXT NOT NULL,
  listing_id INTEGER NOT NULL,
  app_id INTEGER NOT NULL,
  market_hash_name TEXT NOT NULL,
  price INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  reference_price INTEGER,
  ceiling INTEGER NOT NULL,
  -- 'event': a feed event; 'sweep': the whole-book check when the watchlist was saved
  origin TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'new',
  -- 1 while the OS notification this alert is owed has not been shown: written with the alert by a run
  -- that notifies, cleared by whichever run shows it (claimOwed). A run that stopped with the alert held
  -- in its notification window leaves the 1 for the next run to tell.
  notify_pending INTEGER NOT NULL DEFAULT 0,
  -- the same for the post to its watchlist's webhook (whose window coalesces alike)
  webhook_pending INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS watch_alerts_listing ON watch_alerts (listing_id);

-- Every auto-buy decision: sent (with the purchase journal's intent id and the outcome) or blocked by a
-- guardrail (with the reason). The spend guardrails are sums over the sent rows.
CREATE TABLE IF NOT EXISTS auto_buy_log (
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  watchlist_id INTEGER NOT NULL,
  alert_id INTEGER,
  listing_id INTEGER NOT NULL,
  market_hash_name TEXT NOT NULL,
  max_price INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  trigger_seq INTEGER NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('confirm', 'auto')),
  decision TEXT NOT NULL CHECK (decision IN ('sent', 'blocked')),
  reason TEXT,
  intent_id TEXT,
  status TEXT CHECK (status IN ('pending', 'bought', 'not_bought', 'unknown')),
  order_id INTEGER,
  error TEXT,
  resolved_at_ms INTEGER,
  -- An automatic decision's alert as JSON (WatchStore's AlertFacts), written with the decision before the
  -- purchase is sent and cleared once its alert row is linked: the row is written a turn of the event
  -- loop later, and a run that stops in between leaves this for the next run to write it from.
  alert_facts TEXT
);
-- covering for the spend guardrails (read before every automatic purchase): no row visits
CREATE INDEX IF NOT EXISTS auto_buy_log_spend_cover ON auto_buy_log (watchlist_id, at_ms, status, max_price, amount) WHERE decision = 'sent';
CREATE INDEX IF NOT EXISTS auto_buy_log_listing ON auto_buy_log (listing_id) WHERE decision = 'sent';

CREATE TABLE IF NOT EXISTS watch_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/** In the desk file when one is attached (desk.ts): the host writes them while the worker writes the book. */
export function ensureWatchTables(db: Db): void {
  createDeskTables(db, WATCH_SCHEMA);
  addDeskColumn(db, 'auto_buy_log', 'alert_facts', 'TEXT');
  // alerts of a file from before it were notified, or never will be: none is owed
  addDeskColumn(db, 'watch_alerts', 'notify_pending', 'INTEGER NOT NULL DEFAULT 0');
  // likewise their webhook posts
  addDeskColumn(db, 'watch_alerts', 'webhook_pending', 'INTEGER NOT NULL DEFAULT 0');
}

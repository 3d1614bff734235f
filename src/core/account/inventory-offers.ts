/**
 * Steam inventory rows sent in a trade offer (sell or deposit) since their game's inventory was read:
 * the stored read still shows them, so the inventory screen marks them "in offer" and a second send of
 * one is refused. A read made after a mark shows where the row is now, so a mark counts only against a
 * read older than it.
 *
 * Why a table of their own, and not a view of the trades the app mirrors (spec §2.9: a trade's
 * `deposit_id` and its items' `steam_asset_id`): a sell or deposit whose answer was lost has no deposit
 * id to look for, and no trade at all when the offer was never made; the trade of an offer that was
 * answered shows up only with the next poll; and an offer of part of a stack may carry an asset id the
 * read never held (the spec does not say whose id a split-off part keeps). Held in memory, the marks
 * were lost with a restart, and the same items could be offered again from the stored read.
 *
 * They belong to the account, as the stored inventory reads do (desk.ts ACCOUNT_TABLES): another
 * account's are forgotten with its reads.
 */
import type Database from 'better-sqlite3';
import type { AppId } from '../../shared/api/index.ts';
import { createDeskTables } from '../store/desk.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS inventory_offer_marks (
  asset_id TEXT PRIMARY KEY,
  app_id INTEGER NOT NULL,
  deposit_id INTEGER,
  action TEXT NOT NULL CHECK (action IN ('sell', 'deposit')),
  at_ms INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** An inventory row sent in a trade offer. */
export interface InOffer {
  appId: AppId;
  /** The offer's deposit id; null when the answer was lost, so the row may or may not be in an offer. */
  depositId: number | null;
  action: 'sell' | 'deposit';
  /** When the request was answered, or (no deposit id) sent (epoch ms, the account's clock). */
  atMs: number;
}

interface MarkRow {
  app_id: number;
  deposit_id: number | null;
  action: InOffer['action'];
  at_ms: number;
}

export class InventoryOffers {
  readonly #db: Database.Database;
  readonly #sql;

  constructor(db: Database.Database) {
    this.#db = db;
    createDeskTables(db, SCHEMA);
    this.#sql = {
      get: db.prepare<[string], MarkRow>(
        'SELECT app_id, deposit_id, action, at_ms FROM inventory_offer_marks WHERE asset_id = ?',
      ),
      put: db.prepare(
        'INSERT OR REPLACE INTO inventory_offer_marks (asset_id, app_id, deposit_id, action, at_ms) VALUES (?, ?, ?, ?, ?)',
      ),
      forgetBefore: db.prepare('DELETE FROM inventory_offer_marks WHERE app_id = ? AND at_ms < ?'),
      unmark: db.prepare(
        'DELETE FROM inventory_offer_marks WHERE asset_id = ? AND at_ms = ? AND deposit_id IS NULL',
      ),
    };
  }

  /** Marks the rows `assetIds` as sent in one offer (one offer per game: the request's rows share it). */
  mark(assetIds: readonly string[], offer: InOffer): void {
    this.#db.transaction(() => {
      for (const assetId of assetIds)
        this.#sql.put.run(assetId, offer.appId, offer.depositId, offer.action, offer.atMs);
    })();
  }

  /** Takes off the marks made at `atMs` that no answer has completed (the request was refused). */
  unmark(assetIds: readonly string[], atMs: number): void {
    this.#db.transaction(() => {
      for (const assetId of assetIds) this.#sql.unmark.run(assetId, atMs);
    })();
  }

  /** The mark of a row of a read made at `readAt`; none when the read is newer than the mark (it shows the row as it is now). */
  of(assetId: string, readAt: number): InOffer | undefined {
    const row = this.#sql.get.get(assetId);
    if (!row || row.at_ms < readAt) return undefined;
    return { appId: row.app_id as AppId, depositId: row.deposit_id, action: row.action, atMs: row.at_ms };
  }

  /** Drops the marks of `appId` a read made at `readAt` has superseded. */
  forgetBefore(appId: AppId, readAt: number): void {
    this.#sql.forgetBefore.run(appId, readAt);
  }
}

/**
 * The soak suite's comparisons between the client's database and the demo market's own truth. Each
 * returns figures; the runner turns them into pass/fail.
 */
import Database from 'better-sqlite3';
import { PurchaseJournal } from '../../src/core/api/purchase-journal.ts';
import { iterateBook, openDatabase, readSyncState, type Db } from '../../src/core/store/index.ts';
import { attachDesk } from '../../src/core/store/desk.ts';
import type { LeanListing, OrderItem, Trade } from '../../src/shared/api/index.ts';

export interface MirrorComparison {
  rows: number;
  serverRows: number;
  missing: number;
  extra: number;
  different: number;
  divergent: number;
  /** A few divergent ids with both sides, for the report. */
  examples: string[];
}

const leanKey = (l: LeanListing) => JSON.stringify([l.id, l.app_id, l.market_hash_name, l.price, l.amount, l.commodity, l.created_at]);

/** Row for row, on the spec's lean fields. */
export function compareBooks(mirror: Iterable<LeanListing>, server: readonly LeanListing[]): MirrorComparison {
  const held = new Map<number, LeanListing>();
  for (const row of mirror) held.set(row.id, row);
  const out: MirrorComparison = { rows: held.size, serverRows: server.length, missing: 0, extra: 0, different: 0, divergent: 0, examples: [] };
  const note = (text: string) => {
    if (out.examples.length < 5) out.examples.push(text);
  };
  for (const truth of server) {
    const mine = held.get(truth.id);
    held.delete(truth.id);
    if (!mine) {
      out.missing++;
      note(`missing ${leanKey(truth)}`);
    } else if (leanKey(mine) !== leanKey(truth)) {
      out.different++;
      note(`mirror ${leanKey(mine)} server ${leanKey(truth)}`);
    }
  }
  out.extra = held.size;
  for (const extra of [...held.values()].slice(0, 5)) note(`extra ${leanKey(extra)}`);
  out.divergent = out.missing + out.extra + out.different;
  return out;
}

/** Opens the client's database for reading while the client may still write it (WAL). */
export function openMirror(file: string): Db {
  const db = openDatabase(file, { readonly: true });
  attachDesk(db, file); // the purchase journal and the trades live in the desk file beside the book
  return db;
}

export function mirrorState(db: Db) {
  const state = readSyncState(db);
  return { lastSeq: state.lastSeq, resyncs: state.resyncs, divergenceRepaired: state.divergenceRepaired };
}

export function readMirror(db: Db): LeanListing[] {
  return [...iterateBook(db)];
}

export interface PurchaseComparison {
  attempted: number;
  confirmed: number;
  notBought: number;
  unresolved: number;
  reconciled: number;
  /** Orders the client believes it has that the server does not. */
  missingOnServer: number;
  /** New bought orders on the server that no journal entry accounts for (a purchase made twice, or lost track of). */
  unaccountedOnServer: number;
  /** Journal entries claiming one order (impossible by the unique index; checked anyway). */
  claimedTwice: number;
}

export function comparePurchases(db: Db, serverOrders: readonly OrderItem[], baselineOrderItemIds: ReadonlySet<number>): PurchaseComparison {
  const entries = new PurchaseJournal(db).recent(1_000_000);
  const believed = new Map<number, number>();
  for (const e of entries) if (e.state === 'bought' && e.orderId !== null) believed.set(e.orderId, (believed.get(e.orderId) ?? 0) + 1);
  const serverBought = new Set(serverOrders.filter((o) => o.side === 'bought' && !baselineOrderItemIds.has(o.order_item_id)).map((o) => o.order_id));
  return {
    attempted: entries.length,
    confirmed: entries.filter((e) => e.state === 'bought').length,
    notBought: entries.filter((e) => e.state === 'not_bought').length,
    unresolved: entries.filter((e) => e.state === 'intent' || e.state === 'unknown').length,
    reconciled: entries.filter((e) => e.resolution === 'reconciled').length,
    missingOnServer: [...believed.keys()].filter((id) => !serverBought.has(id)).length,
    unaccountedOnServer: [...serverBought].filter((id) => !believed.has(id)).length,
    claimedTwice: [...believed.values()].filter((n) => n > 1).length,
  };
}

export interface TradeComparison {
  server: number;
  held: number;
  missing: number;
  extra: number;
  different: number;
  divergent: number;
  examples: string[];
}

/** Every trade of the account, as the client holds it and as the server has it: the whole row. */
export function compareTrades(held: readonly Trade[], server: readonly Trade[]): TradeComparison {
  const mine = new Map(held.map((t) => [t.id, t]));
  const out: TradeComparison = { server: server.length, held: held.length, missing: 0, extra: 0, different: 0, divergent: 0, examples: [] };
  for (const truth of server) {
    const t = mine.get(truth.id);
    mine.delete(truth.id);
    if (!t) out.missing++;
    else if (JSON.stringify(t) !== JSON.stringify(truth)) {
      out.different++;
      if (out.examples.length < 3) out.examples.push(`trade ${truth.id}: held ${t.status} @ ${t.updated_at}, server ${truth.status} @ ${truth.updated_at}`);
    }
  }
  out.extra = mine.size;
  out.divergent = out.missing + out.extra + out.different;
  return out;
}

/** Delivery ids the client's receiver accepted (kept in its database across restarts). */
export function acceptedDeliveryIds(db: Db): string[] {
  // any schema: the account's tables live in the desk file
  const exists = db.prepare("SELECT 1 FROM pragma_table_list WHERE type = 'table' AND name = 'webhook_deliveries'").get();
  if (!exists) return [];
  return db.prepare('SELECT delivery_id FROM webhook_deliveries').pluck().all() as string[];
}

export interface CrashCheck {
  integrity: string;
  /** No listing carries a seq above the watermark (they commit in one transaction). */
  watermarkOk: boolean;
  lastSeq: string | null;
  maxRowSeq: string | null;
  journalReadable: boolean;
  openIntents: number;
}

/**
 * What a killed client left on disk, read as the next start would read it: WAL recovered, integrity
 * checked, the watermark against the rows, the journal readable.
 */
export function checkAfterCrash(file: string): CrashCheck {
  const db = new Database(file);
  try {
    attachDesk(db, file);
    db.defaultSafeIntegers(true);
    const integrity = (db.prepare('PRAGMA integrity_check').pluck().all() as string[]).join('; ');
    const lastSeq = db.prepare('SELECT last_seq FROM sync_state WHERE id = 1').pluck().get() as bigint | null;
    const maxRowSeq = db.prepare('SELECT max(last_seq) FROM listings').pluck().get() as bigint | null;
    let journalReadable = true;
    let openIntents = 0;
    try {
      openIntents = Number(db.prepare("SELECT count(*) FROM purchase_journal WHERE state IN ('intent', 'unknown')").pluck().get());
    } catch {
      journalReadable = false;
    }
    return {
      integrity,
      watermarkOk: maxRowSeq === null || (lastSeq !== null && maxRowSeq <= lastSeq),
      lastSeq: lastSeq === null ? null : String(lastSeq),
      maxRowSeq: maxRowSeq === null ? null : String(maxRowSeq),
      journalReadable,
      openIntents,
    };
  } finally {
    db.close();
  }
}

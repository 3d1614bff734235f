/**
 * Backpack moves (list, withdraw) that are never repeated by accident.
 *
 * A list or withdraw whose answer was lost (timeout, dropped connection, 5xx, unreadable answer) may
 * have moved the items. The rows last read do not show it, so a blind repeat would pass the pre-send
 * checks and move as many again: "list 2 of 10" twice lists 4. Each backpack item of such a send is
 * remembered here as an unclear move (what was asked, how many the row held before); the next send
 * involving the item first reads the backpack fresh and judges:
 *
 *  - the row is gone, or holds (before − sent) or fewer: the earlier move went through. The new send is
 *    not made (the trader asked again because the first seemed lost); the hold is lifted, so sending
 *    again after that is a deliberate second move;
 *  - the row holds what it held before, and the failure is old enough (the marketplace may still be
 *    applying a request that timed out): nothing moved; the hold is lifted and the send goes out;
 *  - the row holds what it held before, too soon after the failure, or the read failed: held, and
 *    looked at again on the next try (time, or a read that works, settles it);
 *  - anything else (another amount: a purchase landed in the row, say; a read that did not reach the
 *    row): it cannot be told. The send is not made, the trader is told what the backpack shows and where
 *    to look, and the hold is lifted: what is sent after that is sent knowingly, and an item is never
 *    held for good by a row that will not come back to either amount.
 *
 * Kept in the desk (table `unclear_moves`), like the crypto withdrawal journal, so that they survive a
 * restart, a crash or the app being killed right after the failed send: a run that forgot them would
 * let the repeat go out unchecked, which is the very case this guard is for (the rows the next run reads
 * show the items already moved, and nothing says they moved once already). Each move names the
 * marketplace (its origin) and the account (accountKey) whose key sent it, when known: item ids are a
 * marketplace's, so a move applies only on its own marketplace, and there to its own account, or to any
 * while either account is not known (as an open crypto withdrawal holds them). A key of another
 * account deletes none of them (clear() forgets only the moves held in memory): they apply again when
 * their account's key is back. A new demo market renames the earlier one's as a gone market's
 * (`assignUnclearMoves`). Moves older than MOVE_FORGOTTEN_AFTER_MS are pruned. The marks of sends on
 * their way (begin, sending) stay in memory: they guard the sends of one process.
 */
import type Database from 'better-sqlite3';
import type { AppId, BackpackItem } from '../../shared/api/index.ts';
import { utcClock } from '../../shared/utc-words.ts';
import { createDeskTables } from '../store/desk.ts';

export type MoveAction = 'list' | 'withdraw';

export interface UnclearMove {
  action: MoveAction;
  /** The backpack item id the move drew from. */
  itemId: number;
  appId: AppId;
  name: string;
  /** Copies the send asked for from this row (every entry of the request drawing from it). */
  sent: number;
  /** The row's amount as read before sending. */
  before: number;
  /** When the send failed (epoch ms). */
  atMs: number;
}

/** What a fresh read of the backpack says about one row: null when the read failed. */
export interface RowReading {
  /** The row as read now; null when it was not among the rows read. */
  row: BackpackItem | null;
  /** Whether every row matching the search was read (a row missing from a partial read may be on a later page). */
  complete: boolean;
}

export type MoveVerdict =
  | { kind: 'went_through'; move: UnclearMove; now: number | null }
  | { kind: 'not_sent'; move: UnclearMove }
  /** cannot be told from the backpack: told once, then lifted */
  | { kind: 'unclear'; move: UnclearMove; why: string }
  /** not yet: a read that failed, or too soon after the failure; kept */
  | { kind: 'held'; move: UnclearMove; why: string };

/**
 * How long after a lost answer an unchanged row means "not sent" (AccountTimings.moveNotSentAfterMs):
 * a request that timed out may still be on its way through the marketplace, as with crypto withdrawals.
 */
export const MOVE_NOT_SENT_AFTER_MS = 30_000;

/**
 * How long an unclear move is kept. A repeat that long after the failure is a deliberate send, and its
 * row has most likely changed by other means since (then the check could only say "unclear" anyway);
 * pruned so that the table cannot grow forever.
 */
export const MOVE_FORGOTTEN_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** Whose moves apply: the marketplace (origin) and the account (accountKey) the key in use sends for. */
export interface MoveScope {
  /** Null while not connected: then no move kept in the desk applies. */
  market: string | null;
  /** Null while not known: then every move of the marketplace applies. */
  account: string | null;
}

/** Copies per backpack item id of a request (an id may appear in several groups or entries). */
export function copiesPerItem(items: Iterable<{ id: number; amount: number }>): Map<number, number> {
  const copies = new Map<number, number>();
  for (const it of items) copies.set(it.id, (copies.get(it.id) ?? 0) + it.amount);
  return copies;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS unclear_moves (
  id          INTEGER PRIMARY KEY,
  market      TEXT NOT NULL,
  account     TEXT,
  item_id     INTEGER NOT NULL,
  action      TEXT NOT NULL CHECK (action IN ('list', 'withdraw')),
  app_id      INTEGER NOT NULL,
  name        TEXT NOT NULL,
  sent        INTEGER NOT NULL,
  held_before INTEGER NOT NULL,
  at_ms       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS unclear_moves_by_item ON unclear_moves (market, item_id);
CREATE INDEX IF NOT EXISTS unclear_moves_by_age ON unclear_moves (at_ms);
`;

interface Row {
  item_id: number;
  action: MoveAction;
  app_id: AppId;
  name: string;
  sent: number;
  held_before: number;
  at_ms: number;
}

/** A move applies to the scope: its marketplace, and its account or either account not known. */
const IN_SCOPE =
  'market = @market AND item_id = @item_id AND (account IS NULL OR @account IS NULL OR account = @account)';

/** The moves of a marketplace that no longer exists are named as that gone market's (see the file's note). */
export function assignUnclearMoves(db: Database.Database, market: string): void {
  createDeskTables(db, SCHEMA);
  db.prepare('UPDATE unclear_moves SET market = ?').run(market);
}

/** The moves kept in the desk, each under its marketplace and account. */
class DeskMoves {
  readonly #sql;
  readonly #now: () => number;

  constructor(db: Database.Database, now: () => number) {
    createDeskTables(db, SCHEMA);
    this.#now = now;
    const replace = db.prepare(
      'DELETE FROM unclear_moves WHERE market = @market AND item_id = @item_id AND account IS @account',
    );
    const insert = db.prepare(`
      INSERT INTO unclear_moves (market, account, item_id, action, app_id, name, sent, held_before, at_ms)
      VALUES (@market, @account, @item_id, @action, @app_id, @name, @sent, @held_before, @at_ms)`);
    this.#sql = {
      prune: db.prepare('DELETE FROM unclear_moves WHERE at_ms < ?'),
      put: db.transaction(
        (scope: { market: string; account: string | null }, moves: readonly UnclearMove[]) => {
          this.#prune();
          for (const m of moves) {
            const key = { ...scope, item_id: m.itemId };
            replace.run(key);
            insert.run({
              ...key,
              action: m.action,
              app_id: m.appId,
              name: m.name,
              sent: m.sent,
              held_before: m.before,
              at_ms: m.atMs,
            });
          }
        },
      ),
      get: db.prepare<{ market: string; account: string | null; item_id: number }, Row>(
        `SELECT item_id, action, app_id, name, sent, held_before, at_ms FROM unclear_moves WHERE ${IN_SCOPE}
         ORDER BY at_ms DESC, id DESC LIMIT 1`,
      ),
      lift: db.prepare(`DELETE FROM unclear_moves WHERE ${IN_SCOPE}`),
    };
    this.#prune();
  }

  #prune(): void {
    this.#sql.prune.run(this.#now() - MOVE_FORGOTTEN_AFTER_MS);
  }

  put(scope: { market: string; account: string | null }, moves: readonly UnclearMove[]): void {
    this.#sql.put(scope, moves);
  }

  get(scope: MoveScope, itemId: number): UnclearMove | undefined {
    if (scope.market === null) return undefined;
    const row = this.#sql.get.get({ market: scope.market, account: scope.account, item_id: itemId });
    return (
      row && {
        action: row.action,
        itemId: row.item_id,
        appId: row.app_id,
        name: row.name,
        sent: row.sent,
        before: row.held_before,
        atMs: row.at_ms,
      }
    );
  }

  lift(scope: MoveScope, itemId: number): void {
    if (scope.market === null) return;
    this.#sql.lift.run({ market: scope.market, account: scope.account, item_id: itemId });
  }
}

export class UnclearMoves {
  /** Moves kept in memory only: all of them without a desk, else those made with no marketplace known. */
  readonly #moves = new Map<number, UnclearMove>();
  /** Backpack item ids of a list or withdraw on its way (from its check to its answer). */
  readonly #sending = new Set<number>();
  /** One per send on its way: settles when it ends (its lost answer, if lost, recorded). */
  readonly #onTheirWay = new Set<Promise<void>>();
  readonly #desk: { moves: DeskMoves; scope: () => MoveScope } | null;

  /**
   * Without `desk`, the moves are kept in memory only (forgotten with the object). With it, they are kept
   * in the desk of `db`, under the scope the key in use has when each is recorded (and looked up under
   * the scope it has then); moves older than MOVE_FORGOTTEN_AFTER_MS (by `now`) are pruned.
   */
  constructor(desk?: { db: Database.Database; scope: () => MoveScope; now: () => number }) {
    this.#desk = desk ? { moves: new DeskMoves(desk.db, desk.now), scope: desk.scope } : null;
  }

  /**
   * Remembers a send whose answer was lost, one move per backpack item id. `rows` are the rows as read
   * before sending. An item has at most one: a later send of it is checked first, which lifts the earlier
   * one or refuses, and two sends of one item are never on their way at once (see begin).
   */
  record(
    action: MoveAction,
    copies: ReadonlyMap<number, number>,
    rows: ReadonlyMap<number, BackpackItem>,
    atMs: number,
  ): UnclearMove[] {
    const recorded: UnclearMove[] = [];
    for (const [itemId, sent] of copies) {
      const row = rows.get(itemId);
      if (!row) continue;
      recorded.push({
        action,
        itemId,
        appId: row.app_id,
        name: row.market_hash_name,
        sent,
        before: row.amount,
        atMs,
      });
    }
    // a move is recorded after a send, so the marketplace is known; should it not be, memory keeps it
    const scope = this.#desk?.scope();
    if (this.#desk && scope?.market) {
      this.#desk.moves.put({ market: scope.market, account: scope.account }, recorded);
    } else {
      for (const move of recorded) this.#moves.set(move.itemId, move);
    }
    return recorded;
  }

  /** The unclear moves of these items, in the order given. */
  of(itemIds: Iterable<number>): UnclearMove[] {
    const scope = this.#desk?.scope();
    const moves: UnclearMove[] = [];
    for (const id of new Set(itemIds)) {
      const move = this.#moves.get(id) ?? (scope && this.#desk?.moves.get(scope, id));
      if (move) moves.push(move);
    }
    return moves;
  }

  lift(itemId: number): void {
    this.#moves.delete(itemId);
    if (this.#desk) this.#desk.moves.lift(this.#desk.scope(), itemId);
  }

  /** Items of these ids already on their way in another send. */
  sending(itemIds: Iterable<number>): number[] {
    return [...new Set(itemIds)].filter((id) => this.#sending.has(id));
  }

  /** Marks the items as on their way; the returned function unmarks them. */
  begin(itemIds: Iterable<number>): () => void {
    const ids = [...new Set(itemIds)];
    for (const id of ids) this.#sending.add(id);
    let ended!: () => void;
    const onItsWay = new Promise<void>((resolve) => (ended = resolve));
    this.#onTheirWay.add(onItsWay);
    return () => {
      for (const id of ids) this.#sending.delete(id);
      this.#onTheirWay.delete(onItsWay);
      ended();
    };
  }

  /**
   * Resolves once no send begun before the call is on its way (at once when none is). A closing session
   * waits for it before letting its database go: a lost answer arriving after could not be recorded.
   */
  async idle(): Promise<void> {
    await Promise.all(this.#onTheirWay);
  }

  /**
   * Forgets the moves kept in memory (the key turned out to be another account's). Those in the desk are
   * kept: each names its account and marketplace, and applies only under them (see the file's note).
   */
  clear(): void {
    this.#moves.clear();
  }
}

/** Judges one unclear move from a fresh read of its row (null: the read failed) made at `nowMs`. */
export function judgeMove(
  move: UnclearMove,
  reading: RowReading | null,
  nowMs: number,
  notSentAfterMs = MOVE_NOT_SENT_AFTER_MS,
): MoveVerdict {
  if (reading === null) return { kind: 'held', move, why: 'the backpack could not be read' };
  const { row } = reading;
  if (row === null) {
    if (reading.complete) return { kind: 'went_through', move, now: null };
    return {
      kind: 'unclear',
      move,
      why: 'the backpack read did not reach that row (too many rows of that name)',
    };
  }
  if (row.amount <= move.before - move.sent) return { kind: 'went_through', move, now: row.amount };
  if (row.amount === move.before) {
    const waitMs = move.atMs + notSentAfterMs - nowMs;
    if (waitMs <= 0) return { kind: 'not_sent', move };
    return {
      kind: 'held',
      move,
      why: `the backpack still holds ${row.amount}, but the marketplace may still be applying it; try again in ${Math.ceil(waitMs / 1000)} s`,
    };
  }
  return {
    kind: 'unclear',
    move,
    why: `the backpack holds ${row.amount} of it now: ${move.before} before, ${move.before - move.sent} had it gone through`,
  };
}

function moveWords(m: UnclearMove): string {
  return `${m.action === 'list' ? 'listing' : 'withdrawal'} of ${m.sent} × ${m.name}`;
}

/** The earlier move, asked at a time, that got no clear answer. */
function unclearWords(m: UnclearMove): string {
  return `Your earlier ${moveWords(m)} at ${utcClock(m.atMs)} got no clear answer`;
}

/** Where the trader can see what became of a move. */
function whereToLook(actions: ReadonlySet<MoveAction>): string {
  const places = ['the backpack'];
  if (actions.has('list')) places.push('My listings');
  if (actions.has('withdraw')) places.push('the trade offers on Steam');
  return `${places.slice(0, -1).join(', ')} and ${places.at(-1)}`;
}

/** The note a dry run shows: the send will be checked against the backpack first. */
export function checkFirstWords(m: UnclearMove): string {
  return `${unclearWords(m)}: Skindesk reads the backpack before sending and sends only if it did not go through`;
}

/**
 * Why a send was not made after its check, or null when it may go out (every earlier move of its items
 * was found not to have happened). `held`: some move is still held (looked at again on the next try);
 * otherwise every hold was lifted and sending again is deliberate.
 */
export function verdictRefusal(
  verdicts: readonly MoveVerdict[],
  action: MoveAction,
): {
  held: boolean;
  code: 'MOVE_OUTCOME_UNKNOWN' | 'EARLIER_MOVE_SENT';
  message: string;
  lines: string[];
} | null {
  const through = verdicts.filter((v) => v.kind === 'went_through');
  const unclear = verdicts.filter(
    (v): v is Extract<MoveVerdict, { kind: 'unclear' | 'held' }> => v.kind === 'unclear' || v.kind === 'held',
  );
  if (through.length === 0 && unclear.length === 0) return null;
  const throughLines = through.map((v) => {
    const where = v.now === null ? 'it is no longer in the backpack' : `the backpack now holds ${v.now}`;
    return `Your earlier ${moveWords(v.move)} went through (${where})`;
  });
  const unclearLines = unclear.map(
    (v) =>
      `${unclearWords(v.move)}, and it cannot be told ${v.kind === 'held' ? 'yet ' : ''}whether it went through: ${v.why}`,
  );
  const lines = [...throughLines, ...unclearLines];
  if (unclear.length > 0) {
    const look = whereToLook(new Set(unclear.map((v) => v.move.action)));
    const held = unclear.some((v) => v.kind === 'held');
    const next = held ? 'Skindesk checks again on the next try' : 'send again to send it anyway';
    return {
      held,
      code: 'MOVE_OUTCOME_UNKNOWN',
      message: `Nothing was sent: ${lines.join('. ').replace(/^Y/, 'y')}. Check ${look}; ${next}.`,
      lines,
    };
  }
  const again = action === 'list' ? 'list more' : 'withdraw more';
  const anyLeft = through.some((v) => v.now !== null);
  return {
    held: false,
    code: 'EARLIER_MOVE_SENT',
    message: `${lines.join('. ')}; nothing was sent again.${anyLeft ? ` Send again to ${again}.` : ''}`,
    lines,
  };
}

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
 * restart, a crash or the app being killed: a run that forgot them would let the repeat go out
 * unchecked, which is the very case this guard is for (the rows the next run reads show the items
 * already moved, and nothing says they moved once already). As with the journal's intents, a send is
 * written there before it goes out (state 'sending': what it asks, the rows' amounts as read before
 * sending, the time; recordIntent) and settled by its answer: a clear one (moved, or refused outright)
 * deletes it, a lost one makes it 'unclear' as of the loss. Recording only after the failure would miss
 * the app dying while the request is out (sent, answer not read), when the items may well have moved.
 * A 'sending' row is set aside only by the object that wrote it, while its send is on its way: the marks
 * of sends on their way (begin, sending) already refuse a second send of its items. Any other is an
 * unclear move as of when it was written (so the "not sent" grace counts from then): left by a run that
 * died, or by another session on the same desk not answered yet, its outcome is not known here.
 *
 * Each move names the marketplace (its origin) and the account (accountKey) whose key sent it, when
 * known: item ids are a marketplace's, so a move applies only on its own marketplace, and there to its
 * own account, or to any while either account is not known (as an open crypto withdrawal holds them). A
 * key of another account deletes none of them (clear() forgets only the moves held in memory): they
 * apply again when their account's key is back. A new demo market renames the earlier one's as a gone
 * market's (`assignUnclearMoves`). Moves older than MOVE_FORGOTTEN_AFTER_MS are pruned. The marks of
 * sends on their way (begin, sending) stay in memory: they guard the sends of one session.
 */
import type Database from 'better-sqlite3';
import type { AppId, BackpackItem } from '../../shared/api/index.ts';
import { utcClock } from '../../shared/utc-words.ts';
import { addDeskColumn, createDeskTables } from '../store/desk.ts';

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
  /** When the send failed (epoch ms); for a send a run left on its way, when it was written down. */
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

/**
 * 'sending': written just before the request went out, not answered yet (at_ms: when it was written);
 * 'unclear': its answer was lost (at_ms: when). A clear answer deletes the row.
 */
type MoveState = 'sending' | 'unclear';
const MOVE_STATE_COLUMN = "TEXT NOT NULL DEFAULT 'unclear' CHECK (state IN ('sending', 'unclear'))";

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
  at_ms       INTEGER NOT NULL,
  state       ${MOVE_STATE_COLUMN}
);
CREATE INDEX IF NOT EXISTS unclear_moves_by_item ON unclear_moves (market, item_id);
CREATE INDEX IF NOT EXISTS unclear_moves_by_age ON unclear_moves (at_ms);
`;

interface Row {
  id: number;
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

/** The table, with the columns later versions gave it (a desk made before them lacks them). */
function createMovesTable(db: Database.Database): void {
  createDeskTables(db, SCHEMA);
  addDeskColumn(db, 'unclear_moves', 'state', MOVE_STATE_COLUMN);
}

/** The moves of a marketplace that no longer exists are named as that gone market's (see the file's note). */
export function assignUnclearMoves(db: Database.Database, market: string): void {
  createMovesTable(db);
  db.prepare('UPDATE unclear_moves SET market = ?').run(market);
}

/** One move per backpack item of a send: the copies it asked of the row, the row's amount before sending. */
function movesOf(
  action: MoveAction,
  copies: ReadonlyMap<number, number>,
  rows: ReadonlyMap<number, BackpackItem>,
  atMs: number,
): UnclearMove[] {
  const moves: UnclearMove[] = [];
  for (const [itemId, sent] of copies) {
    const row = rows.get(itemId);
    if (!row) continue;
    moves.push({
      action,
      itemId,
      appId: row.app_id,
      name: row.market_hash_name,
      sent,
      before: row.amount,
      atMs,
    });
  }
  return moves;
}

/** The moves kept in the desk, each under its marketplace and account. */
class DeskMoves {
  readonly #db: Database.Database;
  readonly #sql;
  readonly #now: () => number;

  constructor(db: Database.Database, now: () => number) {
    createMovesTable(db);
    this.#db = db;
    this.#now = now;
    const replace = db.prepare(
      'DELETE FROM unclear_moves WHERE market = @market AND item_id = @item_id AND account IS @account',
    );
    const insert = db.prepare(`
      INSERT INTO unclear_moves (market, account, item_id, action, app_id, name, sent, held_before, at_ms, state)
      VALUES (@market, @account, @item_id, @action, @app_id, @name, @sent, @held_before, @at_ms, @state)`);
    const insertMove = (
      key: { market: string; account: string | null; item_id: number },
      m: UnclearMove,
      state: MoveState,
    ) =>
      Number(
        insert.run({
          ...key,
          action: m.action,
          app_id: m.appId,
          name: m.name,
          sent: m.sent,
          held_before: m.before,
          at_ms: m.atMs,
          state,
        }).lastInsertRowid,
      );
    const drop = db.prepare('DELETE FROM unclear_moves WHERE id = ?');
    this.#sql = {
      prune: db.prepare('DELETE FROM unclear_moves WHERE at_ms < ?'),
      put: db.transaction(
        (
          scope: { market: string; account: string | null },
          moves: readonly UnclearMove[],
          dropIds: readonly number[],
        ) => {
          this.#prune();
          for (const id of dropIds) drop.run(id);
          for (const m of moves) {
            const key = { ...scope, item_id: m.itemId };
            replace.run(key);
            insertMove(key, m, 'unclear');
          }
        },
      ),
      sending: db.transaction(
        (scope: { market: string; account: string | null }, moves: readonly UnclearMove[]) => {
          this.#prune();
          return moves.map((m) => insertMove({ ...scope, item_id: m.itemId }, m, 'sending'));
        },
      ),
      drop: db.transaction((ids: readonly number[]) => {
        for (const id of ids) drop.run(id);
      }),
      get: db.prepare<{ market: string; account: string | null; item_id: number }, Row>(
        `SELECT id, item_id, action, app_id, name, sent, held_before, at_ms FROM unclear_moves WHERE ${IN_SCOPE}
         ORDER BY at_ms DESC, id DESC`,
      ),
    };
    this.#prune();
  }

  /** False once the database has been closed (nothing can be written any more). */
  get open(): boolean {
    return this.#db.open;
  }

  #prune(): void {
    this.#sql.prune.run(this.#now() - MOVE_FORGOTTEN_AFTER_MS);
  }

  /** Keeps moves whose answer was lost, in place of the rows `dropIds` (the same sends, written as on their way). */
  put(
    scope: { market: string; account: string | null },
    moves: readonly UnclearMove[],
    dropIds: readonly number[] = [],
  ): void {
    this.#sql.put(scope, moves, dropIds);
  }

  /** Writes the moves of a send about to go out (state 'sending'); returns their rows' ids. */
  sending(scope: { market: string; account: string | null }, moves: readonly UnclearMove[]): number[] {
    return this.#sql.sending(scope, moves);
  }

  drop(ids: readonly number[]): void {
    this.#sql.drop(ids);
  }

  #rows(scope: MoveScope, itemId: number, skip: ReadonlySet<number>): Row[] {
    if (scope.market === null) return [];
    return this.#sql.get
      .all({ market: scope.market, account: scope.account, item_id: itemId })
      .filter((r) => !skip.has(r.id));
  }

  /** The latest move of the item in scope, but for the rows `skip` (the caller's sends on their way). */
  get(scope: MoveScope, itemId: number, skip: ReadonlySet<number>): UnclearMove | undefined {
    const row = this.#rows(scope, itemId, skip)[0];
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

  lift(scope: MoveScope, itemId: number, skip: ReadonlySet<number>): void {
    this.drop(this.#rows(scope, itemId, skip).map((r) => r.id));
  }
}

/** A list or withdraw about to go out, written down first (UnclearMoves.recordIntent). */
export interface MoveIntent {
  /** A clear answer (the move was made, or refused outright): nothing about it stays. */
  answered(): void;
  /** The answer was lost at `atMs`: the send's items become unclear moves, as `recordIntent` describes. */
  lost(atMs: number): UnclearMove[];
}

export class UnclearMoves {
  /** Moves kept in memory only: all of them without a desk, else those made with no marketplace known. */
  readonly #moves = new Map<number, UnclearMove>();
  /** Backpack item ids of a list or withdraw on its way (from its check to its answer). */
  readonly #sending = new Set<number>();
  /** One per send on its way: settles when it ends (its lost answer, if lost, recorded). */
  readonly #onTheirWay = new Set<Promise<void>>();
  /**
   * Desk rows ('sending') of this object's sends on their way: each is its send's to settle, never an
   * unclear move here (any other 'sending' row is: see the file's note).
   */
  readonly #ownSending = new Set<number>();
  readonly #desk: { moves: DeskMoves; scope: () => MoveScope } | null;
  readonly #warn: (message: string) => void;

  /**
   * Without `desk`, the moves are kept in memory only (forgotten with the object). With it, they are kept
   * in the desk of `db`, under the scope the key in use has when each is recorded (and looked up under
   * the scope it has then); moves older than MOVE_FORGOTTEN_AFTER_MS (by `now`) are pruned.
   */
  constructor(desk?: { db: Database.Database; scope: () => MoveScope; now: () => number; warn?: (message: string) => void }) {
    this.#desk = desk ? { moves: new DeskMoves(desk.db, desk.now), scope: desk.scope } : null;
    this.#warn = desk?.warn ?? (() => undefined);
  }

  #keep(moves: readonly UnclearMove[]): void {
    // a move is recorded after a send, so the marketplace is known; should it not be, memory keeps it
    const scope = this.#desk?.scope();
    if (this.#desk && scope?.market) {
      this.#desk.moves.put({ market: scope.market, account: scope.account }, moves);
    } else {
      for (const move of moves) this.#moves.set(move.itemId, move);
    }
  }

  /**
   * Writes a send down before it goes out (`atMs`: now; `rows`: as read before sending), in the desk as
   * on its way, so that a process that dies before the answer leaves it behind for the next run as an
   * unclear move of that time. Settled by the returned intent: a clear answer deletes it, a lost one makes
   * it an unclear move per backpack item id (`rows`: what each held before). An item has at most one: a
   * later send of it is checked first, which lifts the earlier one or refuses, and two sends of one item
   * are never on their way at once (see begin). Without a desk or a marketplace known, nothing is written
   * before, and a lost answer is kept in memory. A desk that cannot be written throws, and nothing is sent.
   */
  recordIntent(
    action: MoveAction,
    copies: ReadonlyMap<number, number>,
    rows: ReadonlyMap<number, BackpackItem>,
    atMs: number,
  ): MoveIntent {
    const moves = movesOf(action, copies, rows, atMs);
    const desk = this.#desk;
    const scope = desk?.scope();
    let written: { market: string; account: string | null; ids: number[] } | null = null;
    if (desk && scope?.market && moves.length > 0) {
      const at = { market: scope.market, account: scope.account };
      written = { ...at, ids: desk.moves.sending(at, moves) };
      for (const id of written.ids) this.#ownSending.add(id);
    }
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      for (const id of written?.ids ?? []) this.#ownSending.delete(id);
      return true;
    };
    return {
      answered: () => {
        if (!settle() || !desk || !written || !desk.moves.open) return;
        try {
          desk.moves.drop(written.ids);
        } catch (err) {
          // left as on its way, the next send of these items reads the backpack first: a check too many
          this.#warn(`unclear moves: an answered move stays written as on its way (${err instanceof Error ? err.message : String(err)})`);
        }
      },
      lost: (lostAtMs) => {
        const lost = moves.map((m) => ({ ...m, atMs: lostAtMs }));
        if (!settle()) return lost;
        if (!desk || !written) {
          this.#keep(lost);
          return lost;
        }
        // the database already closed (the quit did not wait that long): the rows stay as on their way,
        // which the next run takes as unclear from when they were written
        if (!desk.moves.open) return lost;
        // sent to the marketplace they were written under; the account as met since, if it was not then
        const now = desk.scope();
        const account = written.account ?? (now.market === written.market ? now.account : null);
        try {
          desk.moves.put({ market: written.market, account }, lost, written.ids);
        } catch (err) {
          // left as on its way: unclear just the same, from when they were written
          this.#warn(`unclear moves: a lost answer stays written as on its way (${err instanceof Error ? err.message : String(err)})`);
        }
        return lost;
      },
    };
  }

  /** The unclear moves of these items, in the order given. */
  of(itemIds: Iterable<number>): UnclearMove[] {
    const scope = this.#desk?.scope();
    const moves: UnclearMove[] = [];
    for (const id of new Set(itemIds)) {
      const move = this.#moves.get(id) ?? (scope && this.#desk?.moves.get(scope, id, this.#ownSending));
      if (move) moves.push(move);
    }
    return moves;
  }

  lift(itemId: number): void {
    this.#moves.delete(itemId);
    if (this.#desk) this.#desk.moves.lift(this.#desk.scope(), itemId, this.#ownSending);
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
   * waits for it before letting its database go, so that the answer settles the send's row: one arriving
   * after cannot, and the row stays 'sending' (the next run checks the items first, as if it were lost).
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

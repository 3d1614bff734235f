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
 * Kept in memory only (AccountSession), unlike the crypto withdrawal journal: a restart forgets them,
 * and the next run checks its sends against the backpack rows it reads itself, fresh once connected.
 */
import type { AppId, BackpackItem } from '../../shared/api/index.ts';
import { utcClock } from '../../shared/utc-words.ts';

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

/** Copies per backpack item id of a request (an id may appear in several groups or entries). */
export function copiesPerItem(items: Iterable<{ id: number; amount: number }>): Map<number, number> {
  const copies = new Map<number, number>();
  for (const it of items) copies.set(it.id, (copies.get(it.id) ?? 0) + it.amount);
  return copies;
}

export class UnclearMoves {
  readonly #moves = new Map<number, UnclearMove>();
  /** Backpack item ids of a list or withdraw on its way (from its check to its answer). */
  readonly #sending = new Set<number>();

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
      const move = {
        action,
        itemId,
        appId: row.app_id,
        name: row.market_hash_name,
        sent,
        before: row.amount,
        atMs,
      };
      this.#moves.set(itemId, move);
      recorded.push(move);
    }
    return recorded;
  }

  /** The unclear moves of these items, in the order given. */
  of(itemIds: Iterable<number>): UnclearMove[] {
    const moves: UnclearMove[] = [];
    for (const id of new Set(itemIds)) {
      const move = this.#moves.get(id);
      if (move) moves.push(move);
    }
    return moves;
  }

  lift(itemId: number): void {
    this.#moves.delete(itemId);
  }

  /** Items of these ids already on their way in another send. */
  sending(itemIds: Iterable<number>): number[] {
    return [...new Set(itemIds)].filter((id) => this.#sending.has(id));
  }

  /** Marks the items as on their way; the returned function unmarks them. */
  begin(itemIds: Iterable<number>): () => void {
    const ids = [...new Set(itemIds)];
    for (const id of ids) this.#sending.add(id);
    return () => {
      for (const id of ids) this.#sending.delete(id);
    };
  }

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

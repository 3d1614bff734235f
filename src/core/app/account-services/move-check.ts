/**
 * The backpack's side of unclear moves (unclear-moves.ts): a list or withdraw is written down per
 * backpack item before it goes out and kept when its answer is lost, or never read because the app died
 * on the way (so a repeat in the next run is checked too); the next send of such an item first reads the
 * backpack fresh for it (by name, never from the cache) and is made, refused or held according to what
 * the read shows.
 */
import type { BackpackItem } from '../../../shared/api/index.ts';
import type { SendProblem } from '../../../shared/ipc/calls-account.ts';
import { SkindeskError } from '../../../shared/ipc/index.ts';
import {
  type MoveAction,
  type MoveVerdict,
  type RowReading,
  checkFirstWords,
  copiesPerItem,
  judgeMove,
  verdictRefusal,
} from '../../account/unclear-moves.ts';
import { ApiError } from '../../api/errors.ts';
import type { AccountSession } from './account-session.ts';
import { lostAnswer } from './views.ts';

/** Backpack pages (100 rows each) read for one item name at most. */
const SEARCH_PAGES = 5;

type Entry = { id: number; amount: number; group?: number; entry: number };

/**
 * Reads every backpack row of one name and game, fresh. Null when a page could not be read (a stored
 * copy served instead counts as not read); `complete` false when there were more pages than read.
 */
async function readRowsNamed(
  account: AccountSession,
  name: string,
  appId: number,
): Promise<{ rows: BackpackItem[]; complete: boolean } | null> {
  const rows: BackpackItem[] = [];
  for (let page = 1; page <= SEARCH_PAGES; page++) {
    let read;
    try {
      read = await account.reads.backpack(
        { page: String(page), limit: '100', app_id: String(appId), search: name.slice(0, 200) },
        { maxAgeMs: 0, priority: 'interactive', signal: account.stopping.signal },
      );
    } catch {
      return null;
    }
    if (read.fromCache) return null;
    rows.push(...read.data.items);
    account.rememberBackpack(read.data.items);
    if (page >= read.data.metadata.total_pages) return { rows, complete: true };
  }
  return { rows, complete: false };
}

/**
 * Checks the earlier unclear moves of these backpack items against a fresh read; lifts those it
 * decides (went through, or did not). Rows found gone are forgotten from the rows seen.
 */
export async function checkUnclearMoves(
  account: AccountSession,
  itemIds: Iterable<number>,
): Promise<MoveVerdict[]> {
  const moves = account.unclearMoves.of(itemIds);
  const reads = new Map<string, Promise<{ rows: BackpackItem[]; complete: boolean } | null>>();
  const verdicts: MoveVerdict[] = [];
  for (const move of moves) {
    const key = `${move.appId}\u0000${move.name}`;
    let pending = reads.get(key);
    if (!pending) reads.set(key, (pending = readRowsNamed(account, move.name, move.appId)));
    const read = await pending;
    const reading: RowReading | null = read && {
      row: read.rows.find((r) => r.id === move.itemId) ?? null,
      complete: read.complete,
    };
    if (reading && reading.row === null && reading.complete) account.backpackSeen.delete(move.itemId);
    const verdict = judgeMove(move, reading, account.clock.now(), account.timings.moveNotSentAfterMs);
    if (verdict.kind !== 'held') account.unclearMoves.lift(move.itemId);
    verdicts.push(verdict);
  }
  return verdicts;
}

/**
 * Runs a list or withdraw of these entries: refused while another send of one of its items is on its
 * way; the earlier unclear moves of its items checked first (refused when one went through or is still
 * unclear); then written down as on its way (the rows as now seen, and the time) and `send`, which runs
 * the pre-send checks against those rows and sends. A clear answer, or a refusal, deletes what was
 * written; a lost answer keeps it as an unclear move of each item, and says so.
 */
export async function sendMove<T>(
  account: AccountSession,
  action: MoveAction,
  entries: readonly Entry[],
  send: () => Promise<T>,
): Promise<T> {
  const ids = entries.map((e) => e.id);
  // not connected: refused as such, before a check that could not read the backpack either
  account.client();
  const busy = account.unclearMoves.sending(ids);
  if (busy.length > 0) {
    const names = busy.map((id) => account.backpackSeen.get(id)?.market_hash_name ?? `backpack item ${id}`);
    throw new SkindeskError({
      code: 'REFUSED',
      message: `Nothing was sent: a move of ${names.join(', ')} is being sent right now; wait for its answer.`,
    });
  }
  const done = account.unclearMoves.begin(ids);
  try {
    const refused = verdictRefusal(await checkUnclearMoves(account, ids), action);
    if (refused) {
      throw new SkindeskError({
        code: 'REFUSED',
        message: refused.message,
        apiCode: refused.code,
        issues: refused.lines.map((message) => ({ path: '(request)', message })),
      });
    }
    // the rows as read before sending: what the row held, should the answer be lost (or never read)
    const before = new Map(
      ids.flatMap((id) => {
        const row = account.backpackSeen.get(id);
        return row ? [[id, row] as const] : [];
      }),
    );
    // written down before it goes out: should the app die before the answer, the next run checks first
    const intent = account.unclearMoves.recordIntent(
      action,
      copiesPerItem(entries),
      before,
      account.clock.now(),
    );
    try {
      const answer = await send();
      intent.answered();
      account.itemsMoved();
      return answer;
    } catch (err) {
      if (!(err instanceof ApiError) || !err.outcomeUnknown) {
        // refused (here or by the marketplace): nothing moved
        intent.answered();
        throw err;
      }
      intent.lost(account.clock.now());
      // the items may have moved: what was read of the backpack may no longer hold
      account.itemsMoved();
      account.feeds.poller.nudge();
      const moved = action === 'list' ? 'listed' : 'withdrawn';
      throw lostAnswer(
        err,
        `The items may have been ${moved}: before sending any of them again, Skindesk reads the backpack and sends only if they were not.`,
      );
    }
  } finally {
    done();
  }
}

/** The dry run's note for each item of the request with an unclear move (it does not block the send). */
export function unclearMoveNotes(account: AccountSession, entries: readonly Entry[]): SendProblem[] {
  const notes: SendProblem[] = [];
  for (const move of account.unclearMoves.of(entries.map((e) => e.id))) {
    const at = entries.find((e) => e.id === move.itemId)!;
    notes.push({
      code: 'CHECKED_BEFORE_SENDING',
      message: checkFirstWords(move),
      group: at.group ?? null,
      entry: at.entry,
      blocking: false,
    });
  }
  return notes;
}

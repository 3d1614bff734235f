// Unclear backpack moves: one per item (an id drawn by several groups counts once, with every copy),
// judged from a fresh read of the row (gone or drawn down: went through; unchanged, long enough after the
// failure: not sent; unchanged too soon, or a failed read: held; anything else: unclear, told once and
// lifted), and the words of the refusal.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  MOVE_NOT_SENT_AFTER_MS,
  UnclearMoves,
  copiesPerItem,
  judgeMove,
  verdictRefusal,
  type UnclearMove,
} from '../../../src/core/account/unclear-moves.ts';
import type { BackpackItem } from '../../../src/shared/api/index.ts';

const AT = Date.parse('2026-03-01T14:05:00Z');
const row = (id: number, amount: number, name = 'Sticker | X'): BackpackItem => ({
  id,
  app_id: 730,
  market_hash_name: name,
  amount,
  commodity: true,
  market_price: 120,
  trade_locked_until: null,
});
const move = (over: Partial<UnclearMove> = {}): UnclearMove => ({
  action: 'list',
  itemId: 9,
  appId: 730,
  name: 'Sticker | X',
  sent: 2,
  before: 10,
  atMs: AT,
  ...over,
});

describe('UnclearMoves', () => {
  it('records one move per item with every copy the request drew from it, and lifts them one by one', () => {
    const moves = new UnclearMoves();
    const copies = copiesPerItem([
      { id: 9, amount: 1 },
      { id: 9, amount: 1 },
      { id: 11, amount: 1 },
    ]);
    moves
      .recordIntent(
        'list',
        copies,
        new Map([
          [9, row(9, 10)],
          [11, row(11, 1, 'AK-47 | Redline (Field-Tested)')],
        ]),
        AT,
      )
      .lost(AT);
    expect(moves.of([11, 9, 9])).toEqual([
      move({ itemId: 11, name: 'AK-47 | Redline (Field-Tested)', sent: 1, before: 1 }),
      move({ itemId: 9, sent: 2, before: 10 }),
    ]);
    moves.lift(9);
    expect(moves.of([9, 11]).map((m) => m.itemId)).toEqual([11]);
    moves.clear();
    expect(moves.of([11])).toEqual([]);
  });

  it('a desk that cannot be written when the answer comes leaves the move as on its way, and the log says so', () => {
    const db = new Database(':memory:');
    const warnings: string[] = [];
    const moves = new UnclearMoves({ db, scope: () => ({ market: 'https://market.example', account: '7656' }), now: () => AT, warn: (m) => warnings.push(m) });
    const answered = moves.recordIntent('list', copiesPerItem([{ id: 9, amount: 1 }]), new Map([[9, row(9, 10)]]), AT);
    const lost = moves.recordIntent('withdraw', copiesPerItem([{ id: 11, amount: 1 }]), new Map([[11, row(11, 1)]]), AT);
    db.pragma('query_only = ON'); // e.g. the disk full, the file locked by another program
    answered.answered();
    lost.lost(AT + 1000);
    expect(warnings).toEqual([
      'unclear moves: an answered move stays written as on its way (attempt to write a readonly database)',
      'unclear moves: a lost answer stays written as on its way (attempt to write a readonly database)',
    ]);
    db.close();
  });

  it('knows which items are on their way until the send ends', () => {
    const moves = new UnclearMoves();
    const done = moves.begin([9, 9, 10]);
    expect(moves.sending([10, 11])).toEqual([10]);
    done();
    expect(moves.sending([9, 10])).toEqual([]);
  });
});

/** A read made long enough after the failure for an unchanged row to mean "not sent". */
const LATER = AT + MOVE_NOT_SENT_AFTER_MS;

describe('judgeMove', () => {
  it('went through: the row is gone from a complete read, or holds (before − sent) or fewer', () => {
    expect(judgeMove(move(), { row: null, complete: true }, LATER)).toMatchObject({
      kind: 'went_through',
      now: null,
    });
    expect(judgeMove(move(), { row: row(9, 8), complete: true }, LATER)).toMatchObject({
      kind: 'went_through',
      now: 8,
    });
    // drawn down further since (sold, another device): still went through
    expect(judgeMove(move(), { row: row(9, 5), complete: true }, LATER)).toMatchObject({
      kind: 'went_through',
      now: 5,
    });
  });

  it('not sent: the row holds what it held before, long enough after the failure; held before that', () => {
    expect(judgeMove(move(), { row: row(9, 10), complete: true }, LATER)).toMatchObject({ kind: 'not_sent' });
    // the marketplace may still be applying a request that timed out
    expect(judgeMove(move(), { row: row(9, 10), complete: true }, LATER - 4_500)).toMatchObject({
      kind: 'held',
      why: 'the backpack still holds 10, but the marketplace may still be applying it; try again in 5 s',
    });
    expect(judgeMove(move(), { row: row(9, 10), complete: true }, AT + 1_000, 0)).toMatchObject({
      kind: 'not_sent',
    });
  });

  it('unclear: another amount, or a read that did not reach the row; held: a read that failed', () => {
    expect(judgeMove(move(), { row: row(9, 9), complete: true }, LATER)).toMatchObject({
      kind: 'unclear',
      why: 'the backpack holds 9 of it now: 10 before, 8 had it gone through',
    });
    // more copies than before (a purchase landed in the same row, say): cannot tell
    expect(judgeMove(move(), { row: row(9, 12), complete: true }, LATER).kind).toBe('unclear');
    expect(judgeMove(move(), null, LATER)).toMatchObject({
      kind: 'held',
      why: 'the backpack could not be read',
    });
    expect(judgeMove(move(), { row: null, complete: false }, LATER).kind).toBe('unclear');
  });
});

describe('verdictRefusal', () => {
  it('sends when every earlier move was found not sent', () => {
    expect(verdictRefusal([], 'list')).toBeNull();
    expect(verdictRefusal([{ kind: 'not_sent', move: move() }], 'list')).toBeNull();
  });

  it('refuses when one went through, saying what the backpack holds and that sending again is deliberate', () => {
    const refused = verdictRefusal([{ kind: 'went_through', move: move(), now: 8 }], 'list');
    expect(refused).toMatchObject({ held: false, code: 'EARLIER_MOVE_SENT' });
    expect(refused!.message).toBe(
      'Your earlier listing of 2 × Sticker | X went through (the backpack now holds 8); nothing was sent again. Send again to list more.',
    );
    const gone = verdictRefusal(
      [{ kind: 'went_through', move: move({ action: 'withdraw', sent: 1, before: 1 }), now: null }],
      'withdraw',
    );
    expect(gone!.message).toBe(
      'Your earlier withdrawal of 1 × Sticker | X went through (it is no longer in the backpack); nothing was sent again.',
    );
  });

  it('holds while one is unclear, saying where to look and that the check runs again', () => {
    const refused = verdictRefusal(
      [
        { kind: 'went_through', move: move({ itemId: 3, name: 'Case', sent: 1, before: 4 }), now: 3 },
        { kind: 'held', move: move({ action: 'withdraw' }), why: 'the backpack could not be read' },
      ],
      'withdraw',
    );
    expect(refused).toMatchObject({ held: true, code: 'MOVE_OUTCOME_UNKNOWN' });
    expect(refused!.message).toBe(
      'Nothing was sent: your earlier listing of 1 × Case went through (the backpack now holds 3). Your earlier withdrawal of 2 × Sticker | X at 14:05 UTC got no clear answer, and it cannot be told yet whether it went through: the backpack could not be read. Check the backpack and the trade offers on Steam; Skindesk checks again on the next try.',
    );
    expect(refused!.lines).toHaveLength(2);
  });

  it('cannot tell from the backpack: says what it shows and where to look, once; sending again is deliberate', () => {
    const refused = verdictRefusal(
      [
        {
          kind: 'unclear',
          move: move(),
          why: 'the backpack holds 9 of it now: 10 before, 8 had it gone through',
        },
      ],
      'list',
    );
    expect(refused).toMatchObject({ held: false, code: 'MOVE_OUTCOME_UNKNOWN' });
    expect(refused!.message).toBe(
      'Nothing was sent: your earlier listing of 2 × Sticker | X at 14:05 UTC got no clear answer, and it cannot be told whether it went through: the backpack holds 9 of it now: 10 before, 8 had it gone through. Check the backpack and My listings; send again to send it anyway.',
    );
  });
});

/**
 * Unclear backpack moves kept in the desk: each under the marketplace and the account whose key sent it.
 * Another marketplace's moves (even of an account with the same id) and a gone demo market's never
 * apply, nor another account's once the key's account is met (until then, every account's of the
 * marketplace do); a session of another account never deletes them. Moves are pruned once older than
 * MOVE_FORGOTTEN_AFTER_MS, and a session closing waits for a send on its way, so that its loss is kept.
 * A list or withdraw is in the desk from before it is sent: a clear answer or a refusal deletes it, a lost
 * answer makes it unclear, and left by a run that died on the way it is an unclear move for the next run
 * (never for its own, which knows it is on its way).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MOVE_FORGOTTEN_AFTER_MS, copiesPerItem } from '../../../src/core/account/unclear-moves.ts';
import { AccountSession } from '../../../src/core/app/account-services/account-session.ts';
import { sendMove } from '../../../src/core/app/account-services/move-check.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { type Clock, ManualClock } from '../../../src/core/api/clock.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { attachDesk } from '../../../src/core/store/desk.ts';
import { type Db, openDatabase } from '../../../src/core/store/index.ts';
import type { BackpackItem } from '../../../src/shared/api/index.ts';
import { tempDir } from '../store/helpers.ts';

const MARKET = 'http://market.test';
const AT = Date.UTC(2026, 0, 1);
const cleanups: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function bookFile(): string {
  const t = tempDir('skindesk-unclear-moves-');
  cleanups.push(t.remove);
  return join(t.dir, 'skindesk.db');
}

/** The book file and its desk, as the app opens them (a second open of the same file is a restart). */
function open(file: string): Db {
  const db = openDatabase(file);
  attachDesk(db, file);
  cleanups.push(() => {
    if (db.open) db.close();
  });
  return db;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * An account session on `baseUrl` whose GET /user answers as the account `userId` (its clock at AT unless
 * told); `answer` answers other paths.
 */
function sessionOn(
  db: Db,
  baseUrl: string,
  userId: number,
  options: { newAccount?: boolean; clock?: Clock; answer?: (path: string) => Response | null } = {},
): AccountSession {
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    const answer = options.answer?.(url.pathname);
    if (answer) return answer;
    if (url.pathname !== '/public/v1/user')
      return json(404, { error: { code: 'NOT_FOUND', message: 'no fake' } });
    return json(200, { id: userId, steam_id: '7656', name: `Trader ${userId}`, balance: 5_000 });
  }) as typeof globalThis.fetch;
  const client = new ApiClient({ baseUrl, apiKey: `key_${userId}`, fetch });
  const session = new AccountSession(
    { db, client, keyId: null },
    { newAccount: options.newAccount ?? false, clock: options.clock ?? new ManualClock(AT) },
  );
  cleanups.push(() => session.stop());
  return session;
}

const row = (id: number, amount: number): BackpackItem => ({
  id,
  app_id: 730,
  market_hash_name: 'Sticker | X',
  amount,
  commodity: true,
  market_price: 120,
  trade_locked_until: null,
});

/** A list of 2 copies of backpack item 9 (10 held before) whose answer was lost at `atMs`. */
function loseList(session: AccountSession, atMs = AT): void {
  session.unclearMoves
    .recordIntent('list', copiesPerItem([{ id: 9, amount: 2 }]), new Map([[9, row(9, 10)]]), atMs)
    .lost(atMs);
}

const itemsOf = (session: AccountSession) => session.unclearMoves.of([9]).map((m) => m.itemId);

describe('unclear moves in the desk', () => {
  it('another account on the same desk does not see them, and they are kept for their own account', async () => {
    const file = bookFile();
    const mine = sessionOn(open(file), MARKET, 7);
    expect(await mine.meetAccount()).toBe('first');
    loseList(mine);
    expect(itemsOf(mine)).toEqual([9]);

    // the key of another account on the same marketplace: its account is met, its data forgotten
    const theirs = sessionOn(mine.market.db, MARKET, 8);
    expect(await theirs.meetAccount()).toBe('other');
    expect(itemsOf(theirs)).toEqual([]);
    theirs.unclearMoves.lift(9);

    // the first account's key again, after a restart: its move is still checked before a repeat
    const again = sessionOn(open(file), MARKET, 7);
    expect(await again.meetAccount()).toBe('other');
    expect(again.unclearMoves.of([9])).toEqual([
      { action: 'list', itemId: 9, appId: 730, name: 'Sticker | X', sent: 2, before: 10, atMs: AT },
    ]);
  });

  it("another marketplace's moves never apply, even with an account of the same id", async () => {
    const db = open(bookFile());
    const onA = sessionOn(db, MARKET, 7);
    await onA.meetAccount();
    loseList(onA);
    const onB = sessionOn(db, 'http://another-market.test', 7);
    expect(onB.unclearMoves.of([9])).toEqual([]);
    await onB.meetAccount();
    expect(onB.unclearMoves.of([9])).toEqual([]);
  });

  it("a new demo market (same address, same ids) never sees the earlier one's moves", () => {
    const file = bookFile();
    // a demo session meets no account: its moves are the market's
    const earlier = sessionOn(open(file), MARKET, 1);
    loseList(earlier);
    expect(itemsOf(earlier)).toEqual([9]);
    const next = sessionOn(open(file), MARKET, 1, { newAccount: true });
    expect(itemsOf(next)).toEqual([]);
  });

  it('until the account is known, the moves of every account of the marketplace apply', async () => {
    const file = bookFile();
    const mine = sessionOn(open(file), MARKET, 7);
    await mine.meetAccount();
    loseList(mine);
    // after a restart, before GET /user has answered: this may be account 7's key
    expect(itemsOf(sessionOn(open(file), MARKET, 7))).toEqual([9]);
  });

  it('are pruned once older than MOVE_FORGOTTEN_AFTER_MS', () => {
    const file = bookFile();
    const session = sessionOn(open(file), MARKET, 7, { clock: new ManualClock(AT) });
    loseList(session);
    const count = (db: Db) => db.prepare('SELECT count(*) FROM unclear_moves').pluck().get();

    const dayLater = sessionOn(open(file), MARKET, 7, { clock: new ManualClock(AT + 24 * 3_600_000) });
    expect(itemsOf(dayLater)).toEqual([9]);
    const weekLater = open(file);
    sessionOn(weekLater, MARKET, 7, { clock: new ManualClock(AT + MOVE_FORGOTTEN_AFTER_MS + 1) });
    expect(count(weekLater)).toBe(0);
  });

  it('a session closing while a list is on its way waits for its answer, so a lost one is kept', async () => {
    const file = bookFile();
    const db = open(file);
    const session = sessionOn(db, MARKET, 7);
    session.rememberBackpack([row(9, 10)]);
    let loseAnswer!: () => void;
    const sent = sendMove(session, 'list', [{ id: 9, amount: 2, entry: 0 }], () => {
      return new Promise<never>((_, reject) => {
        loseAnswer = () =>
          reject(
            new ApiError({ kind: 'timeout', route: 'list', message: 'timed out', maybeDelivered: true }),
          );
      });
    });
    // the app quits while the list is on its way; the database closes once the session has stopped
    const closed = session.stop().then(() => db.close());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(db.open).toBe(true);
    loseAnswer();
    await expect(sent).rejects.toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    await closed;
    expect(itemsOf(sessionOn(open(file), MARKET, 7))).toEqual([9]);
  });
});

/** The rows of the desk's table, as the next run would read them. */
const deskRows = (db: Db) =>
  db
    .prepare<[], Record<string, unknown>>('SELECT * FROM unclear_moves ORDER BY id')
    .all()
    .map(({ item_id, state, sent, held_before, at_ms }) => ({ item_id, state, sent, held_before, at_ms }));

const listNine = (session: AccountSession) => () =>
  session
    .client()
    .list({ listings: [{ items: [{ id: 9, amount: 2 }], price: 700 }] }, { priority: 'interactive' });

describe('a list or withdraw on its way is in the desk', () => {
  it('from before it is sent; a clear answer deletes it', async () => {
    const db = open(bookFile());
    const session = sessionOn(db, MARKET, 7, {
      answer: (path) => (path === '/public/v1/list' ? json(200, { listings: [] }) : null),
    });
    session.rememberBackpack([row(9, 10)]);
    let during: unknown[] = [];
    const listed = await sendMove(session, 'list', [{ id: 9, amount: 2, entry: 0 }], () => {
      during = deskRows(db);
      return listNine(session)();
    });
    expect(listed).toEqual({ listings: [] });
    expect(during).toEqual([{ item_id: 9, state: 'sending', sent: 2, held_before: 10, at_ms: AT }]);
    expect(deskRows(db)).toEqual([]);
    expect(itemsOf(session)).toEqual([]);
  });

  it('a send the marketplace refuses outright (400) leaves nothing behind', async () => {
    const db = open(bookFile());
    const session = sessionOn(db, MARKET, 7, {
      answer: (path) =>
        path === '/public/v1/list'
          ? json(400, { error: { code: 'INSUFFICIENT_ITEMS', message: 'not enough copies' } })
          : null,
    });
    session.rememberBackpack([row(9, 10)]);
    let during: unknown[] = [];
    const refused = sendMove(session, 'list', [{ id: 9, amount: 2, entry: 0 }], () => {
      during = deskRows(db);
      return listNine(session)();
    });
    await expect(refused).rejects.toMatchObject({ kind: 'api', code: 'INSUFFICIENT_ITEMS' });
    expect(during).toEqual([{ item_id: 9, state: 'sending', sent: 2, held_before: 10, at_ms: AT }]);
    expect(deskRows(db)).toEqual([]);
  });

  it('a lost answer makes it an unclear move of the time it was lost', async () => {
    const db = open(bookFile());
    const clock = new ManualClock(AT);
    const session = sessionOn(db, MARKET, 7, { clock });
    session.rememberBackpack([row(9, 10)]);
    const lost = sendMove(session, 'list', [{ id: 9, amount: 2, entry: 0 }], async () => {
      await clock.advance(10_000);
      throw new ApiError({ kind: 'timeout', route: 'list', message: 'timed out', maybeDelivered: true });
    });
    await expect(lost).rejects.toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(deskRows(db)).toEqual([
      { item_id: 9, state: 'unclear', sent: 2, held_before: 10, at_ms: AT + 10_000 },
    ]);
  });

  it('a desk from before sends were written down keeps its moves and takes sends on their way', () => {
    const db = open(bookFile());
    db.exec(`CREATE TABLE desk.unclear_moves (id INTEGER PRIMARY KEY, market TEXT NOT NULL, account TEXT,
      item_id INTEGER NOT NULL, action TEXT NOT NULL, app_id INTEGER NOT NULL, name TEXT NOT NULL,
      sent INTEGER NOT NULL, held_before INTEGER NOT NULL, at_ms INTEGER NOT NULL)`);
    db.prepare(
      `INSERT INTO unclear_moves (market, account, item_id, action, app_id, name, sent, held_before, at_ms)
       VALUES ('${MARKET}', NULL, 9, 'list', 730, 'Sticker | X', 2, 10, ${AT})`,
    ).run();
    const session = sessionOn(db, MARKET, 7);
    expect(itemsOf(session)).toEqual([9]);
    session.unclearMoves.recordIntent(
      'withdraw',
      copiesPerItem([{ id: 11, amount: 1 }]),
      new Map([[11, row(11, 1)]]),
      AT,
    );
    expect(deskRows(db).map((r) => [r.item_id, r.state])).toEqual([
      [9, 'unclear'],
      [11, 'sending'],
    ]);
  });

  it('left by a run that died before the answer, it is an unclear move of the time it was written; not in its own run', async () => {
    const file = bookFile();
    const db = open(file);
    const session = sessionOn(db, MARKET, 7);
    session.rememberBackpack([row(9, 10)]);
    let answer!: () => void;
    cleanups.push(() => answer());
    const sent = sendMove(
      session,
      'list',
      [{ id: 9, amount: 2, entry: 0 }],
      () => new Promise<void>((resolve) => (answer = resolve)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    // its own run knows it is on its way: the form's check says nothing of it, and a second send is refused as such
    expect(itemsOf(session)).toEqual([]);
    await expect(
      sendMove(session, 'withdraw', [{ id: 9, amount: 1, entry: 0 }], () => Promise.resolve()),
    ).rejects.toThrow('is being sent right now');

    // the app is killed: its database goes without the answer read
    db.close();
    const next = sessionOn(open(file), MARKET, 7, { clock: new ManualClock(AT + 5_000) });
    expect(next.unclearMoves.of([9])).toEqual([
      { action: 'list', itemId: 9, appId: 730, name: 'Sticker | X', sent: 2, before: 10, atMs: AT },
    ]);
    answer();
    await sent;
  });
});

/**
 * The undercut guard: keeps an own listing just below the cheapest other listing of its item, never
 * below the floor its owner set — the answer to undercut wars that a trader can leave running. It reads
 * the competition from the local book (no request per check), lowers the price with one PATCH when
 * someone asks less (or the same), never goes under the floor, waits a cooldown between edits of one
 * listing, and acts only while the book is live. It raises a price only when its owner gave a ceiling:
 * then, once the rivals below have gone, it moves back up to just under the cheapest other (or to the
 * ceiling when none is left), never above the ceiling.
 */
import type Database from 'better-sqlite3';
import type { AppId } from '../../shared/api/index.ts';
import { formatCents } from '../../shared/money.ts';
import { ApiError, failureReason } from '../api/errors.ts';
import { type BookStanding, bookStandings } from '../query/book-standing.ts';
import { addDeskColumn, createDeskTables } from '../store/desk.ts';

export interface GuardRule {
  listingId: number;
  appId: AppId;
  marketHashName: string;
  floor: number;
  /** How far below the cheapest other listing to ask, in cents (1 by default). */
  step: number;
  /** The highest price the guard may raise to; null: it never raises. */
  ceiling: number | null;
}

export type GuardState = 'watching' | 'lowest' | 'undercut' | 'raised' | 'holding' | 'stopped';

export interface GuardView extends GuardRule {
  state: GuardState;
  /** Plain words: what the guard did last, or why it holds. */
  note: string;
  edits: number;
  lastEditAt: number | null;
}

export type GuardDecision =
  | { kind: 'lowest' }
  | { kind: 'undercut'; price: number }
  | { kind: 'raise'; price: number }
  | { kind: 'holding'; reason: string };

/**
 * What to do about one listing asking `price` against its standing in the book. A tie counts as being
 * undercut: the buyer's sort puts the older listing first, and that is rarely ours after a reprice.
 */
export function decideUndercut(
  price: number,
  rule: Pick<GuardRule, 'floor' | 'step' | 'ceiling'>,
  standing: BookStanding,
): GuardDecision {
  const lowest = standing.lowestOther;
  if (lowest === null || lowest > price) {
    // lowest already: with a ceiling, take back what a rival that left had forced down
    if (rule.ceiling === null) return { kind: 'lowest' };
    const reclaim = Math.min(rule.ceiling, lowest === null ? rule.ceiling : lowest - rule.step);
    return reclaim > price ? { kind: 'raise', price: reclaim } : { kind: 'lowest' };
  }
  const target = lowest - rule.step;
  if (target < rule.floor)
    return {
      kind: 'holding',
      reason: `the cheapest other asks ${formatCents(lowest)}; going under it would pass the floor of ${formatCents(rule.floor)}`,
    };
  if (target >= price) return { kind: 'lowest' };
  return { kind: 'undercut', price: target };
}

function raiseReason(
  price: number,
  rule: Pick<GuardRule, 'step' | 'ceiling'>,
  standing: BookStanding,
): string {
  if (standing.lowestOther === null) return 'no other listing left, so the ceiling';
  if (price === rule.ceiling)
    return `the ceiling (the cheapest other asks ${formatCents(standing.lowestOther)})`;
  return `${formatCents(rule.step)} under the cheapest other (#${standing.lowestOtherId}) again`;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS undercut_guards (
  listing_id INTEGER PRIMARY KEY,
  app_id INTEGER NOT NULL,
  market_hash_name TEXT NOT NULL,
  floor INTEGER NOT NULL,
  step INTEGER NOT NULL,
  ceiling INTEGER,
  state TEXT NOT NULL,
  note TEXT NOT NULL,
  edits INTEGER NOT NULL DEFAULT 0,
  last_edit_at INTEGER
);
`;

interface GuardRow {
  listing_id: number;
  app_id: AppId;
  market_hash_name: string;
  floor: number;
  step: number;
  ceiling: number | null;
  state: GuardState;
  note: string;
  edits: number;
  last_edit_at: number | null;
}

const toView = (r: GuardRow): GuardView => ({
  listingId: r.listing_id,
  appId: r.app_id,
  marketHashName: r.market_hash_name,
  floor: r.floor,
  step: r.step,
  ceiling: r.ceiling,
  state: r.state,
  note: r.note,
  edits: r.edits,
  lastEditAt: r.last_edit_at,
});

export interface UndercutGuardsOptions {
  db: Database.Database;
  now: () => number;
  /** Lowers one listing's price (PATCH price only: every copy moves); resolves with the price the market set. */
  reprice: (listingId: number, price: number) => Promise<number>;
  /** Whether edits may be sent now: connected, and the book live (a resyncing book may show stale rivals). */
  canAct: () => boolean;
  /** A guard acted or changed state. */
  onChange?: (guard: GuardView) => void;
  /** Between two edits of one listing (default 30 s): a war with another bot stays slow and visible. */
  cooldownMs?: number;
  /** The kill switch: engaged, no guard sends anything (it stops every automatic action). */
  halted?: () => boolean;
  /** Every own listing known (guarded or not): never a rival, or two stacks would undercut each other. */
  ownListingIds?: () => Iterable<number>;
}

/** The guards of one account, stored beside its other state; `check()` runs them once. */
export class UndercutGuards {
  readonly #o: UndercutGuardsOptions;
  readonly #sql;
  #checking: Promise<void> | null = null;

  constructor(options: UndercutGuardsOptions) {
    this.#o = options;
    createDeskTables(options.db, SCHEMA);
    // a table made before guards had a ceiling gets the column (they never raised: NULL)
    addDeskColumn(options.db, 'undercut_guards', 'ceiling', 'INTEGER');
    const db = options.db;
    this.#sql = {
      all: db.prepare<[], GuardRow>('SELECT * FROM undercut_guards ORDER BY listing_id'),
      one: db.prepare<[number], GuardRow>('SELECT * FROM undercut_guards WHERE listing_id = ?'),
      put: db.prepare(
        `INSERT INTO undercut_guards (listing_id, app_id, market_hash_name, floor, step, ceiling, state, note)
           VALUES (?, ?, ?, ?, ?, ?, 'watching', ?)
         ON CONFLICT (listing_id) DO UPDATE SET floor = excluded.floor, step = excluded.step, ceiling = excluded.ceiling,
           state = 'watching', note = excluded.note`,
      ),
      remove: db.prepare('DELETE FROM undercut_guards WHERE listing_id = ?'),
      state: db.prepare('UPDATE undercut_guards SET state = ?, note = ? WHERE listing_id = ?'),
      edited: db.prepare(
        'UPDATE undercut_guards SET state = ?, note = ?, edits = edits + 1, last_edit_at = ? WHERE listing_id = ?',
      ),
      failed: db.prepare(
        'UPDATE undercut_guards SET state = ?, note = ?, last_edit_at = ? WHERE listing_id = ?',
      ),
      price: db.prepare<[number], number>('SELECT price FROM listings WHERE id = ? AND alive = 1').pluck(),
    };
  }

  list(): GuardView[] {
    return this.#sql.all.all().map(toView);
  }

  get(listingId: number): GuardView | null {
    const row = this.#sql.one.get(listingId);
    return row ? toView(row) : null;
  }

  /** Starts (or changes) the guard of one listing. */
  set(rule: GuardRule): GuardView {
    this.#sql.put.run(
      rule.listingId,
      rule.appId,
      rule.marketHashName,
      rule.floor,
      rule.step,
      rule.ceiling,
      'Waiting for the next check.',
    );
    return this.get(rule.listingId)!;
  }

  remove(listingId: number): boolean {
    return this.#sql.remove.run(listingId).changes > 0;
  }

  /** Runs every guard once (a check already running is joined, not doubled). */
  check(): Promise<void> {
    this.#checking ??= this.#checkAll().finally(() => (this.#checking = null));
    return this.#checking;
  }

  async #checkAll(): Promise<void> {
    const guards = this.list();
    const watching: { guard: GuardView; price: number }[] = [];
    for (const guard of guards) {
      if (guard.state === 'stopped') continue;
      const price = this.#sql.price.get(guard.listingId);
      if (price === undefined)
        this.#setState(
          guard,
          'stopped',
          'The listing is no longer on the market (sold, delisted or private).',
        );
      else watching.push({ guard, price });
    }
    if (watching.length === 0) return;
    // one read of the book for every guard; the seller's own listings (guarded or not) are no rivals
    const own = [...(this.#o.ownListingIds?.() ?? []), ...guards.map((g) => g.listingId)];
    const standings = new Map(
      bookStandings(
        this.#o.db,
        watching.map(({ guard, price }) => ({
          id: guard.listingId,
          app_id: guard.appId,
          market_hash_name: guard.marketHashName,
          price,
        })),
        own,
      ).map((s) => [s.listingId, s]),
    );
    for (const { guard, price } of watching) {
      // read again: an earlier guard's PATCH took time, and this one may have been stopped or changed meanwhile
      const current = this.get(guard.listingId);
      if (current) await this.#checkOne(current, price, standings.get(guard.listingId));
    }
  }

  async #checkOne(guard: GuardView, price: number, standing: BookStanding | undefined): Promise<void> {
    if (!standing) return this.#setState(guard, 'watching', 'The book does not hold this game yet.');
    const decision = decideUndercut(price, guard, standing);
    if (decision.kind === 'lowest')
      return this.#setState(
        guard,
        'lowest',
        `Lowest at ${formatCents(price)}${standing.others > 0 ? ` of ${standing.others + 1}` : ''}.`,
      );
    if (decision.kind === 'holding')
      return this.#setState(guard, 'holding', `Holding at ${formatCents(price)}: ${decision.reason}.`);
    const now = this.#o.now();
    const cooldown = this.#o.cooldownMs ?? 30_000;
    if (guard.lastEditAt !== null && now - guard.lastEditAt < cooldown) return;
    const seen = decision.kind === 'undercut' ? 'Undercut seen' : 'Room to raise seen';
    if (this.#o.halted?.())
      return this.#setState(
        guard,
        'watching',
        `${seen}; the kill switch is engaged (Ctrl+Shift+K releases it).`,
      );
    if (!this.#o.canAct())
      return this.#setState(guard, 'watching', `${seen}; waiting for a live book and a connection to act.`);
    try {
      const set = await this.#o.reprice(guard.listingId, decision.price);
      const under = `${formatCents(guard.step)} under the cheapest other (#${standing.lowestOtherId})`;
      if (decision.kind === 'undercut')
        this.#sql.edited.run('undercut', `Lowered to ${formatCents(set)}, ${under}.`, now, guard.listingId);
      else
        this.#sql.edited.run(
          'raised',
          `Raised to ${formatCents(set)}: ${raiseReason(decision.price, guard, standing)}.`,
          now,
          guard.listingId,
        );
      this.#changed(guard.listingId);
    } catch (err) {
      // a listing gone since (sold, delisted) ends the guard; anything else is said and retried after the cooldown
      const gone = err instanceof ApiError && err.code === 'LISTING_NOT_FOUND';
      const why = err instanceof ApiError ? (err.code ? `${err.code} — ${err.explanation}` : err.explanation) : String(err);
      // a lost answer (timeout, dropped connection, 5xx) is no failure: the PATCH may have been applied,
      // and the next check sees the listing's price as the book shows it
      const note =
        err instanceof ApiError && err.outcomeUnknown
          ? `The reprice to ${formatCents(decision.price)} got no clear answer (${failureReason(err)}): it may have gone through; the next check reads the price again.`
          : `The reprice to ${formatCents(decision.price)} failed: ${why}`;
      this.#sql.failed.run(gone ? 'stopped' : 'watching', note, now, guard.listingId);
      this.#changed(guard.listingId);
    }
  }

  /** Tells the host a guard's new state; a guard removed while its check ran is not told about. */
  #changed(listingId: number): void {
    const now = this.get(listingId);
    if (now) this.#o.onChange?.(now);
  }

  #setState(guard: GuardView, state: GuardState, note: string): void {
    if (guard.state === state && guard.note === note) return;
    this.#sql.state.run(state, note, guard.listingId);
    this.#changed(guard.listingId);
  }
}

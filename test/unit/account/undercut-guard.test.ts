/**
 * The undercut guard: the decision (undercut by the step, a tie counts as undercut, never under the
 * floor, never raise) and the runner over a real book store (cooldown, live-only, a listing gone stops
 * its guard, a failed reprice is said and retried after the cooldown).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UndercutGuards, decideUndercut } from '../../../src/core/account/undercut-guard.ts';
import { ApiError } from '../../../src/core/api/errors.ts';
import { mergeSnapshot } from '../../../src/core/store/index.ts';
import { priceChangedEvent, removedEvent } from '../../bench/generate.ts';
import { lean, openTestStore, type TestStore } from '../store/helpers.ts';

const standing = (lowestOther: number | null, others = 3) => ({
  listingId: 1,
  others,
  cheaper: 0,
  lowestOther,
  lowestOtherId: lowestOther === null ? null : 9,
  phase: null,
});

describe('decideUndercut', () => {
  const rule = { floor: 900, step: 1, ceiling: null };
  it('undercuts the cheapest other by the step, a tie included', () => {
    expect(decideUndercut(1_000, rule, standing(950))).toEqual({ kind: 'undercut', price: 949 });
    expect(decideUndercut(1_000, rule, standing(1_000))).toEqual({ kind: 'undercut', price: 999 });
    expect(decideUndercut(1_000, { floor: 900, step: 25, ceiling: null }, standing(990))).toEqual({
      kind: 'undercut',
      price: 965,
    });
  });
  it('never goes under the floor, and never raises', () => {
    expect(decideUndercut(1_000, rule, standing(900))).toMatchObject({ kind: 'holding' });
    expect(decideUndercut(1_000, rule, standing(901))).toEqual({ kind: 'undercut', price: 900 });
    expect(decideUndercut(1_000, rule, standing(1_200))).toEqual({ kind: 'lowest' });
    expect(decideUndercut(1_000, rule, standing(null, 0))).toEqual({ kind: 'lowest' });
    // a tie with a rival asking the same: one step under it
    expect(decideUndercut(949, rule, standing(949))).toEqual({ kind: 'undercut', price: 948 });
  });
});

describe('decideUndercut with a ceiling', () => {
  const rule = { floor: 900, step: 1, ceiling: 1_500 };
  it('raises back to one step under the cheapest other once the rivals below have gone, never above the ceiling', () => {
    expect(decideUndercut(949, rule, standing(1_200))).toEqual({ kind: 'raise', price: 1_199 });
    expect(decideUndercut(949, rule, standing(2_000))).toEqual({ kind: 'raise', price: 1_500 });
    expect(decideUndercut(949, rule, standing(null, 0))).toEqual({ kind: 'raise', price: 1_500 });
    // already one step under (or at the ceiling): nothing to do
    expect(decideUndercut(1_199, rule, standing(1_200))).toEqual({ kind: 'lowest' });
    expect(decideUndercut(1_500, rule, standing(null, 0))).toEqual({ kind: 'lowest' });
    // undercut still wins over raising
    expect(decideUndercut(1_000, rule, standing(950))).toEqual({ kind: 'undercut', price: 949 });
  });
});

describe('UndercutGuards', () => {
  let t: TestStore;
  let seq = 100n;
  let now = 1_000_000;
  let live = true;
  const reprices: [number, number][] = [];
  let failWith: Error | null = null;
  let guards: UndercutGuards;
  let ownIds: number[] = [];
  let halted = false;
  const NAME = 'Revolution Case';

  beforeEach(async () => {
    t = openTestStore();
    seq = 100n;
    reprices.length = 0;
    failWith = null;
    live = true;
    ownIds = [];
    halted = false;
    await mergeSnapshot(
      t.store,
      {
        seq,
        listings: [
          lean(1, { market_hash_name: NAME, price: 1_000 }),
          lean(2, { market_hash_name: NAME, price: 1_200 }),
          lean(3, { market_hash_name: 'Other', price: 5 }),
        ],
      },
      { scope: null, resync: false },
    );
    guards = new UndercutGuards({
      db: t.db,
      now: () => now,
      canAct: () => live,
      cooldownMs: 30_000,
      ownListingIds: () => ownIds,
      halted: () => halted,
      reprice: async (id, price) => {
        if (failWith) throw failWith;
        reprices.push([id, price]);
        // the feed then carries the new price into the book
        t.store.applyEvents([priceChangedEvent(id, 730, 1_000, price, ++seq)]);
        return price;
      },
    });
    guards.set({ listingId: 1, appId: 730, marketHashName: NAME, floor: 900, step: 1, ceiling: null });
  });
  afterEach(() => t.close());

  const rival = (price: number) => t.store.applyEvents([priceChangedEvent(2, 730, 1_200, price, ++seq)]);

  it('is lowest while nobody asks less, undercuts a rival once per cooldown, and holds at the floor', async () => {
    await guards.check();
    expect(guards.get(1)).toMatchObject({ state: 'lowest', note: 'Lowest at $10.00 of 2.', edits: 0 });
    rival(980);
    await guards.check();
    expect(reprices).toEqual([[1, 979]]);
    expect(guards.get(1)).toMatchObject({ state: 'undercut', edits: 1, lastEditAt: now });
    expect(guards.get(1)!.note).toBe('Lowered to $9.79, $0.01 under the cheapest other (#2).');
    // the rival answers at once: the guard waits out its cooldown
    rival(970);
    now += 10_000;
    await guards.check();
    expect(reprices).toHaveLength(1);
    now += 20_000;
    await guards.check();
    expect(reprices).toEqual([
      [1, 979],
      [1, 969],
    ]);
    // under the floor: hold, say why, send nothing
    rival(850);
    now += 60_000;
    await guards.check();
    expect(reprices).toHaveLength(2);
    expect(guards.get(1)).toMatchObject({ state: 'holding' });
    expect(guards.get(1)!.note).toBe(
      'Holding at $9.69: the cheapest other asks $8.50; going under it would pass the floor of $9.00.',
    );
  });

  it('with a ceiling, moves back up when the rival below is gone, and says why', async () => {
    guards.set({ listingId: 1, appId: 730, marketHashName: NAME, floor: 900, step: 1, ceiling: 1_100 });
    rival(950);
    await guards.check();
    expect(reprices).toEqual([[1, 949]]);
    // the rival sells out: back up to the ceiling (no other listing left), after the cooldown
    t.store.applyEvents([removedEvent(2, 730, ++seq)]);
    now += 30_000;
    await guards.check();
    expect(reprices).toEqual([[1, 949], [1, 1_100]]);
    expect(guards.get(1)).toMatchObject({ state: 'raised', edits: 2, note: 'Raised to $11.00: no other listing left, so the ceiling.' });
  });

  it('a guard stopped while its reprice is on the wire is not brought back nor reported', async () => {
    const told: number[] = [];
    const racing = new UndercutGuards({
      db: t.db,
      now: () => now,
      canAct: () => true,
      onChange: (g) => told.push(g.listingId),
      reprice: async (id, price) => {
        racing.remove(id); // the user pressed Stop guard meanwhile
        return price;
      },
    });
    rival(950);
    await racing.check();
    expect(racing.get(1)).toBeNull();
    expect(told).toEqual([]);
  });

  it('a guard stopped while another guard\'s reprice is on the wire does not act in that pass', async () => {
    await mergeSnapshot(
      t.store,
      {
        seq: ++seq,
        listings: [
          lean(1, { market_hash_name: NAME, price: 1_000 }),
          lean(2, { market_hash_name: NAME, price: 1_200 }),
          lean(4, { market_hash_name: 'Other Case', price: 500 }),
          lean(5, { market_hash_name: 'Other Case', price: 400 }),
        ],
      },
      { scope: null, resync: false },
    );
    const sent: number[] = [];
    const pair = new UndercutGuards({
      db: t.db,
      now: () => now,
      canAct: () => true,
      reprice: async (id, price) => {
        sent.push(id);
        pair.remove(4); // Stop guard on the second listing while the first one's PATCH is out
        return price;
      },
    });
    pair.set({ listingId: 4, appId: 730, marketHashName: 'Other Case', floor: 100, step: 1, ceiling: null });
    rival(950);
    await pair.check();
    expect(sent).toEqual([1]);
    expect(pair.get(4)).toBeNull();
  });

  it('opens a table made before guards had a ceiling', () => {
    t.db.exec('DROP TABLE undercut_guards');
    t.db.exec(`CREATE TABLE undercut_guards (listing_id INTEGER PRIMARY KEY, app_id INTEGER NOT NULL, market_hash_name TEXT NOT NULL,
      floor INTEGER NOT NULL, step INTEGER NOT NULL, state TEXT NOT NULL, note TEXT NOT NULL, edits INTEGER NOT NULL DEFAULT 0, last_edit_at INTEGER)`);
    t.db.prepare("INSERT INTO undercut_guards VALUES (7, 730, 'x', 100, 1, 'lowest', 'Lowest at $1.00.', 0, NULL)").run();
    const reopened = new UndercutGuards({ db: t.db, now: () => now, canAct: () => true, reprice: async () => 0 });
    expect(reopened.get(7)).toMatchObject({ floor: 100, ceiling: null, state: 'lowest' });
  });

  it('never sets the seller\'s own listings against each other', async () => {
    ownIds = [2]; // the other stack of the same item is ours too
    rival(950);
    await guards.check();
    expect(reprices).toEqual([]);
    expect(guards.get(1)).toMatchObject({ state: 'lowest', note: 'Lowest at $10.00.' });
    // two guarded listings of one item: neither counts the other
    ownIds = [];
    guards.set({ listingId: 2, appId: 730, marketHashName: NAME, floor: 100, step: 1, ceiling: null });
    await guards.check();
    expect(reprices).toEqual([]);
  });

  it('acts only while it may (a live book, a connection, the kill switch released), and stops when the listing is gone', async () => {
    live = false;
    rival(950);
    await guards.check();
    expect(reprices).toEqual([]);
    expect(guards.get(1)).toMatchObject({ state: 'watching', note: 'Undercut seen; waiting for a live book and a connection to act.' });
    live = true;
    halted = true;
    await guards.check();
    expect(reprices).toEqual([]);
    expect(guards.get(1)).toMatchObject({ state: 'watching', note: 'Undercut seen; the kill switch is engaged (Ctrl+Shift+K releases it).' });
    halted = false;
    await guards.check();
    expect(reprices).toEqual([[1, 949]]);
    t.store.applyEvents([removedEvent(1, 730, ++seq)]);
    await guards.check();
    expect(guards.get(1)).toMatchObject({
      state: 'stopped',
      note: 'The listing is no longer on the market (sold, delisted or private).',
    });
  });

  it('says a failed reprice in plain words, retries after the cooldown, and stops on LISTING_NOT_FOUND', async () => {
    rival(950);
    failWith = new ApiError({
      kind: 'rate_limited',
      route: 'PATCH /listings',
      status: 429,
      message: 'slow down',
      code: 'RATE_LIMITED',
    });
    await guards.check();
    expect(guards.get(1)).toMatchObject({ state: 'watching', edits: 0 });
    expect(guards.get(1)!.note).toMatch(/^The reprice to \$9\.49 failed: RATE_LIMITED — /);
    failWith = null;
    now += 10_000;
    await guards.check();
    expect(reprices).toEqual([]);
    now += 30_000;
    await guards.check();
    expect(reprices).toEqual([[1, 949]]);
    rival(940);
    failWith = new ApiError({
      kind: 'api',
      route: 'PATCH /listings',
      status: 404,
      message: 'gone',
      code: 'LISTING_NOT_FOUND',
    });
    now += 60_000;
    await guards.check();
    expect(guards.get(1)).toMatchObject({ state: 'stopped' });
    expect(guards.remove(1)).toBe(true);
    expect(guards.list()).toEqual([]);
  });

  it('a reprice whose answer was lost is not called failed: it may have gone through', async () => {
    rival(950);
    failWith = new ApiError({ kind: 'network', route: 'PATCH /listings', message: 'PATCH /listings: network failure (ECONNRESET: socket hang up)', maybeDelivered: true });
    await guards.check();
    expect(guards.get(1)).toMatchObject({ state: 'watching', edits: 0 });
    expect(guards.get(1)!.note).toBe(
      'The reprice to $9.49 got no clear answer (the marketplace could not be reached): it may have gone through; the next check reads the price again.',
    );
  });

  it('says a failure without a code in plain words, not as the error kind or the request line', async () => {
    rival(950);
    failWith = new ApiError({ kind: 'network', route: 'PATCH /listings', message: 'PATCH /listings: network failure (ECONNREFUSED: connect refused)', maybeDelivered: false });
    await guards.check();
    expect(guards.get(1)!.note).toBe('The reprice to $9.49 failed: The marketplace could not be reached.');
    failWith = new ApiError({ kind: 'api', route: 'PATCH /listings', status: 404, message: 'PATCH /listings: HTTP 404' });
    now += 60_000;
    await guards.check();
    expect(guards.get(1)!.note).toBe(
      'The reprice to $9.49 failed: The marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong).',
    );
  });
});

/**
 * The OS notifications a burst's window holds (notifier.ts) are not lost when the watch stops: an
 * orderly stop tells them as one summary, and after a hard crash the next run tells the alerts that were
 * written but never notified, as one summary, once — and nothing that was notified already.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/store/index.ts';
import { WatchService } from '../../../src/core/watch/index.ts';
import type { FullListing, ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import type { WatchlistInput } from '../../../src/shared/watchlist.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import type { TestStore } from '../store/helpers.ts';
import { watchRunsClosedAfterEach } from './watch-runs.ts';

const ITEM = 'Sticker | Held Back (Holo)';
const QUIET_ITEM = 'Sticker | Never Shown (Foil)';

const runs = watchRunsClosedAfterEach();

type Shown = { title: string; body: string };

function watchlist(name: string, item: string, notify: boolean): WatchlistInput {
  return {
    name,
    filter: { name: item },
    price: { kind: 'ceiling', max_price: 1_000_000 },
    alerts: { notify, sound: false, webhook: null },
    auto_buy: { mode: 'off' },
  };
}

function arrival(id: number, name: string, price: number): ListingCreatedEvent {
  const listing: FullListing = { ...makeFullListing(createRng(id), id), market_hash_name: name, price };
  return createdEvent(listing, BigInt(id)) as ListingCreatedEvent;
}

/** A live watch over `db` with a minute-long notification window, its notifications in `shown`. */
function liveWatch(db: TestStore['db'], shown: Shown[], now?: () => number): WatchService {
  const s = new WatchService({
    db,
    notify: (title, body) => shown.push({ title, body }),
    notifyWindowMs: 60_000,
    ...(now ? { now } : {}),
  });
  runs.track(s);
  s.onStatus('live');
  return s;
}

describe('notifications held in the window', () => {
  it('are told as one summary when the watch stops in an orderly way', async () => {
    const t = runs.openStore();
    const shown: Shown[] = [];
    const s = liveWatch(t.db, shown);
    s.create(watchlist('held', ITEM, true));
    await s.settled();
    for (const [id, price] of [
      [1, 101],
      [2, 202],
      [3, 303],
    ] as const)
      s.onArrived(arrival(id, ITEM, price));
    await s.settled();
    // the first at once, the other two held for the window's end
    expect(shown).toEqual([{ title: 'Watchlist “held”', body: `${ITEM} at $1.01` }]);

    await s.close();
    expect(shown).toEqual([
      { title: 'Watchlist “held”', body: `${ITEM} at $1.01` },
      { title: '2 watchlist matches for “held”', body: `${ITEM} at $2.02; ${ITEM} at $3.03` },
    ]);
  });

  it('after a crash, are told once by the next run: what was held, not what was shown, nor what never notifies', async () => {
    const t = runs.openStore();
    const crashedDb = openDatabase(t.file);
    const beforeCrash: Shown[] = [];
    const crashed = new WatchService({
      db: crashedDb,
      notify: (title, body) => beforeCrash.push({ title, body }),
      notifyWindowMs: 60_000,
    });
    crashed.onStatus('live');
    crashed.create(watchlist('held', ITEM, true));
    crashed.create(watchlist('quiet', QUIET_ITEM, false));
    await crashed.settled();
    for (const [id, price] of [
      [1, 101],
      [2, 202],
      [3, 303],
    ] as const)
      crashed.onArrived(arrival(id, ITEM, price));
    crashed.onArrived(arrival(4, QUIET_ITEM, 404));
    await crashed.settled();
    expect(crashed.alerts()).toHaveLength(4);
    expect(beforeCrash).toHaveLength(1);
    // the process dies with two notifications held (nothing of it runs again, so no close): its file is
    // all that is left
    crashedDb.close();

    // started a minute later
    const afterCrash: Shown[] = [];
    const next = liveWatch(t.db, afterCrash, () => Date.now() + 60_000);
    expect(afterCrash).toEqual([
      { title: '2 watchlist matches for “held”', body: `${ITEM} at $2.02; ${ITEM} at $3.03` },
    ]);
    // in the feed once each, as before
    expect(
      next
        .alerts()
        .map((a) => a.price)
        .sort(),
    ).toEqual([101, 202, 303, 404]);
    await next.close();
    expect(afterCrash).toHaveLength(1);

    // and the run after that has nothing left to tell
    const later: Shown[] = [];
    const last = liveWatch(t.db, later, () => Date.now() + 120_000);
    await last.close();
    expect(later).toEqual([]);
  });

  it('after a crash, a run started more than an hour later leaves the un-notified alerts in the feed only', async () => {
    const t = runs.openStore();
    const crashedDb = openDatabase(t.file);
    const crashed = new WatchService({ db: crashedDb, notify: () => {}, notifyWindowMs: 60_000 });
    crashed.onStatus('live');
    crashed.create(watchlist('held', ITEM, true));
    await crashed.settled();
    crashed.onArrived(arrival(1, ITEM, 101));
    crashed.onArrived(arrival(2, ITEM, 202));
    await crashed.settled();
    crashedDb.close();

    const nextDay: Shown[] = [];
    const next = liveWatch(t.db, nextDay, () => Date.now() + 2 * 60 * 60_000);
    expect(nextDay).toEqual([]);
    expect(next.alerts().map((a) => a.price).sort()).toEqual([101, 202]);
    await next.close();
    // released, not merely skipped: a run whose clock reads earlier has nothing owed either
    const again: Shown[] = [];
    const last = liveWatch(t.db, again, () => Date.now() + 60_000);
    await last.close();
    expect(again).toEqual([]);
  });

  it('a run starting beside a live one leaves its fresh burst to it, and one of them tells an older one, once', async () => {
    const t = runs.openStore();
    const firstShown: Shown[] = [];
    const first = liveWatch(t.db, firstShown);
    first.create(watchlist('held', ITEM, true));
    await first.settled();
    for (const [id, price] of [
      [1, 101],
      [2, 202],
    ] as const)
      first.onArrived(arrival(id, ITEM, price));
    await first.settled();
    expect(firstShown).toHaveLength(1);

    // at once: the burst is the live run's to tell at its window's end
    const besideShown: Shown[] = [];
    await liveWatch(t.db, besideShown).close();
    expect(besideShown).toEqual([]);

    // a minute on, the held one looks left behind: told by the run starting then, and not again by the
    // live run when its window ends
    const lateShown: Shown[] = [];
    liveWatch(t.db, lateShown, () => Date.now() + 60_000);
    expect(lateShown).toEqual([{ title: 'Watchlist “held”', body: `${ITEM} at $2.02` }]);
    await first.close();
    expect(firstShown).toHaveLength(1);
  });

  it('a file from before notifications were remembered owes none: its alerts are not told again', async () => {
    const t = runs.openStore();
    t.db
      .exec(`CREATE TABLE watch_alerts (id INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, watchlist_id INTEGER NOT NULL,
      watchlist_name TEXT NOT NULL, listing_id INTEGER NOT NULL, app_id INTEGER NOT NULL, market_hash_name TEXT NOT NULL,
      price INTEGER NOT NULL, amount INTEGER NOT NULL, seq INTEGER NOT NULL, reference_price INTEGER, ceiling INTEGER NOT NULL,
      origin TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'new')`);
    t.db
      .prepare(
        `INSERT INTO watch_alerts (at_ms, watchlist_id, watchlist_name, listing_id, app_id, market_hash_name, price,
          amount, seq, ceiling, origin) VALUES (?, 1, 'held', 7, 730, ?, 500, 1, 7, 1000, 'event')`,
      )
      .run(Date.now() - 3_600_000, ITEM);
    const shown: Shown[] = [];
    const s = liveWatch(t.db, shown);
    expect(s.alerts()).toHaveLength(1);
    await s.close();
    expect(shown).toEqual([]);
  });
});

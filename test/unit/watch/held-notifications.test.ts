/**
 * The OS notifications a burst's window holds (notifier.ts) are not lost when the watch stops: an
 * orderly stop tells them as one summary, and after a hard crash the next run tells the alerts that were
 * written but never notified, as one summary, once — and nothing that was notified already. The same
 * holds for the posts to a watchlist's webhook (alert-webhook.ts), whose window coalesces alike.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/store/index.ts';
import { WatchService, type WatchServiceOptions } from '../../../src/core/watch/index.ts';
import type { FullListing, ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import type { WatchlistInput } from '../../../src/shared/watchlist.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import type { TestStore } from '../store/helpers.ts';
import { watchRunsClosedAfterEach } from './watch-runs.ts';

const ITEM = 'Sticker | Held Back (Holo)';
const QUIET_ITEM = 'Sticker | Never Shown (Foil)';

const runs = watchRunsClosedAfterEach();

type Shown = { title: string; body: string };

function watchlist(name: string, item: string, notify: boolean, webhook: string | null = null): WatchlistInput {
  return {
    name,
    filter: { name: item },
    price: { kind: 'ceiling', max_price: 1_000_000 },
    alerts: { notify, sound: false, webhook },
    auto_buy: { mode: 'off' },
  };
}

function arrival(id: number, name: string, price: number): ListingCreatedEvent {
  const listing: FullListing = { ...makeFullListing(createRng(id), id), market_hash_name: name, price };
  return createdEvent(listing, BigInt(id)) as ListingCreatedEvent;
}

/**
 * A run over `file` whose watchlist `told` matches 1.01, 2.02 and 3.03 (the first told at once, the other
 * two held in its minute-long window) and a quiet one 4.04; then the process dies (nothing of it runs
 * again, so no close): its file is all that is left.
 */
async function runUntilCrash(file: string, channels: Pick<WatchServiceOptions, 'notify' | 'webhookFetch'>, told: WatchlistInput): Promise<void> {
  const crashedDb = openDatabase(file);
  const crashed = new WatchService({ db: crashedDb, notifyWindowMs: 60_000, ...channels });
  crashed.onStatus('live');
  crashed.create(told);
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
  // the first post goes out on its own, after a fetch that resolves at once
  await new Promise((r) => setTimeout(r, 50));
  expect(crashed.alerts()).toHaveLength(4);
  crashedDb.close();
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
    const beforeCrash: Shown[] = [];
    await runUntilCrash(t.file, { notify: (title, body) => beforeCrash.push({ title, body }) }, watchlist('held', ITEM, true));
    expect(beforeCrash).toHaveLength(1);

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

const HOOK = 'https://hooks.example.com/services/T000/B000/SECRET';

/** A webhook post as the service made it: where, and the listing prices of the alerts it carried. */
type Posted = { url: string; prices: number[] };

/** The service's webhook client: takes every post (204), recording it in `posted`. */
function recordingFetch(posted: Posted[]): typeof fetch {
  return (input, init) => {
    const body = JSON.parse(String(init?.body)) as { alerts: { price: number }[] };
    posted.push({ url: String(input), prices: body.alerts.map((a) => a.price) });
    return Promise.resolve(new Response(null, { status: 204 }));
  };
}

/** A watch over `db` without OS notifications, posting with a minute-long window, its posts in `posted`. */
function postingWatch(db: TestStore['db'], posted: Posted[], now?: () => number): WatchService {
  const s = new WatchService({ db, webhookFetch: recordingFetch(posted), notifyWindowMs: 60_000, ...(now ? { now } : {}) });
  runs.track(s);
  s.onStatus('live');
  return s;
}

/** Waits for the posts under way (they go out on their own, after a fetch that resolves at once). */
const postsSent = () => new Promise((r) => setTimeout(r, 50));

/** A run that posts to HOOK, crashing with the posts of 2.02 and 3.03 held in its window (1.01 posted). */
async function crashWithPostsHeld(file: string): Promise<Posted[]> {
  const posted: Posted[] = [];
  await runUntilCrash(file, { webhookFetch: recordingFetch(posted) }, watchlist('posted', ITEM, false, HOOK));
  return posted;
}

describe('webhook posts held in the window', () => {
  it('after a crash, are posted once by the next run: what was held, not what was posted, nor what posts nowhere', async () => {
    const t = runs.openStore();
    expect(await crashWithPostsHeld(t.file)).toEqual([{ url: HOOK, prices: [101] }]);

    // started a minute later
    const afterCrash: Posted[] = [];
    const next = postingWatch(t.db, afterCrash, () => Date.now() + 60_000);
    await postsSent();
    expect(afterCrash).toEqual([{ url: HOOK, prices: [202, 303] }]);
    expect(next.alerts().map((a) => a.price).sort()).toEqual([101, 202, 303, 404]);
    await next.close();
    expect(afterCrash).toHaveLength(1);

    // and the run after that has nothing left to post
    const later: Posted[] = [];
    const last = postingWatch(t.db, later, () => Date.now() + 120_000);
    await postsSent();
    await last.close();
    expect(later).toEqual([]);
  });

  it('after a crash, a run started more than an hour later leaves the unposted alerts in the feed only', async () => {
    const t = runs.openStore();
    await crashWithPostsHeld(t.file);
    const nextDay: Posted[] = [];
    const next = postingWatch(t.db, nextDay, () => Date.now() + 2 * 60 * 60_000);
    await postsSent();
    expect(nextDay).toEqual([]);
    expect(next.alerts()).toHaveLength(4);
    await next.close();
    // released, not merely skipped: a run whose clock reads earlier has nothing owed either
    const again: Posted[] = [];
    await postingWatch(t.db, again, () => Date.now() + 60_000).close();
    expect(again).toEqual([]);
  });

  it('a run starting beside a live one leaves its fresh burst to it, and one of them posts an older one, once', async () => {
    const t = runs.openStore();
    const firstPosted: Posted[] = [];
    const first = postingWatch(t.db, firstPosted);
    first.create(watchlist('posted', ITEM, false, HOOK));
    await first.settled();
    first.onArrived(arrival(1, ITEM, 101));
    first.onArrived(arrival(2, ITEM, 202));
    await first.settled();
    await postsSent();
    expect(firstPosted).toEqual([{ url: HOOK, prices: [101] }]);

    // at once: the burst is the live run's to post at its window's end
    const besidePosted: Posted[] = [];
    await postingWatch(t.db, besidePosted).close();
    expect(besidePosted).toEqual([]);

    // a minute on, the held one looks left behind: posted by the run starting then, and not again by
    // the live run when it stops
    const latePosted: Posted[] = [];
    postingWatch(t.db, latePosted, () => Date.now() + 60_000);
    await postsSent();
    expect(latePosted).toEqual([{ url: HOOK, prices: [202] }]);
    await first.close();
    expect(firstPosted).toEqual([{ url: HOOK, prices: [101] }]);
  });
});

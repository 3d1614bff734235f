/**
 * The OS notifications a burst's window holds (notifier.ts) are not lost when the watch stops: an
 * orderly stop tells them as one summary.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WatchService } from '../../../src/core/watch/index.ts';
import type { FullListing, ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import type { WatchlistInput } from '../../../src/shared/watchlist.ts';
import { createRng, createdEvent, makeFullListing } from '../../bench/generate.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

const ITEM = 'Sticker | Held Back (Holo)';

let t: TestStore | null = null;
let services: WatchService[] = [];
afterEach(async () => {
  for (const s of services) await s.close();
  services = [];
  t?.close();
  t = null;
});

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
function liveWatch(db: TestStore['db'], shown: Shown[]): WatchService {
  const s = new WatchService({
    db,
    notify: (title, body) => shown.push({ title, body }),
    notifyWindowMs: 60_000,
  });
  services.push(s);
  s.onStatus('live');
  return s;
}

describe('notifications held in the window', () => {
  it('are told as one summary when the watch stops in an orderly way', async () => {
    t = openTestStore();
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
});

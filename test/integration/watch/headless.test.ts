/**
 * The real sync engine and the watch service in one process (what `skindesk watch` runs), against a
 * demo market that goes down and comes back, with duplicated and reordered delivery: a listing that
 * appeared while the feed was down reaches the book through the resync snapshot and is alerted by the
 * sweep but never bought; once live again, a new listing is bought exactly once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { HeadlessWatch } from '../../../src/core/watch/headless.ts';
import { Caches, claimCaches, openDatabase } from '../../../src/core/store/index.ts';
import { attachDesk } from '../../../src/core/store/desk.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { PurchaseJournal } from '../../../src/core/api/purchase-journal.ts';
import { WatchStore } from '../../../src/core/watch/index.ts';
import { queryBook } from '../../../src/core/query/index.ts';
import { autoWatchlist, itemNames, startQuietMarket, tempDb, waitFor } from './rig.ts';

const FAST_ENGINE = {
  pingIntervalMs: 100,
  livenessTimeoutMs: 1_000,
  snapshotRetryMs: 200,
  firstEventWaitMs: 50,
  reconnect: { baseMs: 50, capMs: 200, floorMs: 0 },
};

let demo: DemoMarket | null = null;
let run: HeadlessWatch | null = null;
let tmp: ReturnType<typeof tempDb> | null = null;
afterEach(async () => {
  await run?.stop();
  await demo?.close();
  tmp?.remove();
  run = demo = tmp = null;
});

describe('headless watch with the real engine', () => {
  it('never buys while offline or resyncing; buys once when live, even with duplicated and reordered events', async () => {
    demo = await startQuietMarket({ duplicate: 1, reorder: 0.5 });
    tmp = tempDb();
    const [item] = itemNames(demo, 1);
    const states: string[] = [];
    run = await HeadlessWatch.start({
      dbPath: tmp.file,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
      wsUrl: demo.wsUrl,
      watchlists: [autoWatchlist('snipe', item!.name, 1_000)],
      autoBuy: true,
      engine: FAST_ENGINE,
      onStatus: (s) => {
        if (states[states.length - 1] !== s.state) states.push(s.state);
      },
    });
    const service = run.service;
    await waitFor(() => service.bookLive, 20_000, 'live');
    const journal = () => run!.db.prepare('SELECT listing_id, state FROM purchase_journal').all() as { listing_id: number; state: string }[];

    // the market goes away; a matching listing appears while we cannot see it
    const restarted = demo.chaos.restart(1_500);
    await waitFor(() => !service.bookLive, 10_000, 'the feed to drop');
    const dark = demo.createListing({ name: item!.name, price: 600 });
    // past the server's 10 s /book cache, so the resync snapshot holds the new listing
    demo.advanceClock(11_000);
    await restarted;
    await waitFor(() => service.bookLive, 20_000, 'live again');
    await waitFor(() => service.alerts(20).some((a) => a.listingId === dark.listing.id), 10_000, 'the sweep alert');
    await service.settled();
    expect(service.alerts(20).find((a) => a.listingId === dark.listing.id)).toMatchObject({ origin: 'sweep', state: 'new' });
    expect(journal()).toEqual([]);
    expect(states).toContain('offline');
    expect(demo.state.listing(dark.listing.id)?.status).toBe('ACTIVE');

    // live: a new listing (delivered twice, possibly out of order with its reprice) is bought once
    const fresh = demo.createListing({ name: item!.name, price: 900 });
    demo.repriceListing(fresh.listing.id, 850);
    demo.flushFeed();
    await waitFor(() => service.log(10).some((e) => e.listingId === fresh.listing.id && e.status === 'bought'), 20_000, 'the purchase');
    await new Promise((r) => setTimeout(r, 300)); // any late duplicate has arrived by now
    await service.settled();
    expect(journal().filter((j) => j.listing_id === fresh.listing.id)).toEqual([{ listing_id: fresh.listing.id, state: 'bought' }]);
    expect(service.log(10).filter((e) => e.listingId === fresh.listing.id && e.decision === 'sent')).toHaveLength(1);
  }, 60_000);

  it("judges by this market's reference prices only: another market's cached averages are forgotten", async () => {
    demo = await startQuietMarket();
    tmp = tempDb();
    const [item] = itemNames(demo, 1);
    // the file was last used with another marketplace, whose 30-day average of the item was far higher
    const before = openDatabase(tmp.file);
    attachDesk(before, tmp.file);
    claimCaches(before, 'https://another-market.example', null);
    await new Caches(before).replaceAverages([{ app_id: 730, market_hash_name: item!.name, average_price: 1_000_000, sales: 40, volume: 90 }]);
    before.close();

    run = await HeadlessWatch.start({
      dbPath: tmp.file,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
      wsUrl: demo.wsUrl,
      watchlists: [{ name: 'under average', filter: { name: item!.name }, price: { kind: 'below', reference: 'average_30d', percent: 10 } }],
      autoBuy: true,
      engine: FAST_ENGINE,
    });
    // before this market's averages were read: none of the other market's is taken for this one's
    expect(new Caches(run.db).averages().filter((a) => a.average_price === 1_000_000)).toEqual([]);
  });

  it('settles at start the purchase a run that stopped mid-purchase left open, not at the next purchase', async () => {
    demo = await startQuietMarket();
    tmp = tempDb();
    const [item] = itemNames(demo, 1);
    const input = autoWatchlist('snipe', item!.name, 1_000);
    // what the stopped run left in the file: its watchlist, the purchase pending in the log, the intent
    const before = openDatabase(tmp.file);
    attachDesk(before, tmp.file);
    const store = new WatchStore(before);
    const w = store.create(input);
    const at = Date.now() - 60_000;
    const pending = store.addLogEntry({
      atMs: at,
      watchlistId: w.id,
      alertId: null,
      listingId: 77_777_777,
      marketHashName: item!.name,
      maxPrice: 900,
      amount: 1,
      triggerSeq: 123_456_789n,
      mode: 'auto',
      decision: 'sent',
      reason: null,
      status: 'pending',
    });
    new PurchaseJournal(before).recordIntent({
      intentId: 'stopped-run',
      createdAtMs: at,
      listingId: 77_777_777,
      amount: 1,
      maxPrice: 900,
      appId: 730,
      marketHashName: item!.name,
      triggerSeq: 123_456_789n,
      watchlistId: w.id,
      source: 'watch:auto',
    });
    before.close();

    run = await HeadlessWatch.start({
      dbPath: tmp.file,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
      wsUrl: demo.wsUrl,
      watchlists: [input],
      autoBuy: true,
      engine: FAST_ENGINE,
    });
    const service = run.service;
    await waitFor(() => service.store.logEntry(pending.id)?.status !== 'pending', 20_000, 'the earlier purchase settled');
    // the order history holds no such order: not bought, and nothing counted against the budget
    expect(service.store.logEntry(pending.id)).toMatchObject({ status: 'not_bought', intentId: 'stopped-run' });
    expect(service.store.spend(w.id, 0, 0).total).toBe(0);
  }, 40_000);

  it('a listing the book held without its float is alerted once the backfill brings it, as skindesk search finds it then', async () => {
    demo = await startQuietMarket();
    tmp = tempDb();
    // a skin of the book, with its float: the snapshot the watch loads carries neither float nor seed
    const client = new ApiClient({ baseUrl: demo.baseUrl, apiKey: demo.apiKey, wsUrl: demo.wsUrl });
    const { listings } = await client.listings({ limit: '1000', app_id: '730' });
    const skin = listings.find((l) => !l.commodity && l.cs_paint_wear !== null && l.cs_paint_wear !== undefined)!;
    expect(skin).toBeDefined();
    const wear = skin.cs_paint_wear as number;
    run = await HeadlessWatch.start({
      dbPath: tmp.file,
      baseUrl: demo.baseUrl,
      apiKey: demo.apiKey,
      wsUrl: demo.wsUrl,
      // exactly its float, both edges of the range on it
      watchlists: [{ name: 'that float', filter: { name: skin.market_hash_name, float: { min: wear, max: wear } }, price: { kind: 'ceiling', max_price: skin.price } }],
      autoBuy: false,
      engine: FAST_ENGINE,
      service: { detailSweepMs: 200 },
    });
    const service = run.service;
    await waitFor(() => service.alerts(20).some((a) => a.listingId === skin.id), 20_000, 'the alert once its float is known');
    expect(service.alerts(20).filter((a) => a.listingId === skin.id)).toMatchObject([{ origin: 'sweep', price: skin.price, state: 'new' }]);
    expect(queryBook(run.db, { filter: run.watchlists[0]!.filter, sort: { field: 'id', dir: 'asc' } }).rows.map((r) => r.id)).toContain(skin.id);
  }, 40_000);
});

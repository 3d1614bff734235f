/**
 * Alert-only and confirm-first matches are written (alert row and match memory, in one transaction) on
 * the turn after they were judged, and told only once written. A run that stops before that write told
 * nothing, and the next run's sweep alerts what still matches; what must never happen is the memory of
 * a match reaching the file without its alert: the next run would take the listing as alerted already,
 * and no one would ever be told of it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/store/index.ts';
import { WatchService } from '../../../src/core/watch/index.ts';
import type { ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { ManualRig, itemNames } from './rig.ts';

let rig: ManualRig | null = null;
let restarted: WatchService | null = null;
afterEach(async () => {
  await restarted?.close();
  restarted = null;
  await rig?.close();
  rig = null;
});

describe('a run that stops in the middle of a sweep', () => {
  it('leaves every listing the sweep had judged to be alerted by the next run, once', async () => {
    const r = await ManualRig.start();
    rig = r;
    await r.service.close();
    const crashedDb = openDatabase(r.file);
    const crashed = new WatchService({ db: crashedDb });
    const [item] = itemNames(r.demo, 1);
    // alert-only, and broad: the whole book (1,500 listings) matches, so its sweep reads two pages
    crashed.create({ name: 'everything', filter: {}, price: { kind: 'ceiling', max_price: 100_000_000 } });
    // `create` swept at once: the first page is judged, the sweep waits for its next turn; meanwhile a
    // new listing matches and is written (the app reads its alerts, a flush runs on the next turn...)
    const l = r.demo.createListing({ name: item!.name, price: 900 });
    const [created] = r.applyFeed();
    crashed.onArrived(created as ListingCreatedEvent);
    expect(crashed.alerts().map((a) => a.listingId)).toEqual([l.listing.id]);
    // and the process dies before the sweep ends
    crashedDb.close();
    await crashed.close();

    restarted = new WatchService({ db: r.db });
    restarted.onStatus('live');
    await restarted.sweep();
    const alive = r.db
      .prepare('SELECT id FROM listings WHERE alive = 1 ORDER BY id')
      .pluck()
      .all() as number[];
    expect(alive.length).toBeGreaterThan(1_000);
    const alerted = restarted
      .alerts(5_000)
      .map((a) => a.listingId)
      .sort((a, b) => a - b);
    // each listing of the book alerted once across both runs: none lost, none twice
    expect(alerted).toEqual(alive);
  });

  it('stopped in an orderly way (a market switch, SIGTERM), the same: what the sweep had not told is not remembered', async () => {
    const r = await ManualRig.start();
    rig = r;
    await r.service.close();
    const stoppingDb = openDatabase(r.file);
    const stopping = new WatchService({ db: stoppingDb });
    const [item] = itemNames(r.demo, 1);
    stopping.create({ name: 'everything', filter: {}, price: { kind: 'ceiling', max_price: 100_000_000 } });
    const l = r.demo.createListing({ name: item!.name, price: 900 });
    const [created] = r.applyFeed();
    stopping.onArrived(created as ListingCreatedEvent);
    await stopping.close();
    stoppingDb.close();

    restarted = new WatchService({ db: r.db });
    restarted.onStatus('live');
    await restarted.sweep();
    const alive = r.db
      .prepare('SELECT id FROM listings WHERE alive = 1 ORDER BY id')
      .pluck()
      .all() as number[];
    const alerted = restarted
      .alerts(5_000)
      .map((a) => a.listingId)
      .sort((a, b) => a - b);
    expect(alerted).toEqual(alive);
    expect(alerted).toContain(l.listing.id);
  });
});

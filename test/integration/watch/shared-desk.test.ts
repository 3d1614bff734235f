/**
 * Two processes on one desk file (the app and `skindesk watch` on the same data folder): what one of
 * them decides about buying holds for the other. Here the other process is a second connection to the
 * same file, which is all a process shares with another.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/store/index.ts';
import { WatchStore } from '../../../src/core/watch/index.ts';
import { ManualRig, autoWatchlist, itemNames } from './rig.ts';

let rig: ManualRig | null = null;
let other: Db | null = null;
afterEach(async () => {
  other?.close();
  other = null;
  await rig?.close();
  rig = null;
});

describe('one desk file, two processes', () => {
  it('the kill switch engaged by the other process stops this one’s auto-buyer at once, and its release lets it buy', async () => {
    const r = await ManualRig.start();
    rig = r;
    const item = await r.snipeOneItem();
    other = openDatabase(r.db.name);
    const elsewhere = new WatchStore(other);

    elsewhere.setKillSwitch(true);
    const held = r.demo.createListing({ name: item, price: 700 });
    await r.deliver();
    expect(r.journal().filter((j) => j.listing_id === held.listing.id)).toEqual([]);
    expect(r.service.log(1)[0]).toMatchObject({
      listingId: held.listing.id,
      decision: 'blocked',
      reason: 'kill_switch',
    });
    expect(r.service.killSwitch).toBe(true);

    elsewhere.setKillSwitch(false);
    const bought = r.demo.createListing({ name: item, price: 700 });
    await r.deliver();
    expect(r.service.log(1)[0]).toMatchObject({
      listingId: bought.listing.id,
      decision: 'sent',
      status: 'bought',
    });
    expect(r.service.killSwitch).toBe(false);
  });

  it('both judging the same frame: the second waits for the first one’s claim and sees it, so one purchase is sent', async () => {
    const r = await ManualRig.start();
    rig = r;
    const [item] = itemNames(r.demo, 1);
    const watchlist = r.service.create(autoWatchlist('snipe', item!.name, 5_000));
    await r.service.sweep();
    other = openDatabase(r.db.name);
    other.pragma('busy_timeout = 0'); // this thread cannot wait for itself: a held lock shows as SQLITE_BUSY
    const elsewhere = new WatchStore(other);
    const listing = r.demo.createListing({ name: item!.name, price: 700 });

    // The other process judges the same frame and claims it, its check and claim under the desk's write
    // lock, while this one is between its own check and its claim (reading its spend).
    const claimElsewhere = (): boolean =>
      other!
        .transaction(() => {
          other!.prepare('UPDATE watch_settings SET value = value WHERE 0').run();
          if (elsewhere.attempts(listing.listing.id).length > 0) return false;
          elsewhere.addLogEntry({
            atMs: Date.now(),
            watchlistId: watchlist.id,
            alertId: null,
            listingId: listing.listing.id,
            marketHashName: item!.name,
            maxPrice: 700,
            amount: 1,
            triggerSeq: 1n,
            mode: 'auto',
            decision: 'sent',
            reason: null,
            status: 'pending',
          });
          return true;
        })
        .deferred();
    let elsewhereHadToWait = false;
    const realSpend = WatchStore.prototype.spend;
    const spend = vi.spyOn(WatchStore.prototype, 'spend').mockImplementationOnce(function (this: WatchStore, ...args) {
      try {
        claimElsewhere();
      } catch (err) {
        expect((err as { code?: string }).code).toBe('SQLITE_BUSY');
        elsewhereHadToWait = true;
      }
      return realSpend.apply(this, args);
    });
    await r.deliver();
    spend.mockRestore();
    expect(elsewhereHadToWait).toBe(true);
    // its turn comes once this one committed: it sees the claim and sends nothing
    expect(claimElsewhere()).toBe(false);
    const sent = elsewhere.attempts(listing.listing.id);
    expect(sent).toHaveLength(1);
    expect(r.journal().filter((j) => j.listing_id === listing.listing.id)).toHaveLength(1);
  });
});

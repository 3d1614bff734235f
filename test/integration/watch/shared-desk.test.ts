/**
 * Two processes on one desk file (the app and `skindesk watch` on the same data folder): what one of
 * them decides about buying holds for the other. Here the other process is a second connection to the
 * same file, which is all a process shares with another.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
    const [item] = itemNames(r.demo, 1);
    r.service.create(autoWatchlist('snipe', item!.name, 5_000));
    await r.service.sweep();
    other = openDatabase(r.db.name);
    const elsewhere = new WatchStore(other);

    elsewhere.setKillSwitch(true);
    const held = r.demo.createListing({ name: item!.name, price: 700 });
    await r.deliver();
    expect(r.journal().filter((j) => j.listing_id === held.listing.id)).toEqual([]);
    expect(r.service.log(1)[0]).toMatchObject({
      listingId: held.listing.id,
      decision: 'blocked',
      reason: 'kill_switch',
    });
    expect(r.service.killSwitch).toBe(true);

    elsewhere.setKillSwitch(false);
    const bought = r.demo.createListing({ name: item!.name, price: 700 });
    await r.deliver();
    expect(r.service.log(1)[0]).toMatchObject({
      listingId: bought.listing.id,
      decision: 'sent',
      status: 'bought',
    });
    expect(r.service.killSwitch).toBe(false);
  });
});

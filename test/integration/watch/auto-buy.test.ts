/**
 * Guarded auto-buy against the demo market, with the feed applied by hand so each test decides which
 * events arrive and in which book state: every guardrail stops a purchase when reached (and nothing is
 * sent: the journal stays empty for it), nothing is bought while resyncing or offline, duplicated and
 * replayed events buy once, the kill switch stops a running auto-buyer, and every purchase goes through
 * the journal with the triggering event's seq and the watchlist id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchlistInput } from '../../../src/shared/watchlist.ts';
import { ManualRig, autoWatchlist, itemNames } from './rig.ts';

let rig: ManualRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** A live rig with `count` item names of its demo book, and the watchlists made from them. */
async function start(
  count: number,
  make: (items: { name: string; price: number }[], balance: number) => WatchlistInput[],
): Promise<{ rig: ManualRig; items: { name: string; price: number }[]; ids: number[] }> {
  const r = await ManualRig.start();
  rig = r;
  const items = itemNames(r.demo, count);
  const balance = (await r.service.refreshBalance()) as number;
  const ids = make(items, balance).map((w) => r.service.create(w).id);
  await r.service.sweep();
  return { rig: r, items, ids };
}

const sentFor = (r: ManualRig, listingId: number) => r.journal().filter((j) => j.listing_id === listingId);

describe('auto-buy', () => {
  it('buys a matching new listing through the journal, with the event seq and the watchlist id', async () => {
    const { rig: r, ids, items: [item] } = await start(1, ([i]) => [autoWatchlist('cheap', i!.name, 1_000)]);
    const listing = r.demo.createListing({ name: item!.name, price: 900 });
    const applied = await r.deliver();
    const created = applied.find((e) => e.event === 'listing.created' && e.data.listing_id === listing.listing.id);
    expect(created).toBeDefined();
    const journal = sentFor(r, listing.listing.id);
    expect(journal).toEqual([
      { listing_id: listing.listing.id, state: 'bought', trigger_seq: created!.seq.toString(), watchlist_id: ids[0], source: 'watch:auto' },
    ]);
    expect(r.demo.state.listing(listing.listing.id)?.status).not.toBe('ACTIVE');
    const [entry] = r.service.log(1);
    expect(entry).toMatchObject({ decision: 'sent', status: 'bought', listingId: listing.listing.id, maxPrice: 900, triggerSeq: created!.seq });
    const [alert] = r.service.alerts(1);
    expect(alert).toMatchObject({ listingId: listing.listing.id, state: 'bought', origin: 'event', seq: created!.seq });
    // a listing above the ceiling is left alone
    const dear = r.demo.createListing({ name: item!.name, price: 1_001 });
    await r.deliver();
    expect(sentFor(r, dear.listing.id)).toEqual([]);
  });

  it('every guardrail stops a purchase when reached, before anything is sent', async () => {
    const { rig: r, items } = await start(6, ([a, b, c, d, e, f], balance) => [
      autoWatchlist('max price', a!.name, 10_000, { max_price: 500 }),
      autoWatchlist('budget', b!.name, 10_000, { total_budget: 1_500 }),
      autoWatchlist('daily', c!.name, 10_000, { daily_cap: 1_500 }),
      autoWatchlist('hourly', d!.name, 10_000, { max_per_hour: 1 }),
      // a purchase of 1,000 would leave 1 cent less than this
      autoWatchlist('min balance', e!.name, 10_000, { min_balance: balance - 999 }),
      autoWatchlist('kill', f!.name, 10_000),
    ]);
    type Item = (typeof items)[number];
    const [maxPrice, budget, daily, hourly, minBalance, kill] = items as [Item, Item, Item, Item, Item, Item];
    const outcome = async (name: string, price: number) => {
      const l = r.demo.createListing({ name, price });
      await r.deliver();
      const entry = r.service.log(50).find((e) => e.listingId === l.listing.id);
      return { entry, journal: sentFor(r, l.listing.id), alive: r.demo.state.listing(l.listing.id)?.status === 'ACTIVE' };
    };

    const tooDear = await outcome(maxPrice.name, 800);
    expect(tooDear.entry).toMatchObject({ decision: 'blocked', reason: 'max_price' });
    expect(tooDear.journal).toEqual([]);
    expect(tooDear.alive).toBe(true);
    expect((await outcome(maxPrice.name, 500)).entry).toMatchObject({ decision: 'sent', status: 'bought' });

    for (const [item, reason] of [[budget, 'total_budget'], [daily, 'daily_cap']] as const) {
      expect((await outcome(item.name, 1_000)).entry).toMatchObject({ decision: 'sent', status: 'bought' });
      const second = await outcome(item.name, 1_000);
      expect(second.entry).toMatchObject({ decision: 'blocked', reason });
      expect(second.journal).toEqual([]);
      // what is left of the budget is still spent on a cheaper one
      expect((await outcome(item.name, 500)).entry).toMatchObject({ decision: 'sent', status: 'bought' });
    }

    expect((await outcome(hourly.name, 1_000)).entry).toMatchObject({ decision: 'sent', status: 'bought' });
    const third = await outcome(hourly.name, 100);
    expect(third.entry).toMatchObject({ decision: 'blocked', reason: 'hourly_limit' });
    expect(third.journal).toEqual([]);

    const poor = await outcome(minBalance.name, 1_000);
    expect(poor.entry).toMatchObject({ decision: 'blocked', reason: 'min_balance' });
    expect(poor.journal).toEqual([]);

    // the kill switch stops the running auto-buyer at once, and releasing it lets it buy again
    expect((await outcome(kill.name, 700)).entry).toMatchObject({ decision: 'sent', status: 'bought' });
    r.service.setKillSwitch(true);
    const stopped = await outcome(kill.name, 700);
    expect(stopped.entry).toMatchObject({ decision: 'blocked', reason: 'kill_switch' });
    expect(stopped.journal).toEqual([]);
    expect(stopped.alive).toBe(true);
    expect(r.service.store.killSwitch()).toBe(true);
    r.service.setKillSwitch(false);
    expect((await outcome(kill.name, 700)).entry).toMatchObject({ decision: 'sent', status: 'bought' });

    // every purchase sent went through the journal; nothing blocked reached it
    const sent = r.service.log(100).filter((e) => e.decision === 'sent');
    expect(r.journal().length).toBe(sent.length);
    expect(r.journal().every((j) => j.source === 'watch:auto' && j.trigger_seq !== null && j.watchlist_id !== null)).toBe(true);
  });

  it('never buys while the book is resyncing or offline', async () => {
    const { rig: r, items: [item] } = await start(1, ([i]) => [autoWatchlist('live only', i!.name, 5_000)]);
    for (const state of ['resyncing', 'offline', 'connecting'] as const) {
      r.service.onStatus(state);
      const l = r.demo.createListing({ name: item!.name, price: 1_000 });
      await r.deliver();
      expect(r.service.log(1)[0]).toMatchObject({ listingId: l.listing.id, decision: 'blocked', reason: 'book_not_live' });
      expect(sentFor(r, l.listing.id)).toEqual([]);
    }
    // back to live: listings of the dark period were alerted but are not bought by the sweep...
    r.service.onStatus('live');
    await r.service.sweep();
    await r.service.settled();
    expect(r.journal()).toEqual([]);
    // ...while a new event is
    const fresh = r.demo.createListing({ name: item!.name, price: 1_000 });
    await r.deliver();
    expect(sentFor(r, fresh.listing.id).map((j) => j.state)).toEqual(['bought']);
  });

  it('duplicated, replayed and reordered events buy once', async () => {
    const { rig: r, items: [item] } = await start(1, ([i]) => [autoWatchlist('once', i!.name, 5_000)]);
    const l = r.demo.createListing({ name: item!.name, price: 2_000 });
    r.demo.repriceListing(l.listing.id, 1_900);
    const frames = r.applyFeed();
    expect(frames.map((e) => e.event)).toEqual(['listing.created', 'listing.price_changed']);
    // the same applied events handed over three times, in both orders (a store guard that failed)
    r.service.onApplied(frames);
    r.service.onApplied([...frames].reverse());
    r.service.onApplied(frames);
    await r.service.settled();
    expect(sentFor(r, l.listing.id)).toHaveLength(1);
    // and through the store's guard: duplicates do not even apply
    expect(r.store.applyEvents(frames).events).toEqual([]);
    // the sold listing's later events (amount 0, sold) match nothing
    await r.deliver();
    expect(sentFor(r, l.listing.id)).toHaveLength(1);
    expect(r.service.alerts(10).filter((a) => a.listingId === l.listing.id)).toHaveLength(1);
  });

  it('a new listing is bought on arrival, before the book applies it, and never again when it does', async () => {
    const { rig: r, items: [item] } = await start(1, ([i]) => [autoWatchlist('early', i!.name, 5_000)]);
    const l = r.demo.createListing({ name: item!.name, price: 1_500 });
    r.arrive();
    r.arrive(); // the same frame twice (a duplicate on the wire)
    await r.service.settled();
    expect(r.store.state().lastSeq).toBeLessThan(BigInt(r.demo.state.seq())); // not applied yet
    expect(sentFor(r, l.listing.id).map((j) => j.state)).toEqual(['bought']);
    await r.deliver(); // now the book applies the creation and the sale
    expect(sentFor(r, l.listing.id)).toHaveLength(1);
    expect(r.service.alerts(10).filter((a) => a.listingId === l.listing.id)).toHaveLength(1);
    // while not live, an arrival buys nothing
    r.service.onStatus('resyncing');
    const dark = r.demo.createListing({ name: item!.name, price: 1_500 });
    r.arrive();
    await r.service.settled();
    expect(sentFor(r, dark.listing.id)).toEqual([]);
    expect(r.service.log(1)[0]).toMatchObject({ listingId: dark.listing.id, decision: 'blocked', reason: 'book_not_live' });
  });

  it('a listing matches once per price: again only after its price changed', async () => {
    const { rig: r, items: [item] } = await start(1, ([i]) => [
      { name: 'alerts only', filter: { name: i!.name }, price: { kind: 'ceiling', max_price: 1_000 } },
    ]);
    const l = r.demo.createListing({ name: item!.name, price: 900 });
    await r.deliver();
    const alertsOf = () => r.service.alerts(50).filter((a) => a.listingId === l.listing.id).map((a) => a.price);
    expect(alertsOf()).toEqual([900]);
    r.demo.repriceListing(l.listing.id, 900); // same price: no new match
    await r.deliver();
    expect(alertsOf()).toEqual([900]);
    r.demo.repriceListing(l.listing.id, 800);
    await r.deliver();
    expect(alertsOf()).toEqual([800, 900]);
    r.demo.repriceListing(l.listing.id, 5_000); // stops matching
    await r.deliver();
    r.demo.repriceListing(l.listing.id, 800); // matches again at a price it matched before
    await r.deliver();
    expect(alertsOf()).toEqual([800, 800, 900]);
    // a sweep of the whole book does not repeat it
    await r.service.sweep();
    await r.service.settled();
    expect(alertsOf()).toEqual([800, 800, 900]);
  });

  it('confirm-first buys the alerted listing with one call, at the price seen, within the guardrails', async () => {
    const { rig: r, items: [item, other] } = await start(2, ([a, b]) => [
      autoWatchlist('confirm', a!.name, 5_000, {}, 'confirm'),
      { name: 'no buying', filter: { name: b!.name }, price: { kind: 'ceiling', max_price: 5_000 } },
    ]);
    const l = r.demo.createListing({ name: item!.name, price: 1_234 });
    await r.deliver();
    expect(r.journal()).toEqual([]); // confirm-first never buys by itself
    const [alert] = r.service.alerts(1);
    expect(alert).toMatchObject({ listingId: l.listing.id, state: 'new', price: 1_234 });
    const entry = await r.service.confirm(alert!.id);
    expect(entry).toMatchObject({ decision: 'sent', status: 'bought', maxPrice: 1_234, mode: 'confirm' });
    expect(r.service.alerts(1)[0]?.state).toBe('bought');
    expect(sentFor(r, l.listing.id)).toMatchObject([{ state: 'bought', source: 'watch:confirm' }]);
    await expect(r.service.confirm(alert!.id)).rejects.toThrow(/already handled/);

    // the seller raised the price after the alert: max_price is the price seen, so it fails safely
    const dearer = r.demo.createListing({ name: item!.name, price: 1_500 });
    await r.deliver();
    r.demo.repriceListing(dearer.listing.id, 1_600);
    const stale = r.service.alerts(5).find((a) => a.listingId === dearer.listing.id)!;
    const failed = await r.service.confirm(stale.id);
    expect(failed).toMatchObject({ decision: 'sent', status: 'not_bought' });
    expect(failed.error).toMatch(/LISTING_PRICE_CHANGED/);
    // the code, then plain words (the app shows it as "Not bought: …"), not the request line
    expect(failed.error).toBe(`LISTING_PRICE_CHANGED: the seller raised the price above your maximum, so nothing was bought`);
    expect(r.demo.state.listing(dearer.listing.id)?.status).toBe('ACTIVE');

    // a watchlist that does not buy refuses
    const plain = r.demo.createListing({ name: other!.name, price: 1_000 });
    await r.deliver();
    const plainAlert = r.service.alerts(5).find((a) => a.listingId === plain.listing.id)!;
    await expect(r.service.confirm(plainAlert.id)).rejects.toThrow(/does not buy/);
  });

  it('confirm-first refuses the alert of a paused watchlist and sends nothing', async () => {
    const { rig: r, ids: [id], items: [item] } = await start(1, ([a]) => [autoWatchlist('confirm', a!.name, 5_000, {}, 'confirm')]);
    const l = r.demo.createListing({ name: item!.name, price: 1_234 });
    await r.deliver();
    const [alert] = r.service.alerts(1);
    expect(alert).toMatchObject({ listingId: l.listing.id, state: 'new' });
    // the alert came before the pause: pausing means no buying, so the keystroke on it must not buy
    r.service.setPaused(id!, true);
    await expect(r.service.confirm(alert!.id)).rejects.toMatchObject({
      code: 'REFUSED',
      message: 'Not bought: watchlist “confirm” is paused — resume it to buy.',
    });
    expect(r.journal()).toEqual([]);
    expect(r.service.log()).toEqual([]);
    expect(r.service.alerts(1)[0]?.state).toBe('new');
    expect(r.demo.state.listing(l.listing.id)?.status).toBe('ACTIVE');
  });

  it('tells a batch it cannot judge (the book unreadable) instead of throwing into the feed handler', async () => {
    const failures: unknown[] = [];
    const r = await ManualRig.start({ onJudgeFailure: (error) => failures.push(error) });
    rig = r;
    const [item] = itemNames(r.demo, 1);
    r.service.create(autoWatchlist('cheap', item!.name, 1_000));
    await r.service.sweep();
    // a price change is judged on the book's row (a creation on its frame)
    const listing = r.demo.createListing({ name: item!.name, price: 1_100 });
    await r.deliver();
    r.demo.repriceListing(listing.listing.id, 900);
    const applied = r.applyFeed();
    r.db.exec('DROP TABLE listings');
    // the handler runs inside the worker's message event: a throw there would end the app
    expect(() => r.service.onApplied(applied)).not.toThrow();
    await r.service.settled();
    expect(failures).toEqual([expect.objectContaining({ message: expect.stringMatching(/no such table: listings/) })]);
    expect(sentFor(r, listing.listing.id)).toEqual([]);
  });
});

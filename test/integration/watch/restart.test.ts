/**
 * A watch that stopped in the middle of a purchase (a crash, a kill): its log entry was written as
 * pending and its journal intent as sent, and nothing more. The journal learns the outcome later (the
 * purchaser reconciles it from the order history); the watch that runs next takes it from there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PurchaseJournal } from '../../../src/core/api/purchase-journal.ts';
import { openDatabase } from '../../../src/core/store/index.ts';
import { WatchService } from '../../../src/core/watch/index.ts';
import type { ListingCreatedEvent } from '../../../src/shared/api/index.ts';
import { ManualRig, autoWatchlist, itemNames, waitFor } from './rig.ts';

let rig: ManualRig | null = null;
let restarted: WatchService | null = null;
afterEach(async () => {
  await restarted?.close();
  restarted = null;
  await rig?.close();
  rig = null;
});

describe('a purchase left open by a run that stopped', () => {
  it('gets the outcome the journal found: in the log, on its alert, and no longer counted against the budget', async () => {
    const r = await ManualRig.start();
    rig = r;
    const [item] = itemNames(r.demo, 1);
    const w = r.service.create(autoWatchlist('snipe', item!.name, 5_000, { total_budget: 1_000 }));
    await r.service.sweep();

    // what the stopped run left: the alert, its purchase pending in the log, the journal's intent
    const seq = 9_007_199_254_790_113n;
    const listingId = 42_424_242;
    const alert = r.service.store.addAlert({
      atMs: Date.now(),
      watchlistId: w.id,
      watchlistName: w.name,
      listingId,
      appId: 730,
      marketHashName: item!.name,
      price: 900,
      amount: 1,
      seq,
      referencePrice: null,
      ceiling: 5_000,
      origin: 'event',
    });
    r.service.store.setAlertState(alert.id, 'buying');
    const pending = r.service.store.addLogEntry({
      atMs: Date.now(),
      watchlistId: w.id,
      alertId: alert.id,
      listingId,
      marketHashName: item!.name,
      maxPrice: 900,
      amount: 1,
      triggerSeq: seq,
      mode: 'auto',
      decision: 'sent',
      reason: null,
      status: 'pending',
    });
    const journal = new PurchaseJournal(r.db);
    journal.recordIntent({
      intentId: 'crashed-1',
      createdAtMs: Date.now(),
      listingId,
      amount: 1,
      maxPrice: 900,
      appId: 730,
      marketHashName: item!.name,
      triggerSeq: seq,
      watchlistId: w.id,
      source: 'watch:auto',
    });
    await r.service.close();
    // the purchaser of the next run read the order history: not bought
    journal.recordOutcome(
      'crashed-1',
      {
        state: 'not_bought',
        orderId: null,
        resolution: 'reconciled',
        note: 'no matching order in the order history',
      },
      Date.now(),
    );

    restarted = new WatchService({ db: r.db });
    const told: unknown[] = [];
    restarted.on('purchase', (entry) => told.push(entry));
    restarted.attachMarket(r.client, r.purchaser);
    restarted.onStatus('live');
    await restarted.refreshBalance();

    expect(restarted.store.logEntry(pending.id)).toMatchObject({
      status: 'not_bought',
      intentId: 'crashed-1',
      error: 'no matching order in the order history',
    });
    expect(restarted.store.alert(alert.id)?.state).toBe('not_bought');
    expect(told).toMatchObject([{ id: pending.id, status: 'not_bought' }]);

    // the 900 it never spent is in the budget again
    const l = r.demo.createListing({ name: item!.name, price: 900 });
    restarted.onApplied(r.applyFeed());
    await restarted.settled();
    expect(restarted.log(1)[0]).toMatchObject({
      listingId: l.listing.id,
      decision: 'sent',
      status: 'bought',
    });
  });
});

describe('a run that stopped between an automatic purchase and its alert row', () => {
  it('leaves the alert to the next run, written once, with the purchase it led to', async () => {
    const r = await ManualRig.start();
    rig = r;
    // the crashing run: a connection of its own, like a process that dies
    await r.service.close();
    const crashedDb = openDatabase(r.file);
    const crashed = new WatchService({ db: crashedDb });
    const [item] = itemNames(r.demo, 1);
    const w = crashed.create(autoWatchlist('snipe', item!.name, 5_000));
    crashed.attachMarket(r.client, r.purchaser);
    crashed.onStatus('live');
    await crashed.refreshBalance();
    await crashed.sweep();
    const l = r.demo.createListing({ name: item!.name, price: 900 });
    const [created] = r.applyFeed();
    expect(created?.event).toBe('listing.created');
    crashed.onArrived(created as ListingCreatedEvent);
    // the purchase is on its way and its decision is logged; the alert row was to be written on the
    // next turn of the event loop, and the process dies first
    crashedDb.close();
    await crashed.close();
    await waitFor(() => r.journal().some((j) => j.listing_id === l.listing.id && j.state === 'bought'), 10_000, 'the journal to learn the outcome');
    expect(r.db.prepare('SELECT count(*) FROM watch_alerts WHERE listing_id = ?').pluck().get(l.listing.id)).toBe(0);

    restarted = new WatchService({ db: r.db });
    restarted.attachMarket(r.client, r.purchaser);
    const [entry] = restarted.log(1);
    expect(entry).toMatchObject({ watchlistId: w.id, listingId: l.listing.id, decision: 'sent', status: 'bought' });
    const recovered = restarted.store.alerts().filter((a) => a.listingId === l.listing.id);
    expect(recovered).toMatchObject([
      {
        watchlistId: w.id,
        watchlistName: 'snipe',
        marketHashName: item!.name,
        price: 900,
        ceiling: 5_000,
        referencePrice: null,
        origin: 'event',
        seq: created!.seq,
        state: 'bought',
      },
    ]);
    expect(entry!.alertId).toBe(recovered[0]!.id);

    // and once only: the run after it finds the alert there
    await restarted.close();
    restarted = new WatchService({ db: r.db });
    restarted.attachMarket(r.client, r.purchaser);
    expect(restarted.store.alerts().filter((a) => a.listingId === l.listing.id)).toHaveLength(1);
  });
});

describe('a run starting beside a live one', () => {
  it('writes the alert of a purchase the live one just sent at most once between them', async () => {
    const r = await ManualRig.start();
    rig = r;
    const item = await r.snipeOneItem();
    const l = r.demo.createListing({ name: item, price: 900 });
    const [created] = r.applyFeed();
    r.service.onArrived(created as ListingCreatedEvent);
    // `skindesk watch` starts on the same data folder in the very turn the app sent the purchase, before
    // the app wrote its alert: it finds the decision without an alert and writes it
    const otherDb = openDatabase(r.file);
    const other = new WatchService({ db: otherDb });
    try {
      expect(other.store.alerts().filter((a) => a.listingId === l.listing.id)).toHaveLength(1);
      await r.service.settled();
      const alerts = r.service.alerts().filter((a) => a.listingId === l.listing.id);
      expect(alerts).toMatchObject([{ state: 'bought' }]);
      expect(r.service.log(1)[0]?.alertId).toBe(alerts[0]!.id);
    } finally {
      await other.close();
      otherDb.close();
    }
  });
});

describe('a watch that stops', () => {
  it('posts the alerts its webhook was still holding back (a burst being coalesced) before it closes', async () => {
    const posted: { listing_id: number }[][] = [];
    const webhookFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      posted.push((JSON.parse(String(init?.body)) as { alerts: { listing_id: number }[] }).alerts);
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    const r = await ManualRig.start({ webhookFetch, notifyWindowMs: 60_000 });
    rig = r;
    const [item] = itemNames(r.demo, 1);
    r.service.create({
      name: 'hooked',
      filter: { name: item!.name },
      price: { kind: 'ceiling', max_price: 5_000 },
      alerts: { notify: false, sound: false, webhook: 'https://hooks.example/alerts/TOKEN' },
    });
    await r.service.sweep();
    const first = r.demo.createListing({ name: item!.name, price: 900 });
    const second = r.demo.createListing({ name: item!.name, price: 950 });
    await r.deliver();
    // the first alert at once; the second held for the burst's summary
    expect(posted.flat().map((a) => a.listing_id)).toEqual([first.listing.id]);

    await r.service.close(); // SIGTERM to skindesk watch, a market switch in the app
    expect(posted.flat().map((a) => a.listing_id)).toEqual([first.listing.id, second.listing.id]);
  });

  it('ends a webhook post that gets no answer at once, and says the alerts it did not deliver', async () => {
    let posts = 0;
    // a webhook host that takes the connection and never answers (until the post is ended)
    const webhookFetch = ((_url: string | URL | Request, init?: RequestInit) => {
      posts += 1;
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      });
    }) as typeof fetch;
    const failures: string[] = [];
    const r = await ManualRig.start({ webhookFetch, notifyWindowMs: 60_000, onAlertWebhookFailure: (m) => failures.push(m) });
    rig = r;
    const [item] = itemNames(r.demo, 1);
    r.service.create({
      name: 'hooked',
      filter: { name: item!.name },
      price: { kind: 'ceiling', max_price: 5_000 },
      alerts: { notify: false, sound: false, webhook: 'https://hooks.example/alerts/TOKEN' },
    });
    await r.service.sweep();
    r.demo.createListing({ name: item!.name, price: 900 });
    r.demo.createListing({ name: item!.name, price: 950 });
    await r.deliver();
    expect(posts).toBe(1);

    const started = performance.now();
    await r.service.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(failures).toEqual([
      'alert webhook: https://hooks.example had not answered when the watch stopped; 2 alerts not delivered there',
    ]);
  });
});

/**
 * Watchlists through the app's IPC calls, over the real core and the embedded demo market: a watchlist
 * made from a book filter in one call is checked against the whole book; a matching new listing is an
 * alert push and a coalesced OS notification; confirm-first buys it; the kill switch refuses the next one;
 * pause, edit and delete; alerts posted to a watchlist's webhook; and the push contract holds for every
 * payload.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppCore, RecordingPlatform } from '../../../src/core/app/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { IPC_PUSHES, type IpcPushName } from '../../../src/shared/ipc/index.ts';
import type { WatchAlertsPushed } from '../../../src/shared/ipc/calls-watch.ts';
import { itemNames, waitFor } from './rig.ts';

let core: AppCore;
let demo: DemoMarket | null = null;
let dir: string;
const platform = new RecordingPlatform();
const pushes: { name: IpcPushName; payload: unknown }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skindesk-app-watch-'));
  core = await AppCore.start({
    dataDir: dir,
    secrets: new MemorySecretStore(),
    platform,
    startDemoMarket: async ({ seqStart }) => {
      demo = await startDemoMarket({ port: 0, listings: 1_500, rate: 0, seed: 5, seqStart, rateLimits: false });
      return demo;
    },
    version: '0.0.0-test',
    syncOptions: { firstEventWaitMs: 50 },
  });
  core.subscribe((name, payload) => pushes.push({ name, payload }));
  await core.whenLive(30_000);
}, 60_000);

afterAll(async () => {
  await core?.close();
  rmSync(dir, { recursive: true, force: true });
});

const alertPushes = () =>
  pushes
    .filter((p) => p.name === 'watchAlerts')
    .flatMap((p) => {
      const { alerts, changed } = p.payload as WatchAlertsPushed;
      return [...alerts, ...changed];
    });

describe('watchlists in the app', () => {
  it('creates a watchlist from a book filter in one call, alerts, and buys confirm-first with one call', async () => {
    const [item] = itemNames(demo!, 1);
    const created = await core.call('createWatchlist', { filter: { name: item!.name, price: { max: 1_500 } } });
    expect(created).toMatchObject({ name: item!.name + ', ≤ $15.00', price: { kind: 'ceiling', max_price: 1_500 }, auto_buy: { mode: 'off' }, paused: false });
    // the whole-book check finds what the book query finds for the same filter
    const inBook = await core.call('queryBook', { filter: { name: item!.name, price: { max: 1_500 } }, limit: 1000 });
    await waitFor(() => alertPushes().filter((a) => a.watchlistId === created.id).length === inBook.rows.length, 10_000, 'the sweep alerts');

    // turn on confirm-first with guardrails, then a matching listing appears on the market
    await core.call('updateWatchlist', {
      id: created.id,
      watchlist: {
        name: created.name,
        filter: created.filter,
        price: created.price,
        auto_buy: { mode: 'confirm', guardrails: { max_price: 1_500, total_budget: 10_000, daily_cap: 5_000, max_per_hour: 3, min_balance: 0 } },
        alerts: { notify: true, sound: true },
      },
    });
    const listing = demo!.createListing({ name: item!.name, price: 1_111 });
    await waitFor(() => alertPushes().some((a) => a.listingId === listing.listing.id), 10_000, 'the alert push');
    const alert = alertPushes().find((a) => a.listingId === listing.listing.id)!;
    expect(alert).toMatchObject({ origin: 'event', state: 'new', price: 1_111, mode: 'confirm', sound: true, watchlistId: created.id });
    expect(platform.notifications.some((n) => n.body.includes(item!.name))).toBe(true);

    const entry = await core.call('confirmWatchAlert', { id: alert.id });
    expect(entry).toMatchObject({ decision: 'sent', status: 'bought', maxPrice: 1_111, mode: 'confirm', triggerSeq: alert.seq });
    expect(demo!.state.listing(listing.listing.id)?.status).not.toBe('ACTIVE');
    await waitFor(() => alertPushes().some((a) => a.id === alert.id && a.state === 'bought'), 5_000, 'the bought state');
    const state = await core.call('getAutoBuyState', {});
    expect(state.log[0]).toMatchObject({ id: entry.id, status: 'bought' });
    expect(state.live).toBe(true);

    // an alert nothing came of can be dismissed; a bought one stays as it is
    const another = demo!.createListing({ name: item!.name, price: 1_222 });
    await waitFor(() => alertPushes().some((a) => a.listingId === another.listing.id), 10_000, 'another alert');
    const untouched = alertPushes().find((a) => a.listingId === another.listing.id)!;
    expect(await core.call('dismissWatchAlert', { id: untouched.id })).toMatchObject({ id: untouched.id, state: 'dismissed' });
    await expect(core.call('dismissWatchAlert', { id: alert.id })).rejects.toThrow(/bought stays as it is/);
    const kept = (await core.call('listWatchAlerts', { limit: 1000 })).alerts.find((a) => a.id === alert.id);
    expect(kept?.state).toBe('bought');
  }, 60_000);

  it('the kill switch refuses confirm-first purchases until released; pause, delete', async () => {
    const [, item] = itemNames(demo!, 2);
    const w = await core.call('createWatchlist', {
      filter: { name: item!.name },
      price: { kind: 'ceiling', max_price: 2_000 },
      watchlist: { auto_buy: { mode: 'confirm', guardrails: { max_price: 2_000, total_budget: 10_000, daily_cap: 10_000, max_per_hour: 10, min_balance: 0 } } },
    });
    const killed = await core.call('setAutoBuyKillSwitch', { engaged: true });
    expect(killed.killSwitch).toBe(true);
    const listing = demo!.createListing({ name: item!.name, price: 1_000 });
    await waitFor(() => alertPushes().some((a) => a.listingId === listing.listing.id), 10_000, 'the alert');
    const alert = alertPushes().find((a) => a.listingId === listing.listing.id)!;
    const blocked = await core.call('confirmWatchAlert', { id: alert.id });
    expect(blocked).toMatchObject({ decision: 'blocked', status: null });
    expect(blocked.reason).toMatch(/kill switch/);
    expect(demo!.state.listing(listing.listing.id)?.status).toBe('ACTIVE');
    await core.call('setAutoBuyKillSwitch', { engaged: false });
    expect(await core.call('confirmWatchAlert', { id: alert.id })).toMatchObject({ decision: 'sent', status: 'bought' });

    const paused = await core.call('setWatchlistPaused', { id: w.id, paused: true });
    expect(paused.paused).toBe(true);
    const unseen = demo!.createListing({ name: item!.name, price: 900 });
    await new Promise((r) => setTimeout(r, 500));
    expect(alertPushes().some((a) => a.listingId === unseen.listing.id)).toBe(false);
    expect(await core.call('deleteWatchlist', { id: w.id })).toEqual({ deleted: true });
    expect((await core.call('listWatchlists', {})).watchlists.some((x) => x.id === w.id)).toBe(false);
    // duplicate names are refused in plain words
    await core.call('createWatchlist', { filter: {}, name: 'same' });
    await expect(core.call('updateWatchlist', { id: (await core.call('createWatchlist', { filter: {}, name: 'other' })).id, watchlist: { name: 'same', filter: {}, price: { kind: 'ceiling', max_price: 1 } } })).rejects.toThrow(/already exists/);
  }, 60_000);

  it('alerts also reach a watchlist\'s webhook; a test post says whether it arrives, and a failure is told', async () => {
    const posts: { path: string; body: { content: string; alerts: { listing_id: number }[] } }[] = [];
    let status = 204;
    const receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString('utf8')));
      req.on('end', () => {
        posts.push({ path: req.url ?? '', body: JSON.parse(text) as (typeof posts)[number]['body'] });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      expect(await core.call('testAlertWebhook', { url: `${origin}/hooks/TOKEN` })).toEqual({ ok: true, problem: null });
      expect(posts[0]).toMatchObject({ path: '/hooks/TOKEN', body: { content: '**Skindesk test alert**\nThis webhook will receive your watchlist alerts.', alerts: [] } });
      // the renderer cannot make the app post into the local network
      await expect(core.call('testAlertWebhook', { url: 'http://192.168.1.20/hook' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });

      const [, , item] = itemNames(demo!, 3);
      await core.call('createWatchlist', {
        filter: { name: item!.name },
        price: { kind: 'ceiling', max_price: 5_000 },
        watchlist: { alerts: { notify: false, sound: false, webhook: `${origin}/hooks/TOKEN` } },
      });
      // the sweep's alerts (listings already in the book) posted first: otherwise one could still be on its
      // way when the webhook starts failing, and the failure would count two alerts
      const inBook = await core.call('queryBook', { filter: { name: item!.name, price: { max: 5_000 } }, limit: 1000 });
      const posted = () => new Set(posts.flatMap((p) => p.body.alerts.map((a) => a.listing_id)));
      await waitFor(() => inBook.rows.every((r) => posted().has(r.id)), 10_000, 'the sweep alerts posted');
      const listing = demo!.createListing({ name: item!.name, price: 1_234 });
      await waitFor(() => posts.some((p) => p.body.alerts.some((a) => a.listing_id === listing.listing.id)), 10_000, 'the webhook post');

      // a webhook deleted on Discord's side answers 404: a refusal, said at once (a 5xx would be tried
      // again for some 20 s first: alert-webhook.test.ts)
      status = 404;
      const failing = demo!.createListing({ name: item!.name, price: 1_200 });
      const toasts = () => pushes.filter((p) => p.name === 'notification').map((p) => p.payload as { title: string; message: string });
      await waitFor(() => toasts().some((n) => n.title === 'Watchlist alerts'), 10_000, 'the failure told in the app');
      const told = toasts().find((n) => n.title === 'Watchlist alerts')!;
      expect(told.message).toBe(`Alert webhook: ${origin} answered HTTP 404; the alert not delivered there.`);
      expect(told.message).not.toContain('TOKEN');
      expect(posts.some((p) => p.body.alerts.some((a) => a.listing_id === failing.listing.id))).toBe(true);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 60_000);

  it('every watch push matches the contract', () => {
    const names = ['watchAlerts', 'autoBuyChanged', 'watchlistsChanged'] as const;
    for (const name of names) {
      const seen = pushes.filter((p) => p.name === name);
      expect(seen.length, name).toBeGreaterThan(0);
      for (const p of seen) IPC_PUSHES[name].payload.parse(p.payload);
    }
  });
});

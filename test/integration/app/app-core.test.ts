// The app services over the real core and the real demo market: the startup rule, live book windows,
// coalesced pushes, settings and secrets (the key never comes back), market switching, external links,
// and the mirror opening from disk before the network is up.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  AppCore,
  type AppCoreOptions,
  DEMO_DATABASE_FILE_NAME,
  RecordingPlatform,
  type StartDemoMarket,
} from '../../../src/core/app/index.ts';
import { MemorySecretStore, SecretStoreError } from '../../../src/core/secrets/index.ts';
import { SCHEMA_VERSION, openDatabase, readStatus } from '../../../src/core/store/index.ts';
import { backToVersion } from '../../unit/store/helpers.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { type BackfillProgress, type BookChanged, type IpcPushName, KEYCHAIN_NOTICE_TOPIC, type SyncStatus } from '../../../src/shared/ipc/index.ts';
import { until } from './until.ts';
import Database from 'better-sqlite3';
import { PurchaseJournal, accountKey } from '../../../src/core/api/purchase-journal.ts';
import { DATABASE_FILE_NAME } from '../../../src/core/paths.ts';
import { deskFileFor } from '../../../src/core/store/desk.ts';

const dirs: string[] = [];
const cores: AppCore[] = [];
const demos: DemoMarket[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skindesk-app-'));
  dirs.push(dir);
  return dir;
}

const startDemo: StartDemoMarket = async ({ seqStart }) => {
  const demo = await startDemoMarket({ port: 0, listings: 400, rate: 40, seed: 11, seqStart, timeScale: 20 });
  demos.push(demo);
  return demo;
};

/** Writes purchases a crashed run left open (sent, answer never read) into the desk beside `bookFile`. */
function leaveOpenPurchases(bookFile: string, intents: [intentId: string, account: string | null][]): void {
  const desk = new Database(deskFileFor(bookFile));
  const journal = new PurchaseJournal(desk);
  for (const [intentId, account] of intents) {
    journal.recordIntent({
      intentId, createdAtMs: Date.now() - 60_000, listingId: 9_999_999, amount: 1, maxPrice: 500, appId: 730,
      marketHashName: 'Sticker | Never Listed', triggerSeq: null, watchlistId: null, source: 'app', account,
    });
  }
  desk.close();
}

/** The notifications about purchases of an earlier run, settled at connecting (on either market). */
function earlierPurchasesTold(pushes: { name: IpcPushName; payload: unknown }[]) {
  return pushes
    .filter((p) => p.name === 'notification' && /^(Demo market · )?Purchase of /.test((p.payload as { title: string }).title))
    .map((p) => p.payload as { level: string; title: string; message: string });
}

async function startCore(overrides: Partial<AppCoreOptions> = {}) {
  const pushes: { name: IpcPushName; payload: unknown; at: number }[] = [];
  const core = await AppCore.start({
    dataDir: overrides.dataDir ?? tempDir(),
    secrets: overrides.secrets ?? new MemorySecretStore(),
    platform: overrides.platform ?? new RecordingPlatform(),
    startDemoMarket: overrides.startDemoMarket ?? startDemo,
    version: '0.0.0-test',
    progressIntervalMs: 200,
    ...overrides,
  });
  cores.push(core);
  core.subscribe((name, payload) => pushes.push({ name, payload, at: Date.now() }));
  return { core, pushes };
}

/**
 * The app on a demo market A (its key saved), and the URL of another marketplace that answers every
 * request with 503: where the app can show only what it holds.
 */
async function onMarketAWithADownOne() {
  const a = await startDemoMarket({ port: 0, listings: 150, rate: 0, seed: 5 });
  demos.push(a);
  const elsewhere = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));
  const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  const dataDir = tempDir();
  const secrets = new MemorySecretStore();
  const first = await startCore({ dataDir, secrets });
  await first.core.call('setMarket', { useDemo: false, baseUrl: a.baseUrl, apiKey: a.apiKey });
  return { a, elsewhereUrl, dataDir, secrets, first };
}

/** The schema version of a book file, read beside whoever holds it. */
function readVersion(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return Number(db.pragma('user_version', { simple: true }));
  } finally {
    db.close();
  }
}

afterEach(async () => {
  while (cores.length) await cores.pop()?.close();
  while (demos.length) await demos.pop()?.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('AppCore on the demo market', () => {
  it('with no key, starts the demo market, goes live and serves book windows', async () => {
    const { core, pushes } = await startCore();
    const live = await core.whenLive(20_000);
    expect(live.market).toMatchObject({ mode: 'demo', demoReason: 'no_api_key' });
    expect(live.market.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(live.lastSeq).toMatch(/^\d{16,19}$/);

    const page = await core.call('queryBook', {
      sort: { field: 'price', dir: 'asc' },
      limit: 25,
      count: true,
    });
    expect(page.rows).toHaveLength(25);
    expect(page.total).toBeGreaterThan(300);
    expect(page.next).not.toBeNull();
    const prices = page.rows.map((r) => r.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const second = await core.call('queryBook', {
      sort: { field: 'price', dir: 'asc' },
      limit: 25,
      after: page.next ?? undefined,
    });
    expect(second.rows[0]?.price).toBeGreaterThanOrEqual(prices.at(-1) ?? 0);
    expect(new Set([...page.rows, ...second.rows].map((r) => r.id)).size).toBe(50);

    // live: book changes arrive as coalesced pushes with growing versions
    await until('book changes', () => pushes.filter((p) => p.name === 'bookChanged').length >= 3);
    const changes = pushes.filter((p) => p.name === 'bookChanged').map((p) => p.payload as BookChanged);
    const versions = changes.map((c) => c.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    // status pushes are coalesced (at most 60/s): the live one may follow whenLive() by a frame
    const statuses = () => pushes.filter((p) => p.name === 'syncStatus').map((p) => (p.payload as SyncStatus).state);
    await until('a live status push', () => statuses().includes('live'));
    expect(statuses()[0]).not.toBe('live'); // it went live after starting, and said so
  });

  it('fetches the full detail of a listing on demand and remembers it', async () => {
    const { core } = await startCore();
    await core.whenLive(20_000);
    const page = await core.call('queryBook', { filter: { app_id: 730 }, limit: 1 });
    const id = page.rows[0]?.id;
    if (id === undefined) throw new Error('no CS2 listing in the demo book');
    const detail = await core.call('getListing', { id });
    expect(detail.alive).toBe(true);
    expect(detail.listing).toMatchObject({ id, app_id: 730 });
    expect(typeof detail.listing?.cs_paint_wear === 'number' || detail.listing?.cs_paint_wear === null).toBe(
      true,
    );
    expect(await core.call('getListing', { id: 999_999_999 })).toEqual({ listing: null, alive: false, floatRank: null });
    // the fetched detail counts towards the detail coverage of the book (the backfill runs meanwhile)
    const progress = await core.call('getBackfillProgress', {});
    expect(['running', 'done']).toContain(progress.state);
    expect(progress.problem).toBeNull();
    expect(progress.detailed).toBeGreaterThan(0);
    expect(progress.total).toBeGreaterThanOrEqual(progress.detailed);
  });

  it('stores the key, tells the renderer only set + last 4, and never sends it back', async () => {
    const secrets = new MemorySecretStore();
    const { core, pushes } = await startCore({ secrets });
    const key = 'sk_live_SECRETVALUE_9876';
    const view = await core.call('setApiKey', { apiKey: key });
    expect(view.apiKey).toEqual({ set: true, last4: '9876' });
    expect(await secrets.get('api-key')).toBe(key);
    const settings = await core.call('getSettings', {});
    expect(settings).toMatchObject({
      apiKey: { set: true, last4: '9876' },
      market: { useDemo: false, baseUrl: null },
    });
    // a key without a marketplace URL keeps the demo market, and says why
    await until('demo with reason', () => core.status().market.demoReason === 'no_market_url' || undefined);
    expect(core.redactor.redact(`Bearer x ${key}`)).not.toContain('SECRETVALUE');
    const webhook = await core.call('setWebhookSecret', { secret: 'whsec_SECRETVALUE_1111' });
    expect(webhook.webhookSecret).toEqual({ set: true, last4: '1111' });
    const cleared = await core.call('clearApiKey', {});
    expect(cleared.apiKey).toEqual({ set: false, last4: null });
    expect(await secrets.get('api-key')).toBeNull();
    expect(JSON.stringify(pushes)).not.toContain('SECRETVALUE');
  });

  it('switches to a real market by URL and key, and back to the demo', async () => {
    const real = await startDemoMarket({ port: 0, listings: 150, rate: 20, seed: 3 });
    demos.push(real);
    const { core, pushes } = await startCore();
    const embedded = (await core.whenLive(20_000)).market.baseUrl as string;
    const view = await core.call('setMarket', { useDemo: false, baseUrl: real.baseUrl, apiKey: real.apiKey });
    expect(view.market).toEqual({ useDemo: false, baseUrl: real.baseUrl });
    expect(view.apiKey).toEqual({ set: true, last4: real.apiKey.slice(-4) });
    await until(
      'real market live',
      () => {
        const s = core.status();
        return s.market.mode === 'real' &&
          s.state === 'live' &&
          s.market.baseUrl === real.baseUrl.replace(/\/$/, '')
          ? s
          : undefined;
      },
      20_000,
    );
    const page = await core.call('queryBook', { count: true, limit: 1 });
    expect(page.total).toBeGreaterThan(100);
    expect(page.total).toBeLessThan(300);
    // the embedded demo market stopped when the app left it
    await expect(fetch(`${embedded}/public/v1/meta`)).rejects.toThrow();

    await core.dispatch('setMarket', { useDemo: true, baseUrl: real.baseUrl });
    await until(
      'back on the demo',
      () => {
        const s = core.status();
        return s.market.mode === 'demo' && s.market.demoReason === 'chosen_in_settings' && s.state === 'live'
          ? s
          : undefined;
      },
      20_000,
    );
    // the switches were told under the connection's topic: in the window each replaces the one before
    const notices = pushes.filter((p) => p.name === 'notification').map((p) => p.payload as { title: string; message: string; topic?: string });
    expect(notices.filter((n) => n.topic === 'marketplace').map((n) => n.message)).toEqual([
      `Connecting to ${real.baseUrl.replace(/\/$/, '')}.`,
      'Switched to the demo market.',
    ]);
  });

  it('keeps the key for the market it was saved with: another origin removes it and never sees it', async () => {
    const seen: string[] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    try {
      const secrets = new MemorySecretStore();
      const { core, pushes } = await startCore({ secrets });
      const key = 'sk_live_BOUNDKEY_4242';
      await core.call('setMarket', { useDemo: true, baseUrl: 'https://api.market.example', apiKey: key });
      // the same origin, written another way: the key stays
      const same = await core.call('setMarket', { useDemo: true, baseUrl: 'https://api.market.example:443/' });
      expect(same.apiKey).toEqual({ set: true, last4: '4242' });

      // another origin without a key: the key is removed, and the user is told
      const moved = await core.call('setMarket', { useDemo: false, baseUrl: elsewhereUrl });
      expect(moved.apiKey).toEqual({ set: false, last4: null });
      expect(await secrets.get('api-key')).toBeNull();
      const told = pushes.filter((p) => p.name === 'notification').map((p) => p.payload as { title: string; message: string });
      expect(told).toContainEqual(expect.objectContaining({ title: 'API key removed', message: expect.stringContaining('https://api.market.example') }));
      await until('demo, for want of a key', () => core.status().market.demoReason === 'no_api_key' || undefined);
      expect(seen.filter((line) => line.includes('BOUNDKEY'))).toEqual([]);

      // plain http to another machine is refused before anything changes
      const refused = await core.dispatch('setMarket', { useDemo: false, baseUrl: 'http://market.example', apiKey: key });
      expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(await secrets.get('api-key')).toBeNull();
      expect((await core.call('getSettings', {})).market.baseUrl).toBe(elsewhereUrl);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it("forgets the stored account data when a new key on the same market is another account's", async () => {
    const real = await startDemoMarket({ port: 0, listings: 150, rate: 0, seed: 5 });
    demos.push(real);
    const [first, second] = real.accounts;
    if (!first || !second) throw new Error('the demo market has fewer than two accounts');
    const { core, pushes } = await startCore();
    const storedUserId = () => {
      try {
        return core.account.account().reads.cached('user')?.data.id;
      } catch {
        return undefined; // switching markets
      }
    };
    const anotherAccount = () => pushes.filter((p) => p.name === 'notification' && (p.payload as { title: string }).title === 'Another account');

    await core.call('setMarket', { useDemo: false, baseUrl: real.baseUrl, apiKey: first.apiKey });
    await until('the first account read', () => (core.status().market.mode === 'real' && storedUserId() === first.id) || undefined, 20_000);
    // the same key again: the same account, nothing forgotten
    await core.call('setApiKey', { apiKey: first.apiKey });
    await until('reconnected', () => (core.status().state === 'live' && storedUserId() === first.id) || undefined, 20_000);
    expect(anotherAccount()).toEqual([]);
    const firstTrades = real.state.trades(first.id).map((t) => t.id);
    expect(firstTrades.length).toBeGreaterThan(0);
    const storedOf = (ids: number[]) => ids.filter((id) => core.session.db.prepare('SELECT 1 FROM trades WHERE id = ?').get(id) !== undefined);
    await until("the first account's trades followed", () => storedOf(firstTrades).length === firstTrades.length || undefined, 20_000);
    const firstBalance = await core.call('getBalance', { refresh: true });
    expect(firstBalance.userName).toBe(real.state.account(first.id)?.name);

    await core.call('setApiKey', { apiKey: second.apiKey });
    await until('the second account read', () => storedUserId() === second.id || undefined, 20_000);
    expect(anotherAccount()).toHaveLength(1);
    // nothing of the first account's trades is left to be shown as the second's
    expect(storedOf(firstTrades)).toEqual([]);
    // nor its balance (cached apart from the account's reads)
    expect((await core.call('getBalance', { refresh: false })).userName).toBe(real.state.account(second.id)?.name);
  });

  it("never shows the previous account's data while a new key's account is being read", async () => {
    const real = await startDemoMarket({ port: 0, listings: 150, rate: 0, seed: 5 });
    demos.push(real);
    const [first, second] = real.accounts;
    if (!first || !second) throw new Error('the demo market has fewer than two accounts');
    const { core } = await startCore();
    await core.call('setMarket', { useDemo: false, baseUrl: real.baseUrl, apiKey: first.apiKey });
    const firstTrades = real.state.trades(first.id).map((t) => t.id);
    expect(firstTrades.length).toBeGreaterThan(0);
    // the trades a screen is shown: asked again while the market is said to be switching
    const shownIds = async (): Promise<number[]> => {
      for (;;) {
        const ids = await core
          .call('getTrades', {})
          .then(({ trades }) => trades.map((t) => t.trade.id))
          .catch((err: unknown) => {
            if (!String(err).includes('switching')) throw err;
            return null;
          });
        if (ids) return ids;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until("the first account's trades shown", async () => ((await shownIds()).length >= firstTrades.length ? true : undefined), 20_000);

    // a slow market: the new key's account takes a while to read, and the trader opens Trades at once
    real.chaos.set({ rest: { latencyMs: 400 } });
    await core.call('setApiKey', { apiKey: second.apiKey });
    const shownRightAway = await shownIds();
    real.chaos.calm();
    expect(shownRightAway.filter((id) => firstTrades.includes(id))).toEqual([]);
  });

  it('reads the book afresh from another marketplace, whose seqs lie below the first one’s', async () => {
    const first = await startDemoMarket({ port: 0, listings: 300, rate: 0, seed: 5 });
    const second = await startDemoMarket({ port: 0, listings: 120, rate: 0, seed: 6, seqStart: 1_000n });
    demos.push(first, second);
    const { core } = await startCore();
    const liveWith = (rows: number) => () => {
      const s = core.status();
      return s.market.mode === 'real' && s.state === 'live' && s.rows === rows ? s : undefined;
    };
    await core.call('setMarket', { useDemo: false, baseUrl: first.baseUrl, apiKey: first.apiKey });
    await until('the first market mirrored', liveWith(first.state.book().listings.length), 20_000);
    await core.call('setMarket', { useDemo: false, baseUrl: second.baseUrl, apiKey: second.apiKey });
    const live = await until('the second market mirrored', liveWith(second.state.book().listings.length), 20_000);
    expect(live.lastSeq).toBe(second.state.seq().toString());
    const ids = (await core.call('queryBook', { filter: {}, limit: 1000 })).rows.map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toEqual(second.state.book().listings.map((l) => l.id).sort((a, b) => a - b));
  });

  it("settles purchases an earlier run left open once the market answers, each with its own account's orders", async () => {
    const real = await startDemoMarket({ port: 0, listings: 150, rate: 0, seed: 5 });
    demos.push(real);
    const [first, second] = real.accounts;
    if (!first || !second) throw new Error('the demo market has fewer than two accounts');
    const dataDir = tempDir();
    // a previous run crashed between sending two purchases and reading their answers
    leaveOpenPurchases(join(dataDir, DATABASE_FILE_NAME), [
      ['mine', accountKey(real.baseUrl, first.id)],
      ['theirs', accountKey(real.baseUrl, second.id)],
    ]);
    const { core, pushes } = await startCore({ dataDir });
    await core.call('setMarket', { useDemo: false, baseUrl: real.baseUrl, apiKey: first.apiKey });
    const both = await until('both purchases told', () => (earlierPurchasesTold(pushes).length >= 2 ? earlierPurchasesTold(pushes) : undefined), 20_000);
    expect(both).toContainEqual(
      expect.objectContaining({ level: 'info', title: expect.stringMatching(/^Purchase of .* UTC: not bought$/), message: expect.stringContaining('“Sticker | Never Listed” is not in your order history') }),
    );
    expect(both).toContainEqual(
      expect.objectContaining({ level: 'warning', title: expect.stringMatching(/ UTC: unknown — check orders$/), message: expect.stringContaining(`sent with the key of ${accountKey(real.baseUrl, second.id)}`) }),
    );
    const reopened = new PurchaseJournal(core.session.db);
    expect(reopened.get('mine')).toMatchObject({ state: 'not_bought', resolution: 'reconciled' });
    expect(reopened.get('theirs')).toMatchObject({ state: 'unknown', orderId: null });
  });

  it('never settles a purchase of an earlier demo market from the new one', async () => {
    const dataDir = tempDir();
    leaveOpenPurchases(join(dataDir, DEMO_DATABASE_FILE_NAME), [['old-world', null]]);
    const { core, pushes } = await startCore({ dataDir });
    const [told] = await until('the purchase told', () => (earlierPurchasesTold(pushes).length > 0 ? earlierPurchasesTold(pushes) : undefined), 20_000);
    expect(told).toMatchObject({ level: 'warning', message: expect.stringContaining('an earlier demo market, gone since') });
    // the demo's account, not the user's own: the notice says so
    expect(told?.title).toMatch(/^Demo market · Purchase of /);
    expect(new PurchaseJournal(core.session.db).get('old-world')).toMatchObject({ state: 'unknown', orderId: null });
  });

  it("forgets the stored account data on another marketplace, even when its account has the same id", async () => {
    const a = await startDemoMarket({ port: 0, listings: 150, rate: 0, seed: 5 });
    const b = await startDemoMarket({ port: 0, listings: 150, rate: 0, seed: 8 });
    demos.push(a, b);
    const [onA] = a.accounts;
    const [onB] = b.accounts;
    if (!onA || !onB) throw new Error('a demo market without accounts');
    // the case in point: the same account id on two marketplaces
    expect(onB.id).toBe(onA.id);
    const { core, pushes } = await startCore();
    const anotherAccount = () => pushes.filter((p) => p.name === 'notification' && (p.payload as { title: string }).title === 'Another account');
    await core.call('setMarket', { useDemo: false, baseUrl: a.baseUrl, apiKey: onA.apiKey });
    const heldFor = () => core.session.db.prepare('SELECT account FROM account_identity').pluck().get();
    await until('the first account met', () => heldFor() === accountKey(a.baseUrl, onA.id) || undefined, 20_000);
    expect(anotherAccount()).toEqual([]);

    await core.call('setMarket', { useDemo: false, baseUrl: b.baseUrl, apiKey: onB.apiKey });
    await until('the other market met', () => anotherAccount().length > 0 || undefined, 20_000);
    expect(heldFor()).toBe(accountKey(b.baseUrl, onB.id));
  });

  it("never shows one marketplace's cached prices, averages or balance as another's; keeps them for the same one", async () => {
    const { a, elsewhereUrl, dataDir, secrets, first } = await onMarketAWithADownOne();
    await until('market A live', () => (first.core.status().market.mode === 'real' && first.core.status().state === 'live') || undefined, 20_000);
    const [row] = (await first.core.call('queryBook', { filter: {}, limit: 1 })).rows;
    if (!row) throw new Error('an empty book');
    const item = { app_id: row.app_id, market_hash_name: row.market_hash_name };
    const onA = {
      balance: await first.core.call('getBalance', { refresh: true }),
      context: await first.core.call('getPriceContext', { ...item, refresh: true }),
      sales: await first.core.call('getSalesHistory', { ...item, refresh: true }),
    };
    expect(onA.balance.balance).not.toBeNull();
    expect(onA.context.market_price).not.toBeNull();
    expect(onA.context.average_30d).not.toBeNull();
    expect(onA.sales.marketAsOf).not.toBeNull();
    await first.core.close();
    cores.splice(cores.indexOf(first.core), 1);
    await a.close();

    // the same market, offline: what was cached is shown
    const { core } = await startCore({ dataDir, secrets });
    await until('market A offline', () => (core.status().market.baseUrl === a.baseUrl.replace(/\/$/, '') && core.status().state === 'offline') || undefined, 20_000);
    expect((await core.call('getBalance', { refresh: false })).balance).toBe(onA.balance.balance);
    expect(await core.call('getPriceContext', { ...item, refresh: false })).toMatchObject({
      market_price: onA.context.market_price,
      average_30d: onA.context.average_30d,
    });

    // another market, offline: nothing of A's is shown as its own
    await core.call('setMarket', { useDemo: false, baseUrl: elsewhereUrl, apiKey: a.apiKey });
    await until('market B offline', () => (core.status().market.baseUrl === elsewhereUrl && core.status().state === 'offline') || undefined, 20_000);
    expect(await core.call('getBalance', { refresh: false })).toMatchObject({ balance: null, userName: null, asOf: null });
    expect(await core.call('getPriceContext', { ...item, refresh: false })).toMatchObject({
      market_price: null,
      recommended_price: null,
      average_30d: null,
      pricesAsOf: null,
      averagesAsOf: null,
    });
    expect((await core.call('getSalesHistory', { ...item, refresh: false })).marketAsOf).toBeNull();
    const window = await core.call('queryBookWindow', { filter: {}, sort: { field: 'price', dir: 'asc' }, offset: 0, limit: 50 });
    expect(window.rows.filter((r) => r.market_price !== null)).toEqual([]);
  });

  it("never shows another marketplace's book as this one's, even while this one is down", async () => {
    const { a, elsewhereUrl, dataDir, secrets, first } = await onMarketAWithADownOne();
    const heldOfA = a.state.book().listings.length;
    await until('market A mirrored', () => (first.core.status().state === 'live' && first.core.status().rows === heldOfA) || undefined, 20_000);

    // switched to B, which does not answer: A's rows are not B's book
    await first.core.call('setMarket', { useDemo: false, baseUrl: elsewhereUrl, apiKey: a.apiKey });
    await until('market B offline', () => (first.core.status().market.baseUrl === elsewhereUrl && first.core.status().state === 'offline') || undefined, 20_000);
    expect(first.core.status().rows).toBe(0);
    expect((await first.core.call('queryBook', { filter: {}, limit: 10, count: true })).total).toBe(0);
    expect(first.pushes.some((p) => p.name === 'notification' && /held the book of http:\/\/127\.0\.0\.1:\d+/.test((p.payload as { message: string }).message))).toBe(true);
    await first.core.close();
    cores.splice(cores.indexOf(first.core), 1);

    // a start on B with a book of A in the file (say, the URL was changed by an older version)
    const book = new Database(join(dataDir, DATABASE_FILE_NAME));
    book.prepare('UPDATE sync_state SET source = ? WHERE id = 1').run(a.baseUrl);
    book
      .prepare('INSERT INTO listings (id, app_id, price, amount, last_seq, alive, first_seen_at, updated_at) VALUES (1, 730, 100, 1, 1, 1, 0, 0)')
      .run();
    book.close();
    const { core } = await startCore({ dataDir, secrets });
    expect(core.status().market.baseUrl).toBe(elsewhereUrl);
    expect(core.status().rows).toBe(0);
    expect((await core.call('queryBook', { filter: {}, limit: 10, count: true })).total).toBe(0);
    const { notifications } = await core.call('takeStartupNotifications', {});
    expect(notifications.map((n) => n.message)).toContain(
      `The book file held the book of ${a.baseUrl}; it was emptied, and this market's book is read afresh.`,
    );
  });

  it("shows the new market's detail progress at the switch, never the previous market's meanwhile", async () => {
    // no recount by timer during the test: only the switch itself can tell the new market's progress
    const { core, pushes } = await startCore({ progressIntervalMs: 600_000 });
    await core.whenLive(20_000);
    const progress = () => pushes.filter((p) => p.name === 'backfillProgress').map((p) => p.payload as BackfillProgress);
    await until('the demo book to report its details', () => progress().some((p) => p.total > 0) || undefined);
    await core.call('setMarket', { useDemo: false, baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_live_UNREACHABLE_0001' });
    await until('the switch to the unreachable market', () => (core.status().market.mode === 'real' ? true : undefined));
    // the unreachable market's book is empty: "detail 40%" of the demo's would sit beside "book 0"
    await until('its own detail progress', () => (progress().at(-1)?.total === 0 ? true : undefined), 2_000);
  });

  it('leaves the market as it was when the keychain refuses the key', async () => {
    const secrets = new MemorySecretStore();
    const { core } = await startCore({ secrets });
    vi.spyOn(secrets, 'set').mockRejectedValueOnce(new SecretStoreError('unavailable', 'no Secret Service'));
    const failed = await core.dispatch('setMarket', { useDemo: false, baseUrl: 'https://api.market.example', apiKey: 'sk_live_REFUSED_0001' });
    expect(failed.ok).toBe(false);
    expect(JSON.stringify(failed)).not.toContain('REFUSED_0001');
    expect((await core.call('getSettings', {})).market).toEqual({ useDemo: false, baseUrl: null });
  });

  it('opens only allowlisted https links, through the platform', async () => {
    const platform = new RecordingPlatform();
    const { core } = await startCore({ platform });
    expect(await core.call('openExternal', { url: 'https://steamcommunity.com/market/' })).toEqual({
      opened: true,
    });
    const refused = await core.dispatch('openExternal', { url: 'https://evil.example/' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    const notHttps = await core.dispatch('openExternal', { url: 'file:///etc/passwd' });
    expect(notHttps.ok).toBe(false);
    expect(platform.opened).toEqual(['https://steamcommunity.com/market/']);
  });

  it("never opens the configured market's host: the page can set it, so it would open any site", async () => {
    const platform = new RecordingPlatform();
    const { core } = await startCore({ platform });
    await core.call('setMarket', { useDemo: true, baseUrl: 'https://lure.example' });
    const refused = await core.dispatch('openExternal', { url: 'https://lure.example/login' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'REFUSED' } });
    expect(platform.opened).toEqual([]);
  });
});

describe('AppCore startup', () => {
  it('opens the mirror from disk before the network is up', async () => {
    const dataDir = tempDir();
    const first = await startCore({ dataDir });
    await first.core.whenLive(20_000);
    await first.core.close();
    cores.splice(cores.indexOf(first.core), 1);
    // what the sync worker left in the file when it stopped (every event it had received applied)
    const file = openDatabase(join(dataDir, DEMO_DATABASE_FILE_NAME), { readonly: true });
    const before = { total: readStatus(file).listings };
    file.close();

    // the network never comes up this time: the last book must still be readable at once
    const never: StartDemoMarket = () => new Promise(() => {});
    const second = await startCore({ dataDir, startDemoMarket: never });
    const status = second.core.status();
    expect(status.state).toBe('connecting');
    expect(status.rows).toBeGreaterThan(0);
    const cached = await second.core.call('queryBook', { count: true, limit: 5 });
    expect(cached.total).toBe(before.total);
    expect(cached.rows.length).toBe(5);
  });

  it('opens a listing whose detail was never stored while its market is unreachable: the lean row, no failure', async () => {
    // a real market mirrored once, without the detail backfill: its rows are the book's lean ones
    const market = await startDemoMarket({ port: 0, listings: 50, rate: 0, seed: 5 });
    demos.push(market);
    const dataDir = tempDir();
    const secrets = new MemorySecretStore();
    const offlineStart = { dataDir, secrets, backfillOptions: false as const, sessionRetryMs: [600_000] };
    const first = await startCore(offlineStart);
    await first.core.call('setMarket', { useDemo: false, baseUrl: market.baseUrl, apiKey: market.apiKey });
    await until('the real market live', () => first.core.status().state === 'live' && first.core.status().market.mode === 'real', 20_000);
    const id = (await first.core.call('queryBook', { sort: { field: 'price', dir: 'asc' }, limit: 1 })).rows[0]?.id;
    if (id === undefined) throw new Error('no listing in the book');
    await first.core.close();
    cores.splice(cores.indexOf(first.core), 1);
    await market.close();
    demos.splice(demos.indexOf(market), 1);

    const { core } = await startCore(offlineStart);
    await until('offline', () => core.status().state === 'offline' || core.status().state === 'stopped', 20_000);
    expect(await core.dispatch('getListing', { id })).toEqual({ ok: true, value: { listing: null, alive: true, floatRank: null } });
  });

  it('opens a book file an older build made at once, and says in its status that the sync upgrades it', async () => {
    const dataDir = tempDir();
    const first = await startCore({ dataDir });
    await first.core.whenLive(20_000);
    await first.core.close();
    cores.splice(cores.indexOf(first.core), 1);
    const file = join(dataDir, DEMO_DATABASE_FILE_NAME);
    const older = openDatabase(file);
    backToVersion(older, 7);
    older.close();

    // the upgrade is the sync worker's, off the thread that answers the window: the book is shown meanwhile
    const never: StartDemoMarket = () => new Promise(() => {});
    const offline = await startCore({ dataDir, startDemoMarket: never });
    expect(offline.core.status().rows).toBeGreaterThan(0);
    expect(readVersion(file)).toBe(7);
    await offline.core.close();
    cores.splice(cores.indexOf(offline.core), 1);

    const second = await startCore({ dataDir });
    // every status as published, before the pushes are coalesced (a small book's upgrade is instant)
    const published = vi.spyOn(second.core, 'publish');
    await second.core.whenLive(20_000);
    const statuses = published.mock.calls.filter(([name]) => name === 'syncStatus').map(([, payload]) => payload as SyncStatus);
    expect(statuses.filter((s) => s.state === 'opening').map((s) => s.problem)).toEqual([
      'Upgrading the book file: rebuilding the indexes of the item fields (a few seconds for a large book). Once, after an update; the book shows as it was meanwhile.',
      'Upgrading the book file: rebuilding the float and name indexes (a few seconds for a large book). Once, after an update; the book shows as it was meanwhile.',
      'Upgrading the book file: copying prices into the details and rebuilding eight of their indexes (a few seconds for a large book). Once, after an update; the book shows as it was meanwhile.',
      'Upgrading the book file: rebuilding the name index and most detail indexes (several seconds for a large book). Once, after an update; the book shows as it was meanwhile.',
      'Upgrading the book file: rebuilding the name, price and sticker indexes and indexing the exterior (several seconds for a large book). Once, after an update; the book shows as it was meanwhile.',
    ]);
    expect(readVersion(file)).toBe(SCHEMA_VERSION);
  });

  it('reports an unreachable keychain and runs on the demo market', async () => {
    const broken = {
      kind: 'keyring' as const,
      get: async () => {
        const { SecretStoreError } = await import('../../../src/core/secrets/index.ts');
        throw new SecretStoreError(
          'unavailable',
          'could not read the API key in the system keychain: no Secret Service',
        );
      },
      set: async () => {},
      delete: async () => false,
    };
    const { core } = await startCore({ secrets: broken, startDemoMarket: () => new Promise(() => {}) });
    const settings = await core.call('getSettings', {});
    expect(settings.secretStorage).toEqual({
      kind: 'keyring',
      problem: expect.stringMatching(/no Secret Service/),
    });
    // a key may well be saved there: the demo is for want of the keychain, not of a key
    expect(core.status().market).toMatchObject({ mode: 'demo', demoReason: 'keychain_unavailable' });
  });

  it('tells what an unreachable keychain means for the user and what to do about it', async () => {
    const broken = new MemorySecretStore();
    broken.get = () =>
      Promise.reject(new SecretStoreError('unavailable', 'could not read the API key in the system keychain: no Secret Service'));
    const { core } = await startCore({ secrets: broken, startDemoMarket: () => new Promise(() => {}) });
    const { problem } = (await core.call('getSettings', {})).secretStorage;
    expect(problem).toMatch(/^Could not read the API key in the system keychain: no Secret Service\. /);
    expect(problem).toMatch(/demo market/);
    expect(problem).toMatch(/restart Skindesk/);
    const { notifications } = await core.call('takeStartupNotifications', {});
    const notice = notifications.find((n) => n.title === 'Keychain');
    expect(notice?.message).toBe(problem);
    // the window closes it by its topic once the keychain works again (its advice is wrong then)
    expect(notice?.topic).toBe(KEYCHAIN_NOTICE_TOPIC);
  });

  it('reads the API key again once the keychain takes a secret, and goes to the real market it was for', async () => {
    // the keychain was locked at start and is unlocked while the app runs; the key was saved before
    const secrets = new MemorySecretStore({ 'api-key': 'sk_live_SAVED_EARLIER_0001' });
    const read = secrets.get.bind(secrets);
    let locked = true;
    secrets.get = (name) => (locked ? Promise.reject(new SecretStoreError('unavailable', 'the keychain is locked')) : read(name));
    const { core } = await startCore({ secrets, startDemoMarket: () => new Promise(() => {}) });
    await core.call('setMarket', { useDemo: false, baseUrl: 'http://127.0.0.1:9' });
    expect(core.status().market).toMatchObject({ mode: 'demo', demoReason: 'keychain_unavailable' });

    locked = false;
    const view = await core.call('setWebhookSecret', { secret: 'whsec_AFTER_UNLOCK_0002' });
    // not "no API key is saved": the key is there, and now readable
    expect(view.secretStorage.problem).toBeNull();
    expect(view.apiKey).toEqual({ set: true, last4: '0001' });
    await until('the switch to the market the key is for', () => (core.status().market.mode === 'real' ? true : undefined));
    expect(core.redactor.redact('key sk_live_SAVED_EARLIER_0001')).not.toContain('SAVED_EARLIER');
  });

  it('says no API key is saved once the unlocked keychain shows there is none', async () => {
    const secrets = new MemorySecretStore();
    const read = secrets.get.bind(secrets);
    let locked = true;
    secrets.get = (name) => (locked ? Promise.reject(new SecretStoreError('unavailable', 'the keychain is locked')) : read(name));
    const { core } = await startCore({ secrets, startDemoMarket: () => new Promise(() => {}) });
    locked = false;
    const view = await core.call('setWebhookSecret', { secret: 'whsec_AFTER_UNLOCK_0003' });
    expect(view.apiKey).toEqual({ set: false, last4: null });
    await until('the reason told truthfully', () => (core.status().market.demoReason === 'no_api_key' ? true : undefined));
  });

  it('keeps what went wrong while starting for the first window, which takes it once', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'settings.json'), '{ broken');
    const broken = new MemorySecretStore();
    broken.get = () => Promise.reject(new SecretStoreError('unavailable', 'no Secret Service on this machine'));
    // published while the core starts: no window listens yet, so no push can carry these
    const { core, pushes } = await startCore({ dataDir, secrets: broken, startDemoMarket: () => new Promise(() => {}) });
    expect(pushes.filter((p) => p.name === 'notification')).toEqual([]);

    const { notifications } = await core.call('takeStartupNotifications', {});
    expect(notifications.map((n) => [n.level, n.title])).toEqual([
      ['warning', 'Settings'],
      ['warning', 'Keychain'],
    ]);
    expect(notifications[0]?.message).toMatch(/damaged/);
    expect(notifications[1]?.message).toMatch(/no Secret Service/i);
    // a second window (or a reload) is not shown them again; later ones arrive as pushes only
    expect((await core.call('takeStartupNotifications', {})).notifications).toEqual([]);
    core.notify('info', 'Later', 'after the window opened');
    expect((await core.call('takeStartupNotifications', {})).notifications).toEqual([]);
    expect(pushes.filter((p) => p.name === 'notification').map((p) => (p.payload as { title: string }).title)).toEqual(['Later']);
  });

  it('starts a session that could not connect again, after a wait, until it works', async () => {
    let refusals = 2;
    const statuses: SyncStatus[] = [];
    const refuse = () => new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no network yet')), 50));
    const { core, pushes } = await startCore({
      startDemoMarket: (options) => (refusals-- > 0 ? refuse() : startDemo(options)),
      sessionRetryMs: [300, 600],
    });
    core.subscribe((name, payload) => {
      if (name === 'syncStatus') statuses.push(payload as SyncStatus);
    });
    const live = await core.whenLive(20_000);
    expect(live.problem).toBeNull();
    expect(demos).toHaveLength(1);
    // two failures in a row, one notice; the status told each wait
    const notices = pushes
      .filter((p) => p.name === 'notification')
      .map((p) => p.payload as { level: string; message: string })
      .filter((n) => n.level === 'error');
    expect(notices).toEqual([
      expect.objectContaining({ level: 'error', message: 'Could not connect to the marketplace: no network yet. Skindesk tries again in 1 s.' }),
    ]);
    expect(statuses.map((s) => s.problem).filter((p) => p?.includes('trying again'))).toEqual([
      'Could not connect to the marketplace: no network yet; trying again in 1 s',
      'Could not connect to the marketplace: no network yet; trying again in 1 s',
    ]);
  });

  it('says in plain words that the marketplace could not be reached, with the system’s reason', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('api-key', 'sk_live_UNREACHABLE_0001');
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ market: { useDemo: false, baseUrl: 'http://127.0.0.1:9' } }));
    const { core } = await startCore({ dataDir, secrets, sessionRetryMs: [60_000] });
    const status = await until('the failure told', () => (core.status().problem?.includes('Could not connect') ? core.status() : undefined), 20_000);
    expect(status.problem).toMatch(/^Could not connect to the market(place)?: the marketplace could not be reached \(ECONNREFUSED/);
    expect(status.problem).not.toContain('GET /public');
  });

  it('says a refusal without a code in plain words, not as a mangled request line (a base URL that answers 404)', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>Not Found</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const secrets = new MemorySecretStore();
      await secrets.set('api-key', 'sk_live_WRONG_PATH_0001');
      const dataDir = tempDir();
      const port = (server.address() as AddressInfo).port;
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ market: { useDemo: false, baseUrl: `http://127.0.0.1:${port}` } }));
      const { core } = await startCore({ dataDir, secrets, sessionRetryMs: [60_000] });
      const status = await until('the failure told', () => (core.status().problem?.includes('Could not connect') ? core.status() : undefined), 20_000);
      expect(status.problem).toMatch(
        /^Could not connect to the market(place)?: the marketplace answered “not found” \(what was asked for is gone, or the marketplace address is wrong\)(;|$)/,
      );
      expect(status.problem).not.toMatch(/gET|\/public|HTTP/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('starts a new demo market when the one it had stopped on its own', async () => {
    const { core, pushes } = await startCore({ sessionRetryMs: [200] });
    const first = (await core.whenLive(20_000)).market.baseUrl;
    await core.call('getBackpack', { page: 1, limit: 50, appId: null, search: null });
    const accountRows = () => core.session.db.prepare('SELECT key, fetched_at FROM account_cache').all();
    const firstAccount = accountRows();
    expect(firstAccount).not.toEqual([]);
    // what a demo thread that died looks like from here
    await demos[0]?.close();
    await until('live on a second demo market', () => demos.length === 2 && core.status().state === 'live', 20_000);
    expect(core.status().market.baseUrl).toBe(demos[1]?.baseUrl);
    expect(core.status().market.baseUrl).not.toBe(first);
    // a new market has a new demo account: nothing of the first one is kept as if it were this one's
    for (const row of firstAccount) expect(accountRows()).not.toContainEqual(row);
    expect(pushes.filter((p) => p.name === 'notification').map((p) => p.payload)).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'The demo market stopped. Skindesk tries again in 1 s.' }),
    );
  });

  it('starts the book again when the sync stopped on a write the file refused, once the cause is gone', async () => {
    const dataDir = tempDir();
    const { core, pushes } = await startCore({ dataDir, sessionRetryMs: [200] });
    await core.whenLive(20_000);
    // a read of the demo account, kept in the desk
    await core.call('getBackpack', { page: 1, limit: 50, appId: null, search: null });
    const accountRows = () => core.session.db.prepare('SELECT key, fetched_at FROM account_cache ORDER BY key').all();
    const accountBefore = accountRows();
    expect(accountBefore).not.toEqual([]);
    // another program holds the book's write lock past the worker's busy timeout (5 s)
    const holder = openDatabase(join(dataDir, DEMO_DATABASE_FILE_NAME));
    holder.exec('BEGIN IMMEDIATE');
    const notice = () =>
      pushes.find((p) => p.name === 'notification' && (p.payload as { title: string }).title === 'Marketplace')?.payload;
    try {
      await until('the failure notice', () => notice() !== undefined, 20_000);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(notice()).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/^The book stopped updating: .*database is locked.*\. Skindesk tries again in 1 s\.$/),
      // the connection's notices replace each other in the window
      topic: 'marketplace',
    });
    const failedAt = pushes.length;
    const before = core.session;
    await until('a new session live', () => core.session !== before && core.status().state === 'live', 20_000);
    expect(core.status().problem).toBeNull();
    // the demo market was not the cause: the new session meets the same one, and the account kept in the
    // desk (trades followed, reads) is still its own
    expect(demos).toHaveLength(1);
    expect(core.status().market.baseUrl).toBe(demos[0]?.baseUrl);
    expect(accountRows()).toEqual(expect.arrayContaining(accountBefore));
    // the same file holds the same rows: the grid is not emptied (a reset of nothing) to reload them
    const emptied = pushes
      .slice(failedAt)
      .filter((p) => p.name === 'bookChanged')
      .map((p) => p.payload as BookChanged)
      .filter((c) => c.reset && c.upserted === 0 && c.removed === 0);
    expect(emptied).toEqual([]);
  }, 40_000);

  it('keeps the failed session and waits again when the book cannot be opened again', async () => {
    const dataDir = tempDir();
    const book = join(dataDir, DEMO_DATABASE_FILE_NAME);
    const statuses: SyncStatus[] = [];
    const { core } = await startCore({ dataDir, sessionRetryMs: [1_000] });
    core.subscribe((name, payload) => {
      if (name === 'syncStatus') statuses.push(payload as SyncStatus);
    });
    await core.whenLive(20_000);
    const failed = core.session;
    // the sync stops on a write another program keeps locked
    const holder = openDatabase(book);
    holder.exec('BEGIN IMMEDIATE');
    try {
      await until('the sync stopped', () => statuses.some((s) => s.problem?.includes('trying again')), 20_000);
      // then, for a while, the book's path is no file SQLite can open
      renameSync(book, `${book}.held`);
      mkdirSync(book);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const reopenFailed = await until(
      'the reopen refused',
      () => statuses.find((s) => s.problem?.startsWith('The book could not be opened again')),
      20_000,
    );
    expect(reopenFailed.problem).toMatch(/^The book could not be opened again: .+; trying again in 1 s$/);
    // the failed session stayed in place: the grid still reads its book
    expect(core.session).toBe(failed);
    expect((await core.call('queryBook', { filter: {}, limit: 1 })).rows).toHaveLength(1);
    rmdirSync(book);
    renameSync(`${book}.held`, book);
    await until('a new session live', () => core.session !== failed && core.status().state === 'live', 20_000);
    expect(core.status().problem).toBeNull();
  }, 60_000);

  it('tells an exception nothing caught in plain words, once a minute at most', async () => {
    // no market: the test is about the notices (one about the market that cannot start comes too)
    const { core, pushes } = await startCore({ startDemoMarket: () => Promise.reject(new Error('no market here')) });
    const told = (title: string) =>
      pushes.filter((p) => p.name === 'notification' && (p.payload as { title: string }).title === title).map((p) => p.payload);
    core.unexpectedFailure(new TypeError('cannot read properties of undefined'));
    core.unexpectedFailure(new Error('and another right after'));
    expect(told('Skindesk')).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'Something went wrong inside Skindesk; the log has the details. If the app misbehaves, restart it.',
      }),
    ]);
    // a damaged file among them is mended (the desk is sound here, so the book is set aside)
    core.unexpectedFailure(Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }));
    await vi.waitFor(() => expect(told('Book')).toHaveLength(1));
    expect(told('Book')[0]).toMatchObject({
      level: 'warning',
      message: expect.stringMatching(/^The book file was damaged \(database disk image is malformed\)\. It was set aside/),
    });
    expect(told('Skindesk')).toHaveLength(1);
  });
});

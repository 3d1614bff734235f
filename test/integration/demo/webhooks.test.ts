/**
 * Webhooks (spec §6.2): `trade.updated` on every status change, the five headers, HMAC-SHA256 over
 * `<timestamp>.<raw body>`, 2xx within 10 s as success, retries with the same delivery id and a growing
 * attempt number, redirects not followed, 6 attempts, the URL removed after 20 failed deliveries in a
 * row, queued retries following a changed URL — against a real receiver on 127.0.0.1. Timers run
 * 100× faster: 5 s of back-off is 50 ms, the 10 s time-out 100 ms (slower would make the file slow,
 * faster would let a busy machine turn a prompt answer into a time-out).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, tradeUpdatedBody, webhookHeaderNames } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, eventually, expectOk, parseAs, startTestMarket } from './helpers.ts';

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
  path: string;
}

/** A webhook receiver whose answer each test decides. */
class Receiver {
  readonly received: Received[] = [];
  respond: (req: Received, res: ServerResponse) => void = (_req, res) => res.writeHead(204).end();
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = { headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
        this.received.push(r);
        this.respond(r, res);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const H = webhookHeaderNames();
let market: DemoMarket;
let receiver: Receiver;

beforeAll(async () => {
  market = await startTestMarket({ seed: 71, timeScale: 100 });
  receiver = await new Receiver().start();
  // the trade in flight at startup ends now, before any URL is set
  for (const t of parseAs(ENDPOINTS.trades.response, expectOk(await api(market).get('/public/v1/trades', { page: 1, limit: 500 }))).trades) {
    if (t.status === 'CreatedNeedsConfirmation' || t.status === 'Active' || t.status === 'InEscrow') market.moveTrade(t.id, 'Accepted');
  }
});
afterEach(async () => {
  // each test starts from a quiet dispatcher: no retries of an earlier test can reach it
  await market.setWebhookUrl(null);
  await eventually(() => (market.pendingWebhooks === 0 ? true : undefined), 5_000, 'pending deliveries to end');
  market.setTradeOutcome(null);
  market.holdTrades(false);
  receiver.received.length = 0;
  receiver.respond = (_req, res) => res.writeHead(204).end();
});
afterAll(async () => {
  await market.close();
  await receiver.stop();
});

/** Starts a deposit of the demo user: a fresh trade (moving by timer unless trades are held). */
async function startTrade(): Promise<number> {
  return (await startTradeIds()).depositId;
}

async function startTradeIds(): Promise<{ depositId: number; tradeId: number }> {
  const asset = market.giveInventory(1, 'Refined Metal', 1);
  const items = parseAs(ENDPOINTS.steamInventory.response, expectOk(await api(market).get('/public/v1/steam-inventory', { app_id: 440 }))).items;
  const token = items.find((i) => i.steam_asset_id === String(asset))!.token;
  const { deposit_ids } = parseAs(ENDPOINTS.deposit.response, expectOk(await api(market).post('/public/v1/deposit', { items: [{ token, amount: 1 }] })));
  const trades = parseAs(ENDPOINTS.trades.response, expectOk(await api(market).get('/public/v1/trades', { page: 1, limit: 500 }))).trades;
  return { depositId: deposit_ids[0]!, tradeId: trades.find((t) => t.deposit_id === deposit_ids[0])!.id };
}

/** One status change of a held trade: exactly one delivery. */
async function oneDelivery(): Promise<number> {
  market.holdTrades(true);
  const { tradeId } = await startTradeIds();
  market.moveTrade(tradeId, 'Active');
  return tradeId;
}
const attemptsOf = (tradeId: number) => market.webhookLog.filter((l) => l.tradeId === tradeId);
const receivedFor = (r: Receiver, tradeId: number) => r.received.filter((x) => JSON.parse(x.raw).data.id === tradeId);

const verify = (secret: string, r: Received) => {
  const expected = `sha256=${createHmac('sha256', secret).update(`${r.headers[H.timestamp.toLowerCase()]}.${r.raw}`).digest('hex')}`;
  const got = String(r.headers[H.signature.toLowerCase()]);
  return got.length === expected.length && timingSafeEqual(Buffer.from(got), Buffer.from(expected));
};

describe('deliveries', () => {
  it('posts trade.updated on every status change, signed, with the five headers and the trade row as data', async () => {
    market.setTradeOutcome('Accepted');
    await market.setWebhookUrl(receiver.url);
    const depositId = await startTrade();
    const ours = () => receiver.received.filter((r) => JSON.parse(r.raw).data.deposit_id === depositId);
    await eventually(() => (new Set(ours().map((r) => r.headers[H.delivery.toLowerCase()])).size >= 2 ? true : undefined), 5_000, 'two deliveries');
    // one delivery per status change (a busy machine may add a retry of the same delivery)
    const byDelivery = new Map(ours().map((r) => [r.headers[H.delivery.toLowerCase()], r]));
    const bodies = [...byDelivery.values()].map((r) => parseAs(tradeUpdatedBody, JSON.parse(r.raw)));
    expect(bodies.map((b) => [b.data.deposit_id, b.data.status])).toEqual([
      [depositId, 'Active'],
      [depositId, 'Accepted'],
    ]);
    for (const r of ours()) {
      expect(r.path).toBe('/hooks');
      expect(r.headers[H.event.toLowerCase()]).toBe('trade.updated');
      expect(Number(r.headers[H.attempt.toLowerCase()])).toBeGreaterThanOrEqual(1);
      expect(r.headers[H.delivery.toLowerCase()]).toBe(JSON.parse(r.raw).id);
      expect(Math.abs(Number(r.headers[H.timestamp.toLowerCase()]) - Date.now() / 1000)).toBeLessThan(60);
      expect(verify(market.webhookSecret, r)).toBe(true);
      expect(verify('whsec_wrong', r)).toBe(false);
    }
    expect(new Set(bodies.map((b) => b.id)).size).toBe(2);
    // data is exactly the trades row
    const trades = parseAs(ENDPOINTS.trades.response, expectOk(await api(market).get('/public/v1/trades', { page: 1, limit: 500 }))).trades;
    expect(bodies[1]!.data).toEqual(trades.find((t) => t.deposit_id === depositId));
  });

  it('retries a failed delivery with the same delivery id and a growing attempt number', async () => {
    receiver.respond = (r, res) => res.writeHead(Number(r.headers[H.attempt.toLowerCase()]) <= 2 ? 500 : 200).end();
    await market.setWebhookUrl(receiver.url);
    const tradeId = await oneDelivery();
    await eventually(() => (attemptsOf(tradeId).some((l) => l.ok) ? true : undefined), 3_000, 'a successful retry');
    const got = receivedFor(receiver, tradeId);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers[H.delivery.toLowerCase()])).size).toBe(1);
    expect(got.map((r) => r.headers[H.attempt.toLowerCase()])).toEqual(['1', '2', '3']);
    expect(got[0]!.raw).toBe(got[2]!.raw);
    expect(verify(market.webhookSecret, got[2]!)).toBe(true);
    expect(attemptsOf(tradeId).map((l) => [l.attempt, l.ok, l.status])).toEqual([[1, false, 500], [2, false, 500], [3, true, 200]]);
    expect(market.state.account(1)!.webhook.consecutiveFailures).toBe(0);
  });

  it('treats a redirect as a failure and never follows it; gives up after 6 attempts', async () => {
    const target = await new Receiver().start();
    try {
      receiver.respond = (_r, res) => res.writeHead(302, { location: target.url }).end();
      await market.setWebhookUrl(receiver.url);
      const tradeId = await oneDelivery();
      // 5+10+20+40+80 s of back-off at 100× is 1.55 s
      await eventually(() => (attemptsOf(tradeId).length === 6 ? true : undefined), 5_000, 'six attempts');
      await new Promise((r) => setTimeout(r, 300));
      const attempts = attemptsOf(tradeId);
      expect(attempts.map((l) => l.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(attempts.every((l) => !l.ok && l.status === 302)).toBe(true);
      expect(new Set(attempts.map((l) => l.deliveryId)).size).toBe(1);
      expect(target.received).toHaveLength(0);
      expect(market.state.account(1)!.webhook.consecutiveFailures).toBeGreaterThanOrEqual(1);
    } finally {
      await target.stop();
    }
  });

  it('fails an attempt that gets no answer within 10 s (scaled)', async () => {
    const hung: ServerResponse[] = [];
    receiver.respond = (_r, res) => hung.push(res);
    await market.setWebhookUrl(receiver.url);
    const tradeId = await oneDelivery();
    const entry = await eventually(() => attemptsOf(tradeId).find((l) => l.error?.includes('10 s')), 3_000, 'a timed-out attempt');
    expect(entry).toMatchObject({ ok: false, status: null, attempt: 1 });
    for (const res of hung) res.destroy();
  });

  it('sends queued retries to a changed URL, and drops them when the URL is cleared', async () => {
    const other = await new Receiver().start();
    try {
      // the user changes the URL while the first attempt is failing
      receiver.respond = (_r, res) => void market.setWebhookUrl(other.url).then(() => res.writeHead(503).end());
      await market.setWebhookUrl(receiver.url);
      const moved = await oneDelivery();
      const retried = await eventually(() => receivedFor(other, moved)[0], 3_000, 'the retry at the new URL');
      expect(retried.headers[H.attempt.toLowerCase()]).toBe('2');
      expect(retried.headers[H.delivery.toLowerCase()]).toBe(receivedFor(receiver, moved)[0]!.headers[H.delivery.toLowerCase()]);

      // and clears it while the next delivery's first attempt is failing: no more attempts
      other.respond = (_r, res) => void market.setWebhookUrl(null).then(() => res.writeHead(500).end());
      expect(market.webhookUrl()).toBe(other.url);
      const { tradeId } = await startTradeIds();
      market.moveTrade(tradeId, 'Active');
      await eventually(() => (attemptsOf(tradeId).length === 1 ? true : undefined), 3_000, 'the first attempt');
      await new Promise((r) => setTimeout(r, 300));
      expect(attemptsOf(tradeId)).toHaveLength(1);
      expect(receivedFor(other, tradeId)).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });

  it('drops queued retries when the URL is cleared, even if a URL is saved again before they were due', async () => {
    // the user clears the URL and saves it again while the first attempt is failing
    receiver.respond = (_r, res) =>
      void market
        .setWebhookUrl(null)
        .then(() => market.setWebhookUrl(receiver.url))
        .then(() => res.writeHead(500).end());
    await market.setWebhookUrl(receiver.url);
    const dropped = await oneDelivery();
    await eventually(() => (attemptsOf(dropped).length === 1 ? true : undefined), 3_000, 'the first attempt');
    await eventually(() => (market.pendingWebhooks === 0 ? true : undefined), 3_000, 'the delivery to be dropped');
    expect(attemptsOf(dropped)).toHaveLength(1);
    // the URL saved again gets what happens from then on
    receiver.respond = (_r, res) => res.writeHead(204).end();
    market.moveTrade(dropped, 'Accepted');
    const next = await eventually(() => attemptsOf(dropped).find((l) => l.ok), 3_000, 'the next change delivered');
    expect(next.attempt).toBe(1);
  });

  it('removes the URL after 20 failed deliveries in a row and leaves the user a notice; a URL saved after it counts afresh', async () => {
    receiver.respond = (_r, res) => res.writeHead(500).end();
    await market.setWebhookUrl(receiver.url);
    market.setTradeOutcome('Accepted');
    // 10 trades × 2 status changes = 20 deliveries, each failing all 6 attempts
    for (let i = 0; i < 10; i++) await startTrade();
    await eventually(() => (market.webhookUrl() === null ? true : undefined), 10_000, 'the URL to be removed');
    expect(market.notices().at(-1)).toMatchObject({ kind: 'webhook_removed' });
    const deliveries = new Set(market.webhookLog.filter((l) => l.url === receiver.url && !l.ok).map((l) => l.deliveryId));
    expect(deliveries.size).toBeGreaterThanOrEqual(20);
    await eventually(() => (market.pendingWebhooks === 0 ? true : undefined), 5_000, 'the deliveries to end');
    // the removal ended that run of failures: saved again, the URL is not removed at its next failure
    await market.setWebhookUrl(receiver.url);
    const failed = await oneDelivery();
    await eventually(() => (attemptsOf(failed).length === 6 && market.pendingWebhooks === 0 ? true : undefined), 5_000, 'six failed attempts');
    expect(market.webhookUrl()).toBe(receiver.url);
    expect(market.state.account(1)!.webhook.consecutiveFailures).toBe(1);
    await market.setWebhookUrl(null);
  });

  it('keeps the count of failed deliveries when a URL is saved; only a successful delivery resets it', async () => {
    const failures = () => market.state.account(1)!.webhook.consecutiveFailures;
    // start the streak from a success, whatever earlier tests left
    await market.setWebhookUrl(receiver.url);
    const reset = await oneDelivery();
    await eventually(() => (attemptsOf(reset).some((l) => l.ok) ? true : undefined), 3_000, 'a successful delivery');
    expect(failures()).toBe(0);

    receiver.respond = (_r, res) => res.writeHead(500).end();
    const failed = await oneDelivery();
    await eventually(() => (attemptsOf(failed).length === 6 && market.pendingWebhooks === 0 ? true : undefined), 5_000, 'six failed attempts');
    expect(failures()).toBe(1);
    // saving the same URL again, or another one, is not a successful delivery (spec §6.2 rule 5)
    await market.setWebhookUrl(receiver.url);
    expect(failures()).toBe(1);
    const other = await new Receiver().start();
    try {
      await market.setWebhookUrl(other.url);
      expect(failures()).toBe(1);
      const delivered = await oneDelivery();
      await eventually(() => (attemptsOf(delivered).some((l) => l.ok) ? true : undefined), 3_000, 'a successful delivery');
      expect(failures()).toBe(0);
    } finally {
      await market.setWebhookUrl(null);
      await other.stop();
    }
  });

  it('delivers nothing to an account whose key has no signing secret', async () => {
    const legacy = market.accounts.find((x) => x.webhookSecret === null)!;
    await market.setWebhookUrl(receiver.url, legacy.id);
    const asset = market.giveInventory(legacy.id, 'Refined Metal', 1);
    const t = api(market, legacy.apiKey);
    const token = parseAs(ENDPOINTS.steamInventory.response, expectOk(await t.get('/public/v1/steam-inventory', { app_id: 440 }))).items.find((i) => i.steam_asset_id === String(asset))!.token;
    const { deposit_ids } = parseAs(ENDPOINTS.deposit.response, expectOk(await t.post('/public/v1/deposit', { items: [{ token, amount: 1 }] })));
    const trade = parseAs(ENDPOINTS.trades.response, expectOk(await t.get('/public/v1/trades', { page: 1, limit: 500 }))).trades.find((x) => x.deposit_id === deposit_ids[0])!;
    market.moveTrade(trade.id, 'Active');
    market.moveTrade(trade.id, 'Accepted');
    await new Promise((r) => setTimeout(r, 200));
    expect(market.webhookLog.filter((l) => l.accountId === legacy.id)).toHaveLength(0);
    expect(receivedFor(receiver, trade.id)).toHaveLength(0);
    await market.setWebhookUrl(null, legacy.id);
  });
});

describe('URL rules', () => {
  it('accepts loopback http in demo mode; strict mode and non-public addresses get INVALID_WEBHOOK_URL', async () => {
    await expect(market.setWebhookUrl('http://localhost:9/hook')).resolves.toBeUndefined();
    for (const bad of ['ftp://127.0.0.1/x', 'not a url', 'http://user:pw@127.0.0.1/x', 'https://10.1.2.3/hook', 'http://93.184.216.34/hook', 'https://[fe80::1]/hook', 'https://192.168.1.10/x']) {
      await expect(market.setWebhookUrl(bad), bad).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    }
    const strict = await startTestMarket({ strictWebhookUrls: true, webhookLookup: async (host) => (host === 'hooks.example' ? ['93.184.216.34'] : ['10.0.0.7']) });
    try {
      await expect(strict.setWebhookUrl(receiver.url)).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
      await expect(strict.setWebhookUrl('https://internal.example/hook')).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
      await expect(strict.setWebhookUrl('http://hooks.example/hook')).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
      // accepted (nothing is sent: no trade of this account changes status before the URL is cleared)
      await expect(strict.setWebhookUrl('https://hooks.example/hook', 2)).resolves.toBeUndefined();
      await strict.setWebhookUrl(null, 2);
    } finally {
      await strict.close();
    }
  });
});

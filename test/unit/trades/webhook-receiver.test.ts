import Database from 'better-sqlite3';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryLog } from '../../../src/core/trades/delivery-log.ts';
import { TradeTracker } from '../../../src/core/trades/tracker.ts';
import { type WebhookReceiverOptions, WebhookReceiver } from '../../../src/core/trades/webhook-receiver.ts';
import { type SignedDelivery, T0, headerNamed, makeTrade, signDelivery, signRaw } from './fixtures.ts';

const SECRET = 'whsec_test_9f1c2b7e4d';

interface Harness {
  receiver: WebhookReceiver;
  tracker: TradeTracker;
  url: string;
  logs: string[];
  clock: { now: () => number; set: (ms: number) => void };
  post: (delivery: SignedDelivery, init?: { headers?: Record<string, string>; body?: string }) => Promise<Response>;
}

const open: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function start(overrides: Partial<WebhookReceiverOptions> = {}, db = new Database(':memory:')): Promise<Harness> {
  let now = T0;
  const clock = { now: () => now, set: (ms: number) => void (now = ms) };
  const tracker = new TradeTracker({ db, clock });
  const logs: string[] = [];
  const receiver = new WebhookReceiver({
    secret: SECRET,
    onTrade: (trade) => void tracker.apply(trade, 'webhook'),
    clock,
    log: (line) => logs.push(line),
    deliveryLog: new DeliveryLog({ db }),
    ...overrides,
  });
  open.push(receiver);
  const { url } = await receiver.listen();
  const post = (d: SignedDelivery, init: { headers?: Record<string, string>; body?: string } = {}) =>
    fetch(url, { method: 'POST', headers: { ...d.headers, ...init.headers }, body: init.body ?? d.body });
  return { receiver, tracker, url, logs, clock, post };
}

describe('WebhookReceiver', () => {
  it('binds to 127.0.0.1 on a free port and accepts a correctly signed delivery', async () => {
    const h = await start();
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);
    const res = await h.post(signDelivery(SECRET, { id: 'dlv_1', data: makeTrade(1, 'Active', T0) }));
    expect(res.status).toBe(200);
    await h.receiver.drain();
    expect(h.tracker.get(1)?.status).toBe('Active');
    expect(h.receiver.stats()).toMatchObject({ received: 1, accepted: 1, processed: 1 });
  });

  it('rejects forged deliveries: wrong secret, tampered body, missing or malformed signature', async () => {
    const h = await start();
    const good = signDelivery(SECRET, { id: 'dlv_f', data: makeTrade(1, 'Active', T0) });
    const wrongSecret = signDelivery('not-the-secret', { id: 'dlv_f', data: makeTrade(1, 'Active', T0) });
    const tampered = good.body.replace('"Active"', '"Accepted"');
    const sigHeader = headerNamed(good, 'Signature');

    expect((await h.post(wrongSecret)).status).toBe(401);
    expect((await h.post(good, { body: tampered })).status).toBe(401);
    expect((await h.post(good, { headers: { [sigHeader]: 'sha256=' + '0'.repeat(64) } })).status).toBe(401);
    expect((await h.post(good, { headers: { [sigHeader]: 'md5=abc' } })).status).toBe(401);
    const { [sigHeader]: _dropped, ...unsigned } = good.headers;
    expect((await fetch(h.url, { method: 'POST', headers: unsigned, body: good.body })).status).toBe(401);

    await h.receiver.drain();
    expect(h.tracker.count()).toBe(0);
    expect(h.receiver.stats().rejected.forged).toBe(5);
    expect(h.receiver.stats().accepted).toBe(0);
  });

  it('accepts a signature written in upper-case hex (the spec says hex, not which case)', async () => {
    const h = await start();
    const good = signDelivery(SECRET, { id: 'dlv_u', data: makeTrade(1, 'Active', T0) });
    const sigHeader = headerNamed(good, 'Signature');
    const upper = `sha256=${good.headers[sigHeader]!.slice('sha256='.length).toUpperCase()}`;
    expect((await h.post(good, { headers: { [sigHeader]: upper } })).status).toBe(200);
    await h.receiver.drain();
    expect(h.tracker.get(1)?.status).toBe('Active');
  });

  it('rejects stale and future timestamps, and a signature made for another timestamp', async () => {
    const h = await start();
    const nowSeconds = Math.floor(T0 / 1000);
    const old = signDelivery(SECRET, { id: 'dlv_old', data: makeTrade(1, 'Active', T0) }, { timestampSeconds: nowSeconds - 301 });
    const future = signDelivery(SECRET, { id: 'dlv_fut', data: makeTrade(1, 'Active', T0) }, { timestampSeconds: nowSeconds + 301 });
    const edge = signDelivery(SECRET, { id: 'dlv_edge', data: makeTrade(1, 'Active', T0) }, { timestampSeconds: nowSeconds - 299 });
    expect((await h.post(old)).status).toBe(401);
    expect((await h.post(future)).status).toBe(401);
    // Moving the timestamp header forward breaks the signature: counted as forged, not stale.
    const tsHeader = headerNamed(old, 'Timestamp');
    expect((await h.post(old, { headers: { [tsHeader]: String(nowSeconds) } })).status).toBe(401);
    expect((await h.post(edge)).status).toBe(200);
    await h.receiver.drain();
    expect(h.receiver.stats().rejected).toMatchObject({ stale: 2, forged: 1 });
    expect(h.tracker.get(1)?.status).toBe('Active');
  });

  it("judges the signature's age by the marketplace's clock when ours is off (known from its Date header)", async () => {
    const tenMinutes = 10 * 60_000;
    // our clock runs ten minutes behind the marketplace's: a delivery signed just now looks 10 min ahead
    const h = await start({ serverOffsetMs: () => tenMinutes });
    const signedNow = Math.floor((T0 + tenMinutes) / 1000);
    const fresh = signDelivery(SECRET, { id: 'dlv_skew', data: makeTrade(1, 'Active', T0) }, { timestampSeconds: signedNow });
    expect((await h.post(fresh)).status).toBe(200);
    // and one signed at our clock's "now" is ten minutes old for the marketplace: stale
    const old = signDelivery(SECRET, { id: 'dlv_skew_old', data: makeTrade(1, 'Active', T0) }, { timestampSeconds: Math.floor(T0 / 1000) });
    expect((await h.post(old)).status).toBe(401);
    expect(h.receiver.stats()).toMatchObject({ accepted: 1, rejected: { stale: 1 } });
  });

  it('rejects a replay of an accepted delivery, also after a restart, but acknowledges it', async () => {
    const db = new Database(':memory:');
    const first = await start({}, db);
    const delivery = signDelivery(SECRET, { id: 'dlv_r', data: makeTrade(1, 'Active', T0) });
    expect((await first.post(delivery)).status).toBe(200);
    const replay = await first.post(delivery);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ status: 'duplicate' });
    await first.receiver.close();
    expect(first.receiver.stats().rejected.replayed).toBe(1);
    expect(first.receiver.stats().processed).toBe(1);

    // A new receiver on the same database: its memory is empty, the table still knows the id.
    const processed: string[] = [];
    const second = await start({ onTrade: (_t, meta) => void processed.push(meta.deliveryId) }, db);
    second.clock.set(T0 + 60_000);
    expect((await second.post(delivery)).status).toBe(200);
    await second.receiver.drain();
    expect(processed).toEqual([]);
    expect(second.receiver.stats().rejected.replayed).toBe(1);
  });

  it('dedupes on the signed body id, not on the unsigned delivery header', async () => {
    const h = await start();
    const delivery = signDelivery(SECRET, { id: 'dlv_h', data: makeTrade(1, 'Active', T0) });
    const header = headerNamed(delivery, 'Delivery');
    await h.post(delivery);
    await h.post(delivery, { headers: { [header]: 'something-new' } });
    expect(h.receiver.stats()).toMatchObject({ accepted: 1, rejected: { replayed: 1 } });
  });

  it("also dedupes on the spec's idempotency key: a retry with the same delivery header and a new body id", async () => {
    const h = await start();
    const first = signDelivery(SECRET, { id: 'evt_1', data: makeTrade(1, 'Active', T0) }, { deliveryId: 'dlv_same' });
    const retry = signDelivery(SECRET, { id: 'evt_1b', data: makeTrade(1, 'Active', T0) }, { deliveryId: 'dlv_same' });
    await h.post(first);
    const res = await h.post(retry);
    expect(await res.json()).toEqual({ status: 'duplicate' });
    expect(h.receiver.stats()).toMatchObject({ accepted: 1, rejected: { replayed: 1 } });
  });

  it('applies out-of-order deliveries by updated_at: the newest state wins', async () => {
    const h = await start();
    const states = [
      makeTrade(3, 'Accepted', T0 + 3000),
      makeTrade(3, 'CreatedNeedsConfirmation', T0 + 1000),
      makeTrade(3, 'Active', T0 + 2000),
    ];
    for (const [i, trade] of states.entries()) {
      expect((await h.post(signDelivery(SECRET, { id: `dlv_o${i}`, data: trade }))).status).toBe(200);
    }
    await h.receiver.drain();
    expect(h.tracker.get(3)?.status).toBe('Accepted');
    expect(h.tracker.timeline(3).map((e) => e.status)).toEqual(['CreatedNeedsConfirmation', 'Active', 'Accepted']);
    expect(h.tracker.stats()).toMatchObject({ applied: 1, ignoredOlder: 2 });
  });

  it('acknowledges and ignores unknown events; rejects malformed bodies', async () => {
    const h = await start();
    const unknown = signDelivery(SECRET, { id: 'dlv_u', event: 'trade.created', data: { anything: true } });
    const res = await h.post(unknown);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ignored' });

    const badTrade = signDelivery(SECRET, { id: 'dlv_m', data: { id: 'nope' } });
    expect((await h.post(badTrade)).status).toBe(400);
    expect((await h.post(signRaw(SECRET, '{not json'))).status).toBe(400);

    expect(h.receiver.stats().rejected).toMatchObject({ unknown_event: 1, malformed: 2 });
    expect(h.tracker.count()).toBe(0);
  });

  it("acknowledges an event it does not know whatever that event's envelope holds (the set grows, §6.2 rule 8)", async () => {
    const h = await start();
    // a later event with an envelope of its own: no `ts`, a numeric id; signed, so the service sent it
    const later = signRaw(SECRET, JSON.stringify({ id: 7, event: 'withdrawal.updated', created: T0, data: { withdrawal_id: 3 } }), {
      event: 'withdrawal.updated',
    });
    const res = await h.post(later);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ignored' });
    expect(h.receiver.stats().rejected).toMatchObject({ unknown_event: 1, malformed: 0 });
    // a trade.updated is still held to the whole envelope
    const noTs = signRaw(SECRET, JSON.stringify({ id: 'dlv_n', event: 'trade.updated', data: makeTrade(1, 'Active', T0) }));
    expect((await h.post(noTs)).status).toBe(400);
  });

  it('refuses bodies over the size limit, other paths and other methods', async () => {
    const h = await start({ maxBodyBytes: 2048 });
    const big = signDelivery(SECRET, { id: 'dlv_big', data: makeTrade(1, 'Active', T0, { error: 'x'.repeat(4096) }) });
    expect((await h.post(big)).status).toBe(413);
    expect(h.receiver.stats().rejected.too_large).toBe(1);
    expect((await fetch(h.url.replace('/webhook', '/other'), { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(h.url)).status).toBe(405);
  });

  it('uses the configured header prefix', async () => {
    const h = await start({ headerPrefix: 'X-Acme-' });
    const acme = signDelivery(SECRET, { id: 'dlv_p', data: makeTrade(1, 'Active', T0) }, { prefix: 'X-Acme-' });
    const service = signDelivery(SECRET, { id: 'dlv_q', data: makeTrade(2, 'Active', T0) });
    expect((await h.post(acme)).status).toBe(200);
    expect((await h.post(service)).status).toBe(401);
  });

  it('accepts the previous secret while a reroll settles, and only the listed ones', async () => {
    const h = await start({ secret: ['new-secret', SECRET] });
    expect((await h.post(signDelivery(SECRET, { id: 'a', data: makeTrade(1, 'Active', T0) }))).status).toBe(200);
    expect((await h.post(signDelivery('new-secret', { id: 'b', data: makeTrade(2, 'Active', T0) }))).status).toBe(200);
    h.receiver.setSecret('new-secret');
    expect((await h.post(signDelivery(SECRET, { id: 'c', data: makeTrade(3, 'Active', T0) }))).status).toBe(401);
  });

  it('answers before processing, counts processing failures and never leaks the secret', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = await start({
      onTrade: async () => {
        await gate;
        throw new Error('database is locked');
      },
    });
    const errors: string[] = [];
    h.receiver.on('processing_error', (err) => errors.push(err.message));
    const res = await h.post(signDelivery(SECRET, { id: 'dlv_s', data: makeTrade(1, 'Active', T0) }));
    expect(res.status).toBe(200); // answered while onTrade is still blocked
    expect(h.receiver.stats().processed).toBe(0);
    release();
    await h.receiver.drain();
    expect(errors).toEqual(['database is locked']);
    expect(h.receiver.stats()).toMatchObject({ processingErrors: 1, lastProcessingError: 'database is locked' });

    await h.post(signDelivery('wrong', { id: 'dlv_w', data: makeTrade(1, 'Active', T0) }));
    const bodies = await (await h.post(signDelivery('wrong', { id: 'dlv_w2', data: makeTrade(1, 'Active', T0) }))).text();
    expect(h.logs.length).toBeGreaterThan(0);
    for (const text of [...h.logs, bodies, JSON.stringify(h.receiver.stats())]) expect(text).not.toContain(SECRET);
  });

  it('settles a delivery whose sender hangs up mid-body', async () => {
    const h = await start();
    const { port } = h.receiver.address();
    const rejected = new Promise<string>((resolve) => h.receiver.once('rejected', resolve));
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"id":');
      setTimeout(() => socket.destroy(), 20);
    });
    expect(await rejected).toBe('malformed');
    expect(h.receiver.stats().rejected.malformed).toBe(1);
  });
});


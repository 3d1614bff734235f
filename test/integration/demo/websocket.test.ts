/**
 * The WebSocket feed (spec §6.1): 4401 without a valid key, 4429 beyond 3 connections, `connected`
 * first, subscribe filters that replace each other, `error` with the filter unchanged, seq global and
 * strictly increasing with gaps and shared with /book, int64 seqs above 2^53 as plain JSON integers —
 * and the several-process behaviour (reordered and duplicated events) that a client following the
 * spec's sync protocol survives with a mirror equal to the server's book.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, WS_CLOSE, parseServerFrame, type LeanListing, type ListingEvent } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, connectSocket, eventually, expectOk, parseAs, startTestMarket, type SocketClient } from './helpers.ts';

let market: DemoMarket;
beforeAll(async () => {
  market = await startTestMarket({ seed: 61, seqStart: 2n ** 62n + 12_345n });
});
afterAll(() => market.close());

const open: SocketClient[] = [];
async function connected(options: Parameters<typeof connectSocket>[1] = { key: market.apiKey }, target = market) {
  const socket = connectSocket(target.wsUrl, options);
  open.push(socket);
  await socket.waitFor((f) => f.event === 'connected');
  return socket;
}
async function closeAll() {
  await Promise.all(open.splice(0).map((s) => s.close()));
}
const listingEvents = (socket: SocketClient, from = 0): ListingEvent[] =>
  socket.texts.slice(from).flatMap((t) => {
    const f = parseServerFrame(t);
    return f.kind === 'listing' ? [f.event] : [];
  });

describe('authentication and connection limits', () => {
  it('closes with 4401 without a key or with a wrong one', async () => {
    for (const options of [{}, { key: 'demo_wrong' }, { key: 'demo_wrong', via: 'query' as const }]) {
      const socket = connectSocket(market.wsUrl, options);
      expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
      expect(socket.texts.some((t) => t.includes('"connected"'))).toBe(false);
    }
  });

  it('accepts the key as Bearer header or api_key query, and sends connected first', async () => {
    for (const via of ['header', 'query'] as const) {
      const socket = await connected({ key: market.apiKey, via });
      const first = JSON.parse(socket.texts[0]!);
      expect(first).toEqual({ event: 'connected', data: null, ts: expect.any(String) });
      expect('seq' in first).toBe(false);
    }
    await closeAll();
  });

  it('closes a 4th connection of one user with 4429; other users are counted apart', async () => {
    const three = [await connected(), await connected(), await connected()];
    const fourth = connectSocket(market.wsUrl, { key: market.apiKey });
    expect((await fourth.closed).code).toBe(WS_CLOSE.tooManyConnections);
    await connected({ key: market.accounts[1]!.apiKey });
    await three[0]!.close();
    await eventually(() => (market.state.websocket().connections === 3 ? true : undefined), 2_000, 'the server to see the close');
    await connected();
    await closeAll();
  });
});

describe('subscribe', () => {
  it('filters by event and app, each subscribe replacing the last; unfiltered dimensions are "all"', async () => {
    const socket = await connected();
    socket.send({ op: 'subscribe', events: ['listing.created'], app_ids: [570] });
    const ack = await socket.waitFor((f) => f.event === 'subscribed');
    expect(ack.frame.data).toEqual({ events: ['listing.created'], app_ids: [570] });
    const start = socket.texts.length;
    const cs = market.createListing({ appId: 730 });
    const dota = market.createListing({ appId: 570 });
    market.repriceListing(dota.listing.id, dota.listing.price + 1);
    const marker = market.createListing({ appId: 570 });
    await socket.waitFor((f) => (f.data as { listing_id?: number } | null)?.listing_id === marker.listing.id, 2_000, start);
    expect(listingEvents(socket, start).map((e) => [e.event, e.data.listing_id])).toEqual([
      ['listing.created', dota.listing.id],
      ['listing.created', marker.listing.id],
    ]);

    // a new subscribe replaces the filter: no events list = every event, apps 730 only
    socket.send({ op: 'subscribe', app_ids: [730] });
    const second = await socket.waitFor((f) => f.event === 'subscribed', 2_000, start);
    expect(second.frame.data).toEqual({ events: 'all', app_ids: [730] });
    const after = socket.texts.length;
    market.repriceListing(cs.listing.id, cs.listing.price + 2);
    market.repriceListing(dota.listing.id, dota.listing.price + 3);
    market.delistListing(cs.listing.id);
    await socket.waitFor((f) => f.event === 'listing.removed', 2_000, after);
    expect(listingEvents(socket, after).map((e) => e.event)).toEqual(['listing.price_changed', 'listing.removed']);

    socket.send({ op: 'subscribe', events: [], app_ids: [] });
    expect((await socket.waitFor((f) => f.event === 'subscribed' && (f.data as { events: unknown }).events === 'all', 2_000, after)).frame.data).toEqual({ events: 'all', app_ids: 'all' });
    await closeAll();
  });

  it('answers a malformed message with error and keeps the filter', async () => {
    const socket = await connected();
    socket.send({ op: 'subscribe', events: ['listing.removed'] });
    await socket.waitFor((f) => f.event === 'subscribed');
    for (const bad of ['not json', { op: 'unsubscribe' }, { op: 'subscribe', app_ids: [999] }, { op: 'subscribe', events: 'listing.created' }, { op: 'subscribe', extra: 1 }]) {
      const from = socket.texts.length;
      socket.send(bad);
      const error = await socket.waitFor((f) => f.event === 'error', 2_000, from);
      expect((error.frame.data as { message: string }).message).toBeTruthy();
    }
    const from = socket.texts.length;
    const l = market.createListing({ appId: 440 });
    market.delistListing(l.listing.id);
    await socket.waitFor((f) => f.event === 'listing.removed', 2_000, from);
    expect(listingEvents(socket, from).map((e) => e.event)).toEqual(['listing.removed']);
    await closeAll();
  });
});

describe('seq', () => {
  it('is global, strictly increasing with gaps, above 2^53 as a plain JSON integer, and shared with /book', async () => {
    const socket = await connected();
    const from = socket.texts.length;
    const start = market.state.seq();
    market.runActivity(200);
    const last = market.state.seq();
    await socket.waitFor((f) => f.seq === last, 3_000, from);
    const texts = socket.texts.slice(from);
    const seqs = listingEvents(socket, from).map((e) => e.seq);
    expect(seqs.length).toBeGreaterThanOrEqual(200);
    expect(seqs[0]!).toBeGreaterThan(start);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
    expect(seqs.some((s, i) => i > 0 && s - seqs[i - 1]! > 1n)).toBe(true);
    expect(seqs.every((s) => s > 2n ** 53n)).toBe(true);
    // the digits on the wire are exact: no quotes, no exponent, no rounding
    expect(texts.some((t) => t.includes(`"seq":${last.toString()},`))).toBe(true);
    market.advanceClock(10_001);
    const book = parseAs(ENDPOINTS.book.response, expectOk(await api(market).get('/public/v1/book')));
    expect(book.seq).toBe(last);
    await closeAll();
  });
});

describe('several processes: reordered and duplicated events', () => {
  it('a client following the sync protocol (seq per listing, and per field for price and amount) ends equal to the server book', async () => {
    const chaotic = await startTestMarket({ seed: 62, listings: 1_500, reorder: 0.5, duplicate: 0.3 });
    try {
      const socket = await connected({ key: chaotic.apiKey }, chaotic);
      const from = socket.texts.length;
      chaotic.runActivity(400);
      chaotic.advanceClock(10_001);
      const snapshot = parseAs(ENDPOINTS.book.response, expectOk(await api(chaotic).get('/public/v1/book')));
      chaotic.runActivity(600);
      chaotic.flushFeed();
      const last = chaotic.state.seq();
      await socket.waitFor((f) => f.seq === last, 3_000, from);
      await new Promise((r) => setTimeout(r, 60)); // late duplicates

      const events = listingEvents(socket, from);
      // the chaos really happened: same-listing events out of seq order, and exact duplicates
      const lastSeen = new Map<number, bigint>();
      let outOfOrder = 0;
      for (const e of events) {
        const prev = lastSeen.get(e.data.listing_id);
        if (prev !== undefined && e.seq < prev) outOfOrder++;
        lastSeen.set(e.data.listing_id, prev !== undefined && prev > e.seq ? prev : e.seq);
      }
      expect(outOfOrder).toBeGreaterThan(0);
      expect(new Set(events.map((e) => e.seq)).size).toBeLessThan(events.length);

      // The spec's protocol: snapshot, drop what it already contains, apply the rest guarded by seq: a
      // creation or a removal above the listing's seq, a price or an amount above the seq that last set
      // that field (a reprice overtaken by an amount change of the same listing must still land: with
      // one seq per listing it was dropped, the price stale for good). The core's store keeps the same
      // rule (store/book-store.ts); this test holds the demo's feed to it without the core.
      const mirror = new Map<number, LeanListing>(snapshot.listings.map((l) => [l.id, { ...l }]));
      const seqs = new Map<number, { listing: bigint; price: bigint; amount: bigint }>();
      const seqsOf = (id: number) => seqs.get(id) ?? { listing: snapshot.seq, price: snapshot.seq, amount: snapshot.seq };
      for (const e of events) {
        if (e.seq <= snapshot.seq || e.event === 'listing.sold') continue; // a sale carries no book state
        const id = e.data.listing_id;
        const seen = seqsOf(id);
        const field = e.event === 'listing.price_changed' ? 'price' : e.event === 'listing.amount_changed' ? 'amount' : 'listing';
        if (e.seq <= seen[field]) continue;
        const held = mirror.get(id);
        const listingSeq = seen.listing > e.seq ? seen.listing : e.seq;
        switch (e.event) {
          case 'listing.created': {
            const d = e.data;
            mirror.set(id, { id, app_id: d.app_id, market_hash_name: d.market_hash_name, price: d.price, amount: d.amount, commodity: d.commodity, created_at: d.created_at });
            seqs.set(id, { listing: e.seq, price: e.seq, amount: e.seq });
            break;
          }
          case 'listing.price_changed':
            if (held) held.price = e.data.price_after;
            seqs.set(id, { ...seen, listing: listingSeq, price: e.seq });
            break;
          case 'listing.amount_changed':
            if (held && e.data.new_amount === 0) mirror.delete(id);
            else if (held) held.amount = e.data.new_amount;
            seqs.set(id, { ...seen, listing: listingSeq, amount: e.seq });
            break;
          case 'listing.removed':
            mirror.delete(id);
            seqs.set(id, { listing: e.seq, price: e.seq, amount: e.seq });
            break;
        }
      }
      const truth = chaotic.state.book().listings;
      expect([...mirror.values()].sort((x, y) => y.id - x.id)).toEqual(truth);
      await closeAll();
    } finally {
      await chaotic.close();
    }
  });
});

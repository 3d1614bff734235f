/**
 * A tiny marketplace for the sync protocol tests, controlled frame by frame: a real WebSocket server on
 * 127.0.0.1:0 (Bearer auth, subscribe, pings answered only while healthy) and an in-process book with a
 * seq counter. Tests decide which events reach the socket and in which order, what /book answers and
 * when, so every edge case of the protocol can be staged exactly.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { stringifyJson, type FullListing, type LeanListing, type ListingEvent } from '../../../src/shared/api/index.ts';
import type { BookSnapshotResult, BookSource, ListingsSource } from '../../../src/core/sync/sources.ts';
import type { BookReadProgress } from '../../../src/core/api/book-stream.ts';
import {
  amountChangedEvent,
  createdEvent,
  leanOf,
  priceChangedEvent,
  removedEvent,
} from '../../bench/generate.ts';

export const FAKE_KEY = 'test-key-0123456789';

export interface FakeSocket {
  ws: WebSocket;
  subscribe: unknown;
  /** Whether this socket answers pings (false = half-open from the client's point of view). */
  answersPings: boolean;
}

export class FakeMarket {
  readonly server: Server;
  readonly wss: WebSocketServer;
  readonly sockets: FakeSocket[] = [];
  /** The true book: id → listing. */
  readonly book = new Map<number, FullListing>();
  seq: bigint;
  /** Automatically send `subscribed` after a subscribe op. */
  autoSubscribe = true;
  /** Refuse the next connections with this close code (4401, 4429). */
  refuseWith: number | null = null;
  connections = 0;
  bookRequests = 0;
  /**
   * Override for /book: returns the snapshot to answer with (default: the current book); `onProgress` is
   * the engine's, for an answer that tells how far its body has been read.
   */
  answerBook: ((onProgress?: (progress: BookReadProgress) => void) => Promise<BookSnapshotResult> | BookSnapshotResult) | null =
    null;
  url = '';

  private constructor(startSeq: bigint) {
    this.seq = startSeq;
    this.server = createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    this.wss = new WebSocketServer({ server: this.server, path: '/public/v1/ws', autoPong: false });
    this.wss.on('connection', (ws, req) => {
      this.connections++;
      if (req.headers.authorization !== `Bearer ${FAKE_KEY}`) {
        ws.close(4401, 'unauthorized');
        return;
      }
      if (this.refuseWith !== null) {
        ws.close(this.refuseWith, 'refused');
        return;
      }
      const socket: FakeSocket = { ws, subscribe: null, answersPings: true };
      this.sockets.push(socket);
      ws.on('ping', (data) => {
        if (socket.answersPings) ws.pong(data);
      });
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as { op?: string; events?: string[]; app_ids?: number[] };
        if (msg.op !== 'subscribe') return;
        socket.subscribe = msg;
        if (this.autoSubscribe) this.sendControl(socket, 'subscribed', { events: msg.events ?? 'all', app_ids: msg.app_ids ?? 'all' });
      });
      ws.on('close', () => {
        const i = this.sockets.indexOf(socket);
        if (i >= 0) this.sockets.splice(i, 1);
      });
      ws.send(JSON.stringify({ event: 'connected', data: null, ts: new Date().toISOString() }));
    });
  }

  static async start(startSeq = 1000n): Promise<FakeMarket> {
    const market = new FakeMarket(startSeq);
    await new Promise<void>((resolve) => market.server.listen(0, '127.0.0.1', resolve));
    const port = (market.server.address() as AddressInfo).port;
    market.url = `ws://127.0.0.1:${port}/public/v1/ws`;
    return market;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  sendControl(socket: FakeSocket, event: string, data: unknown): void {
    socket.ws.send(JSON.stringify({ event, data, ts: new Date().toISOString() }));
  }

  /** Sends events to every socket (int64 seqs as plain JSON integers). */
  send(...events: ListingEvent[]): void {
    for (const e of events) {
      const text = stringifyJson(e);
      for (const s of this.sockets) s.ws.send(text);
    }
  }

  sendRaw(text: string): void {
    for (const s of this.sockets) s.ws.send(text);
  }

  /** Waits until `n` sockets are subscribed. */
  async waitForSubscribed(n = 1, timeoutMs = 5_000): Promise<FakeSocket> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const subscribed = this.sockets.filter((s) => s.subscribe !== null);
      if (subscribed.length >= n) return subscribed[subscribed.length - 1] as FakeSocket;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no ${n} subscribed socket(s) within ${timeoutMs} ms`);
  }

  // ---- the true book and its events -----------------------------------------------------------

  nextSeq(step = 1n): bigint {
    this.seq += step;
    return this.seq;
  }

  create(listing: FullListing): ListingEvent {
    this.book.set(listing.id, listing);
    return createdEvent(listing, this.nextSeq());
  }

  reprice(id: number, price: number): ListingEvent {
    const l = this.book.get(id);
    if (!l) throw new Error(`no listing ${id}`);
    const before = l.price;
    this.book.set(id, { ...l, price });
    return priceChangedEvent(id, l.app_id, before, price, this.nextSeq());
  }

  setAmount(id: number, amount: number): ListingEvent {
    const l = this.book.get(id);
    if (!l) throw new Error(`no listing ${id}`);
    if (amount === 0) this.book.delete(id);
    else this.book.set(id, { ...l, amount });
    return amountChangedEvent(id, l.app_id, amount, this.nextSeq());
  }

  remove(id: number): ListingEvent {
    const l = this.book.get(id);
    if (!l) throw new Error(`no listing ${id}`);
    this.book.delete(id);
    return removedEvent(id, l.app_id, this.nextSeq());
  }

  snapshot(appId?: number): BookSnapshotResult {
    const listings = [...this.book.values()]
      .filter((l) => appId === undefined || l.app_id === appId)
      .sort((a, b) => a.id - b.id)
      .map(leanOf);
    // a copy is named by what it holds: the fake market builds a fresh one for every call
    return { seq: this.seq, listings, fromCache: false, etag: `"book-${appId ?? 'all'}-${this.seq}"` };
  }

  /** The true book as `skindesk book` would print it: lean rows in id order. */
  leanBook(appId?: number): LeanListing[] {
    return this.snapshot(appId).listings as LeanListing[];
  }

  /** A BookSource reading this market in-process (no rate governor: protocol tests need many snapshots). */
  bookSource(): BookSource {
    return {
      fetchBook: async (appId, signal, onProgress) => {
        signal.throwIfAborted();
        this.bookRequests++;
        const answer = this.answerBook ? await this.answerBook(onProgress) : this.snapshot(appId);
        signal.throwIfAborted();
        return answer;
      },
    };
  }

  listingsSource(): ListingsSource {
    return {
      fetchListingsPage: async (query) => {
        const newestFirst = [...this.book.values()]
          .filter((l) => query.appId === undefined || l.app_id === query.appId)
          .sort((a, b) => b.id - a.id)
          .filter((l) => query.cursor === undefined || l.id < query.cursor);
        const page = newestFirst.slice(0, query.limit);
        const last = page[page.length - 1];
        return { listings: page, nextCursor: page.length === query.limit && last ? last.id : null };
      },
      fetchListing: async (id) => {
        const l = this.book.get(id);
        if (!l) throw Object.assign(new Error('LISTING_NOT_FOUND'), { code: 'LISTING_NOT_FOUND' });
        return l;
      },
    };
  }
}

/** Polls `check` until it returns true (bounded), for conditions reached asynchronously. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
}

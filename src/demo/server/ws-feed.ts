/**
 * The WebSocket feed at /public/v1/ws (spec §6.1): authentication by Bearer header or `api_key` query
 * (4401 without a valid key), at most 3 connections per user (4429 beyond), a `connected` first frame,
 * subscribe filters that replace each other, `error` for malformed messages with the filter unchanged,
 * and every listing event fanned out to the connections whose filter matches. Frames are built once per
 * event (market/feed.ts); delivery quirks come from feed-delivery.ts.
 *
 * Chaos (src/demo/chaos): frames of a connection can be delayed (in order), and connections can be
 * dropped cleanly or left half-open — nothing sent, pings unanswered, the socket never closed by us — so
 * only a client's own liveness check gets it out.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { LIMITS, WS_CLOSE, WS_PATH, subscribeOp, type AppId } from '../../shared/api/index.ts';
import { iso } from '../clock.ts';
import type { PublishedEvent } from '../market/feed.ts';
import type { Market } from '../market/market.ts';
import type { Account } from '../market/records.ts';
import { Random } from '../random.ts';
import type { ChaosController } from '../chaos/controller.ts';
import { DelayedFrames } from '../chaos/frame-queue.ts';
import { FeedDelivery } from './feed-delivery.ts';

/** A client that falls this far behind is disconnected rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;
/** Close code for a client too slow to keep up (1013: try again later). */
export const CLOSE_TOO_SLOW = 1013;
/** Close code of a chaos drop (1012: service restart). */
export const CLOSE_SERVICE_RESTART = 1012;

export type DropMode = 'clean' | 'half-open';

interface Connection {
  ws: WebSocket;
  account: Account;
  events: Set<string> | null;
  appIds: Set<number> | null;
  alive: boolean;
  frames: DelayedFrames;
  /** Chaos: nothing is sent or answered any more, and the server never closes it. */
  halfOpen: boolean;
}

export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

export class WebSocketFeed {
  private readonly market: Market;
  // Pongs are sent by hand, so a half-open connection can stop answering pings.
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, autoPong: false });
  private readonly chaos: ChaosController | null;
  private readonly connections = new Set<Connection>();
  private readonly delivery: FeedDelivery;
  private readonly unsubscribe: () => void;
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(market: Market, server: Server, options: { reorder: number; duplicate: number; chaos?: ChaosController }) {
    this.market = market;
    this.chaos = options.chaos ?? null;
    this.delivery = new FeedDelivery({
      rng: Random.derive(market.seed, 'delivery'),
      reorder: options.reorder,
      duplicate: options.duplicate,
      send: (event) => this.broadcast(event),
    });
    this.unsubscribe = market.feed.subscribe((event) => this.delivery.push(event));
    server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get stats() {
    let halfOpen = 0;
    for (const c of this.connections) if (c.halfOpen) halfOpen++;
    return { connections: this.connections.size, halfOpen, ...this.delivery.stats };
  }

  connectionsOf(account: Account): number {
    let n = 0;
    for (const c of this.connections) if (c.account === account) n++;
    return n;
  }

  /** Delivers every held-back event now. */
  flush(): void {
    this.delivery.flush();
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    this.delivery.close();
    this.terminateAll();
    this.wss.close();
  }

  /** Cuts every connection at once, without a close frame (the server process went away). */
  terminateAll(): void {
    for (const c of this.connections) {
      c.frames.clear();
      c.ws.terminate();
    }
    this.connections.clear();
  }

  /**
   * Chaos: drops the open connections (of one account, or all). 'clean' closes them with 1012;
   * 'half-open' goes silent on them and leaves them open. Returns how many were dropped.
   */
  drop(mode: DropMode, account?: Account): number {
    let dropped = 0;
    for (const c of this.connections) {
      if (c.halfOpen || (account && c.account !== account)) continue;
      dropped++;
      c.frames.clear();
      if (mode === 'clean') {
        c.ws.close(CLOSE_SERVICE_RESTART, 'service restart');
        this.connections.delete(c);
        if (this.chaos) this.chaos.stats.websocket.cleanDrops++;
      } else {
        c.halfOpen = true;
        if (this.chaos) this.chaos.stats.websocket.halfOpen++;
      }
    }
    return dropped;
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    if (url.pathname !== WS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req, url));
  }

  private accept(ws: WebSocket, req: IncomingMessage, url: URL): void {
    const key = bearerKey(req.headers.authorization) ?? url.searchParams.get('api_key');
    const account = key ? this.market.accountByKey(key) : undefined;
    if (!account) {
      ws.close(WS_CLOSE.unauthorized, 'a valid API key is required');
      return;
    }
    if (this.connectionsOf(account) >= LIMITS.websocketConnectionsPerUser) {
      ws.close(WS_CLOSE.tooManyConnections, `at most ${LIMITS.websocketConnectionsPerUser} connections per user`);
      return;
    }
    const connection: Connection = {
      ws,
      account,
      events: null,
      appIds: null,
      alive: true,
      frames: new DelayedFrames((frame) => {
        if (ws.readyState === ws.OPEN) ws.send(frame);
      }),
      halfOpen: false,
    };
    this.connections.add(connection);
    const gone = () => {
      connection.frames.clear();
      // A half-open connection only ever ends from the client's side: its liveness check worked.
      if (connection.halfOpen && this.connections.has(connection) && this.chaos) this.chaos.stats.websocket.halfOpenClosedByClient++;
      this.connections.delete(connection);
    };
    ws.on('close', gone);
    ws.on('error', gone);
    ws.on('ping', (data) => {
      if (!connection.halfOpen && ws.readyState === ws.OPEN) ws.pong(data);
    });
    ws.on('pong', () => {
      connection.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      if (!connection.halfOpen) this.onMessage(connection, data, isBinary);
    });
    this.control(connection, 'connected', null);
  }

  private onMessage(connection: Connection, data: RawData, isBinary: boolean): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(isBinary ? '' : rawText(data));
    } catch {
      this.control(connection, 'error', { message: 'message is not JSON' });
      return;
    }
    const op = subscribeOp.safeParse(parsed);
    if (!op.success) {
      const detail = op.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ');
      this.control(connection, 'error', { message: `not a valid subscribe message (${detail}); filter unchanged` });
      return;
    }
    // Each subscribe replaces the whole filter; a missing or empty list means "everything".
    const events = op.data.events?.length ? [...new Set(op.data.events)] : null;
    const appIds = op.data.app_ids?.length ? [...new Set(op.data.app_ids)] : null;
    connection.events = events ? new Set(events) : null;
    connection.appIds = appIds ? new Set(appIds) : null;
    this.control(connection, 'subscribed', { events: events ?? 'all', app_ids: (appIds as AppId[] | null) ?? 'all' });
  }

  private control(connection: Connection, event: 'connected' | 'subscribed' | 'error', data: unknown): void {
    this.send(connection, JSON.stringify({ event, data, ts: iso(this.market.now()) }));
  }

  private send(connection: Connection, frame: string): void {
    if (connection.halfOpen) return;
    connection.frames.push(frame, this.chaos?.frameDelay() ?? 0);
  }

  private broadcast(event: PublishedEvent): void {
    for (const c of this.connections) {
      if (c.events && !c.events.has(event.name)) continue;
      if (c.appIds && !c.appIds.has(event.appId)) continue;
      if (c.halfOpen) continue;
      if (c.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        c.ws.close(CLOSE_TOO_SLOW, 'client is not keeping up with the feed');
        this.connections.delete(c);
        continue;
      }
      this.send(c, event.frame);
    }
  }

  private checkAlive(): void {
    for (const c of this.connections) {
      if (c.halfOpen) continue;
      if (!c.alive) {
        c.ws.terminate();
        this.connections.delete(c);
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

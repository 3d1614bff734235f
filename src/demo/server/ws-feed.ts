/**
 * The WebSocket feed at /public/v1/ws (spec §6.1): authentication by Bearer header or `api_key` query
 * (4401 without a valid key), at most 3 connections per user (4429 beyond), a `connected` first frame,
 * subscribe filters that replace each other, `error` for malformed messages with the filter unchanged,
 * and every listing event fanned out to the connections whose filter matches. Frames are built once per
 * event (market/feed.ts); delivery quirks come from feed-delivery.ts.
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
import { FeedDelivery } from './feed-delivery.ts';

/** A client that falls this far behind is disconnected rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;
/** Close code for a client too slow to keep up (1013: try again later). */
export const CLOSE_TOO_SLOW = 1013;

interface Connection {
  ws: WebSocket;
  account: Account;
  events: Set<string> | null;
  appIds: Set<number> | null;
  alive: boolean;
}

export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

export class WebSocketFeed {
  private readonly market: Market;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly connections = new Set<Connection>();
  private readonly delivery: FeedDelivery;
  private readonly unsubscribe: () => void;
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(market: Market, server: Server, options: { reorder: number; duplicate: number }) {
    this.market = market;
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
    return { connections: this.connections.size, ...this.delivery.stats };
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
    for (const c of this.connections) c.ws.terminate();
    this.connections.clear();
    this.wss.close();
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
    const connection: Connection = { ws, account, events: null, appIds: null, alive: true };
    this.connections.add(connection);
    ws.on('close', () => this.connections.delete(connection));
    ws.on('error', () => this.connections.delete(connection));
    ws.on('pong', () => {
      connection.alive = true;
    });
    ws.on('message', (data, isBinary) => this.onMessage(connection, data, isBinary));
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
    connection.ws.send(JSON.stringify({ event, data, ts: iso(this.market.now()) }));
  }

  private broadcast(event: PublishedEvent): void {
    for (const c of this.connections) {
      if (c.events && !c.events.has(event.name)) continue;
      if (c.appIds && !c.appIds.has(event.appId)) continue;
      if (c.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        c.ws.close(CLOSE_TOO_SLOW, 'client is not keeping up with the feed');
        this.connections.delete(c);
        continue;
      }
      c.ws.send(event.frame);
    }
  }

  private checkAlive(): void {
    for (const c of this.connections) {
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

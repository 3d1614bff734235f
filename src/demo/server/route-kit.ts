/** What route handlers receive and return, and the helpers they share (paging, filters). */
import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { AppId, EndpointName, Endpoints, Metadata } from '../../shared/api/index.ts';
import type { Market } from '../market/market.ts';
import type { Account } from '../market/records.ts';
import type { ServerBodies } from './bulk-bodies.ts';
import type { TradeEngine } from '../market/trades.ts';
import type { WithdrawalEngine } from '../market/withdrawals.ts';
import type { CachedBody, MarketSnapshots } from './snapshots.ts';

export interface DemoServices {
  market: Market;
  trades: TradeEngine;
  withdrawals: WithdrawalEngine;
  snapshots: MarketSnapshots;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
/** The body as the server validated it: the contract's schema, or its own where it checks rows one by one. */
type BodyOut<N extends EndpointName> = N extends keyof ServerBodies ? z.output<ServerBodies[N]> : Out<Endpoints[N]['body']>;

export interface RouteContext<N extends EndpointName> {
  account: Account;
  query: Out<Endpoints[N]['query']>;
  body: BodyOut<N>;
  /** The `:id` path parameter, when the route has one. */
  id: number;
  req: IncomingMessage;
}

export type RouteReply =
  | { kind: 'json'; status?: number; body: unknown }
  /**
   * A pre-serialised, cached body with an ETag (304 on If-None-Match). `bodyHeaders` describe this body
   * (the book's X-Book-Seq) and go with the full answer only: a 304 stands for the copy the client
   * already holds, which a weak ETag may match across bodies of other seqs, and a cache merges a 304's
   * headers into its stored answer (RFC 9111 §4.3.4), so they would relabel that copy.
   */
  | { kind: 'cached'; body: CachedBody; maxAgeSeconds: number; bodyHeaders?: Record<string, string> }
  /** A streamed download; `write` resolves when everything was written. */
  | { kind: 'stream'; contentType: string; filename?: string; write: (out: Writable) => Promise<void> };

export type RouteHandler<N extends EndpointName> = (ctx: RouteContext<N>) => RouteReply;
export type RouteTable = { [N in Exclude<EndpointName, 'info'>]: RouteHandler<N> };

export const json = (body: unknown, status?: number): RouteReply => ({ kind: 'json', body, ...(status ? { status } : {}) });

export const appIdOf = (value: string | undefined): AppId | undefined => (value === undefined ? undefined : (Number(value) as AppId));

/** Offset paging over a list already in answer order. */
export function page<T>(rows: readonly T[], pageParam: string | undefined, limitParam: string | undefined, defaultLimit = 25): { rows: T[]; metadata: Metadata } {
  const limit = limitParam === undefined ? defaultLimit : Number(limitParam);
  const current = pageParam === undefined ? 1 : Number(pageParam);
  const offset = (current - 1) * limit;
  return { rows: rows.slice(offset, offset + limit), metadata: metadataOf(rows.length, current, limit) };
}

export function metadataOf(total: number, current: number, limit: number): Metadata {
  return { total_pages: Math.ceil(total / limit), total_items: total, current_page: current, current_limit: limit };
}


/** Resolves when a stream can take more data, or has closed (the client went away). */
export function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

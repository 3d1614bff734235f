// Reading a listing from the marketplace through a session that cannot: one that could not connect
// (connect() made the REST client before it first reached the market, so a client exists), or one whose
// sync worker is gone (the session was closed by a market switch). Either is refused in plain words,
// typed as UNAVAILABLE, not as an internal failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../../src/core/app/log.ts';
import { Redactor } from '../../../src/core/app/redaction.ts';
import { MarketSession } from '../../../src/core/app/session.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { SkindeskError } from '../../../src/shared/ipc/index.ts';
import { until } from './until.ts';

const sessions: { session: MarketSession; dir: string }[] = [];
const markets: DemoMarket[] = [];

afterEach(async () => {
  for (const { session, dir } of sessions.splice(0)) {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const market of markets.splice(0)) await market.close();
});

function realMarketSession(baseUrl: string, apiKey: string): MarketSession {
  const dir = mkdtempSync(join(tmpdir(), 'skindesk-session-'));
  const session = new MarketSession({
    choice: { mode: 'real', baseUrl },
    dataDir: dir,
    apiKey,
    startDemoMarket: () => Promise.reject(new Error('no demo market in this test')),
    backfillOptions: false,
    log: silentLog,
    redactor: new Redactor(),
    events: { book: () => {}, status: () => {}, backfill: () => {}, problem: () => {}, failed: () => {}, damaged: () => {} },
  });
  sessions.push({ session, dir });
  return session;
}

async function refusalOf(read: Promise<unknown>): Promise<unknown> {
  return read.then(
    () => null,
    (err: unknown) => err,
  );
}

function expectNotConnected(refusal: unknown): void {
  expect(refusal).toBeInstanceOf(SkindeskError);
  expect(refusal).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/^Not connected to the marketplace/) });
}

describe('reading a listing through a session that cannot reach the marketplace', () => {
  it('keeps its client when it could not connect, but cannot fetch, and says so', async () => {
    // port 9 (discard) is closed on this machine: the first request is refused at once
    const session = realMarketSession('http://127.0.0.1:9', 'sk_test_NOT_CONNECTED_0001');
    await session.connect();
    expect(session.status().state).toBe('offline');
    expect(session.client).not.toBeNull();
    expect(session.canFetchListings).toBe(false);
    expectNotConnected(await refusalOf(session.fetchListing(1)));
  });

  it('says so when its sync worker is gone', async () => {
    const market = await startDemoMarket({ port: 0, listings: 20, rate: 0, seed: 5 });
    markets.push(market);
    const session = realMarketSession(market.baseUrl, market.apiKey);
    await session.connect();
    await until('the session live', () => session.status().state === 'live', 20_000);
    await session.close();
    expectNotConnected(await refusalOf(session.fetchListing(1)));
  });
});

import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoMarket } from '../../../src/demo/index.ts';
import { fullListingExample } from '../../unit/shared/fixtures.ts';
import { metadataFor, sendError, sendJson, startFakeServer, type FakeServer } from '../../unit/api/fake-server.ts';

const BIN = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const KEY = 'cli-secret-key-42';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let server: FakeServer;
let dir: string;
let orders: { order_item_id: number; order_id: number; side: 'bought'; app_id: number; market_hash_name: string; price: number; amount: number; created_at: string }[];
let purchaseMode: 'ok' | 'apply-then-drop' | 'price-changed' | 'too-few-copies';
let ordersDown: boolean;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skindesk-cli-buy-'));
  orders = [];
  purchaseMode = 'ok';
  ordersDown = false;
  server = await startFakeServer();
  server.on('listing', (_req, res) => sendJson(res, 200, { ...fullListingExample, id: 77 }));
  server.on('orders', (req, res) => {
    if (ordersDown) return sendError(res, 500, 'INTERNAL_ERROR', 'orders are down');
    const limit = Number(req.url.searchParams.get('limit'));
    sendJson(res, 200, { orders: [...orders].reverse(), metadata: metadataFor(1, orders.length ? 1 : 0, orders.length, limit) });
  });
  server.on('purchase', (req, res) => {
    const line = (JSON.parse(req.body) as { items: { amount: number; max_price: number; private_token?: string }[] }).items[0];
    if (!line) return sendError(res, 400, 'VALIDATION_ERROR', 'no items');
    if (purchaseMode === 'too-few-copies') return sendError(res, 409, 'INSUFFICIENT_ITEMS', `listing 77 has 1 copy, ${line.amount} requested`);
    if (purchaseMode === 'price-changed' || line.max_price < fullListingExample.price) {
      return sendError(res, 409, 'LISTING_PRICE_CHANGED', 'the price went up');
    }
    const orderId = 900 + orders.length;
    const createdAt = new Date().toISOString();
    orders.push({ order_item_id: orderId, order_id: orderId, side: 'bought', app_id: 730, market_hash_name: fullListingExample.market_hash_name, price: fullListingExample.price, amount: line.amount, created_at: createdAt });
    if (purchaseMode === 'apply-then-drop') return void res.socket?.destroy();
    sendJson(res, 200, {
      order_id: orderId,
      created_at: createdAt,
      items: [{ order_item_id: orderId, app_id: 730, market_hash_name: fullListingExample.market_hash_name, steam_asset_id: '1', price: fullListingExample.price, amount: line.amount }],
    });
  });
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const buyArgs = (extra: string[] = [], maxPrice = '1300') => ['buy', '--base-url', server.baseUrl, '--listing', '77', '--max-price', maxPrice, '--db', join(dir, 'journal.db'), ...extra];

function parseLine(run: Run): { status: string; order_id: number | null; error: { kind: string; code: string | null; message: string } | null } {
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string);
}

describe('skindesk buy', () => {
  it('bought: one JSON line, exit 0, the journal in --db records it', async () => {
    const run = await runCli(buyArgs(['--amount', '2', '--private-token', 'share-abc']), { SKINDESK_API_KEY: KEY });
    expect(run.code).toBe(0);
    expect(parseLine(run)).toEqual({ status: 'bought', order_id: 900, error: null });
    const body = JSON.parse(server.calls('purchase')[0]?.body ?? '{}');
    expect(body).toEqual({ items: [{ listing_id: 77, amount: 2, max_price: 1300, private_token: 'share-abc' }] });
    const db = new Database(join(dir, 'journal.desk.db'), { readonly: true });
    const rows = db.prepare('SELECT state, order_id, source, amount FROM purchase_journal').all();
    db.close();
    expect(rows).toEqual([{ state: 'bought', order_id: 900, source: 'cli', amount: 2 }]);
  });

  it('not bought: the spec code in the line, exit 1', async () => {
    purchaseMode = 'price-changed';
    const run = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(run.code).toBe(1);
    const line = parseLine(run);
    expect(line).toMatchObject({ status: 'not_bought', order_id: null, error: { kind: 'api', code: 'LISTING_PRICE_CHANGED' } });
  });

  it('more copies than the listing holds: said of the listing, not of a backpack row, exit 1', async () => {
    purchaseMode = 'too-few-copies';
    const run = await runCli(buyArgs(['--amount', '5']), { SKINDESK_API_KEY: KEY });
    expect(run.code).toBe(1);
    expect(parseLine(run)).toEqual({
      status: 'not_bought',
      order_id: null,
      error: { kind: 'api', code: 'INSUFFICIENT_ITEMS', message: 'the listing has fewer copies left than --amount asked for, so nothing was bought' },
    });
  });

  it('a maximum already below the price read before buying: told as the trader\'s own maximum, not a seller\'s raise', async () => {
    const run = await runCli(buyArgs([], '1200'), { SKINDESK_API_KEY: KEY });
    expect(run.code).toBe(1);
    expect(parseLine(run)).toEqual({
      status: 'not_bought',
      order_id: null,
      error: {
        kind: 'api',
        code: 'LISTING_PRICE_CHANGED',
        message: `the listing's price of ${fullListingExample.price} cents per copy was already above your maximum of 1200, so nothing was bought`,
      },
    });
    // a price that was within the maximum before buying is still a seller's raise
    purchaseMode = 'price-changed';
    const raised = parseLine(await runCli(buyArgs(), { SKINDESK_API_KEY: KEY }));
    expect(raised.error?.message).toBe('the seller raised the price above your maximum, so nothing was bought');
  });

  it('connection dropped after the purchase applied: reconciled to bought, sent once, journaled with its account', async () => {
    purchaseMode = 'apply-then-drop';
    server.on('user', (_req, res) => sendJson(res, 200, { id: 31, steam_id: '76561198000000031', name: 'cli trader', balance: 0 }));
    const run = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(parseLine(run)).toEqual({ status: 'bought', order_id: 900, error: null });
    expect(run.code).toBe(0);
    expect(server.calls('purchase')).toHaveLength(1);
    const db = new Database(join(dir, 'journal.desk.db'), { readonly: true });
    const row = db.prepare('SELECT state, account FROM purchase_journal').get();
    db.close();
    expect(row).toEqual({ state: 'bought', account: `${new URL(server.baseUrl).origin} account 31` });
  });

  it('connection dropped and the order history unreadable: unknown, exit 3, sent once', async () => {
    purchaseMode = 'apply-then-drop';
    server.on('orders', (_req, res) => sendError(res, 500, 'INTERNAL_ERROR', 'orders are down'));
    const run = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    const line = parseLine(run);
    expect(line).toMatchObject({ status: 'unknown', order_id: null });
    expect(line.error).not.toBeNull();
    expect(run.code).toBe(3);
    expect(server.calls('purchase')).toHaveLength(1);
  }, 30_000);

  it('run again after unknown: the earlier purchase, found bought, is printed as bought with its order (exit 0), nothing sent', async () => {
    purchaseMode = 'apply-then-drop';
    ordersDown = true;
    const first = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(first.code).toBe(3);
    // a script retrying on exit 3, the order history readable again: a retry must not buy a second copy
    ordersDown = false;
    purchaseMode = 'ok';
    const retry = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(parseLine(retry)).toEqual({ status: 'bought', order_id: 900, error: null });
    expect(retry.code).toBe(0);
    expect(retry.stderr).toContain('not sent');
    expect(server.calls('purchase')).toHaveLength(1);
    // the earlier purchase now known, a further run buys another copy
    const another = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(parseLine(another)).toEqual({ status: 'bought', order_id: 901, error: null });
    expect(server.calls('purchase')).toHaveLength(2);
  }, 60_000);

  it('run again while the earlier purchase is still unknown: unknown again (exit 3), nothing sent', async () => {
    purchaseMode = 'apply-then-drop';
    ordersDown = true;
    expect((await runCli(buyArgs(), { SKINDESK_API_KEY: KEY })).code).toBe(3);
    purchaseMode = 'ok';
    const retry = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(parseLine(retry)).toMatchObject({ status: 'unknown', order_id: null, error: { message: expect.stringContaining('may have been bought') } });
    expect(retry.code).toBe(3);
    expect(server.calls('purchase')).toHaveLength(1);
  }, 60_000);

  it('--db naming a directory: not bought, nothing sent, no file made beside it', async () => {
    const run = await runCli(['buy', '--base-url', server.baseUrl, '--listing', '77', '--max-price', '1300', '--db', dir], { SKINDESK_API_KEY: KEY });
    expect(run.code).toBe(1);
    expect(parseLine(run)).toMatchObject({ status: 'not_bought', error: { kind: 'local', message: expect.stringContaining('is a directory') } });
    expect(server.requests).toHaveLength(0);
    expect(existsSync(`${dir}.desk.db`)).toBe(false);
  });

  it('the key never reaches stdout or stderr, and is sent only as the bearer header', async () => {
    purchaseMode = 'price-changed';
    const run = await runCli(buyArgs(), { SKINDESK_API_KEY: KEY });
    expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
    expect(server.calls('purchase')[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('bad flags: usage on stderr, exit 2, nothing sent', async () => {
    const run = await runCli(['buy', '--base-url', server.baseUrl, '--listing', 'abc', '--max-price', '10'], { SKINDESK_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--listing');
    expect(server.requests).toHaveLength(0);
  });
});

describe('skindesk buy against the demo market', () => {
  it('buys a listing (exit 0), then the same listing is not bought (exit 1, LISTING_NOT_FOUND)', async () => {
    const demo = await startDemoMarket({ listings: 500, rate: 0 });
    try {
      const listing = demo.createListing({ appId: 730, price: 420 }).listing;
      const args = ['buy', '--base-url', demo.baseUrl, '--listing', String(listing.id), '--max-price', '450', '--db', join(dir, 'demo.db')];
      const first = await runCli(args, { SKINDESK_API_KEY: demo.apiKey });
      const line = parseLine(first);
      expect(first.code).toBe(0);
      expect(line).toMatchObject({ status: 'bought', error: null });
      expect(demo.state.account(1)?.orderItems.some((o) => o.orderId === line.order_id)).toBe(true);
      const second = await runCli(args, { SKINDESK_API_KEY: demo.apiKey });
      expect(second.code).toBe(1);
      expect(parseLine(second)).toMatchObject({ status: 'not_bought', order_id: null, error: { code: 'LISTING_NOT_FOUND' } });
    } finally {
      await demo.close();
    }
  });
});

/**
 * Account routes (spec §4.6, §3.3): the user record, orders, the streamed export (CSV and JSON, oldest
 * first, filtered), balance transactions with a running balance, and crypto withdrawals through their
 * lifecycle including the refund of a failed one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRYPTO_MINIMUM_CENTS, ENDPOINTS, ORDER_EXPORT_COLUMNS, SALE_FEE_BPS, orderExportRow, type CryptoWithdrawal } from '../../../src/shared/api/index.ts';
import { bpsOf } from '../../../src/shared/money.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { api, eventually, expectError, expectOk, parseAs, startTestMarket, type Api } from './helpers.ts';

let market: DemoMarket;
let a: Api;
beforeAll(async () => {
  market = await startTestMarket({ seed: 51, timeScale: 1_000 });
  a = api(market);
});
afterAll(() => market.close());

const balance = async (client = a) => parseAs(ENDPOINTS.user.response, expectOk(await client.get('/public/v1/user'))).balance;

async function allTransactions() {
  const rows = [];
  for (let p = 1; p < 100; p++) {
    const body = parseAs(ENDPOINTS.transactions.response, expectOk(await a.get('/public/v1/transactions', { page: p, limit: 100 })));
    rows.push(...body.transactions);
    if (p >= body.metadata.total_pages) break;
  }
  return rows;
}

describe('GET /user and GET /orders', () => {
  it('gives id, steam_id, name and balance', async () => {
    const user = parseAs(ENDPOINTS.user.response, expectOk(await a.get('/public/v1/user')));
    expect(user).toMatchObject({ id: 1, name: 'Demo Trader' });
    expect(user.steam_id).toMatch(/^7656119\d{10}$/);
    expect(user.balance).toBeGreaterThan(0);
  });

  it('pages order lines newest first, bought and sold', async () => {
    expectError(await a.get('/public/v1/orders', { page: 1 }), 'VALIDATION_ERROR', 400);
    const body = parseAs(ENDPOINTS.orders.response, expectOk(await a.get('/public/v1/orders', { page: 1, limit: 100 })));
    expect(body.orders.length).toBeGreaterThan(10);
    const times = body.orders.map((o) => o.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(body.orders.map((o) => o.side))).toEqual(new Set(['bought', 'sold']));
    const page2 = parseAs(ENDPOINTS.orders.response, expectOk(await a.get('/public/v1/orders', { page: 2, limit: 5 })));
    expect(page2.orders[0]!.order_item_id).toBe(body.orders[5]!.order_item_id);
  });

  it('shows every order line of the opening history on /sales as well (one sale, every route that shows it)', async () => {
    const orders = parseAs(ENDPOINTS.orders.response, expectOk(await a.get('/public/v1/orders', { page: 1, limit: 100 }))).orders;
    expect(orders.length).toBeGreaterThan(10);
    for (const order of orders) {
      const sales = parseAs(ENDPOINTS.sales.response, expectOk(await a.get('/public/v1/sales', { market_hash_name: order.market_hash_name, limit: 100 }))).sales;
      const same = sales.filter((s) => s.sold_at === order.created_at && s.price === order.price && s.amount === order.amount);
      expect(same.length, `${order.side} ${order.market_hash_name} at ${order.created_at}`).toBeGreaterThan(0);
    }
  });
});

describe('GET /orders/export', () => {
  it('streams CSV with a header row, oldest first, every order line', async () => {
    const res = await a.get('/public/v1/orders/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-length')).toBeNull(); // streamed (chunked)
    const [header, ...lines] = res.text.trimEnd().split('\r\n');
    expect(header).toBe(ORDER_EXPORT_COLUMNS.join(','));
    const total = parseAs(ENDPOINTS.orders.response, expectOk(await a.get('/public/v1/orders', { page: 1, limit: 5 }))).metadata.total_items;
    expect(lines).toHaveLength(total);
    const createdAt = lines.map((l) => l.split(',').at(-2)!);
    expect([...createdAt].sort()).toEqual(createdAt);
  });

  it('gives the same columns as JSON, with fee only on sold rows and net signed', async () => {
    const body = expectOk(await a.get('/public/v1/orders/export', { format: 'json' })) as { orders: unknown[] };
    const rows = body.orders.map((r) => parseAs(orderExportRow, r));
    expect(Object.keys(body.orders[0] as object)).toEqual([...ORDER_EXPORT_COLUMNS]);
    for (const r of rows) {
      expect(r.total_value).toBe(r.unit_price * r.amount);
      if (r.side === 'bought') {
        expect(r.fee).toBeNull();
        expect(r.net).toBe(-r.total_value);
      } else {
        expect(r.fee).toBe(Math.floor((r.total_value * 200 + 5_000) / 10_000));
        expect(r.net).toBe(r.total_value - r.fee!);
      }
    }
    // old sales have settled, a fresh one has not
    expect(rows.some((r) => r.side === 'sold' && r.settled_at !== null)).toBe(true);
  });

  it('filters by side, app_id, from and to', async () => {
    const all = (expectOk(await a.get('/public/v1/orders/export', { format: 'json' })) as { orders: { side: string; app_id: number; created_at: string }[] }).orders;
    const sold = (expectOk(await a.get('/public/v1/orders/export', { format: 'json', side: 'sold' })) as { orders: typeof all }).orders;
    expect(sold).toEqual(all.filter((r) => r.side === 'sold'));
    const cs = (expectOk(await a.get('/public/v1/orders/export', { format: 'json', app_id: 730 })) as { orders: typeof all }).orders;
    expect(cs).toEqual(all.filter((r) => r.app_id === 730));
    const middle = all[Math.floor(all.length / 2)]!.created_at;
    const day = middle.slice(0, 10);
    const fromDay = (expectOk(await a.get('/public/v1/orders/export', { format: 'json', from: day })) as { orders: typeof all }).orders;
    expect(fromDay).toEqual(all.filter((r) => r.created_at >= `${day}T00:00:00.000Z`));
    const toDay = (expectOk(await a.get('/public/v1/orders/export', { format: 'json', to: day })) as { orders: typeof all }).orders;
    expect(toDay).toEqual(all.filter((r) => r.created_at <= `${day}T23:59:59.999Z`));
    const toInstant = (expectOk(await a.get('/public/v1/orders/export', { format: 'json', to: middle })) as { orders: typeof all }).orders;
    expect(toInstant).toEqual(all.filter((r) => r.created_at <= middle));
    expectError(await a.get('/public/v1/orders/export', { format: 'xml' }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/orders/export', { from: 'last week' }), 'VALIDATION_ERROR', 400);
  });
});

describe('GET /transactions', () => {
  it('lists every balance movement newest first with a running balance that ends at the user balance', async () => {
    const rows = await allTransactions();
    const chronological = [...rows].reverse();
    for (let i = 1; i < chronological.length; i++) {
      expect(chronological[i]!.balance).toBe(chronological[i - 1]!.balance + chronological[i]!.amount);
    }
    expect(chronological.at(-1)!.balance).toBe(await balance());
    for (const type of ['DEPOSIT', 'PURCHASE', 'SALE', 'SALE_FEE', 'CRYPTO_WITHDRAWAL', 'CRYPTO_REFUND']) {
      expect(rows.some((r) => r.type === type), type).toBe(true);
    }
  });

  it('writes a selling fee only when there is one, in the seeded history as in a live sale', async () => {
    const rows = await allTransactions();
    const sales = rows.filter((r) => r.type === 'SALE');
    const fees = rows.filter((r) => r.type === 'SALE_FEE');
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.filter((r) => r.amount >= 0)).toEqual([]);
    // every sale worth a fee (its share rounds to a cent or more) has one; the others have none
    for (const sale of sales) {
      const fee = fees.find((r) => r.reference_id === sale.reference_id && r.description === sale.description.replace(/^Sold \d+ × /, 'Selling fee on '));
      expect(fee === undefined, `${sale.description} for ${sale.amount}`).toBe(bpsOf(sale.amount, SALE_FEE_BPS) === 0);
    }
  });
});

describe('crypto withdrawals', () => {
  const withdraw = (body: Record<string, unknown>, client = a) =>
    client.post('/public/v1/crypto-withdraw', { ticker: 'LTC', address: 'ltc1qdemo', fee_level: 'LOW', ...body });
  const poll = async (id: number, until: string[]) =>
    eventually(async () => {
      const w = parseAs(ENDPOINTS.cryptoWithdrawal.response, expectOk(await a.get(`/public/v1/crypto-withdraw/${id}`)));
      return until.includes(w.status) ? w : undefined;
    }, 5_000, `withdrawal ${id} to reach ${until.join('/')}`);

  it('deducts the full amount, goes PENDING → CONFIRMING (tx_hash set) → SUCCESS', async () => {
    market.setWithdrawalOutcome('SUCCESS');
    const before = await balance();
    const created = parseAs(ENDPOINTS.cryptoWithdraw.response, expectOk(await withdraw({ amount: 10_000, ticker: 'BTC', fee_level: 'HIGH' })));
    expect(created).toMatchObject({ status: 'PENDING', balance_amount: 10_000, ticker: 'BTC', tx_hash: null, network_fee: null });
    // the 1 % platform fee comes off, the rest converts at the spot rate (8 decimals for BTC)
    expect(created.token_amount).toBeCloseTo((10_000 * 0.99) / 6_500_000, 7);
    expect(await balance()).toBe(before - 10_000);
    const done: CryptoWithdrawal = await poll(created.withdrawal_id, ['SUCCESS', 'FAILED']);
    expect(done.status).toBe('SUCCESS');
    expect(done.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(done.network_fee).toMatch(/^\d+\.\d+$/);
    expect(await balance()).toBe(before - 10_000);
  });

  it('pays token_amount to the exact smallest unit: 1005 cents → 9.95 USDC (995 after the fee), not 9.94', async () => {
    const created = parseAs(ENDPOINTS.cryptoWithdraw.response, expectOk(await withdraw({ amount: 1_005, ticker: 'USDC', address: '0xdemo' })));
    // settled before asserting, so its outcome never moves the balance under the next test
    const done = await poll(created.withdrawal_id, ['SUCCESS', 'FAILED']);
    expect([created.token_amount, done.token_amount]).toEqual([9.95, 9.95]);
  });

  it('refunds a FAILED withdrawal to the balance', async () => {
    market.setWithdrawalOutcome('FAILED');
    const before = await balance();
    const created = parseAs(ENDPOINTS.cryptoWithdraw.response, expectOk(await withdraw({ amount: 2_500, ticker: 'ETH' })));
    expect(await balance()).toBe(before - 2_500);
    const done = await poll(created.withdrawal_id, ['SUCCESS', 'FAILED']);
    expect(done.status).toBe('FAILED');
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balance()).toBe(before);
    const [latest] = parseAs(ENDPOINTS.transactions.response, expectOk(await a.get('/public/v1/transactions', { page: 1, limit: 5 }))).transactions;
    expect(latest).toMatchObject({ type: 'CRYPTO_REFUND', amount: 2_500, reference_id: created.withdrawal_id });
  });

  it('rejects amounts below the currency minimum (400), above the balance (402), and unknown ids (404)', async () => {
    for (const ticker of ['BTC', 'ETH', 'LTC', 'SOL', 'USDC'] as const) {
      expectError(await withdraw({ amount: CRYPTO_MINIMUM_CENTS[ticker] - 1, ticker }), 'WITHDRAWAL_BELOW_MINIMUM', 400);
    }
    expectError(await withdraw({ amount: (await balance()) + 1 }), 'INSUFFICIENT_BALANCE', 402);
    expectError(await withdraw({ amount: 1_000, ticker: 'DOGE' }), 'VALIDATION_ERROR', 400);
    expectError(await withdraw({ amount: 1_000, fee_level: 'FAST' }), 'VALIDATION_ERROR', 400);
    expectError(await a.get('/public/v1/crypto-withdraw/424242'), 'WITHDRAWAL_NOT_FOUND', 404);
    // another account's withdrawal is not yours to read
    const own = parseAs(ENDPOINTS.cryptoWithdraw.response, expectOk(await withdraw({ amount: 1_000 })));
    expectError(await api(market, market.accounts[2]!.apiKey).get(`/public/v1/crypto-withdraw/${own.withdrawal_id}`), 'WITHDRAWAL_NOT_FOUND', 404);
  });

  it('needs two_factor_auth_token on an account with two-factor enabled', async () => {
    const guarded = market.accounts.find((x) => x.twoFactorCode !== null)!;
    const t = api(market, guarded.apiKey);
    expectError(await withdraw({ amount: 1_000 }, t), 'TWO_FACTOR_REQUIRED', 403);
    expectError(await withdraw({ amount: 1_000, two_factor_auth_token: '000000' }, t), 'TWO_FACTOR_REQUIRED', 403);
    expectOk(await withdraw({ amount: 1_000, two_factor_auth_token: guarded.twoFactorCode! }, t));
  });
});

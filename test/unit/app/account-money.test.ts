/**
 * Account handlers over a fake marketplace (the real REST client, a scripted fetch): answers the demo
 * market never gives, and money that must not be counted twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountRuntime } from '../../../src/core/app/account-services/account-runtime.ts';
import { backpackHandlers } from '../../../src/core/app/account-services/backpack-handlers.ts';
import { listingsHandlers } from '../../../src/core/app/account-services/listings-handlers.ts';
import { walletHandlers } from '../../../src/core/app/account-services/wallet-handlers.ts';
import { USER_CACHE_KEY } from '../../../src/core/app/market-buying/balance.ts';
import { Caches } from '../../../src/core/store/index.ts';
import { describeAppError } from '../../../src/core/app/errors.ts';
import { silentLog } from '../../../src/core/app/log.ts';
import { Redactor } from '../../../src/core/app/redaction.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { systemClock } from '../../../src/core/api/clock.ts';
import { type AccountRig, startAccountRig } from './account-rig.ts';

type Route = (url: URL, init: RequestInit) => Response | undefined;

let rig: AccountRig;
let runtime: AccountRuntime;
let routes: Route[];
/** How far the account's and the client's clock run ahead of the system's (cached reads age with it). */
let ahead = 0;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  routes = [];
  ahead = 0;
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    for (const route of routes) {
      const answer = route(url, init);
      if (answer) return answer;
    }
    return json(404, { error: { code: 'NOT_FOUND', message: `no fake for ${url.pathname}` } });
  }) as typeof globalThis.fetch;
  // the client's rate governor runs ahead with the account's clock: a read minutes later has the route's budget
  const clock = { ...systemClock, now: () => Date.now() + ahead, monotonic: () => performance.now() + ahead };
  const client = new ApiClient({ baseUrl: 'http://market.test', apiKey: 'key_for_tests', fetch, clock });
  rig = startAccountRig({ client, clock });
  runtime = rig.runtime;
});

afterEach(() => rig.close());

/** The reads behind the portfolio (user, listed value, backpack, inventories), from what `now` says. */
function answerPortfolioReads(now: () => { listedValue: number; backpack: unknown[]; inventory(appId: string | null): unknown[] }): void {
  routes.push((url) => {
    const market = now();
    switch (url.pathname) {
      case '/public/v1/user':
        return json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 5_000 });
      case '/public/v1/my-listings/value': {
        const listed = market.listedValue > 0 ? 1 : 0;
        return json(200, { listing_count: listed, item_count: listed, total_value: market.listedValue });
      }
      case '/public/v1/backpack':
        return json(200, {
          items: market.backpack,
          metadata: { total_pages: 1, total_items: market.backpack.length, current_page: 1, current_limit: 100 },
        });
      case '/public/v1/steam-inventory':
        return json(200, { items: market.inventory(url.searchParams.get('app_id')) });
      default:
        return undefined;
    }
  });
}

async function portfolioOf(account: AccountRuntime) {
  const { portfolioHandlers } = await import('../../../src/core/app/account-services/portfolio-handlers.ts');
  return portfolioHandlers(account);
}

/** Sends a 25 $ ETH withdrawal that the fake market refuses; resolves with what it threw. */
function refusedEthWithdrawal(): Promise<unknown> {
  const wallet = walletHandlers(runtime, silentLog);
  return Promise.resolve(
    wallet.createWithdrawal({ ticker: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: 2_500, feeLevel: 'LOW', twoFactorCode: null }),
  ).catch((e: unknown) => e);
}

describe('crypto withdrawal refused below the minimum', () => {
  // Spec §7: "(HTTP 400, no code given) | crypto withdrawal amount below the currency's minimum".
  // The minimum itself is not published, so only the server knows it; its codeless 400 must still
  // reach the person in plain words, not as "HTTP 400".
  for (const [label, body] of [
    ['an error object without a code', { error: { message: 'amount too low' } }],
    ['an empty JSON object', {}],
  ] as const) {
    it(`reads a 400 with ${label} as the minimum, in plain words`, async () => {
      routes.push((url) => (url.pathname === '/public/v1/crypto-withdraw' ? json(400, body) : undefined));
      const err = await refusedEthWithdrawal();
      const payload = describeAppError(err, new Redactor());
      expect(payload.apiCode).toBe('WITHDRAWAL_BELOW_MINIMUM');
      expect(payload.message).toMatch(/below the minimum/);
      expect(payload.message).not.toMatch(/HTTP 400 \(/);
      // the server refused: nothing was deducted, so the outcome is known
      expect(payload.outcomeUnknown).toBe(false);
    });
  }

  it('leaves other 400s with a code as they are', async () => {
    routes.push((url) =>
      url.pathname === '/public/v1/crypto-withdraw'
        ? json(400, { error: { code: 'VALIDATION_ERROR', message: 'bad address' } })
        : undefined,
    );
    const err = await refusedEthWithdrawal();
    expect(describeAppError(err, new Redactor()).apiCode).toBe('VALIDATION_ERROR');
  });
});

describe('crypto withdrawal: the two-factor code stays out of errors, the log and the journal', () => {
  const CODE = '987654';
  const send = (wallet: ReturnType<typeof walletHandlers>) =>
    Promise.resolve(
      wallet.createWithdrawal({ ticker: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: 2_500, feeLevel: 'LOW', twoFactorCode: CODE }),
    ).catch((e: unknown) => e);

  it('a refusal that echoes the code, and a 5xx that does, never show it', async () => {
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const wallet = walletHandlers(runtime, log);
    let status = 400;
    routes.push((url) =>
      url.pathname === '/public/v1/crypto-withdraw'
        ? json(status, { error: { code: status === 400 ? 'ODD_REFUSAL' : 'INTERNAL_ERROR', message: `two_factor_auth_token ${CODE} rejected`, details: { token: CODE } } })
        : undefined,
    );
    const refused = describeAppError(await send(wallet), new Redactor());
    expect(refused.message).toContain('ODD_REFUSAL');
    expect(JSON.stringify(refused)).not.toContain(CODE);
    // a definite refusal holds nothing; a 5xx leaves the outcome unknown
    status = 502;
    const unknown = describeAppError(await send(wallet), new Redactor());
    expect(unknown).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(JSON.stringify(unknown)).not.toContain(CODE);
    expect(lines.join('\n')).toContain('outcome unknown');
    expect(lines.join('\n')).not.toContain(CODE);
    const journal = JSON.stringify(rig.store.db.prepare('SELECT * FROM crypto_withdrawal_journal').all());
    expect(journal).toContain('"state":"refused"');
    expect(journal).toContain('"state":"unknown"');
    expect(journal).not.toContain(CODE);
  });
});

describe('crypto withdrawal on its way when the market session is replaced', () => {
  it('its answer is written before the session lets go: the next session never takes it for one a crash cut off', async () => {
    const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
    let answer!: () => void;
    let posted = 0;
    routes.push((url, init) => {
      if (url.pathname === '/public/v1/user') return json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 10_000 });
      if (url.pathname !== '/public/v1/crypto-withdraw' || init.method !== 'POST') return undefined;
      posted++;
      // the marketplace takes its time to answer (it does answer: the withdrawal is made)
      return new Promise<Response>((resolve) => {
        answer = () =>
          resolve(json(200, { withdrawal_id: 41, status: 'PENDING', balance_amount: 2_500, token_amount: 0.01, ticker: 'ETH', created_at: new Date().toISOString(), tx_hash: null, network_fee: null }));
      }) as unknown as Response;
    });
    const sending = Promise.resolve(
      walletHandlers(runtime, silentLog).createWithdrawal({ ticker: 'ETH', address: ADDRESS, amount: 2_500, feeLevel: 'LOW', twoFactorCode: null }),
    );
    while (posted === 0) await new Promise((r) => setTimeout(r, 5));
    // a session replaced (the sync worker failed, the key changed): the old account side stops first,
    // and the new one opens the same desk; the answer comes a moment later
    const detached = runtime.detach(rig.market);
    setTimeout(() => answer(), 100);
    await detached;
    const stateWhenLetGo = rig.store.db.prepare('SELECT state FROM crypto_withdrawal_journal').pluck().all();
    runtime.attach(rig.market, false);
    expect((await sending).withdrawal.withdrawal_id).toBe(41);
    // written on the old session's connection before it could close, and not held as unknown by the new one
    expect(stateWhenLetGo).toEqual(['sent']);
    expect(walletHandlers(runtime, silentLog).getWithdrawals({})).toMatchObject({ unsettled: [] });
    expect(rig.store.db.prepare('SELECT state, settled_by FROM crypto_withdrawal_journal').all()).toEqual([{ state: 'sent', settled_by: 'response' }]);
    expect(posted).toBe(1);
  });
});

describe('settling an unknown withdrawal by the trader\'s word', () => {
  it('takes only an entry of this key\'s account, and none that names an account while the key\'s is not known', async () => {
    const { WithdrawalJournal } = await import('../../../src/core/account/withdrawal-journal.ts');
    const journal = new WithdrawalJournal(rig.store.db);
    const unknownOf = (intentId: string, account: string) => {
      journal.recordIntent({ intentId, createdAtMs: Date.now(), account, amount: 2_500, ticker: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7', feeLevel: 'LOW', balanceBefore: 10_000 });
      journal.recordOutcome(intentId, { state: 'unknown', errorKind: 'timeout', errorCode: null }, Date.now());
    };
    unknownOf('other-account', 'http://market.test account 99');
    const wallet = walletHandlers(runtime, silentLog);
    // offline, before the key's account is known: shown (it may be this account's), not settled by a word
    expect((await wallet.getWithdrawals({})).unsettled.map((a) => a.id)).toEqual(['other-account']);
    await expect(Promise.resolve().then(() => wallet.settleWithdrawal({ id: 'other-account', answer: 'not_sent' }))).rejects.toMatchObject({ code: 'REFUSED' });
    // the key turns out to be account 7's: account 99's entry is neither shown nor settled from here
    routes.push((url) => (url.pathname === '/public/v1/user' ? json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 10_000 }) : undefined));
    expect(await runtime.account().meetAccount()).toBe('first');
    unknownOf('this-account', 'http://market.test account 7');
    expect((await wallet.getWithdrawals({})).unsettled.map((a) => a.id)).toEqual(['this-account']);
    await expect(Promise.resolve().then(() => wallet.settleWithdrawal({ id: 'other-account', answer: 'not_sent' }))).rejects.toMatchObject({ code: 'REFUSED' });
    expect(journal.get('other-account')?.state).toBe('unknown');
    expect(await wallet.settleWithdrawal({ id: 'this-account', answer: 'not_sent' })).toMatchObject({ id: 'this-account', state: 'not_sent' });
  });
});

describe('unknown withdrawals checked at connecting, without a click', () => {
  const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
  const ACCOUNT = 'http://market.test account 7';
  const asked = Date.now() - 5 * 60_000;

  /** An entry journaled before sending whose answer was lost (the balance read just before: 10 000). */
  async function unknownWithdrawal(intentId: string, amount: number) {
    const { WithdrawalJournal } = await import('../../../src/core/account/withdrawal-journal.ts');
    const journal = new WithdrawalJournal(rig.store.db);
    journal.recordIntent({ intentId, createdAtMs: asked, account: ACCOUNT, amount, ticker: 'ETH', address: ADDRESS, feeLevel: 'LOW', balanceBefore: 10_000 });
    journal.recordOutcome(intentId, { state: 'unknown', errorKind: 'timeout', errorCode: null }, asked + 10_000);
    return journal;
  }

  /** The app restarted: a new account session over the same desk, then the market connects. */
  async function restart() {
    await runtime.detach(rig.market);
    rig.pushes.length = 0;
    runtime.attach(rig.market, false);
    await runtime.connected(rig.market);
  }

  async function until(what: string, ok: () => boolean) {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!ok()) throw new Error(`timed out waiting for ${what}`);
  }

  const withdrawal41 = {
    withdrawal_id: 41,
    status: 'PENDING',
    balance_amount: 2_500,
    token_amount: 0.01,
    ticker: 'ETH',
    created_at: new Date(asked + 2_000).toISOString(),
    tx_hash: null,
    network_fee: null,
  };

  it('settles the one the ledger shows sent and follows it; the one with no evidence stays unknown', async () => {
    const journal = await unknownWithdrawal('went-out', 2_500);
    await unknownWithdrawal('no-evidence', 3_100);
    const posted: string[] = [];
    routes.push((url, init) => {
      if (init.method === 'POST') posted.push(url.pathname);
      switch (url.pathname) {
        case '/public/v1/user':
          return json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 7_500 });
        case '/public/v1/transactions':
          return json(200, {
            transactions: [
              { id: 900, type: 'CRYPTO_WITHDRAWAL', amount: -2_500, balance: 7_500, description: 'ETH withdrawal', reference_id: 41, created_at: new Date(asked + 2_000).toISOString() },
            ],
            metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 100 },
          });
        case '/public/v1/crypto-withdraw/41':
          return json(200, withdrawal41);
        default:
          return undefined;
      }
    });
    await restart();
    await until('the check at connecting', () => journal.get('went-out')?.state !== 'unknown');
    expect(journal.get('went-out')).toMatchObject({ state: 'sent', settledBy: 'ledger', withdrawalId: 41 });
    expect(journal.get('no-evidence')).toMatchObject({ state: 'unknown', note: expect.stringContaining('the ledger shows no withdrawal of that amount since') });
    // the one found is followed like any other; nothing was sent
    expect(runtime.account().withdrawals.get(41)).toMatchObject({ withdrawal_id: 41 });
    expect(posted).toEqual([]);
    // the wallet is told: the entry settled, the one still unknown with its check, the withdrawal found
    const pushed = rig.pushes.filter((p) => p.name === 'withdrawalUpdated').map((p) => p.payload);
    expect(pushed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ attempt: expect.objectContaining({ id: 'went-out', state: 'sent', withdrawalId: 41 }) }),
        expect.objectContaining({ attempt: expect.objectContaining({ id: 'no-evidence', state: 'unknown', lastCheck: expect.anything() }) }),
        expect.objectContaining({ withdrawal: expect.objectContaining({ withdrawal_id: 41 }) }),
      ]),
    );
    expect(rig.log.join('\n')).toContain('Checked at connecting: The withdrawal of $25.00 in ETH');
    expect((await walletHandlers(runtime, silentLog).getWithdrawals({})).unsettled.map((a) => a.id)).toEqual(['no-evidence']);
  });

  it('settles one shown by the balance alone', async () => {
    const journal = await unknownWithdrawal('went-out', 2_500);
    routes.push((url) => (url.pathname === '/public/v1/user' ? json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 7_500 }) : undefined));
    // the ledger route does not answer (404): the balance, exactly the amount lower, tells
    await restart();
    await until('the check at connecting', () => journal.get('went-out')?.state !== 'unknown');
    expect(journal.get('went-out')).toMatchObject({ state: 'sent', settledBy: 'balance' });
    expect(rig.pushes).toContainEqual({ name: 'withdrawalUpdated', payload: expect.objectContaining({ attempt: expect.objectContaining({ id: 'went-out', state: 'sent' }) }) });
  });

  it('a check that fails says so in the log and leaves the entry unknown', async () => {
    const journal = await unknownWithdrawal('went-out', 2_500);
    let userReads = 0;
    routes.push((url) => {
      if (url.pathname !== '/public/v1/user') return undefined;
      // the account is met, then the marketplace stops answering the balance
      return ++userReads === 1 ? json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 7_500 }) : json(503, {});
    });
    await restart();
    await until('the check at connecting', () => rig.log.some((line) => line.includes('could not be checked at connecting')));
    expect(rig.log.join('\n')).toContain(
      'A crypto withdrawal whose outcome is unknown could not be checked at connecting (the balance could not be read, so it is not known which account’s withdrawals to check), so it stays unknown until checked again in the wallet.',
    );
    expect(journal.get('went-out')).toMatchObject({ state: 'unknown', settledBy: null });
  });

  it('is not run while the key\'s account is not known', async () => {
    const journal = await unknownWithdrawal('went-out', 2_500);
    // the marketplace does not answer who the key is: nothing is checked, the entry stays as it was
    await restart();
    await until('the check at connecting', () => rig.log.some((line) => line.includes('could not be checked at connecting')));
    expect(rig.log.join('\n')).toContain("the API key's account could not be read");
    expect(journal.get('went-out')).toMatchObject({ state: 'unknown', note: null });
  });
});

describe('the wallet check and the balance', () => {
  it('judges by the newest balance read: a sale the status bar has seen covers the withdrawal', async () => {
    routes.push((url) => (url.pathname === '/public/v1/user' ? json(200, { id: 7, steam_id: '7656', name: 'Trader', balance: 100 }) : undefined));
    const account = runtime.account();
    await account.reads.read('user'); // the account screens' copy: $1.00
    // the status bar's read, later, after a sale: $5.00
    new Caches(account.market.db).put(USER_CACHE_KEY, { id: 7, steam_id: '7656', name: 'Trader', balance: 500 }, null, Date.now() + 1_000);
    const quote = await walletHandlers(runtime, silentLog).checkWithdrawal({ ticker: 'BTC', amount: 300, address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    expect(quote.balance).toBe(500);
    expect(quote.check.problems.map((p) => p.code)).not.toContain('INSUFFICIENT_BALANCE');
  });
});

describe('values the spec does not publish, on a real market', () => {
  // Spec §8: "The account's ceiling on listed items (behind LISTING_LIMIT_REACHED): value not shown.
  // Minimum crypto withdrawal per currency: not shown." Nor is the platform fee's size (§4.6). The demo
  // market's own values must not be stated as facts, nor refuse anything, against a real market.
  const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

  it('states no minimum or fee and refuses no small withdrawal: the server judges', async () => {
    const sent: unknown[] = [];
    const answer = {
      withdrawal_id: 77,
      status: 'CREATED',
      balance_amount: 300,
      token_amount: 0.00003,
      ticker: 'BTC',
      created_at: '2026-03-01T12:00:00.000Z',
      tx_hash: null,
      network_fee: null,
    };
    routes.push((url, init) => {
      if (url.pathname === '/public/v1/crypto-withdraw' && init.method === 'POST') {
        sent.push(JSON.parse(String(init.body)));
        return json(200, answer);
      }
      return url.pathname === '/public/v1/crypto-withdraw/77' ? json(200, answer) : undefined;
    });
    const wallet = walletHandlers(runtime, silentLog);
    const quote = await wallet.checkWithdrawal({ ticker: 'BTC', amount: 300, address: BTC_ADDRESS });
    expect(quote).toMatchObject({ minimum: null, platformFee: null, converted: null, feeBps: null });
    expect(quote.check).toEqual({ ok: true, problems: [] });
    const view = await wallet.createWithdrawal({ ticker: 'BTC', address: BTC_ADDRESS, amount: 300, feeLevel: 'LOW', twoFactorCode: null });
    expect(view.withdrawal.withdrawal_id).toBe(77);
    expect(sent).toHaveLength(1);
  });

  it('lists past the demo market\'s ceiling: a real market\'s is unknown', async () => {
    routes.push((url) =>
      url.pathname === '/public/v1/my-listings/value' ? json(200, { listing_count: 900, item_count: 5_000, total_value: 1_000_000 }) : undefined,
    );
    const account = runtime.account();
    await account.reads.listingsValue();
    account.rememberBackpack([
      { id: 5, app_id: 730, market_hash_name: 'Revolution Case', amount: 20, commodity: true, market_price: 40, trade_locked_until: null },
    ]);
    const { check } = await backpackHandlers(runtime).listItems({
      groups: [{ items: [{ id: 5, amount: 20 }], price: 45, decay: null }],
      dryRun: true,
    });
    expect(check).toEqual({ ok: true, problems: [] });
  });
});

describe('portfolio value after items left the Steam inventory', () => {
  const SKIN = 'AK-47 | Redline (Field-Tested)';
  const inventoryRow = (assetId: string, amount: number, price: number) => ({
    token: `tok_${assetId}`,
    app_id: 730,
    steam_asset_id: assetId,
    market_hash_name: SKIN,
    amount,
    commodity: false,
    tradable: true,
    market_price: price,
    recommended_price: price,
    icon_url: 'https://example.test/icon.png',
  });

  it('does not count an item twice once its sale offer was accepted after the inventory read', async () => {
    // The marketplace now: the skin sold from the inventory is listed at 1 000 cents, the inventory
    // no longer holds it (a read made now would not show it).
    let listedValue = 0;
    let inventory730 = [inventoryRow('a1', 1, 1_000), inventoryRow('a2', 1, 300)];
    answerPortfolioReads(() => ({ listedValue, backpack: [], inventory: (appId) => (appId === '730' ? inventory730 : []) }));
    const portfolio = await portfolioOf(runtime);
    const first = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(first.total).toBe(5_000 + 1_300);
    expect(first.history).toHaveLength(1);

    // a1 goes into a sale offer, which the user accepts: it is listed now, and gone from the inventory
    await new Promise((r) => setTimeout(r, 5));
    const at = new Date().toISOString();
    const sold = {
      id: 1,
      type: 'SELL',
      status: 'Accepted' as const,
      deposit_id: 11,
      withdraw_id: null,
      steam_offer_id: '99',
      value: 1_000,
      error: null,
      created_at: at,
      updated_at: at,
      items: [
        { app_id: 730 as const, market_hash_name: SKIN, steam_asset_id: 'a1', amount: 1, value: 1_000 },
      ],
    };
    runtime.account().feeds.tracker.apply(sold, 'poll');
    listedValue = 1_000;
    inventory730 = [inventoryRow('a2', 1, 300)];

    // the screen reopened (inventories not asked for): the stored read still holds a1
    const again = await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(again.total).toBe(5_000 + 1_000 + 300);
    expect(again.inventory.value).toBe(300);
    expect(again.positions.reduce((s, h) => s + h.value, 0)).toBe(300);
    expect(again.history.every((p) => p.total <= 6_300)).toBe(true);

    // asked to read the inventories: the read that predates the sale is replaced, not served again
    const read = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(read.total).toBe(6_300);
    expect(read.inventory.games.find((g) => g.appId === 730)?.value).toBe(300);
    expect(read.history.every((p) => p.total <= 6_300)).toBe(true);
  });
});

describe('portfolio value after part of a stack left the Steam inventory', () => {
  const CASE = 'Revolution Case';
  const stack = (assetId: string, amount: number) => ({
    token: `tok_${assetId}`,
    app_id: 730,
    steam_asset_id: assetId,
    market_hash_name: CASE,
    amount,
    commodity: true,
    tradable: true,
    market_price: 100,
    recommended_price: 100,
    icon_url: 'https://example.test/icon.png',
  });

  it('does not count the copies sold twice when the inventory cannot be read again', async () => {
    let listedValue = 0;
    let inventoryAnswers = true;
    answerPortfolioReads(() => ({ listedValue, backpack: [], inventory: (appId) => (appId === '730' ? [stack('c1', 10)] : []) }));
    // the inventory route fails once the sale went through (the platform behind it is down)
    routes.unshift((url) =>
      url.pathname === '/public/v1/steam-inventory' && !inventoryAnswers
        ? json(503, {})
        : undefined,
    );
    const portfolio = await portfolioOf(runtime);
    const first = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(first.total).toBe(5_000 + 1_000);

    // three of the ten cases go into a sale offer: the platform splits them off the stack under an
    // asset id of their own, which the offer names; the user accepts, and they are listed
    await new Promise((r) => setTimeout(r, 5));
    const at = new Date().toISOString();
    runtime.account().feeds.tracker.apply(
      {
        id: 3,
        type: 'SELL',
        status: 'Accepted',
        deposit_id: 12,
        withdraw_id: null,
        steam_offer_id: '97',
        value: 300,
        error: null,
        created_at: at,
        updated_at: at,
        items: [{ app_id: 730, market_hash_name: CASE, steam_asset_id: 'c9', amount: 3, value: 300 }],
      },
      'poll',
    );
    listedValue = 300;
    inventoryAnswers = false;

    const after = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(after.inventory.value).toBe(700);
    expect(after.total).toBe(5_000 + 300 + 700);
    expect(after.history.every((p) => p.total <= 6_000)).toBe(true);
  });

  it('takes nothing more from a stack read after the offer split its copies off', async () => {
    let listedValue = 0;
    let cases = 10;
    answerPortfolioReads(() => ({ listedValue, backpack: [], inventory: (appId) => (appId === '730' ? [stack('c1', cases)] : []) }));
    const portfolio = await portfolioOf(runtime);
    await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });

    // the offer for two cases is seen while open: they are split off the stack, which a read now shows without them
    const offer = {
      id: 4,
      type: 'SELL',
      status: 'Active' as const,
      deposit_id: 13,
      withdraw_id: null,
      steam_offer_id: '96',
      value: 200,
      error: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      items: [{ app_id: 730 as const, market_hash_name: CASE, steam_asset_id: 'c8', amount: 2, value: 200 }],
    };
    runtime.account().feeds.tracker.apply(offer, 'poll');
    cases = 8;
    await new Promise((r) => setTimeout(r, 5));
    await runtime.account().reads.inventory(730, { maxAgeMs: 0 });

    // accepted after that read: the read's stack is already without its copies
    await new Promise((r) => setTimeout(r, 5));
    runtime.account().feeds.tracker.apply({ ...offer, status: 'Accepted', updated_at: new Date(Date.now() + 1_000).toISOString() }, 'poll');
    listedValue = 200;
    const after = await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(after.inventory.value).toBe(800);
    expect(after.total).toBe(5_000 + 200 + 800);
  });
});

describe('portfolio history after a withdrawal brought items in', () => {
  it('draws no point from an inventory read that predates an accepted withdrawal', async () => {
    let backpack = [
      {
        id: 5,
        app_id: 570,
        market_hash_name: 'Sparrowhawk Cape',
        amount: 1,
        commodity: false,
        market_price: 400,
        trade_locked_until: null,
      },
    ];
    answerPortfolioReads(() => ({ listedValue: 0, backpack, inventory: () => [] }));
    const portfolio = await portfolioOf(runtime);
    const first = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(first.history).toHaveLength(1);
    expect(first.total).toBe(5_400);

    await new Promise((r) => setTimeout(r, 5));
    const at = new Date().toISOString();
    runtime.account().feeds.tracker.apply(
      {
        id: 2,
        type: 'WITHDRAW',
        status: 'Accepted',
        deposit_id: null,
        withdraw_id: 21,
        steam_offer_id: '98',
        value: 400,
        error: null,
        created_at: at,
        updated_at: at,
        items: [
          { app_id: 570, market_hash_name: 'Sparrowhawk Cape', steam_asset_id: 'w1', amount: 1, value: 400 },
        ],
      },
      'poll',
    );
    backpack = [];
    // past the backpack read's minute in the cache
    ahead = 2 * 60_000;
    // the backpack gave the item up, the stored Dota 2 read does not show it yet: a drop that never happened
    await new Promise((r) => setTimeout(r, 5));
    const after = await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(after.history.map((p) => p.total)).toEqual([5_400]);
  });
});

describe('a refusal without a code the app knows', () => {
  // The spec leaves shapes open (withdraw's request and answer, every error body): a 4xx with no code,
  // or with one the app does not know, still reads as a refusal, said once, in plain words (the request
  // line and the status are for the log).
  it('says the marketplace refused, and says it once', async () => {
    const { ApiError } = await import('../../../src/core/api/errors.ts');
    for (const [code, words] of [
      [null, 'The marketplace refused the request as not valid.'],
      ['ITEM_IN_TRADE_HOLD', 'The marketplace refused the request with the code ITEM_IN_TRADE_HOLD (“items locked”).'],
    ] as const) {
      const message = `POST /public/v1/withdraw: ${code ? `${code} (HTTP 400) — items locked` : 'HTTP 400'}`;
      const payload = describeAppError(
        new ApiError({ kind: 'api', route: 'POST /public/v1/withdraw', status: 400, code, message, serverMessage: code ? 'items locked' : null }),
        new Redactor(),
      );
      expect(payload.message).toBe(words);
      expect(payload.apiCode).toBe(code);
    }
  });

  it('says a network failure, a timeout and a 404 in plain words, without the request line', async () => {
    const { ApiError } = await import('../../../src/core/api/errors.ts');
    const route = 'GET /public/v1/user';
    const cases = [
      [{ kind: 'network', causeText: 'ECONNREFUSED: connect', message: `${route}: network failure (ECONNREFUSED: connect)` }, 'The marketplace could not be reached.'],
      [{ kind: 'timeout', message: `${route}: no answer within 15000 ms` }, 'The marketplace did not answer in time.'],
      [{ kind: 'api', status: 404, message: `${route}: HTTP 404` }, 'The marketplace answered “not found” (what was asked for is gone, or the marketplace address is wrong).'],
    ] as const;
    for (const [init, words] of cases) {
      expect(describeAppError(new ApiError({ route, ...init }), new Redactor()).message).toBe(words);
    }
  });
});

describe('portfolio value of a backpack read a page at a time', () => {
  const lot = (id: number, price: number) => ({
    id,
    app_id: 730,
    market_hash_name: 'Sticker | Crown (Foil)',
    amount: 1,
    commodity: false,
    market_price: price,
    trade_locked_until: null,
  });
  /** Answers the backpack from `pages` (newest first), the other portfolio reads as a quiet account. */
  function answerBackpackPages(pages: (page: number) => Response) {
    routes.push((url) => (url.pathname === '/public/v1/backpack' ? pages(Number(url.searchParams.get('page'))) : undefined));
    answerPortfolioReads(() => ({ listedValue: 0, backpack: [], inventory: () => [] }));
  }
  const page = (items: unknown[], current: number, totalPages: number, totalItems: number) =>
    json(200, { items, metadata: { total_pages: totalPages, total_items: totalItems, current_page: current, current_limit: 100 } });

  it('counts a row once when a new lot pushed it from the first page onto the second while reading', async () => {
    // page 1 read with lots 101..2 (100 rows); lot 102 arrives, lot 2 moves to page 2 with lot 1
    const first = Array.from({ length: 100 }, (_, i) => lot(101 - i, 10));
    answerBackpackPages((n) => (n === 1 ? page(first, 1, 2, 101) : page([lot(2, 10), lot(1, 10)], 2, 2, 102)));
    const portfolio = await (await portfolioOf(runtime)).getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(portfolio.backpack?.value).toBe(1_010);
    expect(portfolio.positions.reduce((s, h) => s + h.value, 0)).toBe(1_010);
    // lot 102 itself came after page 1 was read: the value lacks it, and says so
    expect(portfolio.backpack?.complete).toBe(false);
  });

  it('says the value covers part of the backpack, and draws no point, when a later page cannot be read', async () => {
    const first = Array.from({ length: 100 }, (_, i) => lot(150 - i, 10));
    answerBackpackPages((n) => (n === 1 ? page(first, 1, 2, 150) : json(503, { error: { code: 'UNAVAILABLE', message: 'busy' } })));
    const portfolio = await (await portfolioOf(runtime)).getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(portfolio.backpack).toMatchObject({ value: 1_000, rows: 100, copies: 100, complete: false });
    // a total without 50 lots would chart a drop that never happened
    expect(portfolio.history).toEqual([]);
  });

  it('says so when rows went missing while reading (a lot left page 1 and pulled one up past the reader)', async () => {
    const first = Array.from({ length: 100 }, (_, i) => lot(101 - i, 10));
    // lot 50 was listed between the reads: lot 1 moved up onto page 1, page 2 is empty
    answerBackpackPages((n) => (n === 1 ? page(first, 1, 2, 101) : page([], 2, 1, 100)));
    const portfolio = await (await portfolioOf(runtime)).getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(portfolio.backpack?.complete).toBe(false);
    expect(portfolio.history).toEqual([]);
  });

  it('is whole when every page was read and the rows add up', async () => {
    answerBackpackPages(() => page([lot(2, 10), lot(1, 15)], 1, 1, 2));
    const portfolio = await (await portfolioOf(runtime)).getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(portfolio.backpack).toEqual({ value: 25, rows: 2, copies: 2, complete: true });
    expect(portfolio.history).toHaveLength(1);
  });
});

describe('held positions: the largest 100, and how many are held', () => {
  /** `n` different items in the backpack, one lot each, the first the dearest. */
  const distinctLots = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      app_id: 730,
      market_hash_name: `Sticker | Item ${i + 1}`,
      amount: 1,
      commodity: false,
      market_price: 10_000 - i,
      trade_locked_until: null,
    }));

  it('sends every position and the count when exactly 100 are held: none cut', async () => {
    answerPortfolioReads(() => ({ listedValue: 0, backpack: distinctLots(100), inventory: () => [] }));
    const portfolio = await (await portfolioOf(runtime)).getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(portfolio.positions).toHaveLength(100);
    expect(portfolio.positionCount).toBe(100);
  });

  it('sends the 100 largest and says 101 are held when one more is', async () => {
    answerPortfolioReads(() => ({ listedValue: 0, backpack: distinctLots(101), inventory: () => [] }));
    const portfolio = await (await portfolioOf(runtime)).getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(portfolio.positions).toHaveLength(100);
    expect(portfolio.positions.at(-1)?.market_hash_name).toBe('Sticker | Item 100');
    expect(portfolio.positionCount).toBe(101);
  });
});

describe('portfolio history from inventory reads kept across sessions', () => {
  it('draws no point from an inventory read older than the half hour the app reads it again in', async () => {
    const cape = { id: 5, app_id: 570, market_hash_name: 'Sparrowhawk Cape', amount: 1, commodity: false, market_price: 400, trade_locked_until: null };
    answerPortfolioReads(() => ({ listedValue: 0, backpack: [cape], inventory: () => [] }));
    const portfolio = await portfolioOf(runtime);
    expect((await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false })).history).toHaveLength(1);
    // hours later (the next day's session), the screen opens without reading the inventories again
    ahead = 3 * 3_600_000;
    const later = await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    // the balance and the backpack are new; the inventories' values are three hours old: no point
    expect(later.history).toHaveLength(1);
    // while the totals themselves still count them, and the tile says how old they are
    expect(later.total).toBe(5_400);
  });
});

// The inventory route reads live (spec §4.4: no cache, only 5 reads a minute), so a game read minutes
// ago may be read again when the trader asks; the app's own half-hour reuse held it until then.
describe('reading every Steam inventory again from the portfolio', () => {
  const skin = (assetId: string, price: number) => ({
    token: `tok_${assetId}`,
    app_id: 730,
    steam_asset_id: assetId,
    market_hash_name: 'AK-47 | Redline (Field-Tested)',
    amount: 1,
    commodity: false,
    tradable: true,
    market_price: price,
    recommended_price: price,
    icon_url: 'https://example.test/icon.png',
  });

  it('reads every game anew when asked, however young its read, but not one read in the last minute', async () => {
    let inventory730 = [skin('a1', 1_000)];
    const reads: string[] = [];
    routes.push((url) => {
      if (url.pathname === '/public/v1/steam-inventory') reads.push(url.searchParams.get('app_id') ?? '');
      return undefined;
    });
    answerPortfolioReads(() => ({ listedValue: 0, backpack: [], inventory: (appId) => (appId === '730' ? inventory730 : []) }));
    const portfolio = await portfolioOf(runtime);
    await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(reads).toHaveLength(4);

    // five minutes on, the item sold on the platform itself: the stored reads are still used as read
    ahead = 5 * 60_000;
    inventory730 = [];
    expect((await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false })).inventory.value).toBe(1_000);
    expect(reads).toHaveLength(4);

    // asked for again: every game is read anew
    const again = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: true, refresh: false });
    expect(reads).toHaveLength(8);
    expect(again.inventory.value).toBe(0);

    // asked for again at once: reads a minute old or younger are kept (the route's 5 reads a minute)
    await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: true, refresh: false });
    expect(reads).toHaveLength(8);
  });
});

// Review of the account screens: 18 stickers listed from the backpack were counted at their asking price
// (listed) and, from a backpack page read before the list and kept for a minute, at market price too.
describe('portfolio after items moved out of the backpack by this app', () => {
  const sticker = { id: 1, app_id: 730, market_hash_name: 'Sticker | Crown (Foil)', amount: 18, commodity: true, market_price: 1_470, trade_locked_until: null };
  const cape = { id: 2, app_id: 570, market_hash_name: 'Sparrowhawk Cape', amount: 1, commodity: false, market_price: 805, trade_locked_until: null };

  /** The fake market's state, changed by its POST /list as the real one is; counts the backpack reads. */
  function market() {
    const state = { listedValue: 0, backpack: [sticker, cape] as unknown[], backpackReads: 0, backpackDown: false };
    routes.push((url, init) => {
      if (url.pathname === '/public/v1/list' && init.method === 'POST') {
        state.backpack = [cape];
        state.listedValue = 18 * 2_000;
        const at = new Date().toISOString();
        return json(200, { listings: [{ id: 900, app_id: 730, market_hash_name: sticker.market_hash_name, price: 2_000, amount: 18, commodity: true, created_at: at }] });
      }
      if (url.pathname === '/public/v1/backpack') {
        state.backpackReads++;
        if (state.backpackDown) return json(503, { error: { code: 'UNAVAILABLE', message: 'busy' } });
      }
      return undefined;
    });
    answerPortfolioReads(() => ({ listedValue: state.listedValue, backpack: state.backpack, inventory: () => [] }));
    return state;
  }
  const listStickers = () =>
    backpackHandlers(runtime).listItems({ groups: [{ items: [{ id: 1, amount: 18 }], price: 2_000, decay: null }], dryRun: false });

  it('shows the backpack the marketplace holds right after a list, and a total counting the stickers once', async () => {
    market();
    const portfolio = await portfolioOf(runtime);
    const before = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(before.backpack).toMatchObject({ value: 18 * 1_470 + 805, rows: 2 });
    await listStickers();
    // seconds later: the screen reopens (no Refresh), well inside the minute a backpack page is kept
    const after = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(after.backpack).toMatchObject({ value: 805, rows: 1, copies: 1 });
    expect(after.listed?.value).toBe(36_000);
    expect(after.total).toBe(5_000 + 36_000 + 805);
    expect(after.history.every((p) => p.total === before.total || p.total === after.total)).toBe(true);
  });

  it('reads the backpack anew after a delist and after a deposit accepted, inside the minute a page is kept', async () => {
    const state = market();
    routes.unshift((url, init) => {
      if (url.pathname !== '/public/v1/delist' || init.method !== 'POST') return undefined;
      state.backpack = [sticker, cape];
      return json(200, { results: [{ ok: true, listing_id: 900 }] });
    });
    const portfolio = await portfolioOf(runtime);
    const read = () => portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    state.backpack = [cape];
    await read();
    await listingsHandlers(runtime).delistListings({ listingIds: [900] });
    expect((await read()).backpack?.rows).toBe(2);
    expect(state.backpackReads).toBe(2);

    // a deposit made on the website is accepted: the trade feed sees it, the backpack holds one lot more
    state.backpack = [sticker, cape, { ...cape, id: 3 }];
    const at = new Date().toISOString();
    runtime.account().feeds.tracker.apply(
      { id: 5, type: 'DEPOSIT', status: 'Accepted', deposit_id: 50, withdraw_id: null, steam_offer_id: '9', value: 805, error: null, created_at: at, updated_at: at, items: [] },
      'poll',
    );
    expect((await read()).backpack?.rows).toBe(3);
  });

  it('reads the backpack anew when the trader presses Refresh, and uses the minute-old read otherwise', async () => {
    const state = market();
    const portfolio = await portfolioOf(runtime);
    await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(state.backpackReads).toBe(1);
    // a lot that left the backpack on the website (no move made here)
    state.backpack = [cape];
    const reopened = await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: false });
    expect(state.backpackReads).toBe(1);
    expect(reopened.backpack?.rows).toBe(2);
    const refreshed = await portfolio.getPortfolio({ readInventories: false, readInventoriesAgain: false, refresh: true });
    expect(state.backpackReads).toBe(2);
    expect(refreshed.backpack).toMatchObject({ value: 805, rows: 1 });
  });

  it('draws no point of history from a backpack read older than the list (served because the route failed)', async () => {
    const state = market();
    const portfolio = await portfolioOf(runtime);
    const before = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: false });
    expect(before.history).toHaveLength(1);
    await listStickers();
    // the backpack route fails from now on: the stored page (from before the list) is all there is
    state.backpackDown = true;
    ahead = 2 * 60_000;
    const after = await portfolio.getPortfolio({ readInventories: true, readInventoriesAgain: false, refresh: true });
    expect(after.backpack?.rows).toBe(2);
    // its total counts the stickers twice (listed, and in the old page): shown, never charted
    expect(after.history).toHaveLength(1);
    expect(after.history[0]!.total).toBe(before.total);
  });
});

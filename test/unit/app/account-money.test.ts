/**
 * Account handlers over a fake marketplace (the real REST client, a scripted fetch): answers the demo
 * market never gives, and money that must not be counted twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AccountRuntime,
  type AttachableMarket,
} from '../../../src/core/app/account-services/account-runtime.ts';
import { walletHandlers } from '../../../src/core/app/account-services/wallet-handlers.ts';
import { describeAppError } from '../../../src/core/app/errors.ts';
import { silentLog } from '../../../src/core/app/log.ts';
import { RecordingPlatform } from '../../../src/core/app/platform.ts';
import { Redactor } from '../../../src/core/app/redaction.ts';
import { ApiClient } from '../../../src/core/api/client.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

type Route = (url: URL, init: RequestInit) => Response | undefined;

let dataDir: string;
let t: TestStore;
let runtime: AccountRuntime;
let routes: Route[];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'skindesk-money-'));
  t = openTestStore();
  routes = [];
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    for (const route of routes) {
      const answer = route(url, init);
      if (answer) return answer;
    }
    return json(404, { error: { code: 'NOT_FOUND', message: `no fake for ${url.pathname}` } });
  }) as typeof globalThis.fetch;
  const client = new ApiClient({ baseUrl: 'http://market.test', apiKey: 'key_for_tests', fetch });
  runtime = new AccountRuntime({
    dataDir,
    platform: new RecordingPlatform(),
    publish: () => {},
    notify: () => {},
    log: silentLog,
    webhookSecret: () => null,
  });
  const market: AttachableMarket = {
    db: t.db,
    client,
    choice: { mode: 'real' },
    demo: null,
    status: () => ({ state: 'live' }),
  };
  runtime.attach(market, false);
});

afterEach(async () => {
  await runtime.close();
  t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

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
      const wallet = walletHandlers(runtime, silentLog);
      const err = await Promise.resolve(
        wallet.createWithdrawal({
          ticker: 'ETH',
          address: '0x52908400098527886E0F7030069857D2E4169EE7',
          amount: 2_500,
          feeLevel: 'LOW',
          twoFactorCode: null,
        }),
      ).catch((e: unknown) => e);
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
    const wallet = walletHandlers(runtime, silentLog);
    const err = await Promise.resolve(
      wallet.createWithdrawal({
        ticker: 'ETH',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        amount: 2_500,
        feeLevel: 'LOW',
        twoFactorCode: null,
      }),
    ).catch((e: unknown) => e);
    expect(describeAppError(err, new Redactor()).apiCode).toBe('VALIDATION_ERROR');
  });
});

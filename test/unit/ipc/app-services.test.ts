// Pure pieces of the app services: the startup rule (demo or real market), the demo's seq start that
// keeps a persisted demo mirror usable across runs, the settings file, and error descriptions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/api/errors.ts';
import {
  DEMO_DATABASE_FILE_NAME,
  Redactor,
  SettingsStore,
  chooseMarket,
  demoSeqStart,
  describeAppError,
  mirrorFile,
} from '../../../src/core/app/index.ts';
import { SecretStoreError } from '../../../src/core/secrets/index.ts';
import { INT64_MAX } from '../../../src/shared/api/index.ts';
import { SkindeskError } from '../../../src/shared/ipc/index.ts';

const settings = (useDemo: boolean, baseUrl: string | null) => ({ market: { useDemo, baseUrl } });

describe('the startup rule', () => {
  it('uses the demo market without a key, without a URL, or when chosen; else the configured URL', () => {
    expect(chooseMarket(settings(false, 'https://m.example'), false)).toEqual({
      mode: 'demo',
      reason: 'no_api_key',
    });
    expect(chooseMarket(settings(false, null), true)).toEqual({ mode: 'demo', reason: 'no_market_url' });
    expect(chooseMarket(settings(true, 'https://m.example'), true)).toEqual({
      mode: 'demo',
      reason: 'chosen_in_settings',
    });
    expect(chooseMarket(settings(false, 'https://m.example'), false, true)).toEqual({
      mode: 'demo',
      reason: 'keychain_unavailable',
    });
    expect(chooseMarket(settings(false, 'https://m.example'), true)).toEqual({
      mode: 'real',
      baseUrl: 'https://m.example',
    });
  });

  it('keeps the demo mirror apart from the real one (which the CLI shares)', () => {
    expect(mirrorFile('/d', { mode: 'demo', reason: 'no_api_key' })).toBe(
      join('/d', DEMO_DATABASE_FILE_NAME),
    );
    expect(mirrorFile('/d', { mode: 'real', baseUrl: 'https://m.example' })).toBe(join('/d', 'skindesk.db'));
  });
});

describe('demoSeqStart', () => {
  it('is above 2^53 and grows faster with wall time than any demo run can emit events', () => {
    const t = Date.UTC(2026, 0, 1);
    expect(demoSeqStart(t)).toBeGreaterThan(2n ** 53n);
    // a run one second later starts 1,000,000 seqs higher: a demo at 1,000 events/s never reaches it
    expect(demoSeqStart(t + 1000) - demoSeqStart(t)).toBe(1_000_000n);
  });

  it('stays far below int64 for centuries', () => {
    expect(demoSeqStart(Date.UTC(2500, 0, 1))).toBeLessThan(INT64_MAX / 2n);
  });
});

describe('SettingsStore', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts from defaults, saves atomically and reads back', () => {
    dir = mkdtempSync(join(tmpdir(), 'skindesk-settings-'));
    const store = new SettingsStore(dir);
    expect(store.get()).toEqual({ market: { useDemo: false, baseUrl: null } });
    store.update((s) => {
      s.market.baseUrl = 'https://m.example';
    });
    expect(new SettingsStore(dir).get().market.baseUrl).toBe('https://m.example');
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toMatch(/key|secret/i);
  });

  it('reports a damaged file and falls back to defaults instead of crashing', () => {
    dir = mkdtempSync(join(tmpdir(), 'skindesk-settings-'));
    writeFileSync(join(dir, 'settings.json'), '{ broken');
    const store = new SettingsStore(dir);
    expect(store.get()).toEqual({ market: { useDemo: false, baseUrl: null } });
    expect(store.loadProblem).toMatch(/damaged/);
  });
});

describe('describeAppError', () => {
  const redactor = new Redactor();
  redactor.add('sk_live_TOPSECRET_1');

  it('explains marketplace errors in plain words with their code', () => {
    const error = new ApiError({
      kind: 'api',
      route: 'POST /public/v1/purchase',
      code: 'LISTING_PRICE_CHANGED',
      status: 409,
      message: 'x',
    });
    expect(describeAppError(error, redactor)).toMatchObject({
      code: 'MARKET',
      apiCode: 'LISTING_PRICE_CHANGED',
      message: expect.stringMatching(/raised the price/),
    });
  });

  it('marks outcomes that are not known', () => {
    const error = new ApiError({
      kind: 'timeout',
      route: 'POST /public/v1/purchase',
      message: 'slow',
      maybeDelivered: true,
    });
    expect(describeAppError(error, redactor)).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
  });

  it('a read that got no answer has no unknown outcome: reading changes nothing at the marketplace', () => {
    // the orders, the ledger, my listings, a trades poll: a 5xx or a time-out must not say "may have done it"
    for (const kind of ['server', 'timeout', 'network'] as const) {
      const error = new ApiError({ kind, route: 'GET /public/v1/orders', message: 'down', status: kind === 'server' ? 500 : null, maybeDelivered: true });
      expect(error.outcomeUnknown, kind).toBe(false);
      expect(describeAppError(error, redactor), kind).toMatchObject({ code: 'MARKET', outcomeUnknown: false });
    }
  });

  it('never lets a secret or an internal message through', () => {
    const fromStore = describeAppError(
      new SecretStoreError('unavailable', 'keychain said sk_live_TOPSECRET_1'),
      redactor,
    );
    expect(fromStore.code).toBe('SECRET_STORE');
    expect(fromStore.message).not.toContain('TOPSECRET');
    const refused = describeAppError(
      new SkindeskError({ code: 'REFUSED', message: 'not sk_live_TOPSECRET_1' }),
      redactor,
    );
    expect(refused.message).not.toContain('TOPSECRET');
    const bug = describeAppError(
      new TypeError('cannot read x of undefined at /home/me/sk_live_TOPSECRET_1'),
      redactor,
    );
    expect(bug).toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/log has the details/) });
    expect(bug.message).not.toContain('TOPSECRET');
  });

  it('says what a keychain that cannot be used means, and what to do, as a sentence', () => {
    const refused = describeAppError(
      new SecretStoreError('unavailable', 'could not store the API key in the system keychain: no Secret Service'),
      redactor,
    );
    expect(refused.code).toBe('SECRET_STORE');
    expect(refused.message).toMatch(
      /^Could not store the API key in the system keychain: no Secret Service\. Nothing was changed\. .+, then try again\.$/,
    );
    const readOnly = describeAppError(
      new SecretStoreError('read_only', 'the API key comes from the environment variable SKINDESK_API_KEY; change it there'),
      redactor,
    );
    expect(readOnly.message).toBe('The API key comes from the environment variable SKINDESK_API_KEY; change it there.');
  });

  it('says a damaged database file is one, in SQLite words, instead of "something went wrong"', () => {
    const damaged = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    expect(describeAppError(damaged, redactor)).toMatchObject({
      code: 'INTERNAL',
      message:
        'Skindesk could not read its database (database disk image is malformed); a notice says what it does about it.',
    });
  });
});

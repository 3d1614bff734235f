/**
 * The watchlist schema (what the UI, the IPC and the CLI's file all go through) and the price ceiling
 * arithmetic, which is integer cents with basis points: no float rounding at the boundary.
 */
import { describe, expect, it } from 'vitest';
import { priceCeiling, watchlistInput, watchlistsFile } from '../../../src/shared/watchlist.ts';

const rails = { max_price: 1, total_budget: 1, daily_cap: 1, max_per_hour: 1, min_balance: 0 };

describe('watchlist schema', () => {
  it('fills defaults: not paused, notification on, sound off, no webhook, auto-buy off', () => {
    expect(watchlistInput.parse({ name: ' a ', filter: {}, price: { kind: 'ceiling', max_price: 5 } })).toEqual({
      name: 'a',
      filter: {},
      price: { kind: 'ceiling', max_price: 5 },
      paused: false,
      alerts: { notify: true, sound: false, webhook: null },
      auto_buy: { mode: 'off' },
    });
  });

  it('takes an https webhook, or http on this machine only; never credentials in it', () => {
    const ok = { name: 'w', filter: {}, price: { kind: 'ceiling', max_price: 5 } };
    const webhook = (url: string) => watchlistInput.safeParse({ ...ok, alerts: { webhook: url } });
    for (const url of ['https://discord.com/api/webhooks/1/abc', ' https://hooks.slack.com/services/T/B/x ', 'http://127.0.0.1:8080/alerts', 'http://localhost/a', 'http://[::1]:9/x']) {
      expect(webhook(url).success, url).toBe(true);
    }
    expect(webhook(' https://discord.com/api/webhooks/1/abc ').data?.alerts.webhook).toBe('https://discord.com/api/webhooks/1/abc');
    for (const url of ['http://192.168.1.10/hook', 'http://example.com/hook', 'ftp://example.com/x', 'file:///etc/passwd', 'https://user:pw@example.com/x', 'not a url', '']) {
      expect(webhook(url).success, url).toBe(false);
    }
    // https into the local network, whatever the spelling of the address: refused
    for (const url of ['https://192.168.1.1/x', 'https://10.0.0.5/x', 'https://172.20.1.1/x', 'https://169.254.169.254/latest', 'https://0xC0A80101/x', 'https://3232235777/x', 'https://[fd00::1]/x', 'https://[fe80::1]/x', 'https://100.64.0.1/x']) {
      expect(webhook(url).success, url).toBe(false);
    }
    // public addresses and the ranges' neighbours stay allowed
    for (const url of ['https://172.32.0.1/x', 'https://8.8.8.8/x', 'https://[2001:db8::1]/x', 'https://192.169.0.1/x']) {
      expect(webhook(url).success, url).toBe(true);
    }
  });

  it('a buying watchlist needs every guardrail; copies default to one', () => {
    const base = { name: 'b', filter: { app_id: 730 }, price: { kind: 'below', reference: 'average_30d', percent: 12.5 } };
    expect(watchlistInput.safeParse({ ...base, auto_buy: { mode: 'auto' } }).success).toBe(false);
    const { max_per_hour: _missing, ...partial } = rails;
    expect(watchlistInput.safeParse({ ...base, auto_buy: { mode: 'confirm', guardrails: partial } }).success).toBe(false);
    expect(watchlistInput.parse({ ...base, auto_buy: { mode: 'auto', guardrails: rails } }).auto_buy).toEqual({ mode: 'auto', copies: 1, guardrails: rails });
  });

  it('refuses nonsense: unknown fields, bad filters, percent out of range or with three decimals', () => {
    const ok = { name: 'c', filter: {}, price: { kind: 'ceiling', max_price: 5 } };
    expect(watchlistInput.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(watchlistInput.safeParse({ ...ok, filter: { float: { min: 0.5, max: 0.1 } } }).success).toBe(false);
    for (const percent of [0, 100, -1, 12.345]) {
      expect(watchlistInput.safeParse({ ...ok, price: { kind: 'below', reference: 'recommended', percent } }).success, String(percent)).toBe(false);
    }
    expect(watchlistInput.safeParse({ ...ok, price: { kind: 'ceiling', max_price: 0 } }).success).toBe(false);
  });

  it('reads the CLI file as an array or as { watchlists }', () => {
    const w = { name: 'd', filter: {}, price: { kind: 'ceiling', max_price: 5 } };
    expect(watchlistsFile.parse([w])).toHaveLength(1);
    expect(watchlistsFile.parse({ watchlists: [w, { ...w, name: 'e' }] })).toHaveLength(2);
    expect(watchlistsFile.safeParse({ lists: [w] }).success).toBe(false);
  });
});

describe('price ceiling', () => {
  it('is exact integer arithmetic', () => {
    expect(priceCeiling({ kind: 'ceiling', max_price: 777 }, null)).toBe(777);
    expect(priceCeiling({ kind: 'below', reference: 'average_30d', percent: 10 }, 1_000)).toBe(900);
    expect(priceCeiling({ kind: 'below', reference: 'average_30d', percent: 12.25 }, 1_000)).toBe(877);
    // 0.29 and 0.57 are classic float traps: 100 - 0.29 = 99.71000000000001
    expect(priceCeiling({ kind: 'below', reference: 'recommended', percent: 0.29 }, 10_000)).toBe(9_971);
    expect(priceCeiling({ kind: 'below', reference: 'recommended', percent: 0.57 }, 100)).toBe(99);
    expect(priceCeiling({ kind: 'below', reference: 'cheapest_other', percent: 50 }, 1)).toBe(0);
    expect(priceCeiling({ kind: 'below', reference: 'cheapest_other', percent: 50 }, null)).toBeNull();
  });
});

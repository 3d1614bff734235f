/**
 * Alerts posted to a webhook: Discord's `content` and Slack's `text` carry the words, `alerts` the data;
 * a burst is coalesced per URL like the OS notifications; a post that failed for a moment is tried again
 * (what came meanwhile goes with it), a refusal is not; what was still not delivered is said once a
 * minute, naming the webhook by its origin only (a Discord or Slack webhook's path is its token);
 * redirects are not followed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertWebhooks, postWebhook, webhookPayload } from '../../../src/core/watch/alert-webhook.ts';
import type { WatchAlert } from '../../../src/core/watch/store.ts';

const alert = (id: number, name = `Item ${id}`): WatchAlert => ({
  id,
  atMs: Date.UTC(2026, 10, 21, 12, 0, id),
  watchlistId: 1,
  watchlistName: 'cheap keys',
  listingId: 100 + id,
  appId: 440,
  marketHashName: name,
  price: 199,
  amount: 3,
  seq: 2n ** 60n + BigInt(id),
  referencePrice: 240,
  ceiling: 216,
  origin: 'event',
  state: 'new',
});

let server: Server;
let base: string;
let received: { path: string; body: unknown }[];
let answer: (req: IncomingMessage) => { status: number; location?: string; retryAfter?: string };

beforeEach(async () => {
  received = [];
  answer = () => ({ status: 204 });
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as unknown });
      const { status, location, retryAfter } = answer(req);
      if (status === 0) return; // a webhook that takes the post and never answers
      res.writeHead(status, { ...(location ? { location } : {}), ...(retryAfter ? { 'retry-after': retryAfter } : {}) }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const waitFor = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

describe('alert webhooks', () => {
  it('post the words for Discord and Slack and the alerts as data', () => {
    const payload = webhookPayload('Watchlist “cheap keys”', 'Mann Co. Supply Crate Key at $1.99', [
      alert(1, 'Mann Co. Supply Crate Key'),
    ]);
    expect(payload).toEqual({
      content: '**Watchlist “cheap keys”**\nMann Co. Supply Crate Key at $1.99',
      text: '**Watchlist “cheap keys”**\nMann Co. Supply Crate Key at $1.99',
      alerts: [
        {
          watchlist_id: 1,
          watchlist: 'cheap keys',
          listing_id: 101,
          app_id: 440,
          market_hash_name: 'Mann Co. Supply Crate Key',
          price: 199,
          amount: 3,
          seq: (2n ** 60n + 1n).toString(),
          ceiling: 216,
          reference_price: 240,
          origin: 'event',
          at: '2026-11-21T12:00:01.000Z',
        },
      ],
    });
    // Discord refuses content above 2,000 characters
    expect(webhookPayload('t', 'x'.repeat(5_000), []).content.length).toBeLessThanOrEqual(2_000);
  });

  it('coalesce a burst per URL: the first at once, the rest as one summary', async () => {
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 150 });
    hooks.add(`${base}/a`, [alert(1)]);
    for (let i = 2; i <= 40; i++) hooks.add(`${base}/a`, [alert(i)]);
    hooks.add(`${base}/b`, [alert(99)]);
    await waitFor('three posts', () => received.length === 3);
    const byPath = (p: string) =>
      received.filter((r) => r.path === p).map((r) => r.body as { content: string; alerts: unknown[] });
    expect(byPath('/a').map((b) => b.alerts.length)).toEqual([1, 39]);
    expect(byPath('/a')[1]!.content).toMatch(/^\*\*39 watchlist matches for “cheap keys”\*\*/);
    expect(byPath('/b')).toHaveLength(1);
    expect(failures).toEqual([]);
    await hooks.close();
    hooks.add(`${base}/a`, [alert(500)]);
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(3);
  });

  it('say a failure once a minute, with the origin and never the secret path', async () => {
    answer = () => ({ status: 404 });
    let now = 0;
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 20, now: () => now });
    const url = `${base}/api/webhooks/123/SECRET-TOKEN`;
    hooks.add(url, [alert(1)]);
    await waitFor('the failure', () => failures.length === 1);
    expect(failures[0]).toBe(`alert webhook: ${base} answered HTTP 404; the alert not delivered there`);
    expect(failures[0]).not.toContain('SECRET');
    await new Promise((r) => setTimeout(r, 40));
    hooks.add(url, [alert(2)]);
    await waitFor('the second post', () => received.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(failures).toHaveLength(1); // within the minute: not said again
    now += 61_000;
    await new Promise((r) => setTimeout(r, 40));
    hooks.add(url, [alert(3)]);
    await waitFor('the failure said again', () => failures.length === 2);
    await hooks.close();
  });

  it('retry a post that failed for a moment, and post what came meanwhile with the retry', async () => {
    // the webhook's host is down for its first two posts (a Discord hiccup), then answers
    let calls = 0;
    answer = () => (++calls <= 2 ? { status: 503 } : { status: 204 });
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 10, retryDelaysMs: [30, 250, 30] });
    hooks.add(`${base}/a`, [alert(1)]);
    await waitFor('the first retry', () => received.length === 2);
    // told while that post waits for its retry: it goes with the retry, not in a post of its own
    await new Promise((r) => setTimeout(r, 20));
    hooks.add(`${base}/a`, [alert(2)]);
    await waitFor('the post that got through', () => received.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    const alertsOf = (i: number) => (received[i]!.body as { alerts: { listing_id: number }[] }).alerts.map((a) => a.listing_id);
    expect(received).toHaveLength(3);
    expect(alertsOf(0)).toEqual([101]);
    expect(alertsOf(2)).toEqual([101, 102]);
    expect((received[2]!.body as { content: string }).content).toMatch(/^\*\*2 watchlist matches for “cheap keys”\*\*/);
    expect(failures).toEqual([]);
    await hooks.close();
  });

  it('wait as long as a 429 asks, and never retry a refusal', async () => {
    const at: number[] = [];
    answer = (req) => {
      at.push(performance.now());
      if (req.url === '/limited' && at.length === 1) return { status: 429, retryAfter: '1' };
      return { status: req.url === '/gone' ? 404 : 204 };
    };
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 10, retryDelaysMs: [10, 10, 10] });
    hooks.add(`${base}/limited`, [alert(1)]);
    await waitFor('the retry after a second', () => received.length === 2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
    expect(failures).toEqual([]);
    hooks.add(`${base}/gone`, [alert(2)]);
    await waitFor('the refusal', () => failures.length === 1);
    await new Promise((r) => setTimeout(r, 60));
    expect(received.filter((r) => r.path === '/gone')).toHaveLength(1);
    expect(failures[0]).toBe(`alert webhook: ${base} answered HTTP 404; the alert not delivered there`);
    await hooks.close();
  });

  it('say the alerts still undelivered after the last retry, those of a quiet minute included', async () => {
    answer = () => ({ status: 500 });
    const failures: string[] = [];
    const hooks = new AlertWebhooks({
      onFailure: (m) => failures.push(m),
      windowMs: 10,
      retryDelaysMs: [10, 10],
      now: () => 0, // the clock stands still: every failure after the first is within its minute
    });
    const url = `${base}/api/webhooks/123/SECRET-TOKEN`;
    hooks.add(url, [alert(1)]);
    await waitFor('the failure', () => failures.length === 1);
    expect(received).toHaveLength(3); // the post and its two retries
    expect(failures[0]).toBe(`alert webhook: ${base} answered HTTP 500 (tried 3 times); the alert not delivered there`);
    // within the minute: not said at once, but not forgotten either — said when the watch stops
    await new Promise((r) => setTimeout(r, 30));
    hooks.add(url, [alert(2)]);
    hooks.add(url, [alert(3)]);
    await waitFor('the second round of tries', () => received.length === 6);
    await new Promise((r) => setTimeout(r, 50));
    expect(failures).toHaveLength(1);
    await hooks.close();
    expect(failures).toHaveLength(2);
    expect(failures[1]).toBe(`alert webhook: ${base} answered HTTP 500 (tried 3 times); 2 alerts not delivered there`);
    expect(failures.join('\n')).not.toContain('SECRET');
  });

  it('on close, try a post waiting for its retry once more at once instead of waiting', async () => {
    let calls = 0;
    answer = () => (++calls === 1 ? { status: 502 } : { status: 204 });
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 10, retryDelaysMs: [60_000] });
    hooks.add(`${base}/a`, [alert(1)]);
    await waitFor('the failed post', () => received.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    const started = performance.now();
    await hooks.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(received).toHaveLength(2);
    expect(failures).toEqual([]);
  });

  it('on close, stop a post that gets no answer at once, and say what it and the held ones carried', async () => {
    answer = () => ({ status: 0 });
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 60_000, retryDelaysMs: [10, 10, 10] });
    const url = `${base}/api/webhooks/1/TOKEN`;
    hooks.add(url, [alert(1)]);
    await waitFor('the post under way', () => received.length === 1);
    // held back by the burst's window, posted by close behind a post that never gets its answer
    hooks.add(url, [alert(2), alert(3)]);
    const started = performance.now();
    await hooks.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(failures).toEqual([`alert webhook: ${base} had not answered when the watch stopped; 3 alerts not delivered there`]);
  });

  it('on close, stop the last try of a failing post if it gets no answer either', async () => {
    let calls = 0;
    answer = () => (++calls === 1 ? { status: 503 } : { status: 0 });
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 10, retryDelaysMs: [60_000] });
    hooks.add(`${base}/a`, [alert(1)]);
    await waitFor('the failed post', () => received.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    const started = performance.now();
    await hooks.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(received).toHaveLength(2);
    expect(failures).toEqual([`alert webhook: ${base} had not answered when the watch stopped (tried 2 times); the alert not delivered there`]);
  });

  it('do not follow a redirect, and say when nothing answers', async () => {
    answer = () => ({ status: 302, location: 'https://hooks.example/api/webhooks/1/NEW-TOKEN' });
    const redirected = postWebhook(`${base}/moved/TOKEN`, { content: 'x' });
    await expect(redirected).rejects.toThrow(
      `${base} answered with a redirect to https://hooks.example; redirects are not followed — save the final URL instead`,
    );
    await expect(redirected).rejects.toMatchObject({ retryable: false });
    // a redirect to another path of the same host is named as such (the path may be a token)
    answer = () => ({ status: 308, location: '/api/webhooks/1/NEW-TOKEN' });
    await expect(postWebhook(`${base}/moved/TOKEN`, { content: 'x' })).rejects.toThrow(
      `${base} answered with a redirect to another address on ${base}; redirects are not followed — save the final URL instead`,
    );
    await expect(postWebhook('http://127.0.0.1:1/TOKEN', { content: 'x' })).rejects.toThrow(
      'http://127.0.0.1:1 could not be reached',
    );
    answer = () => ({ status: 200 });
    await expect(postWebhook(`${base}/ok`, { content: 'x' })).resolves.toBeUndefined();
  });

  it("take a redirect as the webhook's answer: not tried again, said once, never its token", async () => {
    answer = () => ({ status: 301, location: 'https://discord.example/api/webhooks/1/NEW-TOKEN' });
    const failures: string[] = [];
    const hooks = new AlertWebhooks({ onFailure: (m) => failures.push(m), windowMs: 10, retryDelaysMs: [10, 10, 10] });
    hooks.add(`${base}/api/webhooks/1/OLD-TOKEN`, [alert(1)]);
    await waitFor('the redirect said', () => failures.length === 1);
    await new Promise((r) => setTimeout(r, 80));
    expect(received).toHaveLength(1);
    expect(failures).toEqual([
      `alert webhook: ${base} answered with a redirect to https://discord.example; redirects are not followed — save the final URL instead; the alert not delivered there`,
    ]);
    expect(failures[0]).not.toContain('TOKEN');
    await hooks.close();
    expect(failures).toHaveLength(1);
  });
});

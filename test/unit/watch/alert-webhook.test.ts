/**
 * Alerts posted to a webhook: Discord's `content` and Slack's `text` carry the words, `alerts` the data;
 * a burst is coalesced per URL like the OS notifications; a failure is said once a minute, naming the
 * webhook by its origin only (a Discord or Slack webhook's path is its token); redirects are not followed.
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
let answer: (req: IncomingMessage) => { status: number; location?: string };

beforeEach(async () => {
  received = [];
  answer = () => ({ status: 204 });
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as unknown });
      const { status, location } = answer(req);
      res.writeHead(status, location ? { location } : {}).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
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

  it('do not follow a redirect, and say when nothing answers', async () => {
    answer = () => ({ status: 302, location: 'http://127.0.0.1:1/elsewhere' });
    await expect(postWebhook(`${base}/moved/TOKEN`, { content: 'x' })).rejects.toThrow(
      `${base} could not be reached (or it redirected elsewhere)`,
    );
    await expect(postWebhook('http://127.0.0.1:1/TOKEN', { content: 'x' })).rejects.toThrow(
      'http://127.0.0.1:1 could not be reached',
    );
    answer = () => ({ status: 200 });
    await expect(postWebhook(`${base}/ok`, { content: 'x' })).resolves.toBeUndefined();
  });
});

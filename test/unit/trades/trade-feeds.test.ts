import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/api/clock.ts';
import { TradeFeeds } from '../../../src/core/trades/trade-feeds.ts';
import { FakeTradesSource } from './fake-trades-source.ts';
import { T0, makeTrade, signDelivery } from './fixtures.ts';

const SECRET = 'feeds-secret';
const running: TradeFeeds[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((f) => f.stop()));
});

describe('TradeFeeds', () => {
  it('feeds one tracker from webhooks and polls, newest updated_at winning', async () => {
    const clock = new ManualClock(T0);
    const source = new FakeTradesSource(() => clock.now());
    const feeds = new TradeFeeds({ db: new Database(':memory:'), source, clock, webhook: { secret: SECRET } });
    running.push(feeds);
    source.put(makeTrade(1, 'Active', T0));
    const { webhookUrl } = await feeds.start();
    await clock.advance(0);
    expect(feeds.tracker.get(1)?.status).toBe('Active');
    expect(webhookUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook$/);

    // The webhook is ahead of the server's list the poller reads: the poll must not undo it.
    const d = signDelivery(SECRET, { id: 'evt_1', data: makeTrade(1, 'Accepted', T0 + 2000) });
    expect((await fetch(webhookUrl as string, { method: 'POST', headers: d.headers, body: d.body })).status).toBe(200);
    await feeds.receiver?.drain();
    await clock.advance(5_000);
    expect(feeds.tracker.get(1)?.status).toBe('Accepted');
    expect(feeds.stats().tracker).toMatchObject({ appliedBySource: { poll: 1, webhook: 1 }, ignoredOlder: 1 });
    expect(feeds.stats().webhooks).toMatchObject({ accepted: 1, processed: 1 });
  });

  it('runs on polling alone when no receiver is configured', async () => {
    const clock = new ManualClock(T0);
    const source = new FakeTradesSource(() => clock.now());
    const feeds = new TradeFeeds({ db: new Database(':memory:'), source, clock });
    running.push(feeds);
    expect(await feeds.start()).toEqual({ webhookUrl: null });
    expect(feeds.stats().webhooks).toBeNull();
  });
});

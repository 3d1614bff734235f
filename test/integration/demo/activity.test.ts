/**
 * The simulated market: every kind of activity happens, the book stays near its size, the background
 * engine follows --rate and pauses, and the same seed gives the same catalog, book and activity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerFrame, type ListingEvent } from '../../../src/shared/api/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import { eventually, startTestMarket } from './helpers.ts';

/** Frames with every timestamp blanked: runs differ only in wall-clock time. */
const timeless = (frame: string) => frame.replace(/"\d{4}-\d{2}-\d{2}T[\d:.]+Z"/g, '"T"');

function record(market: DemoMarket, events: number): string[] {
  const frames: string[] = [];
  const stop = market.state.onEvent((f) => frames.push(f));
  market.runActivity(events);
  stop();
  return frames;
}

describe('determinism', () => {
  it('same seed: same accounts, book and sequence of events; another seed differs', async () => {
    const [x, y, z] = await Promise.all([startTestMarket({ seed: 5 }), startTestMarket({ seed: 5 }), startTestMarket({ seed: 6 })]);
    try {
      expect(y.accounts).toEqual(x.accounts);
      const book = (m: DemoMarket) => m.state.book().listings.map(({ created_at: _c, ...rest }) => rest);
      expect(book(y)).toEqual(book(x));
      expect(book(z)).not.toEqual(book(x));
      const fx = record(x, 500).map(timeless);
      const fy = record(y, 500).map(timeless);
      expect(fx.length).toBeGreaterThanOrEqual(500);
      expect(fy).toEqual(fx);
      expect(record(z, 500).map(timeless)).not.toEqual(fx);
      expect(y.state.seq()).toBe(x.state.seq());
    } finally {
      await Promise.all([x.close(), y.close(), z.close()]);
    }
  });
});

describe('simulated activity', () => {
  let market: DemoMarket;
  beforeAll(async () => {
    market = await startTestMarket({ seed: 81 });
  });
  afterAll(() => market.close());

  it('creates (some private, some decaying), reprices, sells partly and fully, delists', () => {
    const before = market.state.statusCounts();
    const decayingBefore = market.state.decayingCount();
    const events: ListingEvent[] = record(market, 6_000).flatMap((f) => {
      const parsed = parseServerFrame(f);
      return parsed.kind === 'listing' ? [parsed.event] : [];
    });
    const kinds = new Set(events.map((e) => e.event));
    expect(kinds).toEqual(new Set(['listing.created', 'listing.price_changed', 'listing.amount_changed', 'listing.removed', 'listing.sold']));
    const stock = events.flatMap((e) => (e.event === 'listing.amount_changed' ? [e.data.new_amount] : []));
    expect(stock.some((n) => n === 0)).toBe(true);
    expect(stock.some((n) => n > 0)).toBe(true);
    const prices = events.flatMap((e) => (e.event === 'listing.price_changed' ? [e.data.price_after - e.data.price_before] : []));
    expect(prices.some((d) => d < 0) && prices.some((d) => d > 0)).toBe(true);
    const after = market.state.statusCounts();
    expect(after.PRIVATE!).toBeGreaterThan(before.PRIVATE ?? 0);
    expect(market.state.decayingCount()).toBeGreaterThan(decayingBefore);
    // the book drifts around its starting size
    expect(market.state.bookSize()).toBeGreaterThan(1_400);
    expect(market.state.bookSize()).toBeLessThan(2_600);
  });

  it('re-publishes decaying prices as their curve moves', () => {
    const l = market.createListing({ appId: 730, decay: { start_price: 10_000, end_price: 5_000, total_hours: 100 } });
    market.advanceClock(10 * 3_600_000);
    const frames: string[] = [];
    const stop = market.state.onEvent((f) => frames.push(f));
    market.refreshDecay();
    stop();
    const mine = frames.map((f) => parseServerFrame(f)).find((p) => p.kind === 'listing' && p.event.data.listing_id === l.listing.id);
    expect(mine?.kind === 'listing' && mine.event.event === 'listing.price_changed' && mine.event.data).toMatchObject({ price_before: 10_000, price_after: 9_500 });
  });
});

describe('background activity', () => {
  it('publishes at about --rate events per second, and not while paused', async () => {
    const market = await startTestMarket({ seed: 82, rate: 400 });
    try {
      const start = market.state.eventsPublished();
      const t0 = performance.now();
      await eventually(() => (market.state.eventsPublished() - start >= 100 ? true : undefined), 5_000, 'background events');
      const elapsed = (performance.now() - t0) / 1000;
      // never ahead of the rate (plus the engine's small catch-up allowance)
      expect(market.state.eventsPublished() - start).toBeLessThanOrEqual(400 * elapsed + 110 + 400 * 0.05);
      market.pauseActivity();
      const paused = market.state.eventsPublished();
      await new Promise((r) => setTimeout(r, 150));
      expect(market.state.eventsPublished()).toBe(paused);
      market.resumeActivity();
      await eventually(() => (market.state.eventsPublished() > paused ? true : undefined), 5_000, 'activity after resume');
    } finally {
      await market.close();
    }
  });

  it('publishes nothing at rate 0', async () => {
    const market = await startTestMarket({ seed: 83, rate: 0 });
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect(market.state.eventsPublished()).toBe(0);
    } finally {
      await market.close();
    }
  });
});

/**
 * The simulated market: a crowd of sellers and buyers acting at `rate` events per second. Each timer tick
 * performs as many actions as the elapsed time allows (batching is what makes 5,000+ events/s cheap):
 * new listings (some private, some with a price decay), reprices (mostly undercuts), partial and full
 * purchases, delists. The book's size drifts around its starting size. Decaying prices are re-published
 * on their own timer.
 *
 * All choices come from the 'activity' random stream, so the same seed gives the same sequence of
 * actions; only wall-clock timestamps differ between runs.
 */
import { MINUTE } from '../clock.ts';
import { Random } from '../random.ts';
import { ACTIVE, FILLED, PRIVATE } from './listing-store.ts';
import { ANONYMOUS_SELLER_BASE, ANONYMOUS_SELLERS, type Market } from './market.ts';
import { newPrivateToken } from './listing-management.ts';
import { askingPrice, stackSize } from './population.ts';
import type { Account } from './records.ts';

export type ActivityKind = 'create' | 'reprice' | 'purchase' | 'delist';
export const ACTIVITY_KINDS: readonly ActivityKind[] = ['create', 'reprice', 'purchase', 'delist'];
const TICK_MS = 20;
/** How often decaying listings re-publish their current price (market time). */
export const DECAY_REFRESH_MS = MINUTE;
/** Traders with API keys keep at most this many listings from the simulation. */
const TRADER_LISTING_CAP = 300;

export interface ActivityOptions {
  /** Events per second; 0 = no background activity (tests drive it by hand). */
  rate: number;
  /** The book size the simulation keeps returning to. */
  targetListings: number;
  traders: readonly Account[];
}

export class ActivityEngine {
  private readonly market: Market;
  private readonly rng: Random;
  private readonly options: ActivityOptions;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private cancelDecay: (() => void) | null = null;
  private paused = false;
  private stopped = false;
  private budget = 0;
  private lastTick = 0;

  constructor(market: Market, options: ActivityOptions) {
    this.market = market;
    this.options = options;
    this.rng = Random.derive(market.seed, 'activity');
  }

  get rate(): number {
    return this.options.rate;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  start(): void {
    this.lastTick = performance.now();
    if (this.options.rate > 0) this.schedule();
    this.scheduleDecay();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.budget = 0;
    this.lastTick = performance.now();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.cancelDecay?.();
  }

  /**
   * Performs actions until `events` events were published (or the book offers nothing to act on).
   * Synchronous and seeded: the test hook for driving the market deterministically.
   */
  run(events: number): number {
    const feed = this.market.feed;
    const start = feed.published;
    let attempts = 0;
    while (feed.published - start < events && attempts < events * 4 + 16) {
      this.step();
      attempts++;
    }
    if (this.market.store.wantsCompaction) this.compact();
    return feed.published - start;
  }

  /** One action of the given kind (or a weighted random one); returns the events it published. */
  step(kind: ActivityKind = this.chooseKind()): number {
    const before = this.market.feed.published;
    switch (kind) {
      case 'create':
        this.create();
        break;
      case 'reprice':
        this.reprice();
        break;
      case 'purchase':
        this.purchase();
        break;
      case 'delist':
        this.delist();
        break;
    }
    return this.market.feed.published - before;
  }

  private chooseKind(): ActivityKind {
    const live = this.market.store.activeCount;
    const target = Math.max(1, this.options.targetListings);
    // Below target the crowd lists more and delists less; above it, the reverse.
    const pull = Math.min(3, Math.max(0.2, 1 + ((target - live) / target) * 4));
    const weights: [ActivityKind, number][] = [
      ['create', 0.28 * pull],
      ['reprice', 0.3],
      ['purchase', 0.27],
      ['delist', 0.15 / pull],
    ];
    let r = this.rng.next() * weights.reduce((s, [, w]) => s + w, 0);
    for (const [kind, w] of weights) {
      if (r < w) return kind;
      r -= w;
    }
    return 'reprice';
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), TICK_MS);
  }

  private tick(): void {
    const now = performance.now();
    const elapsed = now - this.lastTick;
    this.lastTick = now;
    if (!this.paused) {
      // Owed events accrue with real time; a long stall (a big snapshot build) is not made up in a storm.
      this.budget = Math.min(this.budget + (this.options.rate * elapsed) / 1000, this.options.rate * 0.25 + 1);
      const due = Math.floor(this.budget);
      if (due > 0) this.budget -= this.run(due);
    }
    this.schedule();
  }

  private scheduleDecay(): void {
    if (this.stopped) return;
    this.cancelDecay = this.market.clock.after(DECAY_REFRESH_MS, () => {
      if (!this.paused) this.market.refreshDecayingPrices();
      this.scheduleDecay();
    });
  }

  /** A random public listing (optionally only the crowd's and traders', not the demo user's). */
  private randomActive(crowdOnly: boolean): number {
    const store = this.market.store;
    if (store.size === 0) return -1;
    for (let tries = 0; tries < 48; tries++) {
      const i = this.rng.int(0, store.size - 1);
      if (store.status[i] !== ACTIVE) continue;
      if (crowdOnly && this.market.account(store.seller[i]!)?.simulated === false) continue;
      return i;
    }
    return -1;
  }

  private create(): void {
    const market = this.market;
    const item = market.catalog.sample(this.rng);
    const assetId = market.nextId('asset');
    const price = askingPrice(this.rng, item, assetId);
    let seller = ANONYMOUS_SELLER_BASE + this.rng.int(0, ANONYMOUS_SELLERS - 1);
    if (this.rng.chance(0.04) && this.options.traders.length > 0) {
      const trader = this.rng.pick(this.options.traders);
      if (market.listedItemCount(trader.id) < TRADER_LISTING_CAP) seller = trader.id;
    }
    const isPrivate = this.rng.chance(0.03);
    const decays = !isPrivate && price >= 10 && this.rng.chance(0.01);
    const decay = decays
      ? { start_price: price, end_price: Math.max(1, Math.round(price * 0.75)), total_hours: this.rng.int(24, 168), startedAt: market.now() }
      : undefined;
    market.createListing({
      seller,
      item,
      price,
      amount: stackSize(this.rng, item),
      assetId,
      status: isPrivate ? PRIVATE : ACTIVE,
      extra: { ...(isPrivate ? { privateToken: newPrivateToken(market) } : {}), ...(decay ? { decay } : {}) },
    });
  }

  private reprice(): void {
    const index = this.randomActive(true);
    if (index < 0) return;
    const store = this.market.store;
    if (this.market.decaying.has(store.id[index]!)) return;
    const before = store.price[index]!;
    // Mostly undercuts of a few percent; sometimes a seller asks more.
    const factor = this.rng.chance(0.7) ? 1 - this.rng.float(0.005, 0.06) : 1 + this.rng.float(0.01, 0.08);
    let price = Math.max(1, Math.round(before * factor));
    if (price === before) price = before > 1 ? before - 1 : before + 1;
    this.market.setListingPrice(index, price);
  }

  private purchase(): void {
    const market = this.market;
    const store = market.store;
    // Now and then someone buys from the demo user, so their sales and balance move too.
    let index = -1;
    if (this.rng.chance(0.03)) {
      const own = market.listingsOf(1, (i) => store.status[i] === ACTIVE);
      if (own.length > 0) index = this.rng.pick(own);
    }
    if (index < 0) index = this.randomActive(false);
    if (index < 0) return;
    const amount = store.amount[index]!;
    const take = amount > 1 && this.rng.chance(0.5) ? this.rng.int(1, amount - 1) : amount;
    const orderId = market.nextId('order');
    const { price } = market.sellFromListing(index, take, orderId);
    // A trader with an API key is the buyer now and then; the crowd's purchases leave no account trace.
    const buyer = this.rng.chance(0.15) && this.options.traders.length > 0 ? this.rng.pick(this.options.traders) : null;
    if (buyer && buyer.id !== store.seller[index]) {
      const item = market.itemAt(index);
      const now = market.now();
      market.moveBalance(buyer, 'PURCHASE', -price * take, `Bought ${take} × ${item.name}`, orderId);
      market.recordOrderItem(buyer, { orderId, side: 'bought', appId: item.appId, item: item.index, name: item.name, price, amount: take, createdAt: now, settlesAt: now });
      if (buyer.balance < 1_000_000) market.moveBalance(buyer, 'ADJUSTMENT', 10_000_000, 'Top-up', null);
    }
  }

  private delist(): void {
    const index = this.randomActive(true);
    if (index < 0) return;
    const market = this.market;
    const trader = market.account(market.store.seller[index]!);
    const item = market.itemAt(index);
    const amount = market.store.amount[index]!;
    market.removeListing(index);
    if (trader) market.addToBackpack(trader, item, amount);
  }

  /** Drops delisted rows, and sold-out rows nobody can ask about (the anonymous crowd's). */
  private compact(): void {
    const store = this.market.store;
    store.compact((i) => store.status[i] === FILLED && store.seller[i]! < ANONYMOUS_SELLER_BASE);
  }
}


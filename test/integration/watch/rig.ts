/**
 * Test rigs for the watch service against the demo market. `ManualRig` applies the demo's own feed to a
 * mirror by hand (so a test decides exactly which events arrive, in which book state, and how often);
 * `names` picks catalog items that sell one copy per listing, far from each other, for watchlists that
 * must not see each other's listings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../../src/core/api/client.ts';
import { PurchaseJournal } from '../../../src/core/api/purchase-journal.ts';
import { Purchaser } from '../../../src/core/api/purchaser.ts';
import { BookStore, mergeSnapshot, openDatabase, type Db } from '../../../src/core/store/index.ts';
import { WatchService, type WatchServiceOptions } from '../../../src/core/watch/index.ts';
import { startDemoMarket, type DemoMarket, type DemoMarketOptions } from '../../../src/demo/index.ts';
import { parseServerFrame, type ListingEvent } from '../../../src/shared/api/index.ts';
import type { Guardrails, WatchlistInput } from '../../../src/shared/watchlist.ts';

export function startQuietMarket(options: DemoMarketOptions = {}): Promise<DemoMarket> {
  return startDemoMarket({ port: 0, listings: 1_500, rate: 0, seed: 11, reorder: 0, duplicate: 0, rateLimits: false, ...options });
}

export function tempDb(): { file: string; dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'skindesk-watch-'));
  return { file: join(dir, 'book.db'), dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Non-commodity item names of the demo book with their usual price, `count` of them, well apart. */
export function itemNames(demo: DemoMarket, count: number): { name: string; price: number }[] {
  const byName = new Map<string, number>();
  for (const l of demo.state.book().listings) if (!l.commodity && l.price >= 2_000 && !byName.has(l.market_hash_name)) byName.set(l.market_hash_name, l.price);
  const names = [...byName].sort((a, b) => a[0].localeCompare(b[0]));
  if (names.length < count) throw new Error(`the demo book has only ${names.length} suitable item names`);
  const step = Math.floor(names.length / count);
  return Array.from({ length: count }, (_, i) => {
    const [name, price] = names[i * step] as [string, number];
    return { name, price };
  });
}

/** Guardrails wide enough to never stop anything, for tests about something else. */
export const OPEN_RAILS: Guardrails = {
  max_price: 1_000_000,
  total_budget: 10_000_000,
  daily_cap: 10_000_000,
  max_per_hour: 1_000,
  min_balance: 0,
};

/** A watchlist buying one exact item at or under `ceiling`. */
export function autoWatchlist(name: string, item: string, ceiling: number, rails: Partial<Guardrails> = {}, mode: 'auto' | 'confirm' = 'auto'): WatchlistInput {
  return {
    name,
    filter: { name: item },
    price: { kind: 'ceiling', max_price: ceiling },
    auto_buy: { mode, guardrails: { ...OPEN_RAILS, ...rails } },
  };
}

export class ManualRig {
  readonly demo: DemoMarket;
  readonly db: Db;
  readonly store: BookStore;
  readonly client: ApiClient;
  readonly purchaser: Purchaser;
  readonly service: WatchService;
  readonly #frames: string[] = [];
  readonly #off: () => void;
  readonly #tmp: ReturnType<typeof tempDb>;

  private constructor(demo: DemoMarket, tmp: ReturnType<typeof tempDb>, options: Partial<WatchServiceOptions>) {
    this.demo = demo;
    this.#tmp = tmp;
    this.db = openDatabase(tmp.file);
    this.store = new BookStore(this.db);
    this.client = new ApiClient({ baseUrl: demo.baseUrl, apiKey: demo.apiKey, wsUrl: demo.wsUrl });
    this.purchaser = new Purchaser({ client: this.client, journal: new PurchaseJournal(this.db) });
    this.service = new WatchService({ db: this.db, ...options });
    this.#off = demo.state.onEvent((frame) => this.#frames.push(frame));
  }

  /** The book's file, for a second connection (another process, a restart). */
  get file(): string {
    return this.#tmp.file;
  }

  /** A quiet demo market, its book merged into a fresh mirror, a watch service connected and live. */
  static async start(options: Partial<WatchServiceOptions> = {}, market: DemoMarketOptions = {}): Promise<ManualRig> {
    const demo = await startQuietMarket(market);
    const rig = new ManualRig(demo, tempDb(), options);
    const book = demo.state.book();
    await mergeSnapshot(rig.store, book, { scope: null, resync: false });
    rig.service.attachMarket(rig.client, rig.purchaser);
    rig.service.onStatus('live');
    await rig.service.settled();
    // the first balance read, so the min-balance guardrail has a balance to check
    if ((await rig.service.refreshBalance()) === null) throw new Error('the demo balance could not be read');
    return rig;
  }

  /**
   * A "snipe" watchlist auto-buying one item of the demo book under `ceiling`, swept once (so the book's
   * listings of it are matched already): the item's name, for the listings a test creates.
   */
  async snipeOneItem(ceiling = 5_000): Promise<string> {
    const [item] = itemNames(this.demo, 1);
    this.service.create(autoWatchlist('snipe', item!.name, ceiling));
    await this.service.sweep();
    return item!.name;
  }

  /** Applies the feed's new events to the mirror (as the engine would) and returns what applied. */
  applyFeed(): ListingEvent[] {
    const events: ListingEvent[] = [];
    for (const frame of this.#frames.splice(0)) {
      const parsed = parseServerFrame(frame);
      if (parsed.kind === 'listing') events.push(parsed.event);
    }
    return this.store.applyEvents(events).events;
  }

  /**
   * What the engine's `received` does: the new frames' creations handed to the watch service before the
   * book applies anything (the frames stay queued for `deliver`).
   */
  arrive(): void {
    for (const frame of this.#frames) {
      const parsed = parseServerFrame(frame);
      if (parsed.kind === 'listing' && parsed.event.event === 'listing.created') this.service.onArrived(parsed.event);
    }
  }

  /** The feed's new events, applied and handed to the watch service; resolves when purchases settled. */
  async deliver(): Promise<ListingEvent[]> {
    const applied = this.applyFeed();
    this.service.onApplied(applied);
    await this.service.settled();
    return applied;
  }

  journal(): { listing_id: number; state: string; trigger_seq: string | null; watchlist_id: number | null; source: string }[] {
    return this.db.prepare('SELECT listing_id, state, trigger_seq, watchlist_id, source FROM purchase_journal ORDER BY created_at_ms').all() as never;
  }

  async close(): Promise<void> {
    this.#off();
    await this.service.close();
    this.db.close();
    await this.demo.close();
    this.#tmp.remove();
  }
}

export { waitFor } from '../../shared/wait-for.ts';

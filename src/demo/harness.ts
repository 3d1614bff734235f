/**
 * Test hooks of a running demo market: what a faithful harness needs beyond the public API. Read the
 * server's own truth (book, listings, accounts) to compare a client's mirror against; drive the market
 * deterministically (pause the background activity, run N seeded events, create/reprice/buy/delist one
 * listing); move time (advance the market clock, settle trades and withdrawals now); and play the
 * website's part (set a webhook URL, reroll a key, read notices). Soak and chaos tests extend this
 * class; nothing here is reachable over HTTP.
 */
import type { AppId, LeanListing, FullListing, OrderItem, PriceDecayRequest, Trade, TradeStatus } from '../shared/api/index.ts';
import type { ChaosController } from './chaos/controller.ts';
import type { Clock } from './clock.ts';
import type { ActivityEngine, ActivityKind } from './market/activity.ts';
import { MarketError } from './market/errors.ts';
import { newPrivateToken } from './market/listing-management.ts';
import { ACTIVE, APP_CODE, PRIVATE, STATUS_NAME, type StatusCode } from './market/listing-store.ts';
import { ANONYMOUS_SELLER_BASE, type Market } from './market/market.ts';
import { askingPrice } from './market/population.ts';
import type { Account, Notice, TradeRecord } from './market/records.ts';
import type { TradeEngine, TradeOutcome } from './market/trades.ts';
import type { WithdrawalEngine } from './market/withdrawals.ts';
import { Random } from './random.ts';
import { orderRow } from './server/routes-account.ts';
import type { MarketSnapshots } from './server/snapshots.ts';
import type { WebSocketFeed } from './server/ws-feed.ts';
import type { DeliveryAttempt, WebhookDispatcher } from './webhooks/dispatcher.ts';

export interface DemoParts {
  market: Market;
  clock: Clock;
  trades: TradeEngine;
  withdrawals: WithdrawalEngine;
  activity: ActivityEngine;
  feed: WebSocketFeed;
  webhooks: WebhookDispatcher;
  snapshots: MarketSnapshots;
  chaos: ChaosController;
}

/** An API key holder of the demo market. */
export interface DemoAccountInfo {
  id: number;
  name: string;
  apiKey: string;
  /** Null for the trader whose key predates webhooks (nothing is delivered to it). */
  webhookSecret: string | null;
  /** The code crypto withdrawals need, for the account with two-factor enabled. */
  twoFactorCode: string | null;
  /** Driven by the simulation (the demo user is not). */
  simulated: boolean;
}

export interface ListingTruth {
  listing: LeanListing;
  full: FullListing;
  status: string;
  seller: number;
  privateToken: string | null;
}

export interface CreateListingOptions {
  appId?: AppId;
  /** Market hash name; a random one of `appId` otherwise. */
  name?: string;
  /** Account id of the seller; the anonymous crowd by default. */
  seller?: number;
  price?: number;
  amount?: number;
  private?: boolean;
  decay?: PriceDecayRequest;
}

export class DemoHarness {
  protected readonly parts: DemoParts;
  private readonly handRng: Random;

  constructor(parts: DemoParts) {
    this.parts = parts;
    this.handRng = Random.derive(parts.market.seed, 'harness');
  }

  // ---- reading the server's truth ---------------------------------------------------------------

  readonly state = {
    /** The seq of the last published event. */
    seq: (): bigint => this.parts.market.feed.seq,
    /** Events published since startup. */
    eventsPublished: (): number => this.parts.market.feed.published,
    /**
     * The live book exactly as it is at the current seq (no cache): what a client's mirror must equal.
     * Decaying listings show their price as last published (reads and the periodic refresh publish the
     * moves); reading this publishes nothing, so the seq stays put.
     */
    book: (appId?: AppId): { seq: bigint; listings: LeanListing[] } => {
      const { store } = this.parts.market;
      const listings: LeanListing[] = [];
      for (let i = store.size - 1; i >= 0; i--) {
        if (store.status[i] !== ACTIVE || (appId !== undefined && store.app[i] !== APP_CODE[appId])) continue;
        listings.push(this.parts.market.lean(i));
      }
      return { seq: this.parts.market.feed.seq, listings };
    },
    bookSize: (): number => this.parts.market.store.activeCount,
    /** Listings per status (REMOVED counts delisted rows not yet compacted away). */
    statusCounts: (): Record<string, number> => {
      const { store } = this.parts.market;
      const counts: Record<string, number> = {};
      for (let i = 0; i < store.size; i++) {
        const name = STATUS_NAME[store.status[i] as StatusCode] ?? 'REMOVED';
        counts[name] = (counts[name] ?? 0) + 1;
      }
      return counts;
    },
    decayingCount: (): number => this.parts.market.decaying.size,
    /** Every event frame as published (before any delivery reordering), until the returned stop(). */
    onEvent: (listener: (frame: string) => void): (() => void) => this.parts.market.feed.subscribe((e) => listener(e.frame)),
    /** Any listing the market still holds (also private, disabled, filled). */
    listing: (id: number): ListingTruth | null => {
      const market = this.parts.market;
      const index = market.store.indexOf(id);
      if (index < 0) return null;
      const status = STATUS_NAME[market.store.status[index] as StatusCode];
      return {
        listing: market.lean(index),
        full: market.fullRow(index),
        status: status ?? 'REMOVED',
        seller: market.store.seller[index]!,
        privateToken: market.store.extraOf(id)?.privateToken ?? null,
      };
    },
    account: (id: number): Account | undefined => this.parts.market.account(id),
    /** An account's trades as GET /trades shows them (oldest first), without spending its rate limit. */
    trades: (accountId = 1): Trade[] => this.account(accountId).trades.map((t) => this.parts.trades.view(t)),
    /** An account's order rows as GET /orders shows them (oldest first). */
    orders: (accountId = 1): OrderItem[] =>
      this.account(accountId).orderItems.map(orderRow),
    /** Book snapshots built so far (cache misses). */
    bookBuilds: (): number => this.parts.snapshots.bookBuilds,
    websocket: () => this.parts.feed.stats,
  };

  get accounts(): DemoAccountInfo[] {
    return this.parts.market.accounts.map((a) => ({
      id: a.id,
      name: a.name,
      apiKey: a.apiKey,
      webhookSecret: a.webhookSecret,
      twoFactorCode: a.twoFactorCode,
      simulated: a.simulated,
    }));
  }

  // ---- driving the market -----------------------------------------------------------------------

  pauseActivity(): void {
    this.parts.activity.pause();
  }

  resumeActivity(): void {
    this.parts.activity.resume();
  }

  /** Runs seeded simulated actions until `events` events were published; returns how many were. */
  runActivity(events: number, kind?: ActivityKind): number {
    if (kind === undefined) return this.parts.activity.run(events);
    let published = 0;
    for (let attempts = 0; published < events && attempts < events * 4 + 16; attempts++) published += this.parts.activity.step(kind);
    return published;
  }

  createListing(options: CreateListingOptions = {}): ListingTruth {
    const market = this.parts.market;
    const item = options.name
      ? market.catalog.byName.get(options.name)
      : market.catalog.sample(this.handRng, options.appId);
    if (!item) throw new RangeError(`no catalog item named ${options.name}`);
    const assetId = market.nextId('asset');
    const price = options.decay?.start_price ?? options.price ?? askingPrice(this.handRng, item, assetId);
    const index = market.createListing({
      seller: options.seller ?? ANONYMOUS_SELLER_BASE + 1,
      item,
      price,
      amount: item.commodity ? (options.amount ?? 5) : 1,
      assetId,
      status: options.private ? PRIVATE : ACTIVE,
      extra: {
        ...(options.private ? { privateToken: newPrivateToken(market) } : {}),
        ...(options.decay ? { decay: { ...options.decay, startedAt: market.now() } } : {}),
      },
    });
    return this.state.listing(market.store.id[index]!)!;
  }

  repriceListing(id: number, price: number): void {
    this.parts.market.setListingPrice(this.indexOf(id), price);
  }

  /** A purchase by the anonymous crowd (events, sales history, the seller's money if an account). */
  buyListing(id: number, amount?: number): void {
    const market = this.parts.market;
    const index = this.indexOf(id);
    market.sellFromListing(index, amount ?? market.store.amount[index]!, market.nextId('order'));
  }

  delistListing(id: number): void {
    this.parts.market.removeListing(this.indexOf(id));
  }

  /** Re-publishes the current price of every decaying listing now; returns how many moved. */
  refreshDecay(): number {
    return this.parts.market.refreshDecayingPrices();
  }

  /** Delivers every WebSocket event held back for reordering now. */
  flushFeed(): void {
    this.parts.feed.flush();
  }

  /** Puts copies into an account's external inventory (one stack); returns its asset id. */
  giveInventory(accountId: number, name: string, amount = 1, options: { tradable?: boolean } = {}): number {
    const market = this.parts.market;
    const item = this.item(name);
    const assetId = market.nextId('asset');
    this.account(accountId).inventory.set(assetId, { assetId, item: item.index, amount: item.commodity ? amount : 1, tradable: options.tradable ?? true, heldBy: null });
    return assetId;
  }

  /** Puts copies into an account's backpack; returns the backpack row id. */
  giveBackpack(accountId: number, name: string, amount = 1, options: { tradeLockedUntil?: number | null } = {}): number {
    const item = this.item(name);
    return this.parts.market.addToBackpack(this.account(accountId), item, item.commodity ? amount : 1, { tradeLockedUntil: options.tradeLockedUntil ?? null }).id;
  }

  // ---- time -------------------------------------------------------------------------------------

  /** Moves the market clock forward (token expiry, decay progress, cache ages, settlement). */
  advanceClock(ms: number): void {
    this.parts.clock.advance(ms);
  }

  /** Makes every trade that reaches the user's answer end this way (null: back to random). */
  setTradeOutcome(outcome: TradeOutcome | null): void {
    this.parts.trades.forcedOutcome = outcome;
  }

  /** true: trades stop moving by themselves and move only through `moveTrade` (false resumes for new steps). */
  holdTrades(hold: boolean): void {
    this.parts.trades.autoProgress = !hold;
  }

  /** Moves one trade to a status now (and fires its webhook). */
  moveTrade(tradeId: number, status: TradeStatus): void {
    this.parts.trades.move(this.trade(tradeId), status);
  }

  setWithdrawalOutcome(outcome: 'SUCCESS' | 'FAILED' | null): void {
    this.parts.withdrawals.forcedOutcome = outcome;
  }

  // ---- the website's part -----------------------------------------------------------------------

  /** Saves or clears a webhook URL, as the user would on the website (INVALID_WEBHOOK_URL if refused). */
  async setWebhookUrl(url: string | null, accountId = 1): Promise<void> {
    await this.parts.webhooks.setUrl(this.account(accountId), url);
  }

  webhookUrl(accountId = 1): string | null {
    return this.account(accountId).webhook.url;
  }

  /** Webhook deliveries not finished yet (being sent or waiting for a retry). */
  get pendingWebhooks(): number {
    return this.parts.webhooks.pending;
  }

  /** Every webhook delivery attempt so far, oldest first. */
  get webhookLog(): readonly DeliveryAttempt[] {
    return this.parts.webhooks.log;
  }

  notices(accountId = 1): readonly Notice[] {
    return this.account(accountId).notices;
  }

  /**
   * Rerolls an account's API key (and webhook secret); returns the new key. `key` chooses it (a run that
   * greps its artefacts for the key wants one nobody could mistake).
   */
  rerollApiKey(accountId = 1, key?: string): string {
    const account = this.account(accountId);
    this.parts.market.rerollKey(account, key);
    return account.apiKey;
  }

  private item(name: string) {
    const item = this.parts.market.catalog.byName.get(name);
    if (!item) throw new RangeError(`no catalog item named ${name}`);
    return item;
  }

  private account(id: number): Account {
    const account = this.parts.market.account(id);
    if (!account) throw new RangeError(`no account ${id}`);
    return account;
  }

  private trade(id: number): TradeRecord {
    for (const account of this.parts.market.accounts) {
      const trade = account.trades.find((t) => t.id === id);
      if (trade) return trade;
    }
    throw new RangeError(`no trade ${id}`);
  }

  private indexOf(id: number): number {
    const index = this.parts.market.store.indexOf(id);
    if (index < 0) throw new MarketError('LISTING_NOT_FOUND', `listing ${id} does not exist`);
    return index;
  }
}

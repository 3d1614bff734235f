/**
 * The market's state and the primitive moves everything else is built from: listings appear, change
 * price or amount, sell and leave (each publishing its event when the listing is public); money moves
 * with a running balance; items enter and leave backpacks. Operations (purchase, list, sell, trades...)
 * live in their own modules and call these, so every event and ledger line has one origin.
 *
 * Everything runs on the one JavaScript thread and no operation awaits in the middle, so each operation
 * is atomic by construction — the "transaction" the spec talks about.
 */
import { createHmac } from 'node:crypto';
import {
  SALE_FEE_BPS,
  type FullListing,
  type LeanListing,
  type MyListing,
  type PriceDecayRequest,
} from '../../shared/api/index.ts';
import { bpsOf } from '../../shared/money.ts';
import { decayPriceAt } from '../../shared/api/price-decay.ts';
import { demoCatalog, type Catalog, type CatalogItem } from '../catalog/index.ts';
import { DAY, HOUR, IsoFormatter, iso, type Clock } from '../clock.ts';
import { Random, unitFromHash } from '../random.ts';
import { EventFeed } from './feed.ts';
import {
  ACTIVE,
  FILLED,
  PRIVATE,
  REMOVED,
  STATUS_NAME,
  ListingStore,
  appOfCode,
  isLive,
  type DecayState,
  type ListingExtra,
  type StatusCode,
} from './listing-store.ts';
import type { Account, BackpackRow, OrderItemRecord, TradeRecord, TransactionRecord } from './records.ts';
import { SalesLog } from './sales.ts';
import { InventoryTokens } from './tokens.ts';

/** Seller numbers from here up are the anonymous crowd behind most of the book (no API key). */
export const ANONYMOUS_SELLER_BASE = 1000;
export const ANONYMOUS_SELLERS = 40_000;
/** A sale's money is final after this long (market time, divided by the time scale). */
export const SETTLEMENT_MS = 8 * DAY;
/** Simulated accounts keep only their recent history so a long benchmark does not grow without bound. */
const SIMULATED_HISTORY_CAP = 5_000;
const FIRST_IDS = {
  listing: 100_000_000,
  order: 5_000_000,
  orderItem: 9_000_000,
  trade: 700_000,
  deposit: 400_000,
  withdraw: 800_000,
  withdrawal: 30_000,
  backpack: 2_000_000,
  transaction: 12_000_000,
  sale: 60_000_000,
  asset: 31_000_000_000,
  offer: 7_100_000_000,
};
export type IdKind = keyof typeof FIRST_IDS;

export interface MarketOptions {
  seed: number;
  seqStart: bigint;
  clock: Clock;
}

export type TradeListener = (account: Account, trade: TradeRecord) => void;

export class Market {
  readonly seed: number;
  readonly clock: Clock;
  readonly catalog: Catalog = demoCatalog();
  readonly store = new ListingStore(4096, ANONYMOUS_SELLER_BASE);
  readonly feed: EventFeed;
  readonly sales = new SalesLog();
  readonly tokens: InventoryTokens;
  readonly accounts: Account[] = [];
  /**
   * Listing ids with a price decay. Their stored price is the curve's point as last published: reads
   * and sales bring it up to date first (syncDecay), the activity engine's timer periodically.
   */
  readonly decaying = new Set<number>();
  /** Separate random streams, so API calls never shift the simulated market's sequence. */
  readonly random: { keys: Random; tokens: Random; outcomes: Random };
  private readonly byKey = new Map<string, Account>();
  private readonly counters: Record<IdKind, number> = { ...FIRST_IDS };
  private readonly secret: Buffer;
  private readonly tradeListeners = new Set<TradeListener>();
  private readonly isoBulk = new IsoFormatter();

  constructor(options: MarketOptions) {
    this.seed = options.seed;
    this.clock = options.clock;
    this.secret = createHmac('sha256', 'skindesk-demo-market').update(String(options.seed)).digest();
    this.tokens = new InventoryTokens(this.secret);
    this.feed = new EventFeed(options.seqStart, Random.derive(options.seed, 'seq'), () => iso(this.clock.now()));
    this.random = {
      keys: Random.derive(options.seed, 'keys'),
      tokens: Random.derive(options.seed, 'tokens'),
      outcomes: Random.derive(options.seed, 'outcomes'),
    };
  }

  nextId(kind: IdKind): number {
    return ++this.counters[kind];
  }

  now(): number {
    return this.clock.now();
  }

  // ---- accounts -------------------------------------------------------------------------------

  registerAccount(spec: { name: string; simulated: boolean; balance: number; twoFactor?: boolean; legacyKey?: boolean }): Account {
    const id = this.accounts.length + 1;
    const apiKey = `demo_${this.random.keys.hex(20)}`;
    const account: Account = {
      id,
      name: spec.name,
      steamId: `7656119${String(8_100_000_000 + id * 7_919).padStart(10, '0')}`,
      apiKey,
      webhookSecret: spec.legacyKey ? null : this.webhookSecretFor(apiKey),
      simulated: spec.simulated,
      twoFactorCode: spec.twoFactor ? String(this.random.keys.int(100_000, 999_999)) : null,
      balance: 0,
      backpack: new Map(),
      inventory: new Map(),
      orderItems: [],
      transactions: [],
      trades: [],
      withdrawals: new Map(),
      webhook: { url: null, consecutiveFailures: 0 },
      notices: [],
    };
    this.accounts.push(account);
    this.byKey.set(apiKey, account);
    if (spec.balance > 0) this.moveBalance(account, 'DEPOSIT', spec.balance, 'Opening balance', null, this.now() - 60 * DAY);
    return account;
  }

  accountByKey(key: string): Account | undefined {
    return this.byKey.get(key);
  }

  account(id: number): Account | undefined {
    return this.accounts[id - 1];
  }

  /** Rotates an account's key (and so its webhook secret); the old key stops working at once. */
  rerollKey(account: Account, key?: string): void {
    if (key !== undefined && (!/^[\x21-\x7e]{16,512}$/.test(key) || this.byKey.has(key))) {
      throw new RangeError('an API key must be 16 to 512 visible ASCII characters and not in use');
    }
    this.byKey.delete(account.apiKey);
    account.apiKey = key ?? `demo_${this.random.keys.hex(20)}`;
    account.webhookSecret = this.webhookSecretFor(account.apiKey);
    this.byKey.set(account.apiKey, account);
  }

  /** The signing secret is derived from the API key (spec §5.5). */
  private webhookSecretFor(apiKey: string): string {
    return `whsec_${createHmac('sha256', this.secret).update(`webhook:${apiKey}`).digest('hex').slice(0, 40)}`;
  }

  steamIdOfSeller(seller: number): string {
    const account = this.account(seller);
    if (account) return account.steamId;
    return `7656119${String(8_000_000_000 + seller * 104_729).padStart(10, '0').slice(-10)}`;
  }

  onTradeChanged(listener: TradeListener): () => void {
    this.tradeListeners.add(listener);
    return () => this.tradeListeners.delete(listener);
  }

  notifyTrade(account: Account, trade: TradeRecord): void {
    for (const listener of this.tradeListeners) listener(account, trade);
  }

  // ---- listings -------------------------------------------------------------------------------

  createListing(input: {
    seller: number;
    item: CatalogItem;
    price: number;
    amount: number;
    assetId?: number;
    status?: StatusCode;
    createdAt?: number;
    extra?: ListingExtra;
  }): number {
    const id = this.nextId('listing');
    const status = input.status ?? ACTIVE;
    const index = this.store.append({
      id,
      appId: input.item.appId,
      item: input.item.index,
      price: input.price,
      amount: input.amount,
      createdAt: input.createdAt ?? this.now(),
      assetId: input.assetId ?? this.nextId('asset'),
      seller: input.seller,
      status,
    });
    if (input.extra && Object.keys(input.extra).length > 0) this.store.extra.set(id, { ...input.extra });
    if (input.extra?.decay) this.decaying.add(id);
    if (status === ACTIVE) {
      const { id: listingId, ...rest } = this.fullRow(index);
      this.feed.publish('listing.created', { listing_id: listingId, ...rest });
    }
    return index;
  }

  setListingPrice(index: number, price: number): void {
    const before = this.store.price[index]!;
    if (before === price) return;
    this.store.setPrice(index, price);
    if (this.store.status[index] === ACTIVE) {
      this.feed.publish('listing.price_changed', {
        listing_id: this.store.id[index]!,
        app_id: appOfCode(this.store.app[index]!),
        price_before: before,
        price_after: price,
      });
    }
  }

  /** Sets a new stock level; 0 means sold out (the listing becomes FILLED). */
  setListingAmount(index: number, amount: number): void {
    const store = this.store;
    if (store.amount[index] === amount) return;
    const wasActive = store.status[index] === ACTIVE;
    store.setAmount(index, amount);
    if (wasActive) {
      this.feed.publish('listing.amount_changed', {
        listing_id: store.id[index]!,
        app_id: appOfCode(store.app[index]!),
        new_amount: amount,
      });
    }
    if (amount === 0) {
      store.setStatus(index, FILLED);
      this.decaying.delete(store.id[index]!);
    }
  }

  removeListing(index: number): void {
    const store = this.store;
    const status = store.status[index]!;
    if (!isLive(status)) return;
    const id = store.id[index]!;
    store.setStatus(index, REMOVED);
    this.decaying.delete(id);
    if (status === ACTIVE) this.feed.publish('listing.removed', { listing_id: id, app_id: appOfCode(store.app[index]!) });
  }

  /** Starts, replaces or ends (null) a listing's price decay; the price jumps to the curve's start. */
  setDecay(index: number, decay: PriceDecayRequest | null): void {
    const id = this.store.id[index]!;
    if (decay) {
      const state: DecayState = { ...decay, startedAt: this.now() };
      this.store.extraFor(id).decay = state;
      this.decaying.add(id);
      this.setListingPrice(index, decay.start_price);
    } else {
      const extra = this.store.extraOf(id);
      if (extra) delete extra.decay;
      this.decaying.delete(id);
    }
  }

  /**
   * Brings a decaying listing's stored price to its curve's point at `now` (spec §2.2: a decaying
   * listing's price is always the price right now), publishing price_changed when it moved, so the feed
   * announces every price a read hands out before (at a lower seq than) the read that shows it. Every read
   * and every sale calls this first; a flat-priced listing is left alone. Returns the price now.
   */
  syncDecay(index: number, now: number = this.now()): number {
    const id = this.store.id[index]!;
    if (this.decaying.has(id)) {
      const decay = this.store.extraOf(id)?.decay;
      if (!decay) this.decaying.delete(id);
      else this.setListingPrice(index, decayedPrice(decay, now));
    }
    return this.store.price[index]!;
  }

  /**
   * Brings every decaying listing to its current price (price_changed for each that moved): run by the
   * activity engine's timer so idle clients see decays too, and before whole-book reads (book snapshot,
   * aggregates) so they show prices right now as of their seq.
   */
  refreshDecayingPrices(now: number = this.now()): number {
    let changed = 0;
    for (const id of [...this.decaying]) {
      const index = this.store.indexOf(id);
      if (index < 0) {
        this.decaying.delete(id);
        continue;
      }
      const before = this.store.price[index];
      if (this.syncDecay(index, now) !== before) changed++;
    }
    return changed;
  }

  /**
   * Sells `amount` copies of a listing: stock event, sale event (public listings only), sales history,
   * and the seller's money and order line when the seller is an account. The buyer's side is the
   * caller's (purchase.ts, activity.ts). A decaying listing sells at its curve's price at `now`.
   * Returns the unit price paid.
   */
  sellFromListing(index: number, amount: number, orderId: number, now: number = this.now()): { price: number; sellerOrderItem: OrderItemRecord | null } {
    const store = this.store;
    const id = store.id[index]!;
    const price = this.syncDecay(index, now);
    const isPublic = store.status[index] === ACTIVE;
    const item = this.catalog.items[store.item[index]!]!;
    this.setListingAmount(index, store.amount[index]! - amount);
    if (isPublic) {
      this.feed.publish('listing.sold', {
        listing_id: id,
        app_id: item.appId,
        market_hash_name: item.name,
        price,
        amount,
        listed_at: iso(store.createdAt[index]!),
        sold_at: iso(now),
      });
    }
    this.sales.record({ id: this.nextId('sale'), appId: item.appId, item: item.index, name: item.name, price, amount, soldAt: now, refunded: false });
    const seller = this.account(store.seller[index]!);
    let sellerOrderItem: OrderItemRecord | null = null;
    if (seller) {
      sellerOrderItem = this.recordOrderItem(seller, {
        orderId,
        side: 'sold',
        appId: item.appId,
        item: item.index,
        name: item.name,
        price,
        amount,
        createdAt: now,
        settlesAt: now + this.clock.scaled(SETTLEMENT_MS),
      });
      this.creditSale(seller, item, amount, price, orderId);
    }
    return { price, sellerOrderItem };
  }

  // ---- views ----------------------------------------------------------------------------------
  // Views show the stored price, i.e. the book as of the current seq; whatever serves a read to a
  // client calls syncDecay (or refreshDecayingPrices) first so a decaying price is the price right now.

  itemAt(index: number): CatalogItem {
    return this.catalog.items[this.store.item[index]!]!;
  }

  lean(index: number): LeanListing {
    const s = this.store;
    const item = this.itemAt(index);
    return {
      id: s.id[index]!,
      app_id: item.appId,
      market_hash_name: item.name,
      price: s.price[index]!,
      amount: s.amount[index]!,
      commodity: item.commodity,
      created_at: iso(s.createdAt[index]!),
    };
  }

  /** Lean row as JSON text, for the book snapshot (no object per row; reuses the item's fragments). */
  leanJson(index: number): string {
    const s = this.store;
    const item = this.catalog.items[s.item[index]!]!;
    return `{"id":${s.id[index]}${item.jsonHead}${s.price[index]},"amount":${s.amount[index]}${item.jsonTail}${this.isoBulk.format(s.createdAt[index]!)}"}`;
  }

  fullRow(index: number): FullListing {
    const s = this.store;
    const item = this.itemAt(index);
    const detail = item.describe({ assetId: s.asset[index]!, createdAt: s.createdAt[index]!, ownerSteamId: this.steamIdOfSeller(s.seller[index]!) });
    const lock = this.tradeLockOf(index);
    return { ...this.lean(index), ...detail, trade_locked_until: lock === null ? null : iso(lock) };
  }

  myRow(index: number): MyListing & { status: string; private_token?: string } {
    const s = this.store;
    const id = s.id[index]!;
    const item = this.itemAt(index);
    const extra = s.extraOf(id);
    const owner = this.account(s.seller[index]!);
    const row: MyListing & { status: string; private_token?: string } = {
      ...this.lean(index),
      // Copies that PATCH /list could add: it edits listings on the market, active or private (spec §4.4).
      available_amount: item.commodity && owner && (s.status[index] === ACTIVE || s.status[index] === PRIVATE) ? this.unlockedCopies(owner, item.index) : 0,
      price_decay: extra?.decay
        ? {
            start_price: extra.decay.start_price,
            end_price: extra.decay.end_price,
            total_hours: extra.decay.total_hours,
            elapsed_hours: Math.min(extra.decay.total_hours, Math.max(0, (this.now() - extra.decay.startedAt) / HOUR)),
          }
        : null,
      status: STATUS_NAME[s.status[index] as StatusCode] ?? 'FILLED',
    };
    if (s.status[index] === PRIVATE && extra?.privateToken) row.private_token = extra.privateToken;
    return row;
  }

  /** When the copy's trade hold ends, or null when none applies now. */
  tradeLockOf(index: number): number | null {
    const s = this.store;
    const extra = s.extraOf(s.id[index]!);
    const now = this.now();
    if (extra && extra.tradeLockedUntil !== undefined) {
      return extra.tradeLockedUntil !== null && extra.tradeLockedUntil > now ? extra.tradeLockedUntil : null;
    }
    if (s.app[index] !== 0) return null;
    // Some CS2 copies on the crowd's listings are still inside the platform's trade protection.
    const u = unitFromHash(s.asset[index]! + 0x5bd1e995);
    if (u >= 0.08) return null;
    const until = s.createdAt[index]! + (1 + Math.floor((u / 0.08) * 7)) * DAY;
    return until > now ? until : null;
  }

  /** Items an account has on the market (listed, private or disabled): what the ceiling counts. */
  listedItemCount(accountId: number): number {
    const s = this.store;
    let total = 0;
    for (const i of s.indexesOfSeller(accountId)) if (isLive(s.status[i]!)) total += s.amount[i]!;
    return total;
  }

  /** Row indexes of an account's listings (delisted ones excluded), newest first. */
  listingsOf(accountId: number, keep: (index: number) => boolean = () => true): number[] {
    const s = this.store;
    return s.indexesOfSeller(accountId).filter((i) => s.status[i] !== REMOVED && keep(i));
  }

  // ---- money and history ----------------------------------------------------------------------

  /**
   * A sale's two balance moves: the price of the copies in, the selling fee out. A fee that rounds to
   * nothing leaves no row, so seeded history and live sales read alike in the ledger.
   */
  creditSale(seller: Account, item: CatalogItem, amount: number, price: number, orderId: number, at = this.now()): void {
    const total = price * amount;
    const fee = bpsOf(total, SALE_FEE_BPS);
    this.moveBalance(seller, 'SALE', total, `Sold ${amount} × ${item.name}`, orderId, at);
    if (fee > 0) this.moveBalance(seller, 'SALE_FEE', -fee, `Selling fee on ${item.name}`, orderId, at);
  }

  moveBalance(account: Account, type: string, amount: number, description: string, referenceId: number | null, at = this.now()): TransactionRecord {
    account.balance += amount;
    const record: TransactionRecord = {
      id: this.nextId('transaction'),
      type,
      amount,
      balance: account.balance,
      description,
      referenceId,
      createdAt: at,
    };
    account.transactions.push(record);
    if (account.simulated) trimHistory(account.transactions);
    return record;
  }

  recordOrderItem(account: Account, fields: Omit<OrderItemRecord, 'orderItemId'>): OrderItemRecord {
    const record: OrderItemRecord = { orderItemId: this.nextId('orderItem'), ...fields };
    account.orderItems.push(record);
    if (account.simulated) trimHistory(account.orderItems);
    return record;
  }

  // ---- backpack -------------------------------------------------------------------------------

  /**
   * Puts copies into a backpack. Unlocked commodity copies join an existing unlocked row of the same
   * item (one row is one quantity); anything else gets its own row.
   */
  addToBackpack(account: Account, item: CatalogItem, amount: number, options: { assetId?: number; tradeLockedUntil?: number | null; rowId?: number } = {}): BackpackRow {
    const lock = options.tradeLockedUntil ?? null;
    if (item.commodity && lock === null) {
      for (const row of account.backpack.values()) {
        if (row.item === item.index && row.tradeLockedUntil === null) {
          row.amount += amount;
          return row;
        }
      }
    }
    const id = options.rowId !== undefined && !account.backpack.has(options.rowId) ? options.rowId : this.nextId('backpack');
    const row: BackpackRow = {
      id,
      item: item.index,
      amount,
      assetId: options.assetId ?? this.nextId('asset'),
      tradeLockedUntil: lock,
      createdAt: this.now(),
    };
    account.backpack.set(id, row);
    return row;
  }

  takeFromBackpack(account: Account, row: BackpackRow, amount: number): void {
    row.amount -= amount;
    if (row.amount <= 0) account.backpack.delete(row.id);
  }

  isTradeLocked(row: { tradeLockedUntil: number | null }): boolean {
    return row.tradeLockedUntil !== null && row.tradeLockedUntil > this.now();
  }

  /** Copies of an item in the backpack outside any trade hold: what can still join a listing. */
  unlockedCopies(account: Account, item: number): number {
    let total = 0;
    for (const row of account.backpack.values()) if (row.item === item && !this.isTradeLocked(row)) total += row.amount;
    return total;
  }
}

export function decayedPrice(decay: DecayState, now: number): number {
  return decayPriceAt(decay, (now - decay.startedAt) / HOUR);
}

function trimHistory(list: unknown[]): void {
  if (list.length > SIMULATED_HISTORY_CAP * 1.2) list.splice(0, list.length - SIMULATED_HISTORY_CAP);
}


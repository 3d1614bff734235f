/**
 * Every listing the market has, in struct-of-arrays form so a million of them cost tens of megabytes and
 * a full scan takes milliseconds. Rows are appended in id order (ids only ever grow), so the row order is
 * the id order: newest-first is a backwards scan and a cursor is a binary search. Rows that left the
 * market stay until `compact` drops them.
 */
import { APP_IDS, type AppId, type ListingStatus, type PriceDecayRequest } from '../../shared/api/index.ts';

/** Listing status codes. REMOVED (delisted) is not a status the API shows: such rows are gone. */
export const ACTIVE = 1;
export const PRIVATE = 2;
export const DISABLED = 3;
export const FILLED = 4;
export const REMOVED = 5;
export type StatusCode = typeof ACTIVE | typeof PRIVATE | typeof DISABLED | typeof FILLED | typeof REMOVED;
export const STATUS_NAME: Record<StatusCode, ListingStatus | null> = {
  [ACTIVE]: 'ACTIVE',
  [PRIVATE]: 'PRIVATE',
  [DISABLED]: 'DISABLED',
  [FILLED]: 'FILLED',
  [REMOVED]: null,
};
export const STATUS_CODE: Record<ListingStatus, StatusCode> = { ACTIVE, PRIVATE, DISABLED, FILLED };
/** Still on the market in some form (listed items count against the account's ceiling). */
export const isLive = (status: number) => status === ACTIVE || status === PRIVATE || status === DISABLED;

export const APP_CODE: Record<AppId, number> = { 730: 0, 252490: 1, 570: 2, 440: 3 };
export const appOfCode = (code: number): AppId => APP_IDS[code] ?? 730;

/** Price decay of one listing: the request's curve plus when it started. */
export interface DecayState extends PriceDecayRequest {
  startedAt: number;
}

/** Rare per-listing facts kept beside the columns (only listings that need them have an entry). */
export interface ListingExtra {
  privateToken?: string;
  decay?: DecayState;
  /** From the backpack row the copy came from; otherwise derived from the asset. */
  tradeLockedUntil?: number | null;
  /** The backpack row a non-commodity copy came from, so delisting puts it back under the same id. */
  backpackId?: number;
}

/** Rows per segment: the unit in which the book snapshot caches its encoded rows (see server/snapshots.ts). */
export const SEGMENT_SHIFT = 12;

export interface NewListingRow {
  id: number;
  appId: AppId;
  item: number;
  price: number;
  amount: number;
  createdAt: number;
  assetId: number;
  seller: number;
  status: StatusCode;
}

export class ListingStore {
  size = 0;
  private capacity: number;
  id: Uint32Array;
  app: Uint8Array;
  item: Uint32Array;
  /**
   * Cents. Float64, not Uint32: the spec sets no maximum price, and a 32-bit column would store 2^32 + 100
   * as 100 (and 2^32 as 0) without a word; a double holds every safe integer exactly.
   */
  price: Float64Array;
  amount: Uint32Array;
  createdAt: Float64Array;
  asset: Float64Array;
  seller: Uint32Array;
  status: Uint8Array;
  readonly extra = new Map<number, ListingExtra>();
  /** Public, active listings per app code: the book's size. */
  readonly activeByApp = new Int32Array(APP_IDS.length);
  /** Bumped whenever a row of the segment changes in a way the book shows (price, amount, status, new row). */
  readonly segmentVersion: number[] = [];
  /** Bumped when rows move (compaction): every cached segment is stale. */
  layoutVersion = 0;
  private deadRows = 0;
  /** Listing ids per seller, for sellers numbered below `trackSellersBelow` (accounts, not the crowd). */
  private readonly bySeller = new Map<number, number[]>();
  private readonly trackSellersBelow: number;

  constructor(initialCapacity = 1024, trackSellersBelow = 0) {
    this.trackSellersBelow = trackSellersBelow;
    this.capacity = Math.max(16, initialCapacity);
    this.id = new Uint32Array(this.capacity);
    this.app = new Uint8Array(this.capacity);
    this.item = new Uint32Array(this.capacity);
    this.price = new Float64Array(this.capacity);
    this.amount = new Uint32Array(this.capacity);
    this.createdAt = new Float64Array(this.capacity);
    this.asset = new Float64Array(this.capacity);
    this.seller = new Uint32Array(this.capacity);
    this.status = new Uint8Array(this.capacity);
  }

  get activeCount(): number {
    let total = 0;
    for (const n of this.activeByApp) total += n;
    return total;
  }

  activeCountFor(appId: AppId | undefined): number {
    return appId === undefined ? this.activeCount : (this.activeByApp[APP_CODE[appId]] ?? 0);
  }

  append(row: NewListingRow): number {
    if (this.size > 0 && row.id <= this.id[this.size - 1]!) throw new Error('listing ids must grow');
    if (this.size === this.capacity) this.grow(this.capacity * 2);
    const i = this.size++;
    this.id[i] = row.id;
    this.app[i] = APP_CODE[row.appId];
    this.item[i] = row.item;
    this.price[i] = row.price;
    this.amount[i] = row.amount;
    this.createdAt[i] = row.createdAt;
    this.asset[i] = row.assetId;
    this.seller[i] = row.seller;
    this.status[i] = row.status;
    if (row.status === ACTIVE) this.activeByApp[this.app[i]!]!++;
    this.touch(i);
    if (row.seller < this.trackSellersBelow) {
      const ids = this.bySeller.get(row.seller);
      if (ids) ids.push(row.id);
      else this.bySeller.set(row.seller, [row.id]);
    }
    return i;
  }

  /**
   * Row indexes of a tracked seller's listings still in the store, newest first. Ids of rows that
   * compaction dropped are forgotten on the way.
   */
  indexesOfSeller(seller: number): number[] {
    const ids = this.bySeller.get(seller);
    if (!ids) return [];
    const out: number[] = [];
    let kept = ids.length;
    for (let k = ids.length - 1; k >= 0; k--) {
      const index = this.indexOf(ids[k]!);
      if (index < 0) {
        ids[k] = -1;
        kept--;
        continue;
      }
      out.push(index);
    }
    if (kept < ids.length) this.bySeller.set(seller, ids.filter((id) => id >= 0));
    return out;
  }

  setPrice(index: number, price: number): void {
    this.price[index] = price;
    this.touch(index);
  }

  setAmount(index: number, amount: number): void {
    this.amount[index] = amount;
    this.touch(index);
  }

  private touch(index: number): void {
    const segment = index >>> SEGMENT_SHIFT;
    this.segmentVersion[segment] = (this.segmentVersion[segment] ?? 0) + 1;
  }

  /** Row index of a listing id, or -1. */
  indexOf(id: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.id[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Index of the last row whose id is below `id` (-1 when none): where a cursor continues. */
  lastIndexBelow(id: number): number {
    let lo = 0;
    let hi = this.size - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.id[mid]! < id) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  setStatus(index: number, status: StatusCode): void {
    const before = this.status[index]!;
    if (before === status) return;
    const app = this.app[index]!;
    if (before === ACTIVE) this.activeByApp[app]!--;
    if (status === ACTIVE) this.activeByApp[app]!++;
    if (status === REMOVED || status === FILLED) this.deadRows++;
    if (before === REMOVED || before === FILLED) this.deadRows--;
    this.status[index] = status;
    this.touch(index);
    if (status === REMOVED) this.extra.delete(this.id[index]!);
  }

  extraOf(id: number): ListingExtra | undefined {
    return this.extra.get(id);
  }

  extraFor(id: number): ListingExtra {
    let e = this.extra.get(id);
    if (!e) {
      e = {};
      this.extra.set(id, e);
    }
    return e;
  }

  /**
   * Makes id order creation order again, for rows appended with a `createdAt` older than the rows before
   * them (the accounts' opening listings, drawn after the crowd's). Startup only, before any id was shown
   * to anyone: rows move to their place in time and take the ids of their new positions, so the set of
   * ids stays the same and "newest first" by id is newest first by `created_at` (spec §4.2, §4.4).
   * Returns old id → new id for the ids that changed (whoever keys by listing id must follow).
   */
  orderByCreation(): Map<number, number> {
    const renamed = new Map<number, number>();
    let sorted = 0;
    while (sorted + 1 < this.size && this.createdAt[sorted]! <= this.createdAt[sorted + 1]!) sorted++;
    sorted++;
    if (sorted >= this.size) return renamed;
    // The rows up to `sorted` are in order; merge the (few) rows after them into place.
    const tail = Array.from({ length: this.size - sorted }, (_, k) => sorted + k).sort((x, y) => this.createdAt[x]! - this.createdAt[y]! || x - y);
    const order = new Uint32Array(this.size);
    for (let k = 0, i = 0, t = 0; k < this.size; k++) {
      order[k] = t >= tail.length || (i < sorted && this.createdAt[i]! <= this.createdAt[tail[t]!]!) ? i++ : tail[t++]!;
    }
    const ids = this.id.slice(0, this.size);
    const permute = <T extends Uint32Array | Uint8Array | Float64Array>(column: T): void => {
      const copy = column.slice(0, this.size);
      for (let k = 0; k < this.size; k++) column[k] = copy[order[k]!]!;
    };
    permute(this.app);
    permute(this.item);
    permute(this.price);
    permute(this.amount);
    permute(this.createdAt);
    permute(this.asset);
    permute(this.seller);
    permute(this.status);
    for (let k = 0; k < this.size; k++) if (order[k] !== k) renamed.set(ids[order[k]!]!, ids[k]!);
    const extras = [...this.extra].map(([id, extra]) => [renamed.get(id) ?? id, extra] as const);
    this.extra.clear();
    for (const [id, extra] of extras) this.extra.set(id, extra);
    this.bySeller.clear();
    for (let k = 0; k < this.size; k++) {
      const seller = this.seller[k]!;
      if (seller >= this.trackSellersBelow) continue;
      const list = this.bySeller.get(seller);
      if (list) list.push(this.id[k]!);
      else this.bySeller.set(seller, [this.id[k]!]);
    }
    this.segmentVersion.length = 0;
    this.layoutVersion++;
    return renamed;
  }

  /** True when enough rows are dead that dropping them is worth a copy. */
  get wantsCompaction(): boolean {
    return this.size > 50_000 && this.deadRows > this.size / 4;
  }

  /** Drops rows for which `keep` is false (always keeps live rows). Row indexes change. */
  compact(keepDead: (index: number) => boolean): void {
    let w = 0;
    let dead = 0;
    for (let r = 0; r < this.size; r++) {
      const s = this.status[r]!;
      const live = s !== REMOVED && s !== FILLED;
      if (!live && !keepDead(r)) {
        this.extra.delete(this.id[r]!);
        continue;
      }
      if (!live) dead++;
      if (w !== r) {
        this.id[w] = this.id[r]!;
        this.app[w] = this.app[r]!;
        this.item[w] = this.item[r]!;
        this.price[w] = this.price[r]!;
        this.amount[w] = this.amount[r]!;
        this.createdAt[w] = this.createdAt[r]!;
        this.asset[w] = this.asset[r]!;
        this.seller[w] = this.seller[r]!;
        this.status[w] = s;
      }
      w++;
    }
    this.size = w;
    this.deadRows = dead;
    this.segmentVersion.length = 0;
    this.layoutVersion++;
  }

  private grow(capacity: number): void {
    const copy = <T extends Uint32Array | Uint8Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, this.size) as never);
      return b;
    };
    this.id = copy(this.id, (n) => new Uint32Array(n));
    this.app = copy(this.app, (n) => new Uint8Array(n));
    this.item = copy(this.item, (n) => new Uint32Array(n));
    this.price = copy(this.price, (n) => new Float64Array(n));
    this.amount = copy(this.amount, (n) => new Uint32Array(n));
    this.createdAt = copy(this.createdAt, (n) => new Float64Array(n));
    this.asset = copy(this.asset, (n) => new Float64Array(n));
    this.seller = copy(this.seller, (n) => new Uint32Array(n));
    this.status = copy(this.status, (n) => new Uint8Array(n));
    this.capacity = capacity;
  }
}

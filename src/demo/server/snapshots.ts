/**
 * The cached whole-market answers (spec §4.2): the book (10 s, valid at the seq it was built at),
 * prices/all (60 s) and sales/averages (10 min). Each carries an ETag for If-None-Match → 304. Cache
 * ages run on the market clock, so tests can step past them with `advanceClock` instead of waiting.
 *
 * The book is written as bytes (json-writer.ts), synchronously, so the snapshot is exactly the state
 * after event `seq` — nothing can happen between reading the seq and reading the rows. Rows are encoded
 * per segment of 4096 store rows and the encoded segments are kept: a new snapshot re-encodes only the
 * segments that changed since (the store bumps a segment's version on every visible change), so under
 * a quiet market a million-row snapshot costs little more than listing its segments.
 */
import { createHash } from 'node:crypto';
import { LIMITS, type AppId, type PriceRowWithStock } from '../../shared/api/index.ts';
import { iso } from '../clock.ts';
import { recommendedPrice } from '../market/items.ts';
import { ACTIVE, APP_CODE, SEGMENT_SHIFT } from '../market/listing-store.ts';
import type { Market } from '../market/market.ts';
import { JsonChunkWriter } from './json-writer.ts';

export interface CachedBody {
  etag: string;
  chunks: Buffer[];
  length: number;
  builtAt: number;
}

export interface BookSnapshot extends CachedBody {
  seq: bigint;
  listings: number;
}

const ROW_OPEN = Buffer.from(',{"id":');
const AMOUNT_KEY = Buffer.from(',"amount":');
const ROW_CLOSE = Buffer.from('"}');

const filterKey = (appId: AppId | undefined) => (appId === undefined ? 'all' : String(appId));

/**
 * A book's ETag names its filter, the seq of the last event of that filter (every visible change of a
 * row publishes one) and a digest of its rows — not the global seq. So an app-filtered book keeps its
 * ETag (a 304) while only other games' events move the seq on, and the copy the client holds is then
 * still a snapshot at least as new as every event of its game: a client that applied some of them (the
 * sync protocol asks for a snapshot no older than what it applied) can use it. Events of its own game
 * change the ETag even when they cancel out (a listing created and sold), and the digest keeps a
 * restarted demo market, counting seqs from the same start, from matching an ETag of another run. Weak,
 * because two answers under one ETag may differ in the `seq` of their body. The filter is in it, so no
 * filter's ETag ever matches another's, even over equal rows.
 */
function bookEtag(key: string, version: bigint, rowsDigest: string): string {
  return `W/"book-${key}-${version.toString()}-${rowsDigest}"`;
}

/** Pre-encoded `,"app_id":…,"market_hash_name":…,"price":` and `,"commodity":…,"created_at":"` per item. */
class ItemFragments {
  private readonly heads: (Buffer | undefined)[] = [];
  private readonly tails: (Buffer | undefined)[] = [];
  private readonly market: Market;

  constructor(market: Market) {
    this.market = market;
  }

  head(item: number): Buffer {
    return (this.heads[item] ??= Buffer.from(this.market.catalog.items[item]!.jsonHead));
  }

  tail(item: number): Buffer {
    return (this.tails[item] ??= Buffer.from(this.market.catalog.items[item]!.jsonTail));
  }
}

/** Live per-item totals over the book: stock, listing count, lowest price. Cheap to recompute. */
export interface BookAggregates {
  stock: Uint32Array;
  listings: Uint32Array;
  /** Cents, 0 when nobody sells the item. Float64 like the store's price column, so no price wraps at 2^32. */
  lowest: Float64Array;
  at: number;
}

interface EncodedSegment {
  version: number;
  rows: number;
  /** Rows newest first, each preceded by a comma. */
  bytes: Buffer;
  /** SHA-1 of `bytes`: what the book's ETag is made of. */
  digest: Buffer;
}

/** Encoded segments of one filter (all apps, or one app), valid for one store layout. */
interface SegmentCache {
  layout: number;
  segments: (EncodedSegment | undefined)[];
}

export class MarketSnapshots {
  private readonly market: Market;
  private readonly fragments: ItemFragments;
  private readonly books = new Map<string, BookSnapshot>();
  private readonly pricesAll = new Map<string, CachedBody>();
  private readonly averages = new Map<string, CachedBody>();
  private aggregates: (BookAggregates & { seq: bigint }) | null = null;
  private readonly segmentCaches = new Map<string, SegmentCache>();
  private readonly scratch = new JsonChunkWriter(2 * 1024 * 1024);
  /** Per filter key, the seq of its last event; events before this object existed count as at its start. */
  private readonly filterVersions = new Map<string, bigint>();
  private readonly initialSeq: bigint;
  /** Number of book snapshots built (not served from cache): lets tests see the cache work. */
  bookBuilds = 0;

  constructor(market: Market) {
    this.market = market;
    this.fragments = new ItemFragments(market);
    this.initialSeq = market.feed.seq;
    market.feed.subscribe((event) => {
      this.filterVersions.set(filterKey(undefined), event.seq);
      this.filterVersions.set(filterKey(event.appId), event.seq);
    });
  }

  book(appId: AppId | undefined): BookSnapshot {
    const key = filterKey(appId);
    const cached = this.books.get(key);
    if (cached && this.market.now() - cached.builtAt < LIMITS.bookCacheMs) return cached;
    const fresh = this.buildBook(appId);
    this.books.set(key, fresh);
    return fresh;
  }

  pricesAllBody(appId: AppId | undefined): CachedBody {
    return this.cached(this.pricesAll, appId, LIMITS.pricesAllCacheMs, () => {
      const agg = this.bookAggregates();
      const at = iso(this.market.now());
      const prices: PriceRowWithStock[] = [];
      for (const index of this.market.catalog.sortedByName) {
        const item = this.market.catalog.items[index]!;
        if (appId !== undefined && item.appId !== appId) continue;
        prices.push({
          app_id: item.appId,
          market_hash_name: item.name,
          market_price: item.basePrice,
          recommended_price: recommendedPrice(item),
          lowest_listing_price: agg.lowest[index] ? agg.lowest[index]! : null,
          updated_at: at,
          stock: agg.stock[index]!,
          listing_count: agg.listings[index]!,
        });
      }
      return { prices, generated_at: at };
    }, (body) => (body as { prices: PriceRowWithStock[] }).prices.map((p) => `${p.market_price}|${p.lowest_listing_price}|${p.stock}|${p.listing_count}`).join(','));
  }

  averagesBody(appId: AppId | undefined): CachedBody {
    return this.cached(this.averages, appId, LIMITS.averagesCacheMs, () => ({
      averages: this.market.sales.averages(this.market.now(), appId),
      window_days: LIMITS.averagesWindowDays,
      generated_at: iso(this.market.now()),
    }), (body) => JSON.stringify((body as { averages: unknown }).averages));
  }

  /**
   * Stock, listing count and lowest price per item, recomputed whenever the book moved: GET /prices is
   * not one of the routes the spec caches, so it shows the book as it is (a scan of the store's columns,
   * a few milliseconds for a million rows); prices/all caches what this gives at its build.
   */
  bookAggregates(): BookAggregates {
    const market = this.market;
    const now = market.now();
    market.refreshDecayingPrices(now);
    if (this.aggregates && this.aggregates.seq === market.feed.seq) return this.aggregates;
    const n = market.catalog.items.length;
    const stock = new Uint32Array(n);
    const listings = new Uint32Array(n);
    const lowest = new Float64Array(n);
    const s = market.store;
    for (let i = 0; i < s.size; i++) {
      if (s.status[i] !== ACTIVE) continue;
      const item = s.item[i]!;
      stock[item]! += s.amount[i]!;
      listings[item]!++;
      const price = s.price[i]!;
      if (lowest[item] === 0 || price < lowest[item]!) lowest[item] = price;
    }
    this.aggregates = { stock, listings, lowest, at: now, seq: market.feed.seq };
    return this.aggregates;
  }

  /** Encodes every segment of the full book now (startup), so the first snapshot is quick too. */
  warmBook(): void {
    this.buildBook(undefined);
  }

  private buildBook(appId: AppId | undefined): BookSnapshot {
    const market = this.market;
    const store = market.store;
    // Decaying rows show their price right now (spec §2.2); the moves are published first, so the
    // snapshot's seq covers them and a client merging by seq ends up with the same prices.
    market.refreshDecayingPrices();
    const seq = market.feed.seq;
    const key = filterKey(appId);
    let cache = this.segmentCaches.get(key);
    if (!cache || cache.layout !== store.layoutVersion) {
      cache = { layout: store.layoutVersion, segments: [] };
      this.segmentCaches.set(key, cache);
    }
    const appCode = appId === undefined ? -1 : APP_CODE[appId];
    const chunks: Buffer[] = [Buffer.from(`{"seq":${seq.toString()},"listings":[`)];
    const content = createHash('sha1').update(key);
    let rows = 0;
    for (let segment = (store.size - 1) >>> SEGMENT_SHIFT; store.size > 0 && segment >= 0; segment--) {
      const version = store.segmentVersion[segment] ?? 0;
      let encoded = cache.segments[segment];
      if (!encoded || encoded.version !== version) {
        encoded = this.encodeSegment(segment, appCode, version);
        cache.segments[segment] = encoded;
      }
      if (encoded.rows === 0) continue;
      // every row carries a leading comma; the very first one of the answer must not
      chunks.push(rows === 0 ? encoded.bytes.subarray(1) : encoded.bytes);
      content.update(encoded.digest);
      rows += encoded.rows;
    }
    chunks.push(Buffer.from(']}'));
    this.bookBuilds++;
    return {
      seq,
      listings: rows,
      etag: bookEtag(key, this.filterVersions.get(key) ?? this.initialSeq, content.digest('base64url')),
      chunks,
      length: chunks.reduce((sum, c) => sum + c.length, 0),
      builtAt: market.now(),
    };
  }

  private encodeSegment(segment: number, appCode: number, version: number): EncodedSegment {
    const s = this.market.store;
    const w = this.scratch;
    const first = segment << SEGMENT_SHIFT;
    const last = Math.min(s.size, first + (1 << SEGMENT_SHIFT)) - 1;
    let rows = 0;
    for (let i = last; i >= first; i--) {
      if (s.status[i] !== ACTIVE || (appCode >= 0 && s.app[i] !== appCode)) continue;
      const item = s.item[i]!;
      const head = this.fragments.head(item);
      const tail = this.fragments.tail(item);
      w.reserve(head.length + tail.length + 96);
      w.bytes(ROW_OPEN);
      w.uint(s.id[i]!);
      w.bytes(head);
      w.uint(s.price[i]!);
      w.bytes(AMOUNT_KEY);
      w.uint(s.amount[i]!);
      w.bytes(tail);
      w.isoTimestamp(s.createdAt[i]!);
      w.bytes(ROW_CLOSE);
      rows++;
    }
    const bytes = w.take();
    return { version, rows, bytes, digest: createHash('sha1').update(bytes).digest() };
  }

  private cached(
    cache: Map<string, CachedBody>,
    appId: AppId | undefined,
    ttl: number,
    build: () => unknown,
    fingerprint: (body: unknown) => string,
  ): CachedBody {
    const key = filterKey(appId);
    const hit = cache.get(key);
    if (hit && this.market.now() - hit.builtAt < ttl) return hit;
    const data = build();
    const body = Buffer.from(JSON.stringify(data));
    // The ETag names the content apart from its timestamps (hence weak), so a rebuild that changed
    // nothing still answers 304.
    const etag = `W/"${createHash('sha1').update(key).update(fingerprint(data)).digest('base64url')}"`;
    const fresh: CachedBody = { etag, chunks: [body], length: body.length, builtAt: this.market.now() };
    cache.set(key, fresh);
    return fresh;
  }
}

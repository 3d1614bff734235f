/**
 * Judges listings against the active watchlists: incrementally — a new listing from its frame as soon
 * as it arrives, a price change once applied — and once over the whole book (a sweep) when a watchlist
 * is saved or the book comes back live.
 *
 * A listing matches a watchlist when it passes the watchlist's book filter (matcher.ts, the query
 * engine's semantics) and its price is at or under the price condition's ceiling. It matches at most
 * once per price: the match memory holds the price it matched at, and is cleared when the listing
 * stops matching, so only a new price (or a return after a non-matching one) matches again.
 * Duplicated and reordered events never get here: the store's seq guard drops them before they apply.
 */
import type { ListingCreatedEvent, ListingEvent } from '../../shared/api/index.ts';
import type { BookQueryInput } from '../../shared/query.ts';
import { type Watchlist, priceCeiling } from '../../shared/watchlist.ts';
import { queryBook, type QueryRow } from '../query/query-book.ts';
import type { Db } from '../store/database.ts';
import { ListingReader, NameMatcher, compileFilter, listingFromCreated, type WatchedListing } from './matcher.ts';
import type { ReferencePrices } from './reference-prices.ts';
import type { AlertOrigin, WatchStore } from './store.ts';

export interface WatchMatch {
  watchlist: Watchlist;
  listing: WatchedListing;
  /** The seq of the event that made it match (for a sweep: the listing's own last seq). */
  seq: bigint;
  /** The price condition's ceiling for this listing, and the reference it came from (if any). */
  ceiling: number;
  referencePrice: number | null;
  origin: AlertOrigin;
}

interface Compiled {
  watchlist: Watchlist;
  test: (l: WatchedListing) => boolean;
}

/** A change of the match memory: a match at a price, or none any more (null). */
interface MemoryWrite {
  watchlistId: number;
  listingId: number;
  match: { price: number; seq: bigint } | null;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class WatchEvaluator {
  readonly #db: Db;
  readonly #store: WatchStore;
  readonly #prices: ReferencePrices;
  readonly #reader: ListingReader;
  readonly #names: NameMatcher;
  readonly #lastSeq;
  #active: Compiled[] = [];
  /** watchlist id → listing id → price it last matched at. */
  readonly #memory = new Map<number, Map<number, number>>();
  /** New listings judged from their frame before they applied: listing id → seq (not judged again). */
  readonly #judgedOnArrival = new Map<number, bigint>();
  /** Changes of the memory not yet written (written after any purchase is on its way: see `persist`). */
  #writes: MemoryWrite[] = [];
  /**
   * The changes of the sweep under way: theirs are its matches, which nobody was told of until the sweep
   * returns them, so they are not `persist`ed before (see `sweep`).
   */
  #sweepWrites: MemoryWrite[] = [];

  constructor(db: Db, store: WatchStore, prices: ReferencePrices) {
    this.#db = db;
    this.#store = store;
    this.#prices = prices;
    this.#reader = new ListingReader(db);
    this.#names = new NameMatcher();
    this.#lastSeq = db.prepare('SELECT last_seq FROM listings WHERE id = ?').pluck().safeIntegers(true);
    for (const [w, l, price] of store.matches()) this.#remember(w, l, price);
  }

  /**
   * The watchlists judged from now on (paused ones are left out by the caller). The memory of one left
   * out is kept, as the database keeps it: resumed, it does not alert again what it alerted before the
   * pause (`forget` drops it when the rule changes or the watchlist is deleted).
   */
  setWatchlists(watchlists: readonly Watchlist[]): void {
    this.#active = watchlists.map((watchlist) => ({ watchlist, test: compileFilter(watchlist.filter, this.#names) }));
  }

  get active(): readonly Watchlist[] {
    return this.#active.map((c) => c.watchlist);
  }

  /** Forgets what a watchlist matched (its rule changed: everything is judged afresh). */
  forget(watchlistId: number): void {
    this.#memory.delete(watchlistId);
    this.#writes = this.#writes.filter((w) => w.watchlistId !== watchlistId);
    this.#sweepWrites = this.#sweepWrites.filter((w) => w.watchlistId !== watchlistId);
  }

  /**
   * Judges a new listing from its `listing.created` frame, before the book applied it: the frame holds
   * everything about the listing (names included: they are judged without the book), so it need not wait
   * behind the events queued ahead of it.
   */
  evaluateArrival(event: ListingCreatedEvent): WatchMatch[] {
    if (this.#active.length === 0) return [];
    const listing = listingFromCreated(event.data);
    // each filter runs once on the hot path: its verdict serves the staleness check and the judging
    const passed = new Set(this.#active.filter((c) => c.test(listing)));
    // A creation arriving after a newer event of its listing (a removal, a sale: two events of one
    // listing can come out of order) is stale: the worker's seq guard drops it, and so must this. The
    // book is read only for a listing some filter passes, which few are.
    if (passed.size > 0) {
      const held = this.#lastSeq.get(listing.id) as bigint | undefined;
      if (held !== undefined && held > event.seq) return [];
    }
    const matches: WatchMatch[] = [];
    this.#judge(listing, event.seq, 'event', this.#active, matches, (c) => passed.has(c));
    if (this.#judgedOnArrival.size >= 100_000) this.#judgedOnArrival.clear();
    this.#judgedOnArrival.set(event.data.listing_id, event.seq);
    return matches;
  }

  /**
   * Judges one applied batch, one listing at a time: yields the matches of each listing judged, so a
   * caller can stop between listings and let the event loop serve a frame that just arrived (a price
   * change needs a read of the book, and a backlog batch holds thousands). The batch is grouped up
   * front, so a listing is still judged once, on its last state in the batch.
   */
  *evaluateSteps(events: readonly ListingEvent[]): Generator<WatchMatch[], void, undefined> {
    if (this.#active.length === 0) return;
    // listing id → the last creation or price change, and whether the batch touched it again after
    const last = new Map<number, { event: ListingEvent | null; later: boolean }>();
    for (const e of events) {
      if (e.event === 'listing.sold') continue;
      const relevant = e.event === 'listing.created' || e.event === 'listing.price_changed';
      const seen = last.get(e.data.listing_id);
      if (!seen) last.set(e.data.listing_id, { event: relevant ? e : null, later: false });
      else {
        seen.later = true;
        if (relevant) seen.event = e;
      }
    }
    for (const [id, { event, later }] of last) {
      const arrived = this.#judgedOnArrival.get(id);
      if (arrived !== undefined) this.#judgedOnArrival.delete(id);
      if (!event) continue;
      // judged from the very same frame when it arrived, and nothing changed it since
      if (!later && event.event === 'listing.created' && arrived === event.seq) continue;
      const listing =
        event.event === 'listing.created' && !later ? listingFromCreated(event.data) : this.#reader.read(id);
      if (!listing) continue; // gone again within the batch
      const matches: WatchMatch[] = [];
      this.#judge(listing, event.seq, 'event', this.#active, matches);
      yield matches;
    }
  }

  /**
   * Judges the whole book for some watchlists (all active ones by default), page by page through the
   * query engine itself, yielding to the event loop between pages. Its matches are remembered at once
   * (a feed event meanwhile does not match them again), but their memory is written with the others'
   * only once the sweep returned them: a `persist` between two pages (a feed event's alert written)
   * would put in the file the memory of matches whose alerts are not written yet, and a run that stops
   * then would leave them never alerted. Stopped by `signal` (the watch stops), it returns nothing and
   * its memory is never written: the next run's sweep judges those listings afresh. One sweep at a time.
   */
  async sweep(only?: readonly number[], signal?: AbortSignal): Promise<WatchMatch[]> {
    this.#sweepWrites = [];
    const matches = await this.#sweepPages(only, signal);
    const writes = this.#sweepWrites;
    this.#sweepWrites = [];
    if (signal?.aborted || !this.#db.open) return [];
    // what happened to a listing since its page was judged (a feed event) holds: only writes the memory still agrees with
    for (const w of writes) {
      const remembered = this.#memory.get(w.watchlistId)?.get(w.listingId);
      if (w.match ? remembered === w.match.price : remembered === undefined) this.#writes.push(w);
    }
    return matches;
  }

  async #sweepPages(only: readonly number[] | undefined, signal: AbortSignal | undefined): Promise<WatchMatch[]> {
    const targets = this.#active.filter((c) => only === undefined || only.includes(c.watchlist.id));
    const matches: WatchMatch[] = [];
    for (const target of targets) {
      const w = target.watchlist;
      const filter = { ...w.filter };
      if (w.price.kind === 'ceiling') {
        const max = Math.min(filter.price?.max ?? Number.POSITIVE_INFINITY, w.price.max_price);
        filter.price = { ...filter.price, max };
        if (filter.price.min !== undefined && filter.price.min > max) continue;
      }
      let after: string | undefined;
      for (let page = 0; page < 10_000; page++) {
        if (signal?.aborted || !this.#db.open) return matches;
        const query: BookQueryInput = { filter, sort: { field: 'id', dir: 'asc' }, limit: 1000, ...(after ? { after } : {}) };
        const result = queryBook(this.#db, query);
        for (const row of result.rows) {
          const seq = this.#lastSeq.get(row.id) as bigint | undefined;
          if (seq === undefined) continue;
          this.#judge(fromQueryRow(row), seq, 'sweep', [target], matches, () => true);
        }
        if (!result.next) break;
        after = result.next;
        await yieldToLoop();
      }
    }
    return matches;
  }

  /**
   * `passes`: whether a target's filter passes the listing, when the caller knows already (a sweep went
   * through the query engine; an arrival ran every filter once); by default its filter is run.
   */
  #judge(
    listing: WatchedListing,
    seq: bigint,
    origin: AlertOrigin,
    targets: readonly Compiled[],
    out: WatchMatch[],
    passes: (target: Compiled) => boolean = (target) => target.test(listing),
  ): void {
    for (const target of targets) {
      const { watchlist } = target;
      const remembered = this.#memory.get(watchlist.id)?.get(listing.id);
      let referencePrice: number | null = null;
      let ceiling: number | null = null;
      let ok = passes(target);
      if (ok) {
        if (watchlist.price.kind === 'below') referencePrice = this.#prices.of(watchlist.price.reference, listing);
        ceiling = priceCeiling(watchlist.price, referencePrice);
        ok = ceiling !== null && listing.price <= ceiling;
      }
      const writes = origin === 'sweep' ? this.#sweepWrites : this.#writes;
      if (!ok) {
        if (remembered !== undefined) {
          this.#memory.get(watchlist.id)?.delete(listing.id);
          writes.push({ watchlistId: watchlist.id, listingId: listing.id, match: null });
        }
        continue;
      }
      if (remembered === listing.price) continue;
      this.#remember(watchlist.id, listing.id, listing.price);
      writes.push({ watchlistId: watchlist.id, listingId: listing.id, match: { price: listing.price, seq } });
      out.push({ watchlist, listing, seq, ceiling: ceiling as number, referencePrice, origin });
    }
  }

  #remember(watchlistId: number, listingId: number, price: number): void {
    let m = this.#memory.get(watchlistId);
    if (!m) this.#memory.set(watchlistId, (m = new Map()));
    m.set(listingId, price);
  }

  /**
   * Writes the match memory's changes in one transaction. Called after the matches were acted on, so a
   * purchase never waits for this write (the memory in RAM already holds them), and with their alerts:
   * a match remembered in the file is one the next run never alerts again.
   */
  persist(): void {
    if (this.#writes.length === 0 || !this.#db.open) return;
    const writes = this.#writes;
    this.#writes = [];
    this.#db
      .transaction(() => {
        for (const w of writes) {
          if (w.match) this.#store.putMatch(w.watchlistId, w.listingId, w.match.price, w.match.seq);
          else this.#store.clearMatch(w.watchlistId, w.listingId);
        }
      })
      .deferred(); // desk tables only: an IMMEDIATE one would lock the book too (desk.ts)
  }

  /**
   * Drops remembered matches of listings that left the book. What is written is the caller's to have
   * alerted first (as for `persist`); what the sweep under way remembered is kept in memory.
   */
  prune(): void {
    this.persist();
    this.#store.pruneMatches();
    this.#memory.clear();
    for (const [w, l, price] of this.#store.matches()) this.#remember(w, l, price);
    for (const w of this.#sweepWrites) {
      if (w.match) this.#remember(w.watchlistId, w.listingId, w.match.price);
      else this.#memory.get(w.watchlistId)?.delete(w.listingId);
    }
  }
}

/** A query engine row in the matcher's shape (enough for the price condition and the alert). */
function fromQueryRow(row: QueryRow): WatchedListing {
  return {
    id: row.id,
    app_id: row.app_id,
    market_hash_name: row.market_hash_name,
    price: row.price,
    amount: row.amount,
    commodity: row.commodity,
    detail: null,
  };
}

/**
 * The sales tape's rows: the newest page, older pages as the trader scrolls, and new sales as the feed
 * brings them. While the trader reads (scrolled away from the top, or the pointer over the list) the
 * rows stand still and the new sales are only counted; they go in when the tape follows again.
 */
import type { AppId } from '../../../shared/api/index.ts';
import type { DopplerPhase } from '../../../shared/phases.ts';
import { newestSaleFirst } from '../../../shared/sale-order.ts';
import type { SalesTape, SalesTapeInput, TapeSale } from '../../../shared/ipc/calls-market.ts';

export interface TapeFilter {
  app_id: AppId | null;
  name: string;
  /** Float range (both ends included), or none. */
  float: { min?: number; max?: number } | null;
  /** Doppler phases, any of them; empty: no phase condition. */
  phases: readonly DopplerPhase[];
}

export const NO_TAPE_FILTER: TapeFilter = { app_id: null, name: '', float: null, phases: [] };

/** A refresh reads from this long before the newest sale of the last read: late sales are covered. */
export const REFRESH_OVERLAP_MS = 60_000;

export interface TapeSnapshot {
  rows: readonly TapeSale[];
  /** Sales the feed brought while the tape was held (they are not in `rows` yet). */
  waiting: number;
  /** Keys of the rows that came in with the last refresh (they flash). */
  fresh: ReadonlySet<string>;
  /** An older page exists. */
  more: boolean;
  loading: boolean;
  error: unknown;
}

export const PAGE_SIZE = 200;

export const saleKey = (s: Pick<TapeSale, 'listing_id' | 'seq'>) => `${s.listing_id}:${s.seq}`;

/** The tape's order (the app's reader sorts by the same rule). */
export const newerFirst = newestSaleFirst<TapeSale>((s) => Date.parse(s.sold_at));

type FetchPage = (input: SalesTapeInput) => Promise<SalesTape>;

export class SalesTapeStore {
  #snapshot: TapeSnapshot = {
    rows: [],
    waiting: 0,
    fresh: new Set(),
    more: false,
    loading: true,
    error: null,
  };
  #listeners = new Set<() => void>();
  #filter: TapeFilter = NO_TAPE_FILTER;
  #next: string | null = null;
  /** The newest sale time in the sold history when the rows last caught up (see REFRESH_OVERLAP_MS). */
  #latestMs: number | null = null;
  /** Bumped by every filter change: answers to an older filter are dropped. */
  #generation = 0;
  #following = true;
  /** The newest page read while held, put in when the tape follows again. */
  #held: SalesTape | null = null;
  #refreshing = false;
  #refreshAgain = false;
  #loadingOlder = false;
  readonly #fetch: FetchPage;

  constructor(fetchPage: FetchPage) {
    this.#fetch = fetchPage;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): TapeSnapshot => this.#snapshot;

  #set(patch: Partial<TapeSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #read(page: { before?: string | null; sinceMs?: number | null }): Promise<SalesTape> {
    return this.#fetch({
      ...tapeFilterInput(this.#filter),
      before: page.before ?? null,
      since_ms: page.sinceMs ?? null,
      limit: PAGE_SIZE,
    });
  }

  /** The rows now hold every sale up to this read: the next refresh starts from it. Not while held. */
  #caughtUp(page: SalesTape): void {
    if (page.latest_ms !== null) this.#latestMs = Math.max(this.#latestMs ?? 0, page.latest_ms);
  }

  /** A new game or name: the tape starts again from the newest sale. */
  async setFilter(filter: TapeFilter): Promise<void> {
    this.#filter = filter;
    const generation = ++this.#generation;
    this.#held = null;
    this.#set({ loading: true, error: null, waiting: 0 });
    try {
      this.#latestMs = null;
      const page = await this.#read({});
      if (generation !== this.#generation) return;
      this.#caughtUp(page);
      this.#next = page.next;
      this.#set({
        rows: page.sales,
        more: page.next !== null,
        fresh: new Set(),
        loading: false,
        error: null,
      });
    } catch (error) {
      if (generation === this.#generation) this.#set({ loading: false, error });
    }
  }

  /** The book changed (sales come with it): read the newest page again. Overlapping calls collapse. */
  async refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = true;
    try {
      do {
        this.#refreshAgain = false;
        const generation = this.#generation;
        // what was recorded since the last read: from a minute before its newest sale (late ones too)
        const sinceMs = this.#latestMs === null ? null : Math.max(0, this.#latestMs - REFRESH_OVERLAP_MS);
        const page = await this.#read({ sinceMs });
        if (generation !== this.#generation) continue;
        if (this.#following) this.#merge(page);
        else {
          this.#held = page;
          const shown = new Set(this.#snapshot.rows.map(saleKey));
          this.#set({ waiting: page.sales.filter((s) => !shown.has(saleKey(s))).length });
        }
      } while (this.#refreshAgain);
    } catch (error) {
      this.#set({ error });
    } finally {
      this.#refreshing = false;
    }
  }

  /** Scrolled to the top with the pointer away: new sales go in as they come. Held: they wait. */
  setFollowing(following: boolean): void {
    if (following === this.#following) return;
    this.#following = following;
    if (following && this.#held) {
      const held = this.#held;
      this.#held = null;
      this.#merge(held);
    }
  }

  /** The next older page, appended (the trader scrolled to the end). */
  async loadOlder(): Promise<void> {
    if (this.#loadingOlder || this.#next === null) return;
    this.#loadingOlder = true;
    const generation = this.#generation;
    try {
      const page = await this.#read({ before: this.#next });
      if (generation !== this.#generation) return;
      this.#next = page.next;
      const shown = new Set(this.#snapshot.rows.map(saleKey));
      this.#set({
        rows: [...this.#snapshot.rows, ...page.sales.filter((s) => !shown.has(saleKey(s)))],
        more: page.next !== null,
      });
    } catch (error) {
      this.#set({ error });
    } finally {
      this.#loadingOlder = false;
    }
  }

  /**
   * The newest sales into the rows. A sale that arrived late lands at its own time, not on top. When the
   * page does not reach the rows shown (more new sales than a page since the last read), the rows in
   * between are unknown: the tape restarts from this page rather than show a hole.
   */
  #merge(page: SalesTape): void {
    this.#caughtUp(page);
    const rows = this.#snapshot.rows;
    const shown = new Set(rows.map(saleKey));
    const added = page.sales.filter((s) => !shown.has(saleKey(s)));
    const oldestOfPage = page.sales.at(-1);
    const newestShown = rows[0];
    const gap =
      page.next !== null &&
      oldestOfPage !== undefined &&
      newestShown !== undefined &&
      newerFirst(oldestOfPage, newestShown) < 0;
    if (gap) {
      this.#next = page.next;
      this.#set({
        rows: page.sales,
        more: true,
        fresh: new Set(page.sales.map(saleKey)),
        waiting: 0,
        error: null,
      });
      return;
    }
    if (rows.length === 0) {
      this.#next = page.next;
      this.#set({
        rows: page.sales,
        more: page.next !== null,
        fresh: new Set(added.map(saleKey)),
        waiting: 0,
        error: null,
      });
      return;
    }
    this.#set({
      rows: added.length === 0 ? rows : [...added, ...rows].sort(newerFirst),
      fresh: new Set(added.map(saleKey)),
      waiting: 0,
      error: null,
    });
  }
}

/** The call's filter fields for a tape filter: only those set. */
export function tapeFilterInput(
  filter: TapeFilter,
): Pick<SalesTapeInput, 'app_id' | 'name' | 'float' | 'phases'> {
  const name = filter.name.trim();
  return {
    ...(filter.app_id === null ? {} : { app_id: filter.app_id }),
    ...(name === '' ? {} : { name }),
    ...(filter.float === null ? {} : { float: filter.float }),
    ...(filter.phases.length === 0 ? {} : { phases: [...filter.phases] }),
  };
}

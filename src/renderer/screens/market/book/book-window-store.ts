/**
 * The grid's data: blocks of rows fetched by position from the app (queryBookWindow), never the whole
 * book. The grid says which rows are visible; the store fetches the blocks they fall in (and keeps a
 * few dozen around, dropping the farthest). A book change marks every block stale and refetches only
 * the visible ones, at most a few times a second however fast the feed runs.
 *
 * What a trader sees on a change: rows whose price moved flash red (up) or green (down), new listings
 * flash blue, and while the pointer is over the grid nothing moves under it — a row that sold or was
 * delisted stays in place, struck through, and new rows wait until the pointer leaves (the freeze).
 */
import type { BookChanged, BookRow } from '../../../../shared/ipc/index.ts';
import type { BookView, BookWindow, BookWindowInput } from '../../../../shared/ipc/calls-market.ts';

export type FlashKind = 'up' | 'down' | 'new' | 'change';
export type GoneReason = 'gone' | 'bought';

export interface DisplayRow {
  row: BookRow;
  flash: FlashKind | null;
  /** When the flash started (a new value replays the animation). */
  flashAt: number;
  /** Left the book (or was bought here) while the grid was frozen: shown struck, not clickable. */
  gone: GoneReason | null;
}

/** Copies of one listing a purchase took. */
export interface BoughtCopies {
  listingId: number;
  amount: number;
}

export type Fetcher = (input: BookWindowInput) => Promise<BookWindow>;

export interface StoreSnapshot {
  revision: number;
  /** Rows in the view; null until the first answer. */
  total: number | null;
  version: number;
  /** The row at a position, or undefined while its block loads. */
  rowAt(index: number): DisplayRow | undefined;
  /** Position of a listing among the loaded rows, or -1. */
  indexOf(id: number): number;
  /** The last fetch failed: why (plain words from the app). */
  problem: string | null;
}

export interface StoreOptions {
  blockSize?: number;
  /** Blocks kept in memory at most (default 30 blocks of 100 rows). */
  maxBlocks?: number;
  /** Refetch visible blocks at most this often after changes (default 150 ms). */
  refetchMinMs?: number;
  now?: () => number;
}

interface Block {
  rows: DisplayRow[];
  /** Book version the rows were read at. */
  version: number;
  stale: boolean;
  loading: boolean;
  /** Refetch again when the current fetch ends (a change arrived meanwhile). */
  again: boolean;
}

const CHANGE_MEMORY = 5_000;
/** A little over the app's recount spacing (src/core/app/market-book/book-windows.ts). */
const RECOUNT_AFTER_MS = 1_100;

export class BookWindowStore {
  readonly #fetch: Fetcher;
  readonly #blockSize: number;
  readonly #maxBlocks: number;
  readonly #refetchMinMs: number;
  readonly #now: () => number;
  #view: BookView | null = null;
  /** Bumped on every view change: answers for an older view are dropped. */
  #viewToken = 0;
  #blocks = new Map<number, Block>();
  #total: number | null = null;
  #version = 0;
  #visible: { start: number; end: number } = { start: 0, end: 0 };
  #frozen = false;
  /** Listings the feed changed recently, with the version they changed at. */
  #changed = new Map<number, number>();
  /** Listings bought whole from this window: struck at once, and until they leave the book. */
  #bought = new Set<number>();
  #lastRefetch = 0;
  #refetchTimer: ReturnType<typeof setTimeout> | null = null;
  /** A total counted before the latest change is asked again once the app recounts (about a second). */
  #recountTimer: ReturnType<typeof setTimeout> | null = null;
  #problem: string | null = null;
  #listeners = new Set<() => void>();
  #snapshot: StoreSnapshot;
  #revision = 0;
  #disposed = false;

  constructor(fetch: Fetcher, options: StoreOptions = {}) {
    this.#fetch = fetch;
    this.#blockSize = options.blockSize ?? 100;
    this.#maxBlocks = Math.max(4, options.maxBlocks ?? 30);
    this.#refetchMinMs = options.refetchMinMs ?? 150;
    this.#now = options.now ?? Date.now;
    this.#snapshot = this.#makeSnapshot();
  }

  get blockSize(): number {
    return this.#blockSize;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): StoreSnapshot => this.#snapshot;

  dispose(): void {
    this.#disposed = true;
    if (this.#refetchTimer) clearTimeout(this.#refetchTimer);
    if (this.#recountTimer) clearTimeout(this.#recountTimer);
    this.#listeners.clear();
  }

  /** A new filter or sort: everything is refetched from the top. */
  setView(view: BookView): void {
    const same = this.#view !== null && JSON.stringify(view) === JSON.stringify(this.#view);
    if (same) return;
    this.#view = view;
    this.#viewToken++;
    this.#blocks.clear();
    this.#total = null;
    this.#problem = null;
    this.#emit();
    this.#loadVisible();
  }

  /** Rows [start, end) are on screen (overscan included). */
  setVisible(start: number, end: number): void {
    this.#visible = { start: Math.max(0, start), end: Math.max(start, end) };
    this.#loadVisible();
  }

  /** While frozen (pointer over the grid) rows keep their places; unfreezing applies what changed. */
  setFrozen(frozen: boolean): void {
    if (this.#frozen === frozen) return;
    this.#frozen = frozen;
    if (!frozen) {
      this.#markAllStale();
      this.#loadVisible();
    }
  }

  onBookChanged(change: BookChanged): void {
    this.#version = Math.max(this.#version, change.version);
    if (change.reset) {
      this.#changed.clear();
      this.#blocks.clear();
      this.#total = null;
      this.#emit();
      this.#loadVisible();
      return;
    }
    for (const id of change.ids) this.#changed.set(id, change.version);
    if (this.#changed.size > CHANGE_MEMORY) {
      const drop = this.#changed.size - CHANGE_MEMORY;
      let i = 0;
      for (const id of this.#changed.keys()) {
        if (i++ >= drop) break;
        this.#changed.delete(id);
      }
    }
    this.#markAllStale();
    this.#scheduleRefetch();
  }

  /** Stale blocks are refetched when visible; one being fetched is fetched once more after. */
  #markAllStale(): void {
    for (const block of this.#blocks.values()) {
      block.stale = true;
      if (block.loading) block.again = true;
    }
  }

  /**
   * Copies just bought here. A listing bought whole is struck at once (the feed's removal follows). One
   * with copies left stays a normal row, buyable, whose count the refetch brings: striking it would hide
   * a live listing for as long as it stays on the market.
   */
  markBought(lines: readonly BoughtCopies[]): void {
    for (const line of lines) {
      // a row not loaded here has nothing to strike, and whether copies are left is not known
      const shown = this.#find(line.listingId);
      if (shown && line.amount >= shown.row.amount) this.#bought.add(line.listingId);
    }
    let touched = false;
    for (const block of this.#blocks.values()) {
      block.rows = block.rows.map((r) => {
        if (!this.#bought.has(r.row.id) || r.gone) return r;
        touched = true;
        return { ...r, gone: 'bought' };
      });
    }
    this.#markAllStale();
    if (touched) this.#emit();
    this.#scheduleRefetch();
  }

  // ---- fetching ---------------------------------------------------------------------------------

  #scheduleRefetch(): void {
    if (this.#refetchTimer || this.#disposed) return;
    const wait = Math.max(0, this.#lastRefetch + this.#refetchMinMs - this.#now());
    this.#refetchTimer = setTimeout(() => {
      this.#refetchTimer = null;
      this.#lastRefetch = this.#now();
      this.#loadVisible();
    }, wait);
  }

  #visibleBlocks(): number[] {
    const first = Math.floor(this.#visible.start / this.#blockSize);
    const last = Math.floor(Math.max(this.#visible.start, this.#visible.end - 1) / this.#blockSize);
    const out: number[] = [];
    for (let b = first; b <= last; b++) {
      if (this.#total !== null && b * this.#blockSize >= this.#total && b > 0) break;
      out.push(b);
    }
    return out;
  }

  #loadVisible(): void {
    if (!this.#view || this.#disposed) return;
    for (const b of this.#visibleBlocks()) {
      const block = this.#blocks.get(b);
      if (!block || (block.stale && !block.loading)) void this.#load(b);
    }
    this.#evict();
  }

  async #load(index: number): Promise<void> {
    const view = this.#view;
    if (!view) return;
    const token = this.#viewToken;
    let block = this.#blocks.get(index);
    if (block?.loading) return;
    if (!block) {
      block = { rows: [], version: -1, stale: true, loading: false, again: false };
      this.#blocks.set(index, block);
    }
    block.loading = true;
    block.again = false;
    block.stale = false;
    let answer: BookWindow;
    try {
      answer = await this.#fetch({ ...view, offset: index * this.#blockSize, limit: this.#blockSize });
    } catch (err) {
      block.loading = false;
      block.stale = true;
      if (token !== this.#viewToken || this.#disposed) return;
      this.#problem = err instanceof Error ? err.message : String(err);
      this.#emit();
      return;
    }
    block.loading = false;
    if (token !== this.#viewToken || this.#disposed) return;
    if (this.#blocks.get(index) !== block) return; // evicted or reset meanwhile
    block.stale = block.again;
    this.#problem = null;
    this.#version = Math.max(this.#version, answer.version);
    this.#total = answer.total;
    block.rows = this.#merge(block, answer);
    block.version = answer.version;
    this.#emit();
    if (block.again) this.#scheduleRefetch();
    else if (answer.totalVersion < answer.version) this.#scheduleRecount();
  }

  #scheduleRecount(): void {
    if (this.#recountTimer || this.#disposed) return;
    this.#recountTimer = setTimeout(() => {
      this.#recountTimer = null;
      const first = this.#blocks.get(Math.floor(this.#visible.start / this.#blockSize));
      if (first) first.stale = true;
      this.#loadVisible();
    }, RECOUNT_AFTER_MS);
  }

  /** The rows to show for a fresh answer: flashes for what changed, the freeze for what left. */
  #merge(block: Block, answer: BookWindow): DisplayRow[] {
    const now = this.#now();
    const before = new Map(block.rows.map((r) => [r.row.id, r]));
    const firstLoad = block.version < 0;
    const display = (row: BookRow): DisplayRow => {
      const old = before.get(row.id) ?? this.#find(row.id);
      const changedAt = this.#changed.get(row.id);
      const changedSince = changedAt !== undefined && changedAt > block.version;
      let flash: FlashKind | null = null;
      if (!firstLoad && old && (old.row.price !== row.price || old.row.amount !== row.amount)) {
        flash = row.price > old.row.price ? 'up' : row.price < old.row.price ? 'down' : 'change';
      } else if (!firstLoad && !old && changedSince) {
        flash = 'new';
      }
      const gone: GoneReason | null = this.#bought.has(row.id) ? 'bought' : null;
      if (flash) return { row, flash, flashAt: now, gone };
      // keep a running flash (and its start) when the same row is refetched before it faded
      return old && old.flash && now - old.flashAt < 1_500 ? { ...old, row, gone } : { row, flash: null, flashAt: 0, gone };
    };
    if (!this.#frozen || firstLoad) return answer.rows.map(display);
    // frozen: same rows, same places; only their values change, and leavers are struck
    const fresh = new Map(answer.rows.map((r) => [r.id, r]));
    return block.rows.map((old) => {
      const row = fresh.get(old.row.id);
      if (row) return display(row);
      const changedAt = this.#changed.get(old.row.id);
      if (old.gone || (changedAt !== undefined && changedAt > block.version)) return { ...old, gone: old.gone ?? 'gone' };
      return old; // moved to a neighbouring block, most likely; it stays here until the freeze ends
    });
  }

  #find(id: number): DisplayRow | undefined {
    for (const block of this.#blocks.values()) {
      const hit = block.rows.find((r) => r.row.id === id);
      if (hit) return hit;
    }
    return undefined;
  }

  #evict(): void {
    if (this.#blocks.size <= this.#maxBlocks) return;
    const centre = Math.floor(this.#visible.start / this.#blockSize);
    const far = [...this.#blocks.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const index of far) {
      if (this.#blocks.size <= this.#maxBlocks) break;
      if (this.#blocks.get(index)?.loading) continue;
      this.#blocks.delete(index);
    }
  }

  // ---- snapshot ---------------------------------------------------------------------------------

  #emit(): void {
    this.#snapshot = this.#makeSnapshot();
    for (const listener of this.#listeners) listener();
  }

  #makeSnapshot(): StoreSnapshot {
    const blocks = this.#blocks;
    const size = this.#blockSize;
    return {
      revision: ++this.#revision,
      total: this.#total,
      version: this.#version,
      problem: this.#problem,
      rowAt(index) {
        const block = blocks.get(Math.floor(index / size));
        if (!block || block.version < 0) return undefined;
        return block.rows[index % size];
      },
      indexOf(id) {
        for (const [b, block] of blocks) {
          const at = block.rows.findIndex((r) => r.row.id === id);
          if (at >= 0) return b * size + at;
        }
        return -1;
      },
    };
  }
}

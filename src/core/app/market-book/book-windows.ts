/**
 * Windows of the book by position: "rows 912,400 to 912,500 of this filtered, sorted view".
 *
 * The query engine pages by keyset (sort value, id) and never by OFFSET, because an OFFSET of 900,000
 * walks the whole skipped prefix on every request. A scrollbar, though, asks by position. So each view
 * keeps anchors: the keyset cursor at every STRIDE-th row, collected by one walk over the view's own
 * index order, in chunks that yield to the event loop between them (the app's main process stays
 * responsive while a million-row view is indexed). A window at any offset is then the nearest anchor,
 * a short walk of at most STRIDE-1 rows, and one page: the same few milliseconds at row 0 and at row
 * 999,999.
 *
 * An anchor is a cursor, though, not a row number: once a listing is created or removed ahead of it, the
 * anchor of "row 200" starts the page at another row, and a window read from it would skip rows (or show
 * them twice) at the place the user scrolled to. So an anchor's row number is trusted only while the book
 * is exactly as it was during the walk (the app's book version and SQLite's data_version, which moves
 * with every commit of the sync worker). After any change, an anchor's current row is counted: the
 * view's rows at or before its cursor, a count bounded by the cursor, once per anchor and state of the
 * book (at 1M listings: 0.04 ms at row 1,000, 3-7 ms at row 100,000, 28-39 ms at row 900,000, where the
 * view's whole count takes 12 and a page 0.25). The window then starts from the last anchor found at or
 * before its offset and walks from that anchor's true row, so every window is exact; it is answered in
 * one read transaction, so its count, walk and page see the same book.
 *
 * Anchors are rebuilt in the background (and swapped in when done) after a while, or sooner once the
 * counted rows show that they no longer lie about a stride apart (walks would grow): creations and
 * removals in different places both pull them apart, even when their numbers cancel out.
 */
import type { Db } from '../../store/index.ts';
import { queryBook } from '../../query/index.ts';
import type { BookFilter, BookQuery } from '../../../shared/query.ts';
import { ViewStatements } from './view-statements.ts';

type Sort = BookQuery['sort'];
type Row = ReturnType<typeof queryBook>['rows'][number];

export interface BookWindowRequest {
  filter: BookFilter;
  sort: Sort;
  offset: number;
  limit: number;
}

export interface BookWindowAnswer {
  rows: Row[];
  offset: number;
  total: number;
  /** The book version the total was counted at (recounts are spaced out while the book changes). */
  totalVersion: number;
}

export interface BookWindowsOptions {
  /** Rows between two anchors (default 200): the longest walk a window pays before its page. */
  stride?: number;
  /** Rows read per chunk of an anchor walk before yielding (default 4,000: a few tens of ms at most). */
  chunk?: number;
  /** Views kept per database (default 6); the least recently used is dropped. */
  maxViews?: number;
  /**
   * Rebuild anchors after this long when the book changed (default 30 s, and never more often than 20
   * times the last walk took: a million-row walk of a few seconds is redone about once a minute).
   */
  rebuildAfterMs?: number;
  /** Recount a view's total at most this often while the book changes (default 1 s). */
  recountAfterMs?: number;
  now?: () => number;
  /** Views at least this big get their anchors walked in the background after the first window (default 5,000). */
  prefetchFrom?: number;
  /** How a chunked walk yields (default a 1 ms timer, so IPC calls get in between chunks). */
  yieldNow?: () => Promise<void>;
}

/** Anchors whose current rows are counted to find where a window starts (each a bounded count). */
const MAX_PROBES = 6;

interface Anchors {
  /** anchors[k]: cursor of row k*stride - 1, so the page after it starts at row k*stride; [0] is the top. */
  list: (string | undefined)[];
  /** Cursor where the walk continues, and how many rows it has passed. */
  walkCursor: string | undefined;
  walked: number;
  complete: boolean;
  builtVersion: number;
  /** SQLite's data_version when the walk began; null once a commit landed during it. */
  dataVersion: number | null;
  builtAt: number;
  /** Time spent walking (ms), to space out rebuilds. */
  walkMs: number;
  /** Rows counted at or before anchor k, valid for one state of the book (`countedAt`). */
  counted: Map<number, number>;
  countedAt: string;
  /** A counted anchor lay half a stride or more from its walked row: worth a rebuild. */
  pulledApart: boolean;
}

interface View {
  key: string;
  statements: ViewStatements;
  filter: BookFilter;
  sort: Sort;
  anchors: Anchors;
  /** A fresh set being walked in the background; swapped in when it reaches the old one's reach. */
  next: Anchors | null;
  /** The rebuild walk in progress (one at a time). */
  rebuilding: Promise<void>;
  /** The walk extending the current anchors, and how far it is asked to go. */
  walker: Promise<void> | null;
  walkTarget: number;
  /** Window requests waiting for an anchor: each is let go as soon as its anchor exists. */
  waiters: { k: number; go: () => void }[];
  total: number | null;
  totalVersion: number;
  totalAt: number;
}

function emptyAnchors(version: number, now: number, dataVersion: number | null): Anchors {
  return {
    list: [undefined],
    walkCursor: undefined,
    walked: 0,
    complete: false,
    builtVersion: version,
    dataVersion,
    builtAt: now,
    walkMs: 0,
    counted: new Map(),
    countedAt: '',
    pulledApart: false,
  };
}

/** Moves with every commit another connection (the sync worker) makes to the file. */
const dataVersionOf = (db: Db): number => db.pragma('data_version', { simple: true }) as number;

export class BookWindows {
  readonly #stride: number;
  readonly #chunk: number;
  readonly #maxViews: number;
  readonly #rebuildAfterMs: number;
  readonly #prefetchFrom: number;
  readonly #recountAfterMs: number;
  readonly #now: () => number;
  readonly #yield: () => Promise<void>;
  readonly #views = new WeakMap<Db, Map<string, View>>();

  constructor(options: BookWindowsOptions = {}) {
    this.#stride = options.stride ?? 200;
    this.#chunk = Math.max(this.#stride, options.chunk ?? 4_000);
    this.#maxViews = options.maxViews ?? 6;
    this.#rebuildAfterMs = options.rebuildAfterMs ?? 30_000;
    this.#recountAfterMs = options.recountAfterMs ?? 1_000;
    this.#now = options.now ?? Date.now;
    this.#prefetchFrom = options.prefetchFrom ?? 5_000;
    this.#yield = options.yieldNow ?? (() => new Promise((resolve) => setTimeout(resolve, 1)));
  }

  /** `version`: the app's book version now (anything that changes when the mirror changes). */
  async window(db: Db, version: number, request: BookWindowRequest): Promise<BookWindowAnswer> {
    const view = this.#view(db, request);
    if (view.anchors.builtVersion < 0) view.anchors = emptyAnchors(version, this.#now(), dataVersionOf(db));
    const total = this.#total(db, view, version);
    if (request.offset >= total && total > 0) return { rows: [], offset: request.offset, total, totalVersion: view.totalVersion };
    const k = Math.floor(request.offset / this.#stride);
    await this.#reach(db, view, k);
    // a big view is indexed in the background, so the first drag of the scrollbar deep into it is answered at once
    if (total >= this.#prefetchFrom) void this.#reach(db, view, Number.POSITIVE_INFINITY);
    const answer = db.transaction(() => this.#read(db, view, version, request))();
    this.#maybeRebuild(db, view, version);
    return answer;
  }

  /** The window from the anchors as they are, in one state of the book (the caller's transaction). */
  #read(db: Db, view: View, version: number, request: BookWindowRequest): BookWindowAnswer {
    const anchors = view.anchors;
    const dataVersion = dataVersionOf(db);
    const unchanged = anchors.builtVersion === version && anchors.dataVersion === dataVersion;
    const start = unchanged ? this.#walkedStart(anchors, request.offset) : this.#countedStart(db, view, request.offset, `${version}:${dataVersion}`);
    let cursor = start.cursor;
    const skip = request.offset - start.row;
    if (skip >= this.#stride) anchors.pulledApart = true;
    if (skip > 0) {
      const walked = this.#walk(db, view, cursor, skip);
      if (walked.passed < skip) return this.#ended(view, version, request.offset, [], start.row + walked.passed);
      cursor = walked.cursor;
    }
    const page = queryBook(db, {
      filter: view.filter,
      sort: view.sort,
      limit: request.limit,
      ...(cursor === undefined ? {} : { after: cursor }),
    });
    // the start is exact, so a short page is exactly where the view ends now
    if (page.rows.length < request.limit) return this.#ended(view, version, request.offset, page.rows, request.offset + page.rows.length);
    const total = Math.max(view.total ?? 0, request.offset + page.rows.length);
    return { rows: page.rows, offset: request.offset, total, totalVersion: view.totalVersion };
  }

  /**
   * An answer that met the end of the view at `end`: the view's exact count at this state of the book,
   * kept as its total so the windows after this one (the top of the grid too) say the same.
   */
  #ended(view: View, version: number, offset: number, rows: Row[], end: number): BookWindowAnswer {
    view.total = end;
    view.totalVersion = version;
    view.totalAt = this.#now();
    return { rows, offset, total: end, totalVersion: version };
  }

  /** The anchor at or before `offset` while the book is as the walk saw it: anchor k is row k*stride. */
  #walkedStart(anchors: Anchors, offset: number): { cursor: string | undefined; row: number } {
    // a walk that ended early (the view is shorter) answers from the last anchor there is
    const k = Math.min(Math.floor(offset / this.#stride), anchors.list.length - 1);
    return { cursor: anchors.list[k], row: k * this.#stride };
  }

  /**
   * The last anchor found at or before `offset` by its row now. The first guess is the anchor it had
   * been; each count then tells how far the anchors there moved, and the next guess assumes the ones
   * near the offset moved as much (creations at the top move every anchor alike). Counts are bounded
   * (MAX_PROBES); whatever anchor is found last, the walk from its exact row makes the window exact.
   */
  #countedStart(db: Db, view: View, offset: number, bookState: string): { cursor: string | undefined; row: number } {
    const anchors = view.anchors;
    if (anchors.countedAt !== bookState) {
      anchors.counted.clear();
      anchors.countedAt = bookState;
    }
    let below = { k: 0, row: 0 }; // anchor 0 is the top of the view
    let above = anchors.list.length; // the first anchor known to lie past the offset
    let guess = Math.min(Math.floor(offset / this.#stride), above - 1);
    for (let probes = 0; probes < MAX_PROBES && guess > below.k && guess < above; probes++) {
      const row = this.#rowOf(db, view, guess);
      if (row > offset) above = guess;
      else below = { k: guess, row };
      if (row <= offset && offset - row < this.#stride) break;
      const moved = row - guess * this.#stride;
      guess = Math.max(below.k + 1, Math.min(above - 1, Math.floor((offset - moved) / this.#stride)));
    }
    return { cursor: anchors.list[below.k], row: below.row };
  }

  /** The row anchor k's page starts at now (counted once per state of the book). */
  #rowOf(db: Db, view: View, k: number): number {
    const anchors = view.anchors;
    let row = anchors.counted.get(k);
    if (row === undefined) {
      row = view.statements.countAhead(db, anchors.list[k] as string);
      anchors.counted.set(k, row);
      if (Math.abs(row - k * this.#stride) >= this.#stride / 2) anchors.pulledApart = true;
    }
    return row;
  }

  #view(db: Db, request: BookWindowRequest): View {
    let views = this.#views.get(db);
    if (!views) this.#views.set(db, (views = new Map()));
    const key = JSON.stringify([request.filter, request.sort]);
    let view = views.get(key);
    if (view) {
      views.delete(key);
      views.set(key, view);
      return view;
    }
    view = {
      key,
      statements: new ViewStatements(request.filter, request.sort),
      filter: request.filter,
      sort: request.sort,
      anchors: emptyAnchors(-1, this.#now(), null),
      next: null,
      rebuilding: Promise.resolve(),
      walker: null,
      walkTarget: 0,
      waiters: [],
      total: null,
      totalVersion: -1,
      totalAt: 0,
    };
    views.set(key, view);
    if (views.size > this.#maxViews) views.delete(views.keys().next().value as string);
    return view;
  }

  /** The view's row count, recounted when the book changed (at most once per recount interval). */
  #total(db: Db, view: View, version: number): number {
    const now = this.#now();
    const stale = view.total === null || (view.totalVersion !== version && now - view.totalAt >= this.#recountAfterMs);
    if (stale) {
      view.total = queryBook(db, { filter: view.filter, sort: view.sort, limit: 1, count: true }).total ?? 0;
      view.totalVersion = version;
      view.totalAt = now;
    }
    return view.total as number;
  }

  /**
   * Rebuilds anchors the book changed under, after a while or once counts showed them pulled apart; never
   * more often than 20 times the last walk took (a million-row walk of a few seconds: once a minute).
   */
  #maybeRebuild(db: Db, view: View, version: number): void {
    const a = view.anchors;
    if (view.next || a.list.length <= 1) return;
    if (a.builtVersion === version && a.dataVersion === dataVersionOf(db)) return;
    const since = this.#now() - a.builtAt;
    if (since < 20 * a.walkMs || (since < this.#rebuildAfterMs && !a.pulledApart)) return;
    const next = emptyAnchors(version, this.#now(), dataVersionOf(db));
    view.next = next;
    const target = a.complete ? Number.POSITIVE_INFINITY : a.list.length - 1;
    view.rebuilding = view.rebuilding
      .then(() => this.#extend(db, view, next, target))
      .then(() => {
        if (view.next === next) {
          view.anchors = next;
          view.next = null;
        }
      })
      .catch(() => {
        view.next = null; // the current anchors stay in use; the next change tries again
      });
  }

  /**
   * Resolves when anchor k exists (or the view ended). One walker per view extends the anchors as far as
   * anyone asked (a request deep into the view, or the background prefetch); each request is let go as
   * soon as its own anchor is there, not when the whole walk is done.
   */
  #reach(db: Db, view: View, k: number): Promise<void> {
    const reached = () => k < view.anchors.list.length || view.anchors.complete;
    if (reached()) return Promise.resolve();
    view.walkTarget = Math.max(view.walkTarget, k);
    const waiting = new Promise<void>((go) => view.waiters.push({ k, go }));
    view.walker ??= this.#runWalker(db, view).finally(() => {
      view.walker = null;
      for (const w of view.waiters.splice(0)) w.go(); // stopped (closed, dropped): answer from what exists
    });
    return waiting;
  }

  async #runWalker(db: Db, view: View): Promise<void> {
    for (;;) {
      const anchors = view.anchors;
      if (anchors.complete || anchors.list.length > view.walkTarget) return;
      if (!db.open || this.#views.get(db)?.get(view.key) !== view) return; // closed, or the view was dropped
      const t0 = performance.now();
      this.#walkChunk(db, view, anchors);
      anchors.walkMs += performance.now() - t0;
      view.waiters = view.waiters.filter((w) => {
        const done = w.k < anchors.list.length || anchors.complete;
        if (done) w.go();
        return !done;
      });
      await this.#yield();
    }
  }

  async #extend(db: Db, view: View, anchors: Anchors, k: number): Promise<void> {
    while (anchors.list.length <= k && !anchors.complete) {
      if (!db.open || this.#views.get(db)?.get(view.key) !== view) return; // closed, or the view was dropped
      const t0 = performance.now();
      this.#walkChunk(db, view, anchors);
      anchors.walkMs += performance.now() - t0;
      if (anchors.list.length <= k && !anchors.complete) await this.#yield();
    }
  }

  /** One chunk of the anchor walk: records the cursor after every stride-th row. */
  #walkChunk(db: Db, view: View, anchors: Anchors): void {
    // a commit between two chunks moves the rows behind the anchors walked so far
    if (anchors.dataVersion !== dataVersionOf(db)) anchors.dataVersion = null;
    let read = 0;
    const last = view.statements.scan(db, anchors.walkCursor, this.#chunk, (cursor) => {
      read++;
      if ((anchors.walked + read) % this.#stride === 0) anchors.list.push(cursor());
    });
    anchors.walked += read;
    if (last !== undefined) anchors.walkCursor = last;
    if (read < this.#chunk) anchors.complete = true;
  }

  /** Walks `count` rows from `after`; the cursor of the last one passed. */
  #walk(db: Db, view: View, after: string | undefined, count: number): { cursor: string | undefined; passed: number } {
    let passed = 0;
    const last = view.statements.scan(db, after, count, () => {
      passed++;
    });
    return { cursor: last ?? after, passed };
  }
}

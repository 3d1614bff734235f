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
 * Anchors are cursors, not row numbers, so they stay valid while the book changes; the rows between two
 * anchors just drift by the listings created or removed since. Anchors are rebuilt in the background
 * (and swapped in when done) once the drift could be noticeable.
 */
import type { Db } from '../../store/index.ts';
import { compileQuery, encodeCursor, queryBook } from '../../query/index.ts';
import type { BookFilter, BookQuery } from '../../../shared/query.ts';

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
  /** Rows read per chunk of an anchor walk before yielding (default 20,000: a few tens of ms). */
  chunk?: number;
  /** Views kept per database (default 6); the least recently used is dropped. */
  maxViews?: number;
  /** Rebuild anchors after this long when the book changed (default 30 s). */
  rebuildAfterMs?: number;
  /** Recount a view's total at most this often while the book changes (default 1 s). */
  recountAfterMs?: number;
  now?: () => number;
  /** How a chunked walk yields (default setImmediate). */
  yieldNow?: () => Promise<void>;
}

/** The column of the engine's SELECT that holds each sort field's value (see src/core/query). */
const SORT_COLUMN: Record<Sort['field'], string> = {
  price: 'price',
  created_at: 'created_ms',
  id: 'id',
  float: 'cs_paint_wear',
  fade: 'cs_fade_percentage',
  blue: 'cs_blue_percentage',
};

interface Anchors {
  /** anchors[k]: cursor of row k*stride - 1, so the page after it starts at row k*stride; [0] is the top. */
  list: (string | undefined)[];
  /** Cursor where the walk continues, and how many rows it has passed. */
  walkCursor: string | undefined;
  walked: number;
  complete: boolean;
  builtVersion: number;
  builtAt: number;
  builtTotal: number;
}

interface View {
  key: string;
  filter: BookFilter;
  sort: Sort;
  anchors: Anchors;
  /** A fresh set being walked in the background; swapped in when it reaches the old one's reach. */
  next: Anchors | null;
  walking: Promise<void>;
  total: number | null;
  totalVersion: number;
  totalAt: number;
}

function emptyAnchors(version: number, now: number, total: number): Anchors {
  return { list: [undefined], walkCursor: undefined, walked: 0, complete: false, builtVersion: version, builtAt: now, builtTotal: total };
}

export class BookWindows {
  readonly #stride: number;
  readonly #chunk: number;
  readonly #maxViews: number;
  readonly #rebuildAfterMs: number;
  readonly #recountAfterMs: number;
  readonly #now: () => number;
  readonly #yield: () => Promise<void>;
  readonly #views = new WeakMap<Db, Map<string, View>>();

  constructor(options: BookWindowsOptions = {}) {
    this.#stride = options.stride ?? 200;
    this.#chunk = Math.max(this.#stride, options.chunk ?? 20_000);
    this.#maxViews = options.maxViews ?? 6;
    this.#rebuildAfterMs = options.rebuildAfterMs ?? 30_000;
    this.#recountAfterMs = options.recountAfterMs ?? 1_000;
    this.#now = options.now ?? Date.now;
    this.#yield = options.yieldNow ?? (() => new Promise((resolve) => setImmediate(resolve)));
  }

  /** `version`: the app's book version now (anything that changes when the mirror changes). */
  async window(db: Db, version: number, request: BookWindowRequest): Promise<BookWindowAnswer> {
    const view = this.#view(db, request);
    const total = this.#total(db, view, version);
    this.#maybeRebuild(db, view, version, total);
    const totalVersion = view.totalVersion;
    if (request.offset >= total && total > 0) return { rows: [], offset: request.offset, total, totalVersion };
    const k = Math.floor(request.offset / this.#stride);
    await this.#reach(db, view, k);
    const reachable = view.anchors.list.length - 1;
    // a walk that ended early (the book shrank since the count) answers from the last anchor there is
    const anchorIndex = Math.min(k, reachable);
    let cursor = view.anchors.list[anchorIndex];
    const skip = request.offset - anchorIndex * this.#stride;
    if (skip > 0) {
      const walked = this.#walk(db, view, cursor, skip);
      if (walked.passed < skip) return { rows: [], offset: request.offset, total, totalVersion };
      cursor = walked.cursor;
    }
    const page = queryBook(db, {
      filter: view.filter,
      sort: view.sort,
      limit: request.limit,
      ...(cursor === undefined ? {} : { after: cursor }),
    });
    // a short page is the end of the view: the total the scrollbar needs is exactly where it ended (the
    // count can be a moment old while the book changes)
    const end = page.rows.length < request.limit ? request.offset + page.rows.length : Math.max(total, request.offset + page.rows.length);
    return { rows: page.rows, offset: request.offset, total: end, totalVersion };
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
      filter: request.filter,
      sort: request.sort,
      anchors: emptyAnchors(-1, this.#now(), 0),
      next: null,
      walking: Promise.resolve(),
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
    if (view.anchors.builtVersion < 0) {
      view.anchors.builtVersion = version;
      view.anchors.builtTotal = view.total as number;
    }
    return view.total as number;
  }

  #maybeRebuild(db: Db, view: View, version: number, total: number): void {
    const a = view.anchors;
    if (view.next || a.builtVersion === version || a.list.length <= 1) return;
    const drift = Math.abs(total - a.builtTotal);
    if (this.#now() - a.builtAt < this.#rebuildAfterMs && drift < this.#stride / 2) return;
    const next = emptyAnchors(version, this.#now(), total);
    view.next = next;
    const target = a.complete ? Number.POSITIVE_INFINITY : a.list.length - 1;
    view.walking = view.walking
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

  /** Walks until anchor k exists (or the view ends). Walks of one view run one at a time. */
  #reach(db: Db, view: View, k: number): Promise<void> {
    if (k < view.anchors.list.length || view.anchors.complete) return Promise.resolve();
    const run = () => this.#extend(db, view, view.anchors, k);
    view.walking = view.walking.then(run, run);
    return view.walking;
  }

  async #extend(db: Db, view: View, anchors: Anchors, k: number): Promise<void> {
    while (anchors.list.length <= k && !anchors.complete) {
      if (!db.open) return;
      this.#walkChunk(db, view, anchors);
      if (anchors.list.length <= k && !anchors.complete) await this.#yield();
    }
  }

  /** One chunk of the anchor walk: records the cursor after every stride-th row. */
  #walkChunk(db: Db, view: View, anchors: Anchors): void {
    const compiled = compileQuery(db, {
      filter: view.filter,
      sort: view.sort,
      limit: Math.min(1000, this.#chunk),
      ...(anchors.walkCursor === undefined ? {} : { after: anchors.walkCursor }),
    });
    if (compiled.plan === 'empty') {
      anchors.complete = true;
      return;
    }
    const column = SORT_COLUMN[view.sort.field];
    const params = [...compiled.params.slice(0, -1), this.#chunk];
    let last: { value: number; id: number } | null = null;
    let read = 0;
    for (const row of db.prepare(compiled.sql).iterate(...params) as Iterable<Record<string, number>>) {
      read++;
      last = { value: row[column] as number, id: row['id'] as number };
      if ((anchors.walked + read) % this.#stride === 0) anchors.list.push(encodeCursor(view.sort.field, last));
    }
    anchors.walked += read;
    if (last) anchors.walkCursor = encodeCursor(view.sort.field, last);
    if (read < this.#chunk) anchors.complete = true;
  }

  /** Walks `count` rows from `after`; the cursor of the last one passed. */
  #walk(db: Db, view: View, after: string | undefined, count: number): { cursor: string | undefined; passed: number } {
    const compiled = compileQuery(db, {
      filter: view.filter,
      sort: view.sort,
      limit: Math.min(1000, count),
      ...(after === undefined ? {} : { after }),
    });
    if (compiled.plan === 'empty') return { cursor: after, passed: 0 };
    const column = SORT_COLUMN[view.sort.field];
    const params = [...compiled.params.slice(0, -1), count];
    let cursor = after;
    let passed = 0;
    for (const row of db.prepare(compiled.sql).iterate(...params) as Iterable<Record<string, number>>) {
      passed++;
      cursor = encodeCursor(view.sort.field, { value: row[column] as number, id: row['id'] as number });
    }
    return { cursor, passed };
  }
}

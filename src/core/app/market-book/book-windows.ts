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
import { compileQuery, decodeCursor, encodeCursor, queryBook } from '../../query/index.ts';
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
  /** Time spent walking (ms), to space out rebuilds. */
  walkMs: number;
}

/** A planned statement of a view with its keyset parameters' places (see #scan). */
interface Continuation {
  sql: string;
  params: unknown[];
  /** Places of the cursor's id and of its sort value in `params` (the last parameter is the limit). */
  idAt: number[];
  valueAt: number[];
}

interface View {
  key: string;
  /** undefined: not planned yet; null: the engine's parameters did not have the expected shape. */
  continuation?: Continuation | null;
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

function emptyAnchors(version: number, now: number, total: number): Anchors {
  return { list: [undefined], walkCursor: undefined, walked: 0, complete: false, builtVersion: version, builtAt: now, builtTotal: total, walkMs: 0 };
}

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
    const total = this.#total(db, view, version);
    this.#maybeRebuild(db, view, version, total);
    const totalVersion = view.totalVersion;
    if (request.offset >= total && total > 0) return { rows: [], offset: request.offset, total, totalVersion };
    const k = Math.floor(request.offset / this.#stride);
    await this.#reach(db, view, k);
    // a big view is indexed in the background, so the first drag of the scrollbar deep into it is answered at once
    if (total >= this.#prefetchFrom) void this.#reach(db, view, Number.POSITIVE_INFINITY);
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
    const spacing = Math.max(this.#rebuildAfterMs, 20 * a.walkMs);
    if (this.#now() - a.builtAt < spacing && drift < this.#stride / 2) return;
    const next = emptyAnchors(version, this.#now(), total);
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
    let read = 0;
    const last = this.#scan(db, view, anchors.walkCursor, this.#chunk, (cursor) => {
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
    const last = this.#scan(db, view, after, count, () => {
      passed++;
    });
    return { cursor: last ?? after, passed };
  }

  /**
   * Reads up to `count` rows of the view after a cursor, in the engine's own order and plan, calling
   * `onRow` with a lazy cursor of each; returns the cursor of the last row read. The engine plans a
   * query with a few capped counts (tens of ms on a big filtered view), and a walk asks the same query
   * again and again with another cursor: so the planned statement is kept per view and only its keyset
   * parameters change (checked against the engine's output the first time; otherwise it is planned anew).
   */
  #scan(db: Db, view: View, after: string | undefined, count: number, onRow: (cursor: () => string) => void): string | undefined {
    const field = view.sort.field;
    const column = SORT_COLUMN[field];
    let sql: string;
    let params: unknown[];
    const plan = after === undefined ? null : this.#continuation(db, view);
    if (plan) {
      const at = decodeCursor(field, after as string);
      params = [...plan.params];
      for (const i of plan.valueAt) params[i] = at.value;
      for (const i of plan.idAt) params[i] = at.id;
      params[params.length - 1] = count;
      sql = plan.sql;
    } else {
      const compiled = compileQuery(db, { filter: view.filter, sort: view.sort, limit: Math.min(1000, count), ...(after === undefined ? {} : { after }) });
      if (compiled.plan === 'empty') return undefined;
      sql = compiled.sql;
      params = [...compiled.params.slice(0, -1), count];
    }
    let last: Record<string, number> | null = null;
    const cursorOf = (row: Record<string, number>) => encodeCursor(field, { value: row[column] as number, id: row['id'] as number });
    for (const row of db.prepare(sql).iterate(...params) as Iterable<Record<string, number>>) {
      last = row;
      onRow(() => cursorOf(row));
    }
    return last ? cursorOf(last) : undefined;
  }

  /**
   * Plans the view's query once and finds where the keyset cursor goes in its parameters, without
   * assuming the engine's layout: two plans with two different made-up cursors differ exactly in the
   * keyset parameters, and each differing one equals either the cursor's value or its id.
   */
  #continuation(db: Db, view: View): Continuation | null {
    if (view.continuation !== undefined) return view.continuation;
    const field = view.sort.field;
    const probes = [
      { value: 7_340_033.5, id: 900_000_001 },
      { value: 3_145_727.25, id: 800_000_003 },
    ].map((c) => (field === 'created_at' || field === 'price' || field === 'id' ? { value: Math.floor(c.value), id: c.id } : c));
    const [a, b] = probes.map((c) => compileQuery(db, { filter: view.filter, sort: view.sort, limit: 1000, after: encodeCursor(field, c) })) as [
      ReturnType<typeof compileQuery>,
      ReturnType<typeof compileQuery>,
    ];
    const [pa, pb] = probes as [{ value: number; id: number }, { value: number; id: number }];
    let shape: Continuation | null = null;
    // a plan holding ids read while planning answers the book as it was then: planned again each time
    if (a.plan !== 'empty' && !a.holdsIds && a.sql === b.sql && a.params.length === b.params.length) {
      const valueAt: number[] = [];
      const idAt: number[] = [];
      let understood = true;
      a.params.forEach((param, i) => {
        if (Object.is(param, b.params[i]) || i === a.params.length - 1) return;
        if (param === pa.id && b.params[i] === pb.id) idAt.push(i);
        else if (param === pa.value && b.params[i] === pb.value) valueAt.push(i);
        else understood = false;
      });
      if (understood && idAt.length > 0) shape = { sql: a.sql, params: a.params, idAt, valueAt };
    }
    view.continuation = shape;
    return shape;
  }


}

/**
 * The two keyset statements a positional view of the book asks again and again with another cursor:
 * "the rows after this cursor" (a walk) and "how many rows lie at or before it" (where that cursor is
 * now). The engine plans a query with a few capped counts (tens of ms on a big filtered view), so each
 * planned statement is kept per view and only its keyset parameters change (checked against the
 * engine's output the first time; otherwise every call is planned anew).
 */
import type { Db } from '../../store/index.ts';
import { compileQuery, countAhead, decodeCursor, encodeCursor, type CompiledQuery } from '../../query/index.ts';
import type { BookFilter, BookQuery } from '../../../shared/query.ts';

type Sort = BookQuery['sort'];

/** The column of the engine's SELECT that holds each sort field's value (see src/core/query). */
const SORT_COLUMN: Record<Sort['field'], string> = {
  price: 'price',
  created_at: 'created_ms',
  id: 'id',
  float: 'cs_paint_wear',
  fade: 'cs_fade_percentage',
  blue: 'cs_blue_percentage',
};

/** A planned statement with its keyset parameters' places. */
interface KeysetStatement {
  sql: string;
  params: unknown[];
  /** Places of the cursor's id and of its sort value in `params`. */
  idAt: number[];
  valueAt: number[];
}

interface Planned {
  /** The page after a cursor; its last parameter is the limit. */
  page: KeysetStatement;
  ahead: KeysetStatement | null;
}

type Probe = { value: number; id: number };

/**
 * Where a cursor goes in a statement's parameters, without assuming the engine's layout: the statements
 * of two made-up cursors differ exactly in the keyset parameters, and each differing one equals either
 * the cursor's value or its id. `limitLast`: the last parameter is a limit (it differs, and is no keyset).
 */
function keysetPlaces(
  a: { sql: string; params: unknown[] },
  b: { sql: string; params: unknown[] },
  [pa, pb]: [Probe, Probe],
  limitLast: boolean,
): KeysetStatement | null {
  if (a.sql !== b.sql || a.params.length !== b.params.length) return null;
  const valueAt: number[] = [];
  const idAt: number[] = [];
  let understood = true;
  a.params.forEach((param, i) => {
    if (Object.is(param, b.params[i]) || (limitLast && i === a.params.length - 1)) return;
    if (param === pa.id && b.params[i] === pb.id) idAt.push(i);
    else if (param === pa.value && b.params[i] === pb.value) valueAt.push(i);
    else understood = false;
  });
  return understood && idAt.length > 0 ? { sql: a.sql, params: a.params, idAt, valueAt } : null;
}

export class ViewStatements {
  readonly #filter: BookFilter;
  readonly #sort: Sort;
  /** undefined: not planned yet; null: the engine's parameters did not have the expected shape. */
  #planned: Planned | null | undefined;

  constructor(filter: BookFilter, sort: Sort) {
    this.#filter = filter;
    this.#sort = sort;
  }

  /**
   * Reads up to `count` rows of the view after a cursor, in the engine's own order and plan, calling
   * `onRow` with a lazy cursor of each; returns the cursor of the last row read.
   */
  scan(db: Db, after: string | undefined, count: number, onRow: (cursor: () => string) => void): string | undefined {
    const field = this.#sort.field;
    const column = SORT_COLUMN[field];
    let sql: string;
    let params: unknown[];
    const plan = after === undefined ? null : this.#plan(db);
    if (plan) {
      params = this.#bind(plan.page, after as string);
      params[params.length - 1] = count;
      sql = plan.page.sql;
    } else {
      const compiled = compileQuery(db, { filter: this.#filter, sort: this.#sort, limit: Math.min(1000, count), ...(after === undefined ? {} : { after }) });
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

  /** How many rows of the view lie at or before `cursor` now: the row its next page starts at. */
  countAhead(db: Db, cursor: string): number {
    const ahead = this.#plan(db)?.ahead;
    if (!ahead) return countAhead(db, { filter: this.#filter, sort: this.#sort, after: cursor });
    return db.prepare(ahead.sql).pluck().get(...this.#bind(ahead, cursor)) as number;
  }

  #bind(statement: KeysetStatement, cursor: string): unknown[] {
    const at = decodeCursor(this.#sort.field, cursor);
    const params = [...statement.params];
    for (const i of statement.valueAt) params[i] = at.value;
    for (const i of statement.idAt) params[i] = at.id;
    return params;
  }

  #plan(db: Db): Planned | null {
    if (this.#planned !== undefined) return this.#planned;
    const field = this.#sort.field;
    const probes = [
      { value: 7_340_033.5, id: 900_000_001 },
      { value: 3_145_727.25, id: 800_000_003 },
    ].map((c) => (field === 'created_at' || field === 'price' || field === 'id' ? { value: Math.floor(c.value), id: c.id } : c)) as [Probe, Probe];
    const [a, b] = probes.map((c) => compileQuery(db, { filter: this.#filter, sort: this.#sort, limit: 1000, after: encodeCursor(field, c) })) as [
      CompiledQuery,
      CompiledQuery,
    ];
    let planned: Planned | null = null;
    // a plan holding ids read while planning answers the book as it was then: planned again each time
    if (a.plan !== 'empty' && !a.holdsIds) {
      const page = keysetPlaces(a, b, probes, true);
      const ahead = a.aheadCount && b.aheadCount ? keysetPlaces(a.aheadCount, b.aheadCount, probes, false) : null;
      if (page) planned = { page, ahead };
    }
    this.#planned = planned;
    return planned;
  }
}

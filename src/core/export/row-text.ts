/**
 * Rows as text, the same for the command line and the app's exports: JSON lines, or CSV with a header
 * row (RFC 4180 quoting; booleans as true/false, arrays and objects as JSON, null as an empty field).
 */
import { stringify } from 'csv-stringify/sync';

export type RowFormat = 'jsonl' | 'csv';

const csvCell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

/** The CSV header line of `columns` (JSON lines have none). */
export function headerText(columns: readonly string[], format: RowFormat): string {
  return format === 'csv' ? stringify([[...columns]]) : '';
}

/** One line per row, newline-terminated. */
export function rowsText<C extends string>(
  rows: readonly Record<C, unknown>[],
  columns: readonly C[],
  format: RowFormat,
): string {
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  if (rows.length === 0) return '';
  return stringify(
    rows.map((row) => columns.map((c) => csvCell(row[c]))),
    { cast: { boolean: (v) => (v ? 'true' : 'false') } },
  );
}

/**
 * Keyset cursors: the sort value and id of the last row of a page, so the next page starts right after
 * it with an index seek (no OFFSET, which costs the whole skipped prefix on a million rows). Opaque to
 * callers: base64url of a small JSON array, checked when it comes back.
 */
export interface Cursor {
  /** The sort field's value in the last row (a number, or a string for created_at). */
  value: number | string;
  id: number;
}

export class InvalidCursorError extends Error {
  constructor() {
    super('the page cursor is not valid for this query (start again from the first page)');
    this.name = 'InvalidCursorError';
  }
}

export function encodeCursor(field: string, cursor: Cursor): string {
  return Buffer.from(JSON.stringify([field, cursor.value, cursor.id]), 'utf8').toString('base64url');
}

export function decodeCursor(field: string, text: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw new InvalidCursorError();
  const [f, value, id] = parsed as unknown[];
  if (f !== field || !Number.isSafeInteger(id)) throw new InvalidCursorError();
  if (typeof value !== 'number' && typeof value !== 'string') throw new InvalidCursorError();
  if (typeof value === 'number' && !Number.isFinite(value)) throw new InvalidCursorError();
  return { value, id: id as number };
}

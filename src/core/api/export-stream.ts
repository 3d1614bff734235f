/**
 * Streams `GET /orders/export` to a file without holding it in memory, checking every row against the
 * contract on the way (a CSV record or a JSON object at a time), so a broken export fails loudly instead
 * of leaving a silently wrong file. The body goes to `<file>.partial` and is renamed into place only when
 * complete and valid; on any failure the partial file is removed.
 */
import { ORDER_EXPORT_COLUMNS, orderExportRow } from '../../shared/api/index.ts';
import { writeFileInPlace } from '../export/file-in-place.ts';
import { summarizeIssues } from '../../shared/contract-issues.ts';

export { ExportFileError } from '../export/file-in-place.ts';

export type ExportFormat = 'csv' | 'json';

export interface ExportProgress {
  /** Bytes written so far. */
  bytes: number;
  /** From Content-Length when the server sent it. */
  totalBytes: number | null;
  /** Order rows checked and written so far. */
  rows: number;
}

export interface ExportResult {
  file: string;
  bytes: number;
  rows: number;
  format: ExportFormat;
}

/** Thrown by a row checker: the export broke the contract at `row` (1-based, header excluded). */
export class ExportFormatError extends Error {
  readonly row: number;
  constructor(row: number, message: string) {
    super(row > 0 ? `row ${row}: ${message}` : message);
    this.name = 'ExportFormatError';
    this.row = row;
  }
}

interface RowChecker {
  /** Feeds decoded text; returns how many complete rows it checked. */
  push(text: string): number;
  /** Called at end of stream; throws when the document is incomplete. */
  end(): number;
}

/** How a row's problems are worded: the first three, a problem of the whole row named as such. */
const ROW_ISSUES = { max: 3, root: '(row)' };

const NUMERIC_COLUMNS = new Set(['order_item_id', 'order_id', 'app_id', 'amount', 'unit_price', 'total_value', 'fee', 'net']);
const NULLABLE_COLUMNS = new Set(['fee', 'settled_at']);

/** RFC 4180 records, split incrementally (quoted fields may hold commas, quotes and newlines). */
class CsvChecker implements RowChecker {
  #field = '';
  #record: string[] = [];
  #inQuotes = false;
  /** A quote just closed a quoted field; a second quote right after it is an escaped quote. */
  #quotePending = false;
  #header: string[] | null = null;
  #rows = 0;

  push(text: string): number {
    let checked = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (this.#inQuotes) {
        if (ch === '"') {
          this.#inQuotes = false;
          this.#quotePending = true;
        } else this.#field += ch;
        continue;
      }
      if (this.#quotePending && ch === '"') {
        this.#field += '"';
        this.#inQuotes = true;
        this.#quotePending = false;
        continue;
      }
      this.#quotePending = false;
      if (ch === '"') this.#inQuotes = true;
      else if (ch === ',') this.#endField();
      else if (ch === '\n') checked += this.#endRecord();
      else if (ch !== '\r') this.#field += ch;
    }
    return checked;
  }

  end(): number {
    if (this.#inQuotes) throw new ExportFormatError(this.#rows + 1, 'the export ends inside a quoted field');
    const checked = this.#field !== '' || this.#record.length > 0 ? this.#endRecord() : 0;
    if (!this.#header) throw new ExportFormatError(0, 'the CSV export has no header row');
    return checked;
  }

  #endField(): void {
    this.#record.push(this.#field);
    this.#field = '';
  }

  #endRecord(): number {
    this.#endField();
    const record = this.#record;
    this.#record = [];
    if (!this.#header) {
      const missing = ORDER_EXPORT_COLUMNS.filter((c) => !record.includes(c));
      if (missing.length > 0) throw new ExportFormatError(0, `the CSV header lacks ${missing.join(', ')}`);
      this.#header = record;
      return 0;
    }
    if (record.length === 1 && record[0] === '') return 0; // blank line
    this.#rows += 1;
    if (record.length !== this.#header.length) {
      throw new ExportFormatError(this.#rows, `${record.length} fields where the header has ${this.#header.length}`);
    }
    const row: Record<string, unknown> = {};
    this.#header.forEach((column, i) => {
      const raw = record[i] as string;
      if (raw === '' && NULLABLE_COLUMNS.has(column)) row[column] = null;
      else if (NUMERIC_COLUMNS.has(column) && /^-?\d+$/.test(raw)) row[column] = Number(raw);
      else row[column] = raw;
    });
    const parsed = orderExportRow.safeParse(row);
    if (!parsed.success) throw new ExportFormatError(this.#rows, summarizeIssues(parsed.error, ROW_ISSUES));
    return 1;
  }
}

/**
 * `{ "orders": [ {...}, ... ] }` checked one row object at a time: a small scanner tracks nesting and
 * strings, captures each object inside the top-level `orders` array and parses only that.
 */
class JsonChecker implements RowChecker {
  #depth = 0;
  #inString = false;
  #escape = false;
  /** Text of the string being read at depth 1 (a key of the top-level object). */
  #topString = '';
  #lastTopKey = '';
  #inOrders = false;
  #sawOrders = false;
  #row: string | null = null;
  #rows = 0;
  #started = false;

  push(text: string): number {
    let checked = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (this.#row !== null) this.#row += ch;
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (ch === '\\') this.#escape = true;
        else if (ch === '"') {
          this.#inString = false;
          if (this.#depth === 1) this.#lastTopKey = this.#topString;
        } else if (this.#depth === 1) this.#topString += ch;
        continue;
      }
      if (ch === '"') {
        this.#inString = true;
        if (this.#depth === 1) this.#topString = '';
      } else if (ch === '{' || ch === '[') {
        if (!this.#started) {
          if (ch !== '{') throw new ExportFormatError(0, 'the JSON export is not an object');
          this.#started = true;
        }
        this.#depth += 1;
        if (this.#depth === 2 && ch === '[' && this.#lastTopKey === 'orders') {
          this.#inOrders = true;
          this.#sawOrders = true;
        }
        if (this.#depth === 3 && this.#inOrders && this.#row === null) {
          if (ch !== '{') throw new ExportFormatError(this.#rows + 1, 'an orders entry is not an object');
          this.#row = '{';
        }
      } else if (ch === '}' || ch === ']') {
        this.#depth -= 1;
        if (this.#depth < 0) throw new ExportFormatError(this.#rows, 'unbalanced JSON');
        if (this.#depth === 2 && this.#row !== null) {
          checked += this.#checkRow(this.#row);
          this.#row = null;
        }
        if (this.#depth === 1) this.#inOrders = false;
      } else if (!this.#started && !/\s/.test(ch)) {
        throw new ExportFormatError(0, 'the JSON export is not an object');
      }
    }
    return checked;
  }

  end(): number {
    if (!this.#started || this.#depth !== 0 || this.#inString) {
      throw new ExportFormatError(this.#rows, 'the JSON export ended before its closing brace');
    }
    if (!this.#sawOrders) throw new ExportFormatError(0, 'the JSON export has no "orders" array');
    return 0;
  }

  #checkRow(text: string): number {
    this.#rows += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ExportFormatError(this.#rows, 'not valid JSON');
    }
    const parsed = orderExportRow.safeParse(value);
    if (!parsed.success) throw new ExportFormatError(this.#rows, summarizeIssues(parsed.error, ROW_ISSUES));
    return 1;
  }
}

export interface WriteExportOptions {
  format: ExportFormat;
  totalBytes: number | null;
  onProgress?: (progress: ExportProgress) => void;
  /** Called on every chunk received, so the caller can push back an idle timeout. */
  onChunk?: () => void;
}

/** Writes the body to `file` through `<file>.partial`; validates every row; never buffers the whole body. */
export async function writeExport(
  body: ReadableStream<Uint8Array>,
  file: string,
  options: WriteExportOptions,
): Promise<ExportResult> {
  const checker: RowChecker = options.format === 'csv' ? new CsvChecker() : new JsonChecker();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const progress: ExportProgress = { bytes: 0, totalBytes: options.totalBytes, rows: 0 };
  // every chunk is checked before it is written; the document's end is checked before the rename
  async function* checked(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      options.onChunk?.();
      progress.rows += checker.push(decoder.decode(chunk, { stream: true }));
      yield chunk;
    }
    progress.rows += checker.push(decoder.decode());
    progress.rows += checker.end();
  }
  progress.bytes = await writeFileInPlace(file, checked(), (bytes) => {
    progress.bytes = bytes;
    options.onProgress?.({ ...progress });
  });
  options.onProgress?.({ ...progress });
  return { file, bytes: progress.bytes, rows: progress.rows, format: options.format };
}

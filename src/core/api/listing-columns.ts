/**
 * A book's lean listings held column by column: typed arrays in blocks of 64k rows plus an interned name
 * table. A million listings take ~41 MB this way, against ~300 MB as a million JavaScript objects, which
 * is what lets a streamed `/book` answer be held until its `seq` is known (it may come after the rows)
 * and kept as the ETag cache's copy for a 304.
 *
 * Only the contract's lean fields are kept (unknown extra keys are dropped: nothing downstream reads
 * them). `created_at` is kept as epoch milliseconds; its text is rebuilt on read, and the rare timestamp
 * whose text is not the canonical `YYYY-MM-DDTHH:mm:ss.sssZ` of its instant (an offset, no fraction)
 * keeps its exact text on the side, so a row reads back exactly as received.
 */
import type { AppId, LeanListing } from '../../shared/api/index.ts';

const BLOCK_BITS = 16;
const BLOCK_ROWS = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_ROWS - 1;
const DAY_MS = 86_400_000;
const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

const ROW_BYTES = 8 + 4 + 8 + 8 + 1 + 8 + 4;
/** The first block starts small (a small book costs kilobytes) and doubles up to BLOCK_ROWS. */
const FIRST_BLOCK_ROWS = 256;

class Block {
  ids: Float64Array;
  appIds: Int32Array;
  prices: Float64Array;
  amounts: Float64Array;
  commodity: Uint8Array;
  createdMs: Float64Array;
  names: Uint32Array;

  constructor(rows: number) {
    this.ids = new Float64Array(rows);
    this.appIds = new Int32Array(rows);
    this.prices = new Float64Array(rows);
    this.amounts = new Float64Array(rows);
    this.commodity = new Uint8Array(rows);
    this.createdMs = new Float64Array(rows);
    this.names = new Uint32Array(rows);
  }

  get capacity(): number {
    return this.ids.length;
  }

  /** A copy with twice the room (at most BLOCK_ROWS). */
  grown(): Block {
    const next = new Block(Math.min(BLOCK_ROWS, this.capacity * 2));
    next.ids.set(this.ids);
    next.appIds.set(this.appIds);
    next.prices.set(this.prices);
    next.amounts.set(this.amounts);
    next.commodity.set(this.commodity);
    next.createdMs.set(this.createdMs);
    next.names.set(this.names);
    return next;
  }
}

/** Where `HH:mm:ss.sss` has its digits in a canonical text. */
const TIME_DIGITS = [11, 12, 14, 15, 17, 18, 20, 21, 22];
const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const isDigit = (text: string, at: number) => {
  const d = digit(text, at);
  return d >= 0 && d <= 9;
};

/**
 * Canonical ISO texts (`YYYY-MM-DDTHH:mm:ss.sssZ`, Date#toISOString's form) to epoch ms and back, several
 * times faster than Date.parse and toISOString: the rows of a book fall on a few days, so the date part
 * is cached and only the time of day is computed.
 */
class IsoTimes {
  #day = Number.NaN;
  #prefix = '';
  #parsedPrefix = '';
  #parsedDayMs = Number.NaN;

  /** The instant of a canonical text, or NaN when the text is not canonical (format would not give it back). */
  parseCanonical(text: string): number {
    if (text.length !== 24 || text.charCodeAt(23) !== 0x5a /* Z */) return Number.NaN;
    if (!text.startsWith(this.#parsedPrefix) || this.#parsedPrefix === '') {
      const prefix = text.slice(0, 11);
      const dayMs = Date.parse(`${prefix}00:00:00.000Z`);
      if (Number.isNaN(dayMs) || this.#prefixOf(dayMs) !== prefix) return Number.NaN;
      this.#parsedPrefix = prefix;
      this.#parsedDayMs = dayMs;
    }
    if (text[13] !== ':' || text[16] !== ':' || text[19] !== '.') return Number.NaN;
    for (const at of TIME_DIGITS) if (!isDigit(text, at)) return Number.NaN;
    const h = digit(text, 11) * 10 + digit(text, 12);
    const m = digit(text, 14) * 10 + digit(text, 15);
    const s = digit(text, 17) * 10 + digit(text, 18);
    if (h > 23 || m > 59 || s > 59) return Number.NaN;
    const fraction = digit(text, 20) * 100 + digit(text, 21) * 10 + digit(text, 22);
    return this.#parsedDayMs + ((h * 60 + m) * 60 + s) * 1000 + fraction;
  }

  #prefixOf(dayMs: number): string {
    const date = new Date(dayMs);
    // Outside years 0000–9999 the ISO text has a sign and six digits: no prefix, never canonical here.
    return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 11);
  }

  format(ms: number): string {
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.#day) {
      this.#prefix = this.#prefixOf(day * DAY_MS);
      this.#day = day;
    }
    let rest = ms - day * DAY_MS;
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const s = Math.floor(rest / 1000);
    return `${this.#prefix}${PAD2[h]}:${PAD2[m]}:${PAD2[s]}.${PAD3[rest - s * 1000]}Z`;
  }
}

/** One row read back: the lean listing (a reused object) and its `created_at` in epoch ms. */
export interface ColumnRow {
  listing: LeanListing;
  createdMs: number;
}

export class ListingColumns {
  readonly #blocks: Block[] = [];
  readonly #names: string[] = [];
  #nameIndex: Map<string, number> | null = new Map();
  /** Rows whose created_at text is not the canonical form of its instant. */
  readonly #createdText = new Map<number, string>();
  readonly #iso = new IsoTimes();
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Approximate memory held, in bytes (for the ETag cache's budget). */
  get bytes(): number {
    let names = 0;
    for (const name of this.#names) names += 32 + name.length * 2;
    let rows = 0;
    for (const block of this.#blocks) rows += block.capacity;
    return rows * ROW_BYTES + names + this.#createdText.size * 64;
  }

  /** Appends one listing already checked against the contract (leanListing). */
  append(row: LeanListing): void {
    if (this.#nameIndex === null) throw new Error('ListingColumns: append after seal()');
    const i = this.#length;
    const offset = i & BLOCK_MASK;
    if (offset === 0) this.#blocks.push(new Block(i === 0 ? FIRST_BLOCK_ROWS : BLOCK_ROWS));
    let block = this.#blocks[i >>> BLOCK_BITS] as Block;
    if (offset === block.capacity) {
      block = block.grown();
      this.#blocks[i >>> BLOCK_BITS] = block;
    }
    block.ids[offset] = row.id;
    block.appIds[offset] = row.app_id;
    block.prices[offset] = row.price;
    block.amounts[offset] = row.amount;
    block.commodity[offset] = row.commodity ? 1 : 0;
    const name = row.market_hash_name;
    let nameId = this.#nameIndex.get(name);
    if (nameId === undefined) {
      nameId = this.#names.length;
      this.#names.push(name);
      this.#nameIndex.set(name, nameId);
    }
    block.names[offset] = nameId;
    const canonical = this.#iso.parseCanonical(row.created_at);
    if (Number.isNaN(canonical)) {
      block.createdMs[offset] = Date.parse(row.created_at);
      this.#createdText.set(i, row.created_at);
    } else block.createdMs[offset] = canonical;
    this.#length = i + 1;
  }

  /** No more rows: drops the name lookup table that only appending needs. */
  seal(): this {
    this.#nameIndex = null;
    return this;
  }

  /** Fills `into` with row `i` (no allocation per row: the caller reuses one object). */
  read(i: number, into: ColumnRow): ColumnRow {
    if (!(i >= 0 && i < this.#length)) throw new RangeError(`row ${i} of ${this.#length}`);
    const block = this.#blocks[i >>> BLOCK_BITS] as Block;
    const offset = i & BLOCK_MASK;
    const listing = into.listing;
    listing.id = block.ids[offset] as number;
    listing.app_id = block.appIds[offset] as AppId;
    listing.market_hash_name = this.#names[block.names[offset] as number] as string;
    listing.price = block.prices[offset] as number;
    listing.amount = block.amounts[offset] as number;
    listing.commodity = block.commodity[offset] === 1;
    const ms = block.createdMs[offset] as number;
    const text = this.#createdText.size > 0 ? this.#createdText.get(i) : undefined;
    listing.created_at = text ?? this.#iso.format(ms);
    into.createdMs = ms;
    return into;
  }

  /** A fresh object for row `i`. */
  at(i: number): LeanListing {
    return { ...this.read(i, newColumnRow()).listing };
  }

  /** Every row as a fresh object: for callers that want an array (tests, small books). */
  toArray(): LeanListing[] {
    const row = newColumnRow();
    return Array.from({ length: this.#length }, (_, i) => ({ ...this.read(i, row).listing }));
  }

  static from(rows: Iterable<LeanListing>): ListingColumns {
    const columns = new ListingColumns();
    for (const row of rows) columns.append(row);
    return columns.seal();
  }
}

export function newColumnRow(): ColumnRow {
  return {
    listing: { id: 0, app_id: 730, market_hash_name: '', price: 0, amount: 0, commodity: false, created_at: '' },
    createdMs: 0,
  };
}

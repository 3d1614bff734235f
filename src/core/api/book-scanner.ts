/**
 * Reads the JSON of a `/book` answer, `{ "seq": <int64>, "listings": [ {...}, ... ] }`, as its bytes
 * arrive, so the body is never held whole: a million listings are ~165 MB of text, twice that as one
 * JavaScript string. The listings array is cut into pieces of about PIECE_BYTES of complete elements, each
 * parsed with JSON.parse and handed on; every other top-level member is read whole (it is small), in any
 * order (seq may come after the listings), with `seq` kept as its exact source text.
 *
 * Finding where elements end exactly means following strings and nesting byte by byte, which costs about
 * as much as JSON.parse itself. So pieces are cut by a guess checked by JSON.parse: the last `}`,`{`
 * (whitespace allowed around the comma) before the piece's size limit. The piece starts where an element
 * starts, so if the cut fell inside a string the piece ends inside that string, and if it fell inside a
 * nested value the piece's brackets do not balance: either way `JSON.parse('[' + piece + ']')` fails. It
 * succeeds only when the cut is a real boundary between two listings. When it fails (a name containing
 * `},{`, the end of the array, a malformed body) the exact scan takes over for the bytes at hand.
 *
 * Malformed or truncated input throws BookBodyError, whose message is plain words without any body text.
 */
/**
 * Pieces stay small: their text (up to twice its bytes as a two-byte string) and parsed objects then die
 * young, in the scavenged new space. Pieces of 1 MB land in the large-object space, freed only by full
 * collections, and the process grew by ~100 MB more.
 */
export const PIECE_BYTES = 48 * 1024;

export class BookBodyError extends Error {
  override name = 'BookBodyError';
}

export interface BookBodyHandler {
  /** Complete elements of the listings array, parsed but unchecked; `first` is the index of the first. */
  listings(values: unknown[], first: number): void;
}

/** The top-level members read, once the body is complete. */
export interface BookBodyTop {
  /** `seq` as a bigint when its text is an integer, else as JSON.parse read it (the contract rejects it). */
  seq: unknown;
  /** Whether a `listings` array was read (its elements went to the handler). */
  listingsArray: boolean;
  /** `listings` when it was something other than an array (the contract rejects it). */
  listingsOther: unknown;
  /** Elements of the listings array. */
  count: number;
}

type TopState = 'start' | 'firstKey' | 'key' | 'colon' | 'value' | 'afterValue' | 'array' | 'end';
type ArrayState = 'first' | 'element' | 'after';
type ExactOutcome = 'more' | 'closed' | 'again';

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const INTEGER = /^-?(?:0|[1-9]\d*)$/;

const isSpace = (c: number | undefined) => c === SPACE || c === LF || c === CR || c === TAB;

/** A scan of one JSON value that can stop at the end of the bytes at hand and resume when more arrive. */
class ValueScan {
  /** Where the value starts (its first byte, never whitespace). */
  from: number;
  i: number;
  depth = 0;
  inString = false;
  escaped = false;
  readonly scalar: boolean;

  constructor(buf: Uint8Array, from: number) {
    this.from = from;
    this.i = from + 1;
    const c = buf[from];
    if (c === QUOTE) this.inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth = 1;
    this.scalar = !this.inString && this.depth === 0;
  }

  /** The index just past the value, or -1 when it goes on past `end` (and more input may come). */
  run(buf: Uint8Array, end: number, final: boolean): number {
    let i = this.i;
    if (this.scalar) {
      for (; i < end; i++) {
        const c = buf[i];
        if (isSpace(c) || c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) return i;
      }
      this.i = i;
      return final ? end : -1;
    }
    let { depth, inString, escaped } = this;
    for (; i < end; i++) {
      const c = buf[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 0) return i + 1;
        }
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) return i + 1;
      }
    }
    Object.assign(this, { i, depth, inString, escaped });
    return -1;
  }

  shift(by: number): void {
    this.from -= by;
    this.i -= by;
  }
}

export class BookBodyScanner {
  readonly #handler: BookBodyHandler;
  readonly #pieceBytes: number;
  readonly #decoder = new TextDecoder();
  #buf: Uint8Array;
  /** First byte not consumed yet. */
  #start = 0;
  /** Bytes held. */
  #end = 0;
  /** Offset in the body of #buf[0], for error messages. */
  #base = 0;
  #state: TopState = 'start';
  #array: ArrayState = 'first';
  #key = '';
  #scan: ValueScan | null = null;
  #count = 0;
  #sawListings = false;
  #finished = false;
  readonly #top: BookBodyTop = { seq: undefined, listingsArray: false, listingsOther: undefined, count: 0 };
  /** Pieces cut by a guess JSON.parse confirmed, and runs parsed after the exact scan (diagnostics). */
  readonly pieces = { guessed: 0, exact: 0 };

  /** `pieceBytes`: the size of the pieces parsed at once (tests make it tiny to cut everywhere). */
  constructor(handler: BookBodyHandler, pieceBytes = PIECE_BYTES) {
    this.#handler = handler;
    this.#pieceBytes = Math.max(1, Math.floor(pieceBytes));
    this.#buf = new Uint8Array(Math.min(Math.max(4096, this.#pieceBytes * 2), 2 * PIECE_BYTES));
  }

  push(bytes: Uint8Array): void {
    if (this.#finished) throw new Error('BookBodyScanner: push after finish');
    this.#reserve(bytes.length);
    this.#buf.set(bytes, this.#end);
    this.#end += bytes.length;
    this.#drain(false);
  }

  /** The body is complete: reads what is left and returns the top-level members. */
  finish(): BookBodyTop {
    if (this.#finished) throw new Error('BookBodyScanner: finish twice');
    this.#finished = true;
    this.#drain(true);
    if (this.#state !== 'end') throw this.#fail(this.#base + this.#end, 'the response ends early (truncated)');
    this.#top.count = this.#count;
    return this.#top;
  }

  /** Makes room for `n` more bytes: drops consumed bytes, grows when still short. */
  #reserve(n: number): void {
    if (this.#end + n <= this.#buf.length) return;
    const keep = this.#start;
    if (keep > 0) {
      this.#buf.copyWithin(0, keep, this.#end);
      this.#end -= keep;
      this.#start = 0;
      this.#base += keep;
      this.#scan?.shift(keep);
    }
    if (this.#end + n > this.#buf.length) {
      const grown = new Uint8Array(Math.max(this.#buf.length * 2, this.#end + n));
      grown.set(this.#buf.subarray(0, this.#end));
      this.#buf = grown;
    }
  }

  #fail(at: number, what: string): BookBodyError {
    return new BookBodyError(`${what} (at byte ${at})`);
  }

  /** The first non-whitespace index from #start, or #end. */
  #skipSpace(): number {
    const buf = this.#buf;
    let i = this.#start;
    while (i < this.#end && isSpace(buf[i])) i++;
    this.#start = i;
    return i;
  }

  #drain(final: boolean): void {
    const buf = this.#buf;
    for (;;) {
      if (this.#state === 'array') {
        if (this.#scan === null && this.#end - this.#start >= this.#pieceBytes && this.#guessedPiece()) continue;
        if (this.#scan === null && !final && this.#end - this.#start < this.#pieceBytes) return;
        const outcome = this.#exactElements(final);
        if (outcome === 'more') return;
        continue;
      }
      if (this.#scan !== null) {
        // A top-level key or value in progress.
        const scan = this.#scan;
        const end = scan.run(this.#buf, this.#end, final);
        if (end < 0) return;
        this.#scan = null;
        this.#start = end;
        this.#topToken(scan.from, end);
        continue;
      }
      const i = this.#skipSpace();
      if (i === this.#end) return;
      const c = buf[i] as number;
      switch (this.#state) {
        case 'start':
          // A byte-order mark is not JSON, but response.text() drops it: so does this reader.
          if (c === 0xef && this.#base + i === 0) {
            if (this.#end - i < 3) {
              if (final) throw this.#fail(this.#base + i, 'the response is not valid JSON');
              return;
            }
            if (buf[i + 1] === 0xbb && buf[i + 2] === 0xbf) {
              this.#start = i + 3;
              continue;
            }
          }
          if (c !== OPEN_BRACE) throw this.#fail(this.#base + i, 'the response is not a JSON object');
          this.#start = i + 1;
          this.#state = 'firstKey';
          break;
        case 'firstKey':
        case 'key':
          if (c === CLOSE_BRACE && this.#state === 'firstKey') {
            this.#start = i + 1;
            this.#state = 'end';
          } else if (c === QUOTE) this.#scan = new ValueScan(buf, i);
          else throw this.#fail(this.#base + i, 'the response is not valid JSON (a key was expected)');
          break;
        case 'colon':
          if (c !== COLON) throw this.#fail(this.#base + i, 'the response is not valid JSON (":" was expected)');
          this.#start = i + 1;
          this.#state = 'value';
          break;
        case 'value':
          if (this.#key === 'listings' && c === OPEN_BRACKET) {
            this.#noteListings(this.#base + i);
            this.#top.listingsArray = true;
            this.#start = i + 1;
            this.#state = 'array';
            this.#array = 'first';
          } else this.#scan = new ValueScan(buf, i);
          break;
        case 'afterValue':
          this.#start = i + 1;
          if (c === COMMA) this.#state = 'key';
          else if (c === CLOSE_BRACE) this.#state = 'end';
          else throw this.#fail(this.#base + i, 'the response is not valid JSON ("," or "}" was expected)');
          break;
        case 'end':
          throw this.#fail(this.#base + i, 'the response has data after its JSON value');
      }
    }
  }

  /** A complete top-level token: a key (in 'firstKey'/'key') or a member's value (in 'value'). */
  #topToken(from: number, to: number): void {
    const text = this.#decoder.decode(this.#buf.subarray(from, to));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.#fail(this.#base + from, 'the response is not valid JSON');
    }
    if (this.#state === 'value') {
      if (this.#key === 'seq') {
        // Exact for int64: a number's own digits, never a double's rounding (9007199254740993 stays so).
        if (INTEGER.test(text)) this.#top.seq = BigInt(text);
        else this.#top.seq = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
      } else if (this.#key === 'listings') {
        this.#noteListings(this.#base + from);
        this.#top.listingsOther = value;
      }
      this.#state = 'afterValue';
      return;
    }
    this.#key = value as string;
    this.#state = 'colon';
  }

  #noteListings(at: number): void {
    if (this.#sawListings) throw this.#fail(at, 'the response has two "listings" members');
    this.#sawListings = true;
  }

  /**
   * The guessed cut: the last `}` `,` `{` before #start + PIECE_BYTES, kept only when JSON.parse accepts
   * the piece (see the file comment for why that proves the cut). False when no cut was taken.
   */
  #guessedPiece(): boolean {
    const buf = this.#buf;
    if (this.#array === 'after') {
      // Right after an element the exact path read: its comma first.
      const i = this.#skipSpace();
      if (buf[i] !== COMMA || i === this.#end) return false;
      this.#start = i + 1;
      this.#array = 'element';
    }
    const from = this.#start;
    let brace = Math.min(this.#end, from + this.#pieceBytes);
    for (let tries = 0; tries < 16; tries++) {
      brace = buf.lastIndexOf(OPEN_BRACE, brace - 1);
      if (brace <= from) return false;
      let k = brace - 1;
      while (k > from && isSpace(buf[k])) k--;
      if (buf[k] !== COMMA) continue;
      k--;
      while (k > from && isSpace(buf[k])) k--;
      if (k <= from || buf[k] !== CLOSE_BRACE) continue;
      const values = this.#parseElements(from, k + 1);
      if (values === null) return false;
      this.pieces.guessed++;
      this.#emit(values);
      this.#start = brace;
      this.#array = 'element';
      return true;
    }
    return false;
  }

  /**
   * The exact path: element by element, the bytes at hand. Complete elements are parsed in runs of up to
   * PIECE_BYTES; 'again' hands back to the guessed cuts after a full run.
   */
  #exactElements(final: boolean): ExactOutcome {
    const buf = this.#buf;
    let runFrom = -1;
    let runTo = -1;
    const flush = () => {
      if (runFrom < 0) return;
      const values = this.#parseElements(runFrom, runTo);
      if (values === null) throw this.#fail(this.#base + runFrom, 'the response is not valid JSON (in "listings")');
      this.pieces.exact++;
      this.#emit(values);
      runFrom = -1;
    };
    for (;;) {
      if (this.#scan !== null) {
        const scan = this.#scan;
        const end = scan.run(buf, this.#end, final);
        if (end < 0) {
          flush();
          return 'more';
        }
        this.#scan = null;
        if (runFrom < 0) runFrom = scan.from;
        runTo = end;
        this.#start = end;
        this.#array = 'after';
        if (runTo - runFrom >= this.#pieceBytes) {
          flush();
          return 'again';
        }
        continue;
      }
      const i = this.#skipSpace();
      if (i === this.#end) {
        if (final) throw this.#fail(this.#base + i, 'the response ends early (truncated)');
        flush();
        return 'more';
      }
      const c = buf[i] as number;
      if (this.#array === 'after') {
        if (c === COMMA) {
          this.#start = i + 1;
          this.#array = 'element';
        } else if (c === CLOSE_BRACKET) {
          flush();
          this.#start = i + 1;
          this.#state = 'afterValue';
          return 'closed';
        } else throw this.#fail(this.#base + i, 'the response is not valid JSON ("," or "]" was expected in "listings")');
      } else if (c === CLOSE_BRACKET && this.#array === 'first') {
        this.#start = i + 1;
        this.#state = 'afterValue';
        return 'closed';
      } else if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === COLON) {
        throw this.#fail(this.#base + i, 'the response is not valid JSON (a value was expected in "listings")');
      } else this.#scan = new ValueScan(buf, i);
    }
  }

  /** `JSON.parse('[' + bytes + ']')`, or null when that is not valid JSON. */
  #parseElements(from: number, to: number): unknown[] | null {
    const text = this.#decoder.decode(this.#buf.subarray(from, to));
    try {
      return JSON.parse(`[${text}]`) as unknown[];
    } catch {
      return null;
    }
  }

  #emit(values: unknown[]): void {
    const first = this.#count;
    this.#count += values.length;
    this.#handler.listings(values, first);
  }
}

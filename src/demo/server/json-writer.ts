/**
 * Writes JSON straight into big byte buffers: the book snapshot of a million listings is ~160 MB, and
 * building it as JavaScript strings (template literals, Date#toISOString per row) costs seconds, while
 * copying pre-encoded fragments and writing digits by hand costs a fraction of one.
 */
const DAY_MS = 86_400_000;
const ZERO = 48;

export class JsonChunkWriter {
  private readonly chunkSize: number;
  private buf: Buffer;
  private pos = 0;
  private readonly done: Buffer[] = [];
  private lastDay = Number.NaN;
  private dayPrefix: Uint8Array = new Uint8Array(0);

  constructor(chunkSize = 8 * 1024 * 1024) {
    this.chunkSize = chunkSize;
    this.buf = Buffer.allocUnsafe(chunkSize);
  }

  /** Makes room for `n` more bytes (a row never straddles two chunks). */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(Math.max(n, this.chunkSize));
  }

  /** Copies bytes. A plain loop: for the short fragments of a row it beats a native copy call. */
  bytes(b: Uint8Array): void {
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < b.length; i++) buf[p++] = b[i]!;
    this.pos = p;
  }

  /** ASCII-only text (keys, punctuation, digits). */
  ascii(text: string): void {
    this.pos += this.buf.write(text, this.pos, 'latin1');
  }

  byte(code: number): void {
    this.buf[this.pos++] = code;
  }

  /** A non-negative safe integer. */
  uint(value: number): void {
    if (value < 10) {
      this.buf[this.pos++] = ZERO + value;
      return;
    }
    let digits = 1;
    for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
    let v = value;
    for (let i = this.pos + digits - 1; i >= this.pos; i--) {
      this.buf[i] = ZERO + (v % 10);
      v = Math.floor(v / 10);
    }
    this.pos += digits;
  }

  /** `YYYY-MM-DDTHH:MM:SS.mmmZ` for epoch milliseconds (UTC), without allocating a Date per call. */
  isoTimestamp(ms: number): void {
    const day = Math.floor(ms / DAY_MS);
    if (day !== this.lastDay) {
      this.lastDay = day;
      this.dayPrefix = Buffer.from(new Date(day * DAY_MS).toISOString().slice(0, 11), 'latin1');
    }
    this.bytes(this.dayPrefix);
    let rest = ms - day * DAY_MS;
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = Math.floor(rest / 1000);
    const millis = rest - seconds * 1000;
    this.two(hours);
    this.buf[this.pos++] = 58; // :
    this.two(minutes);
    this.buf[this.pos++] = 58;
    this.two(seconds);
    this.buf[this.pos++] = 46; // .
    this.buf[this.pos++] = ZERO + Math.floor(millis / 100);
    this.buf[this.pos++] = ZERO + (Math.floor(millis / 10) % 10);
    this.buf[this.pos++] = ZERO + (millis % 10);
    this.buf[this.pos++] = 90; // Z
  }

  /** Every chunk written so far (the writer must not be used afterwards). */
  finish(): Buffer[] {
    this.flush();
    return this.done;
  }

  /** Everything written since the last call, as one exact-size copy; the scratch space is reused. */
  take(): Buffer {
    const parts = [...this.done, this.buf.subarray(0, this.pos)];
    const out = parts.length === 1 ? Buffer.from(parts[0]!) : Buffer.concat(parts);
    this.done.length = 0;
    this.pos = 0;
    return out;
  }

  private two(value: number): void {
    this.buf[this.pos++] = ZERO + Math.floor(value / 10);
    this.buf[this.pos++] = ZERO + (value % 10);
  }

  private flush(): void {
    if (this.pos > 0) this.done.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(this.chunkSize);
    this.pos = 0;
  }
}

/**
 * Conditional-GET cache for the routes that answer with an ETag (prices/all, book, sales/averages).
 * It keeps the parsed body of the last 200 per request URL with its ETag; a 304 answers with that body.
 *
 * Bodies are large (a whole book), so the cache has a byte budget measured on the response text and
 * evicts the least recently used entry; a body bigger than the budget is simply not cached (the next
 * request is then unconditional, which is always correct).
 */

export interface CachedBody<T = unknown> {
  etag: string;
  value: T;
  bytes: number;
  storedAt: number;
}

export class EtagCache {
  readonly #entries = new Map<string, CachedBody>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 256 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  get(url: string): CachedBody | undefined {
    const entry = this.#entries.get(url);
    if (entry) {
      // Refresh recency: Map iteration order is insertion order.
      this.#entries.delete(url);
      this.#entries.set(url, entry);
    }
    return entry;
  }

  set(url: string, entry: CachedBody): void {
    this.delete(url);
    if (entry.bytes > this.#maxBytes) return;
    this.#entries.set(url, entry);
    this.#bytes += entry.bytes;
    for (const [key, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= old.bytes;
    }
  }

  delete(url: string): void {
    const old = this.#entries.get(url);
    if (!old) return;
    this.#entries.delete(url);
    this.#bytes -= old.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}

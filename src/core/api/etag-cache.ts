/**
 * Conditional-GET cache for the routes that answer with an ETag (prices/all, book, sales/averages).
 * It keeps the parsed body of the last 200 per request URL with its ETag; a 304 answers with that body.
 *
 * Bodies can be huge (a whole book of a million listings is hundreds of MB once parsed), and pinning one
 * in memory for the client's lifetime is exactly the "memory growth" bug others shipped. So only bodies
 * up to `strongBytes` of response text are held strongly (LRU within `maxBytes`); bigger ones are held
 * through a WeakRef: while the caller still holds the snapshot a 304 can answer with it, and once the
 * caller lets it go the garbage collector may take it and the next request is simply unconditional.
 */

export interface CachedBody<T = unknown> {
  etag: string;
  value: T;
  bytes: number;
  storedAt: number;
}

interface Entry {
  etag: string;
  bytes: number;
  storedAt: number;
  strong: unknown;
  weak: WeakRef<object> | null;
}

export interface EtagCacheOptions {
  /** Budget for strongly held bodies, in bytes of response text (default 64 MiB). */
  maxBytes?: number;
  /** Bodies larger than this are held weakly (default 8 MiB). */
  strongBytes?: number;
}

export class EtagCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxBytes: number;
  readonly #strongBytes: number;
  #bytes = 0;

  constructor(options: EtagCacheOptions = {}) {
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#strongBytes = Math.min(options.strongBytes ?? 8 * 1024 * 1024, this.#maxBytes);
  }

  get(url: string): CachedBody | undefined {
    const entry = this.#entries.get(url);
    if (!entry) return undefined;
    const value = entry.weak ? entry.weak.deref() : entry.strong;
    if (value === undefined) {
      this.delete(url);
      return undefined;
    }
    // Refresh recency: Map iteration order is insertion order.
    this.#entries.delete(url);
    this.#entries.set(url, entry);
    return { etag: entry.etag, value, bytes: entry.bytes, storedAt: entry.storedAt };
  }

  set(url: string, body: CachedBody): void {
    this.delete(url);
    const weak = body.bytes > this.#strongBytes;
    if (weak && (body.value === null || typeof body.value !== 'object')) return;
    this.#entries.set(url, {
      etag: body.etag,
      bytes: body.bytes,
      storedAt: body.storedAt,
      strong: weak ? undefined : body.value,
      weak: weak ? new WeakRef(body.value as object) : null,
    });
    if (weak) return;
    this.#bytes += body.bytes;
    for (const [key, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      if (old.weak) continue;
      this.delete(key);
    }
  }

  delete(url: string): void {
    const old = this.#entries.get(url);
    if (!old) return;
    this.#entries.delete(url);
    if (!old.weak) this.#bytes -= old.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Bytes of strongly held bodies. */
  get bytes(): number {
    return this.#bytes;
  }
}

/**
 * Seeded pseudo-random numbers (sfc32 seeded through splitmix32). The demo market draws every random
 * choice from one of these, never from Math.random, so the same --seed gives the same catalog, book and
 * activity. Separate concerns use separate streams (`Random.derive(seed, 'activity')`) so that, say, an
 * extra API call drawing a token does not shift the simulated market's sequence of actions.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      return mix32(s);
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** An independent stream for one concern, derived from the market seed and a label. */
  static derive(seed: number, label: string): Random {
    return new Random(mix32((seed >>> 0) ^ hashString(label)));
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Standard normal deviate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Lowercase hex string of `bytes` random bytes. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) out += this.u32().toString(16).padStart(8, '0');
    return out.slice(0, bytes * 2);
  }
}

/** murmur3's 32-bit finaliser: a cheap integer hash with good avalanche. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over UTF-16 code units. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Deterministic uniform [0, 1) from a 32-bit key, for per-item properties that need no stream. */
export function unitFromHash(key: number): number {
  return mix32(key) / 4294967296;
}

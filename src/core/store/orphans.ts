/**
 * Updates for listings the book does not hold. The spec says to ignore them, and for the book they are
 * ignored: they never create a listing. But the service runs on several processes, so a
 * `price_changed` can overtake the `listing.created` it follows; holding it for a short while lets the
 * late creation be followed by its update instead of leaving a wrong price until the next snapshot.
 * Bounded in count and age: an orphan whose creation never comes is simply dropped. Ages are on a
 * monotonic clock (the caller's `now`): on the wall clock a step ahead dropped every orphan at once, and
 * a step back held them for as long as the step, the oldest blocking the expiry of all held after it.
 */
import type { ListingEvent } from '../../shared/api/index.ts';

export const ORPHAN_TTL_MS = 30_000;
export const ORPHAN_MAX_LISTINGS = 10_000;

interface Held {
  events: ListingEvent[];
  heldAt: number;
}

export class OrphanUpdates {
  readonly #held = new Map<number, Held>();
  readonly #ttlMs: number;
  readonly #max: number;

  constructor(ttlMs = ORPHAN_TTL_MS, max = ORPHAN_MAX_LISTINGS) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  get size(): number {
    return this.#held.size;
  }

  hold(event: ListingEvent, now: number): void {
    if (event.event === 'listing.sold') return;
    const id = event.data.listing_id;
    const held = this.#held.get(id);
    if (held) {
      held.events.push(event);
      return;
    }
    if (this.#held.size >= this.#max) {
      const oldest = this.#held.keys().next();
      if (!oldest.done) this.#held.delete(oldest.value);
    }
    this.#held.set(id, { events: [event], heldAt: now });
  }

  /** The held updates of a listing in seq order, removing them. */
  take(id: number): ListingEvent[] {
    const held = this.#held.get(id);
    if (!held) return [];
    this.#held.delete(id);
    return held.events.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  }

  /** Drops orphans older than the TTL (the map is in insertion order, so the oldest come first). */
  expire(now: number): void {
    for (const [id, held] of this.#held) {
      if (now - held.heldAt < this.#ttlMs) break;
      this.#held.delete(id);
    }
  }

  clear(): void {
    this.#held.clear();
  }
}

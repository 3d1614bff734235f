/**
 * A FIFO of feed events with O(1) take from the front (Array.shift on a 100k-element array is O(n)).
 * The bound is enforced by the engine, which turns an overflow into a visible resync.
 */
import type { ListingEvent } from '../../shared/api/index.ts';

export class EventQueue {
  #items: ListingEvent[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(event: ListingEvent): void {
    this.#items.push(event);
  }

  /** Puts `events` in front of what is queued, keeping their order. */
  prepend(events: readonly ListingEvent[]): void {
    if (events.length === 0) return;
    this.#items = events.concat(this.#items.slice(this.#head));
    this.#head = 0;
  }

  /** Removes and returns up to `max` events from the front. */
  take(max: number): ListingEvent[] {
    const end = Math.min(this.#items.length, this.#head + max);
    const batch = this.#items.slice(this.#head, end);
    this.#head = end;
    if (this.#head > 4096 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return batch;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }

  *[Symbol.iterator](): Iterator<ListingEvent> {
    for (let i = this.#head; i < this.#items.length; i++) yield this.#items[i] as ListingEvent;
  }
}

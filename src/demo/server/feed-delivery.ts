/**
 * How events reach WebSocket clients, imitating a service that runs on several processes (spec §6.1):
 * with probability `reorder` an event is held back and overtaken by the next event of the same listing;
 * with probability `duplicate` an event is sent twice, the copy a little later. Each event keeps its own
 * correct seq.
 *
 * A held price or stock change is overtaken by the listing's next price or stock change (either kind: a
 * real service's processes do not coordinate by field, so a price change can arrive after a newer stock
 * change) or by the listing leaving the book. A client that keeps one seq per listing loses the older of
 * two changes of different fields; one that keeps a seq per field (as Skindesk does) loses nothing.
 * `listing.created` and `listing.sold` are never held back, and a change never overtakes a creation:
 * the service cannot publish a change before the listing exists. Every choice comes from the seeded
 * 'delivery' stream.
 */
import type { PublishedEvent } from '../market/feed.ts';
import type { Random } from '../random.ts';

/** How long a held-back event waits for a later event of its listing before going out anyway (real ms). */
const HOLD_MS = 40;
const DUPLICATE_DELAY_MS = 15;

const holdable = (e: PublishedEvent) => e.name === 'listing.price_changed' || e.name === 'listing.amount_changed';

/** Whether `later` may overtake a held change of the same listing. */
const mayOvertake = (later: PublishedEvent) => later.name === 'listing.removed' || holdable(later);

export class FeedDelivery {
  private readonly rng: Random;
  private readonly reorder: number;
  private readonly duplicate: number;
  private readonly send: (event: PublishedEvent) => void;
  private readonly held = new Map<number, { event: PublishedEvent; timer: ReturnType<typeof setTimeout> }>();
  private readonly copies = new Set<ReturnType<typeof setTimeout>>();
  /** Counters for tests and the info line. */
  readonly stats = { reordered: 0, duplicated: 0 };

  constructor(options: { rng: Random; reorder: number; duplicate: number; send: (event: PublishedEvent) => void }) {
    this.rng = options.rng;
    this.reorder = options.reorder;
    this.duplicate = options.duplicate;
    this.send = options.send;
  }

  push(event: PublishedEvent): void {
    const waiting = this.held.get(event.listingId);
    if (waiting) {
      clearTimeout(waiting.timer);
      this.held.delete(event.listingId);
      if (mayOvertake(event)) {
        this.stats.reordered++;
        this.emit(event);
        this.emit(waiting.event);
      } else {
        this.emit(waiting.event);
        this.emit(event);
      }
      return;
    }
    if (this.reorder > 0 && holdable(event) && this.rng.chance(this.reorder)) {
      const timer = setTimeout(() => {
        this.held.delete(event.listingId);
        this.emit(event);
      }, HOLD_MS);
      this.held.set(event.listingId, { event, timer });
      return;
    }
    this.emit(event);
  }

  /** Sends everything held back now (tests use it to reach a quiet feed without waiting). */
  flush(): void {
    for (const { event, timer } of this.held.values()) {
      clearTimeout(timer);
      this.emit(event);
    }
    this.held.clear();
  }

  close(): void {
    for (const { timer } of this.held.values()) clearTimeout(timer);
    this.held.clear();
    for (const timer of this.copies) clearTimeout(timer);
    this.copies.clear();
  }

  private emit(event: PublishedEvent): void {
    this.send(event);
    if (this.duplicate > 0 && this.rng.chance(this.duplicate)) {
      this.stats.duplicated++;
      const timer = setTimeout(() => {
        this.copies.delete(timer);
        this.send(event);
      }, DUPLICATE_DELAY_MS);
      this.copies.add(timer);
    }
  }
}

/**
 * The market's event sequence: every listing event gets the next `seq` (global, strictly increasing,
 * with random gaps of 1–3 — gaps never mean a missed event, spec §6.1) and its wire frame is built once.
 * `seq` is a bigint and is written into the frame as a plain JSON integer, so a start above 2^53 reaches
 * clients exactly. Delivery quirks (reordering, duplicates) live in server/feed-delivery.ts; this is the
 * truth the book snapshot's `seq` refers to.
 */
import { INT64_MAX, type AppId, type ListingEventName } from '../../shared/api/index.ts';
import type { Random } from '../random.ts';

export interface PublishedEvent {
  seq: bigint;
  name: ListingEventName;
  listingId: number;
  appId: AppId;
  /** Only for listing.amount_changed: 0 means sold out. */
  newAmount: number | null;
  /** `{ event, data, seq, ts }` as sent on the WebSocket. */
  frame: string;
}

export type EventListener = (event: PublishedEvent) => void;

/** Largest gap between consecutive seqs; the start must leave room to count for a very long time. */
const MAX_GAP = 3;
export const MAX_SEQ_START = INT64_MAX - 2n ** 48n;

export class EventFeed {
  private last: bigint;
  /** Events published so far (the activity engine paces itself by this). */
  published = 0;
  private readonly listeners = new Set<EventListener>();
  private readonly gaps: Random;
  private readonly now: () => string;

  constructor(seqStart: bigint, gaps: Random, now: () => string) {
    if (seqStart < 0n || seqStart > MAX_SEQ_START) throw new RangeError(`seq start must be between 0 and ${MAX_SEQ_START}`);
    this.last = seqStart;
    this.gaps = gaps;
    this.now = now;
  }

  /** The seq of the last published event (the start value before any). */
  get seq(): bigint {
    return this.last;
  }

  publish(
    name: ListingEventName,
    data: { listing_id: number; app_id: AppId } & Record<string, unknown>,
  ): PublishedEvent {
    this.last += BigInt(this.gaps.int(1, MAX_GAP));
    this.published++;
    const frame = `{"event":"${name}","data":${JSON.stringify(data)},"seq":${this.last.toString()},"ts":"${this.now()}"}`;
    const event: PublishedEvent = {
      seq: this.last,
      name,
      listingId: data.listing_id,
      appId: data.app_id,
      newAmount: name === 'listing.amount_changed' ? (data.new_amount as number) : null,
      frame,
    };
    for (const listener of this.listeners) listener(event);
    return event;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

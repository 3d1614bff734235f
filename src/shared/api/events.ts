/**
 * The WebSocket feed (spec §6.1): envelope, the five listing events, control messages, the subscribe
 * op and the close codes. `seq` is int64 and is parsed losslessly (json.ts).
 */
import { z } from 'zod';
import { APP_IDS, GAME_PREFIX, appId, cents, id, nonNegativeInt, positiveCents, seq, timestamp } from './primitives.ts';
import { LISTING_DETAIL_FIELDS, leanListingShape, listingDetailShape } from './resources.ts';
import { parseJsonWithInt64 } from './json.ts';
import { summarizeIssues } from '../contract-issues.ts';

export const WS_PATH = '/public/v1/ws';
export const WS_CLOSE = { unauthorized: 4401, tooManyConnections: 4429 } as const;

export const LISTING_EVENT_NAMES = [
  'listing.created',
  'listing.price_changed',
  'listing.amount_changed',
  'listing.removed',
  'listing.sold',
] as const;
export type ListingEventName = (typeof LISTING_EVENT_NAMES)[number];

const { id: _leanId, ...leanWithoutId } = leanListingShape;
/**
 * The spec gives `listing.created` the lean fields "plus the per-game item fields of 2.3": not the general
 * ones (steam_asset_id, icon_url, trade_locked_until), nor surely the other games' nulls. Each detail
 * field may be absent (read as null): a frame refused for a missing field would cost a book re-read per
 * new listing.
 */
export const listingCreatedData = z
  .looseObject({ listing_id: id, ...leanWithoutId })
  .extend(z.object(listingDetailShape).partial().shape);

const GAME_DETAIL_FIELDS = new Map(
  APP_IDS.map((app) => [app as number, LISTING_DETAIL_FIELDS.filter((f) => f.startsWith(`${GAME_PREFIX[app]}_`))]),
);
/**
 * Whether a creation carries every per-game field of its game, as the spec promises: the listing then
 * counts as detailed (the general fields are read with the listing when its detail is opened). One
 * without them is left to the detail backfill, which fetches them.
 */
export function carriesGameDetails(d: z.infer<typeof listingCreatedData>): boolean {
  const fields = GAME_DETAIL_FIELDS.get(d.app_id);
  return fields !== undefined && fields.every((field) => d[field] !== undefined);
}
export const listingPriceChangedData = z.looseObject({
  listing_id: id,
  app_id: appId,
  price_before: positiveCents,
  price_after: positiveCents,
});
export const listingAmountChangedData = z.looseObject({ listing_id: id, app_id: appId, new_amount: nonNegativeInt });
export const listingRemovedData = z.looseObject({ listing_id: id, app_id: appId });
export const listingSoldData = z.looseObject({
  listing_id: id,
  app_id: appId,
  market_hash_name: z.string(),
  price: cents,
  amount: z.number().int().positive(),
  listed_at: timestamp,
  sold_at: timestamp,
});

const envelope = <E extends ListingEventName, D extends z.ZodType>(event: E, data: D) =>
  z.looseObject({ event: z.literal(event), data, seq, ts: timestamp });

export const listingEvent = z.discriminatedUnion('event', [
  envelope('listing.created', listingCreatedData),
  envelope('listing.price_changed', listingPriceChangedData),
  envelope('listing.amount_changed', listingAmountChangedData),
  envelope('listing.removed', listingRemovedData),
  envelope('listing.sold', listingSoldData),
]);
export type ListingEvent = z.infer<typeof listingEvent>;
export type ListingCreatedEvent = Extract<ListingEvent, { event: 'listing.created' }>;
export type ListingCreatedData = z.infer<typeof listingCreatedData>;

export const subscribedData = z.looseObject({
  events: z.union([z.literal('all'), z.array(z.string())]),
  app_ids: z.union([z.literal('all'), z.array(z.number().int())]),
});
export const connectedMessage = z.looseObject({ event: z.literal('connected'), data: z.null(), ts: timestamp });
export const subscribedMessage = z.looseObject({
  event: z.literal('subscribed'),
  data: subscribedData,
  ts: timestamp.optional(),
});
/**
 * Content of the error message's data is not shown (the spec writes the message as `{ event: 'error' }`):
 * we send `{ message }`, and accept any data, or none, from a server.
 */
export const errorMessage = z.looseObject({
  event: z.literal('error'),
  data: z.unknown().optional(),
  ts: timestamp.optional(),
});
export const controlMessage = z.discriminatedUnion('event', [connectedMessage, subscribedMessage, errorMessage]);
export type ControlMessage = z.infer<typeof controlMessage>;

/** The words of an `error` message, when its data carries any (`{ message }` or a plain string). */
export function errorMessageText(message: z.infer<typeof errorMessage>): string | null {
  const data = message.data;
  if (typeof data === 'string' && data !== '') return data;
  if (data !== null && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
    return (data as { message: string }).message || null;
  }
  return null;
}

/** Client → server. Each message replaces the connection's filter; missing or empty = unfiltered. */
export const subscribeOp = z.strictObject({
  op: z.literal('subscribe'),
  events: z.array(z.string().min(1)).optional(),
  app_ids: z.array(appId).optional(),
});
export type SubscribeOp = z.infer<typeof subscribeOp>;

/** An envelope whose event name we do not know: carries its seq so ordering stays correct. */
export const unknownEventEnvelope = z.looseObject({ event: z.string(), data: z.unknown(), seq, ts: timestamp });

export type ServerFrame =
  | { kind: 'control'; message: ControlMessage }
  | { kind: 'listing'; event: ListingEvent }
  | { kind: 'unknown'; event: string; seq: bigint | null };

export class FrameParseError extends Error {
  readonly frame: string;
  /**
   * The frame's seq when it still reads as one (JSON whose top-level `seq` is an int64: an event whose
   * data broke the contract), null otherwise. Whatever the event changed, a snapshot this new contains it.
   */
  readonly seq: bigint | null;
  /**
   * A control message (`connected`, `subscribed`, `error`) that broke the contract and carries no seq:
   * such a message changes no listing (§6.1), so the book needs no repair.
   */
  readonly changesNoListing: boolean;
  constructor(message: string, frame: string, frameSeq: bigint | null = null, changesNoListing = false) {
    super(message);
    this.name = 'FrameParseError';
    this.frame = frame.length > 500 ? `${frame.slice(0, 500)}…` : frame;
    this.seq = frameSeq;
    this.changesNoListing = changesNoListing && frameSeq === null;
  }
}

/** The top-level seq of a parsed frame, when it is a valid one. */
function seqOf(raw: object): bigint | null {
  const parsed = seq.safeParse((raw as { seq?: unknown }).seq);
  return parsed.success ? parsed.data : null;
}

const listingNames = new Set<string>(LISTING_EVENT_NAMES);
const controlNames = new Set(['connected', 'subscribed', 'error']);

/** Parses one text frame from the feed. Unknown event names are not errors (spec §6.1, §9.3). */
export function parseServerFrame(text: string): ServerFrame {
  let raw: unknown;
  try {
    raw = parseJsonWithInt64(text, ['seq']);
  } catch {
    throw new FrameParseError('frame is not JSON', text);
  }
  if (raw === null || typeof raw !== 'object') throw new FrameParseError('frame has no event name', text);
  if (typeof (raw as { event?: unknown }).event !== 'string') {
    throw new FrameParseError('frame has no event name', text, seqOf(raw));
  }
  const name = (raw as { event: string }).event;
  if (controlNames.has(name)) {
    const parsed = controlMessage.safeParse(raw);
    if (!parsed.success) {
      // one with a seq is no control message the spec knows: it may have been an event, so not flagged
      throw new FrameParseError(`invalid ${name} message: ${summarizeIssues(parsed.error)}`, text, seqOf(raw), (raw as { seq?: unknown }).seq === undefined);
    }
    return { kind: 'control', message: parsed.data };
  }
  if (listingNames.has(name)) {
    const parsed = listingEvent.safeParse(raw);
    if (!parsed.success) throw new FrameParseError(`invalid ${name} event: ${summarizeIssues(parsed.error)}`, text, seqOf(raw));
    return { kind: 'listing', event: parsed.data };
  }
  const s = (raw as { seq?: unknown }).seq;
  return { kind: 'unknown', event: name, seq: typeof s === 'bigint' ? s : null };
}

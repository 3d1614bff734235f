/**
 * Webhook deliveries (spec §6.2): body, the five headers and the signed string. The HMAC itself is
 * computed by the Node side (core receiver, demo sender); this file holds what both must agree on.
 */
import { z } from 'zod';
import { timestamp } from './primitives.ts';
import { trade } from './resources.ts';

export const WEBHOOK_EVENTS = ['trade.updated'] as const;
export const webhookBody = z.looseObject({
  id: z.string().min(1),
  event: z.string().min(1),
  ts: timestamp,
  data: z.unknown(),
});
export const tradeUpdatedBody = z.looseObject({
  id: z.string().min(1),
  event: z.literal('trade.updated'),
  ts: timestamp,
  data: trade,
});
export type TradeUpdatedBody = z.infer<typeof tradeUpdatedBody>;

/** The service's own name is replaced by a neutral word in the spec; the prefix is one setting. */
export const DEFAULT_WEBHOOK_HEADER_PREFIX = 'X-Service-';
export function webhookHeaderNames(prefix: string = DEFAULT_WEBHOOK_HEADER_PREFIX) {
  return {
    event: `${prefix}Event`,
    delivery: `${prefix}Delivery`,
    timestamp: `${prefix}Timestamp`,
    signature: `${prefix}Signature`,
    attempt: `${prefix}Attempt`,
  } as const;
}
export const SIGNATURE_SCHEME = 'sha256=';
/** The string that is signed: `<unix seconds>.<raw body>`. */
export function signedPayload(timestampSeconds: string, rawBody: string): string {
  return `${timestampSeconds}.${rawBody}`;
}
export const webhookTimestampHeader = z.string().regex(/^\d{1,12}$/);
// Hex of either case: the spec says "hex", and a service that upper-cases it must not read as a forger.
export const webhookSignatureHeader = z.string().regex(/^sha256=[0-9a-fA-F]{64}$/);

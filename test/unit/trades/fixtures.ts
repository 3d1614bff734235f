/** Trade rows and signed webhook deliveries for the trade tests. */
import { createHmac } from 'node:crypto';
import { signedPayload, type Trade, type TradeStatus, webhookHeaderNames } from '../../../src/shared/api/index.ts';

export const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

export function makeTrade(id: number, status: TradeStatus, updatedMs: number, extra: Partial<Trade> = {}): Trade {
  return {
    id,
    type: 'SELL',
    status,
    deposit_id: 1000 + id,
    withdraw_id: null,
    steam_offer_id: null,
    value: 1250,
    error: null,
    created_at: isoAt(T0 - 60_000 + id),
    updated_at: isoAt(updatedMs),
    items: [{ app_id: 730, market_hash_name: 'AK-47 | Redline (Field-Tested)', steam_asset_id: String(id), amount: 1, value: 1250 }],
    ...extra,
  };
}

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

export interface SignOptions {
  timestampSeconds?: number;
  prefix?: string;
  attempt?: number;
  deliveryId?: string;
  event?: string;
}

/** Signs a raw body exactly like the service: sha256=HMAC(secret, "<unix seconds>.<raw body>"). */
export function signRaw(secret: string, body: string, options: SignOptions = {}): SignedDelivery {
  const timestamp = String(options.timestampSeconds ?? Math.floor(T0 / 1000));
  const signature = createHmac('sha256', secret).update(signedPayload(timestamp, body)).digest('hex');
  const names = webhookHeaderNames(options.prefix);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [names.event]: options.event ?? 'trade.updated',
      [names.delivery]: options.deliveryId ?? 'unknown',
      [names.timestamp]: timestamp,
      [names.signature]: `sha256=${signature}`,
      [names.attempt]: String(options.attempt ?? 1),
    },
  };
}

export function signDelivery(
  secret: string,
  payload: { id: string; event?: string; ts?: string; data: unknown },
  options: SignOptions = {},
): SignedDelivery {
  const event = payload.event ?? 'trade.updated';
  const body = JSON.stringify({ id: payload.id, event, ts: payload.ts ?? isoAt(T0), data: payload.data });
  return signRaw(secret, body, { deliveryId: payload.id, event, ...options });
}

/** The header whose name ends with `suffix` (`Signature`, `Timestamp`, …), whatever the prefix. */
export function headerNamed(delivery: SignedDelivery, suffix: string): string {
  const name = Object.keys(delivery.headers).find((k) => k.endsWith(suffix));
  if (!name) throw new Error(`no ${suffix} header`);
  return name;
}

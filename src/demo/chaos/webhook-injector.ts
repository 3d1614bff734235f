/**
 * Deliveries a receiver must refuse, sent to an account's webhook URL by the demo market itself (it
 * plays the attacker, and the clock):
 *
 * - forged:   a trade change signed with a secret that is not the account's;
 * - tampered: a delivery the receiver accepted, its body changed, its original signature kept;
 * - stale:    correctly signed, but with a timestamp 10 minutes old (or 10 minutes ahead);
 * - replayed: a delivery the receiver accepted, re-sent byte for byte (same id, body and signature).
 *
 * Forged, tampered and stale bodies carry a state that would be visible if applied (the trade Reversed,
 * updated an hour from now), so acceptance shows in the receiver's answer and in the client's trades.
 * A replay must be answered 2xx (the service's own retry looks the same) but never applied again.
 */
import { randomBytes } from 'node:crypto';
import { webhookHeaderNames, type Trade } from '../../shared/api/index.ts';
import { iso } from '../clock.ts';
import type { Market } from '../market/market.ts';
import type { Account } from '../market/records.ts';
import { signWebhook, type PostResult, type WebhookDispatcher } from '../webhooks/dispatcher.ts';
import type { ChaosController, SignedDelivery } from './controller.ts';

export const INJECTION_KINDS = ['forged', 'tampered', 'stale', 'replayed'] as const;
export type InjectionKind = (typeof INJECTION_KINDS)[number];

export interface InjectionRecord {
  kind: InjectionKind;
  deliveryId: string;
  status: number | null;
  /** The start of the receiver's answer. */
  answer: string;
  /** For forged, tampered and stale: answered 2xx, i.e. accepted. Replays are judged by the client. */
  accepted: boolean;
  at: number;
}

export interface InjectorParts {
  market: Market;
  dispatcher: WebhookDispatcher;
  chaos: ChaosController;
  viewTrade: (accountId: number, tradeId: number) => Trade | null;
}

const STALE_BY_MS = 10 * 60_000;
const MAX_RECORDS = 2_000;

export class WebhookInjector {
  readonly #parts: InjectorParts;
  readonly #headers = webhookHeaderNames();
  readonly records: InjectionRecord[] = [];

  constructor(parts: InjectorParts) {
    this.#parts = parts;
  }

  /**
   * Sends one delivery of `kind` to the account's current URL. Resolves with what happened, or null when
   * there is nothing to send (no URL or secret; no trade yet; no accepted delivery to replay or tamper).
   */
  async inject(kind: InjectionKind, account: Account): Promise<InjectionRecord | null> {
    const url = account.webhook.url;
    const secret = account.webhookSecret;
    if (!url || !secret) return null;
    const request = kind === 'replayed' || kind === 'tampered' ? this.#fromCaptured(kind, account) : this.#fresh(kind, account, secret);
    if (!request) return null;
    this.#parts.chaos.stats.webhooks.injected[kind]++;
    const result = await this.#parts.dispatcher.postSigned(url, request.headers, request.body);
    return this.#record(kind, request.deliveryId, result);
  }

  /** A fresh body about one of the account's trades, forged or stale. */
  #fresh(kind: 'forged' | 'stale', account: Account, secret: string): { deliveryId: string; headers: Record<string, string>; body: string } | null {
    const latest = account.trades.at(-1);
    const trade = latest ? this.#parts.viewTrade(account.id, latest.id) : null;
    if (!trade) return null;
    const rng = this.#parts.chaos.injectionRandom;
    const now = this.#parts.market.now();
    const deliveryId = `evt_${kind}_${rng.hex(8)}`;
    const body = JSON.stringify({
      id: deliveryId,
      event: 'trade.updated',
      ts: iso(now),
      data: { ...trade, status: 'Reversed', error: 'reversed by an attacker', updated_at: iso(now + 3_600_000) },
    });
    const signedAt = kind === 'stale' ? now + (rng.chance(0.5) ? -STALE_BY_MS : STALE_BY_MS) : now;
    const timestamp = String(Math.floor(signedAt / 1000));
    // A forger does not have the secret: anything else signs it.
    const key = kind === 'forged' ? `whsec_${randomBytes(20).toString('hex')}` : secret;
    return { deliveryId, headers: this.#headersFor(deliveryId, timestamp, signWebhook(key, timestamp, body), body), body };
  }

  /** A delivery the receiver accepted: re-sent as it was, or with its body changed under the old signature. */
  #fromCaptured(kind: 'replayed' | 'tampered', account: Account): { deliveryId: string; headers: Record<string, string>; body: string } | null {
    const captured = this.#parts.chaos.capturedDeliveries(account.id);
    if (captured.length === 0) return null;
    const original: SignedDelivery = this.#parts.chaos.injectionRandom.pick(captured);
    if (kind === 'replayed') return { deliveryId: original.deliveryId, headers: { ...original.headers }, body: original.body };
    const parsed = JSON.parse(original.body) as { data: Record<string, unknown> };
    parsed.data = { ...parsed.data, status: 'Reversed', updated_at: iso(this.#parts.market.now() + 3_600_000) };
    const body = JSON.stringify(parsed);
    return { deliveryId: original.deliveryId, headers: { ...original.headers, 'content-length': String(Buffer.byteLength(body)) }, body };
  }

  #headersFor(deliveryId: string, timestamp: string, signature: string, body: string): Record<string, string> {
    return {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'SkindeskDemoMarket-Webhooks/1',
      [this.#headers.event]: 'trade.updated',
      [this.#headers.delivery]: deliveryId,
      [this.#headers.timestamp]: timestamp,
      [this.#headers.signature]: signature,
      [this.#headers.attempt]: '1',
    };
  }

  #record(kind: InjectionKind, deliveryId: string, result: PostResult): InjectionRecord {
    const accepted = kind !== 'replayed' && result.ok;
    const stats = this.#parts.chaos.stats.webhooks;
    if (accepted) stats.injectedAccepted++;
    const answerKey = `${kind} ${result.status ?? 'no answer'}`;
    stats.injectedAnswers[answerKey] = (stats.injectedAnswers[answerKey] ?? 0) + 1;
    const record: InjectionRecord = { kind, deliveryId, status: result.status, answer: result.answer, accepted, at: Date.now() };
    this.records.push(record);
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS);
    return record;
  }
}

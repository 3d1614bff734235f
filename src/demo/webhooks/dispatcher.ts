/**
 * Webhook deliveries (spec §6.2): every status change of an account's trade is POSTed to the account's
 * URL as `trade.updated`, signed with HMAC-SHA256 over `<timestamp>.<raw body>`. A delivery succeeds on
 * a 2xx within 10 s; anything else (other status, redirect — never followed —, time-out, connection
 * error) fails and is retried up to 6 attempts in all, backing off from 5 s, with the same delivery id.
 * A delivery that exhausts its attempts is one failure; 20 in a row remove the URL and leave the user a
 * notice. Only a successful delivery resets the count: saving or clearing a URL does not. A removal ends
 * the run it counted: a URL saved after it (the receiver mended) starts a count of its own. Retries go to whatever URL is set when
 * they run: a changed URL receives them; clearing the URL drops every delivery queued until then, even
 * when a URL is saved again before a retry was due.
 * Time-outs and back-off are market timers (scaled by --time-scale).
 *
 * Chaos (src/demo/chaos): an attempt can be delayed (so later changes of the trade overtake it), fail
 * without being sent, have its 2xx lost (so the receiver sees the id again on the retry), or be sent
 * twice at once. Deliveries the receiver accepted are kept by the chaos controller for replays.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { LIMITS, SIGNATURE_SCHEME, signedPayload, webhookHeaderNames, type Trade } from '../../shared/api/index.ts';
import type { ChaosController } from '../chaos/controller.ts';
import { iso } from '../clock.ts';
import type { Market } from '../market/market.ts';
import type { Account, TradeRecord } from '../market/records.ts';
import { Random } from '../random.ts';
import { checkWebhookUrl, type WebhookUrlPolicy } from './url-policy.ts';

export interface DeliveryAttempt {
  deliveryId: string;
  accountId: number;
  tradeId: number;
  attempt: number;
  url: string;
  /** HTTP status, or null when no response came (time-out, connection error). */
  status: number | null;
  ok: boolean;
  error: string | null;
  at: number;
}

/** What one POST to a receiver came to. */
export interface PostResult {
  status: number | null;
  ok: boolean;
  error: string | null;
  /** The start of the receiver's answer (at most 1 KiB). */
  answer: string;
}

interface Delivery {
  id: string;
  accountId: number;
  tradeId: number;
  body: string;
  attempts: number;
  /** The account's `clears` when the delivery was queued: a clear since then drops it. */
  generation: number;
}

const MAX_LOG = 2_000;

export function backoffMs(failedAttempts: number): number {
  return Math.min(LIMITS.webhookBackoffCapMs, LIMITS.webhookInitialBackoffMs * LIMITS.webhookBackoffFactor ** (failedAttempts - 1));
}

export function signWebhook(secret: string, timestampSeconds: string, rawBody: string): string {
  return `${SIGNATURE_SCHEME}${createHmac('sha256', secret).update(signedPayload(timestampSeconds, rawBody)).digest('hex')}`;
}

export class WebhookDispatcher {
  private readonly market: Market;
  private readonly policy: WebhookUrlPolicy;
  private readonly viewTrade: (trade: TradeRecord) => Trade;
  private readonly headers = webhookHeaderNames();
  private readonly ids: Random;
  private readonly inFlight = new Set<ClientRequest>();
  private readonly timers = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;
  private unfinished = 0;
  /** Per account id, how often its URL was cleared (by the user or by removal after 20 failures). */
  private readonly clears = new Map<number, number>();
  /** Recent attempts, oldest first (tests and the harness read it). */
  readonly log: DeliveryAttempt[] = [];

  private readonly chaos: ChaosController | null;

  constructor(market: Market, policy: WebhookUrlPolicy, viewTrade: (trade: TradeRecord) => Trade, chaos: ChaosController | null = null) {
    this.market = market;
    this.chaos = chaos;
    this.policy = policy;
    this.viewTrade = viewTrade;
    this.ids = Random.derive(market.seed, 'webhooks');
    this.unsubscribe = market.onTradeChanged((account, trade) => this.enqueue(account, trade));
  }

  /** Deliveries not yet finished (sending, or waiting for a retry). */
  get pending(): number {
    return this.unfinished;
  }

  /**
   * Saves (or, with null, clears) an account's webhook URL after checking it. Saving leaves the count of
   * failed deliveries alone: spec §6.2 rule 5 resets it only on a successful delivery, so re-saving a
   * failing receiver's URL does not buy it another 20 failures.
   */
  async setUrl(account: Account, url: string | null): Promise<void> {
    if (url === null) {
      this.clear(account);
      return;
    }
    const checked = await checkWebhookUrl(url, this.policy);
    account.webhook.url = checked.url.href;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    for (const req of this.inFlight) req.destroy();
    this.inFlight.clear();
  }

  private enqueue(account: Account, trade: TradeRecord): void {
    // Nothing is delivered until both a URL and a signing secret exist (spec §5.5, §6.2).
    if (this.closed || !account.webhook.url || !account.webhookSecret) return;
    const id = `evt_${this.ids.hex(12)}`;
    const body = JSON.stringify({ id, event: 'trade.updated', ts: iso(this.market.now()), data: this.viewTrade(trade) });
    this.unfinished++;
    void this.attempt({ id, accountId: account.id, tradeId: trade.id, body, attempts: 0, generation: this.clears.get(account.id) ?? 0 });
  }

  /**
   * Turns deliveries off (spec §6.2 rule 6: clearing the URL drops queued retries). Deliveries queued
   * before a clear stay dropped even if a URL is saved again before their next attempt was due.
   */
  private clear(account: Account): void {
    account.webhook.url = null;
    this.clears.set(account.id, (this.clears.get(account.id) ?? 0) + 1);
  }

  /** One attempt; schedules the next or finishes the delivery (the `unfinished` count follows). */
  private async attempt(delivery: Delivery): Promise<void> {
    const plan = this.chaos?.webhookAttempt() ?? null;
    if (plan && plan.delayMs > 0) await this.chaos!.sleep(plan.delayMs);
    const account = this.market.account(delivery.accountId);
    const url = account?.webhook.url;
    if (this.closed || !account || !url || !account.webhookSecret || delivery.generation !== (this.clears.get(account.id) ?? 0)) {
      this.unfinished--;
      return;
    }
    delivery.attempts++;
    const headers = this.signedHeaders(delivery, account.webhookSecret);
    let result: PostResult;
    if (plan?.fail) {
      result = { status: null, ok: false, error: 'connection failed (demo chaos)', answer: '' };
    } else {
      const copy = plan?.duplicate ? this.postSigned(url, headers, delivery.body) : null;
      result = await this.postSigned(url, headers, delivery.body);
      if (copy) {
        this.chaos!.stats.webhooks.duplicated++;
        await copy;
      }
      if (result.ok) {
        this.chaos?.captureDelivery({ accountId: account.id, deliveryId: delivery.id, url, headers, body: delivery.body, acceptedAt: Date.now() });
        if (plan?.loseAnswer) {
          this.chaos!.stats.webhooks.lostAnswers++;
          result = { ...result, ok: false, error: 'the answer was lost (demo chaos)' };
        }
      }
    }
    this.record({
      deliveryId: delivery.id,
      accountId: account.id,
      tradeId: delivery.tradeId,
      attempt: delivery.attempts,
      url,
      status: result.status,
      ok: result.ok,
      error: result.error,
      at: this.market.now(),
    });
    if (this.closed) return;
    if (result.ok) {
      account.webhook.consecutiveFailures = 0;
      this.unfinished--;
      return;
    }
    if (delivery.attempts < LIMITS.webhookAttempts) {
      const cancel = this.market.clock.after(backoffMs(delivery.attempts), () => {
        this.timers.delete(cancel);
        void this.attempt(delivery);
      });
      this.timers.add(cancel);
      return;
    }
    this.unfinished--;
    account.webhook.consecutiveFailures++;
    if (account.webhook.consecutiveFailures >= LIMITS.webhookFailuresBeforeRemoval && account.webhook.url !== null) {
      this.clear(account);
      account.webhook.consecutiveFailures = 0;
      account.notices.push({
        kind: 'webhook_removed',
        at: this.market.now(),
        message: `Your webhook URL ${url} was removed after ${LIMITS.webhookFailuresBeforeRemoval} failed deliveries in a row.`,
      });
    }
  }

  /** The five headers of one attempt, signed now. */
  private signedHeaders(delivery: Delivery, secret: string): Record<string, string> {
    const timestamp = String(Math.floor(this.market.now() / 1000));
    return {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(delivery.body)),
      'user-agent': 'SkindeskDemoMarket-Webhooks/1',
      [this.headers.event]: 'trade.updated',
      [this.headers.delivery]: delivery.id,
      [this.headers.timestamp]: timestamp,
      [this.headers.signature]: signWebhook(secret, timestamp, delivery.body),
      [this.headers.attempt]: String(delivery.attempts),
    };
  }

  /**
   * POSTs a body with the given headers to a receiver under the delivery rules (URL policy checked again,
   * no redirects, 10 s market-time limit). Also what chaos uses to send copies, replays and forgeries.
   */
  async postSigned(url: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    let checked;
    try {
      // Checked again on every attempt: a name may have come to resolve somewhere it must not.
      checked = await checkWebhookUrl(url, this.policy);
    } catch (err) {
      return { status: null, ok: false, error: (err as Error).message, answer: '' };
    }
    const target = checked.url;
    const pinned = checked.addresses[0]!;
    const lookup: LookupFunction = (_hostname, options, callback) => {
      const family = isIP(pinned);
      if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: pinned, family }]);
      else callback(null, pinned, family);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      let settled = false;
      let cancelTimeout = () => {};
      const finish = (outcome: PostResult) => {
        if (settled) return;
        settled = true;
        cancelTimeout();
        this.inFlight.delete(req);
        resolve(outcome);
      };
      const req = send(target, { method: 'POST', headers, lookup, agent: false }, (res) => {
        const status = res.statusCode ?? 0;
        // Redirects are failures and are never followed.
        const outcome = { status, ok: status >= 200 && status < 300, error: status >= 300 && status < 400 ? 'redirect (not followed)' : null };
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (answer.length < 1024) answer += chunk.slice(0, 1024 - answer.length);
        });
        res.on('end', () => finish({ ...outcome, answer }));
        res.on('error', () => finish({ ...outcome, answer }));
      });
      this.inFlight.add(req);
      cancelTimeout = this.market.clock.after(LIMITS.webhookTimeoutMs, () => {
        finish({ status: null, ok: false, error: 'no response within 10 s', answer: '' });
        req.destroy();
      });
      req.on('error', (err) => finish({ status: null, ok: false, error: err.message, answer: '' }));
      req.end(body);
    });
  }

  private record(attempt: DeliveryAttempt): void {
    this.log.push(attempt);
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
  }
}

/**
 * The chaos controller: the current switches (settings.ts), the seeded decisions the server consults at
 * each request, frame and webhook attempt, the state of moment actions (a 429 storm), and counters of
 * every fault injected so a run can report what it survived. One per demo market; with all switches off
 * it decides "nothing" every time and draws no random numbers.
 */
import type { EndpointName } from '../../shared/api/index.ts';
import { Random } from '../random.ts';
import { type ChaosChange, type ChaosSettings, calmSettings, mergeSettings } from './settings.ts';

/** What happens to a request before its route runs. */
export type RestFault =
  | { kind: 'none' }
  /** 429 with Retry-After although the caller is within its limit (a storm). */
  | { kind: 'storm'; retryAfterSeconds: number }
  /** 500 INTERNAL_ERROR; nothing is applied. */
  | { kind: 'error' }
  /** No answer for `ms`, then the connection is dropped; nothing is applied. */
  | { kind: 'hang'; ms: number };

/** What happens to a route's answer. */
export interface AnswerPlan {
  delayMs: number;
  /** The route ran (a purchase was applied) but the caller never gets the answer. */
  lose: null | { holdMs: number };
}

/** What happens to one webhook delivery attempt. */
export interface WebhookAttemptPlan {
  /** Wait this long before sending (later changes of the trade overtake it). */
  delayMs: number;
  /** Fail without sending. */
  fail: boolean;
  /** Send, but treat a 2xx as lost. */
  loseAnswer: boolean;
  /** Send the same signed request a second time. */
  duplicate: boolean;
}

/** A signed webhook request exactly as sent (for duplicates and replays). */
export interface SignedDelivery {
  accountId: number;
  deliveryId: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** When the receiver answered it with a 2xx (ms). */
  acceptedAt: number;
}

export interface ChaosStats {
  rest: { delayed: number; errors: number; hangs: number; purchasesLost: number; withdrawalsLost: number; itemMovesLost: number; storm429: number; storms: number };
  websocket: { delayedFrames: number; cleanDrops: number; halfOpen: number; halfOpenClosedByClient: number };
  webhooks: {
    failed: number;
    lostAnswers: number;
    duplicated: number;
    delayed: number;
    /** Deliveries injected by `injectWebhooks`, by kind. */
    injected: { forged: number; tampered: number; stale: number; replayed: number };
    /** Injected deliveries the receiver accepted (answered 2xx as new): must stay 0. */
    injectedAccepted: number;
    /** How the receiver answered injected deliveries: HTTP status (or "no answer") → count. */
    injectedAnswers: Record<string, number>;
  };
  restarts: number;
}

const MAX_CAPTURED = 64;

/** Routes that move items (backpack or Steam inventory): their answers can be lost by `itemMoveLostRate`. */
const ITEM_MOVES: ReadonlySet<EndpointName> = new Set<EndpointName>(['list', 'withdraw', 'sell', 'deposit']);

export class ChaosController {
  #settings: ChaosSettings;
  readonly #rest: Random;
  readonly #ws: Random;
  readonly #webhooks: Random;
  readonly #timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  #stormUntil = 0;
  #stormRetryAfter = 1;
  #closed = false;
  readonly #captured: SignedDelivery[] = [];
  readonly stats: ChaosStats = {
    rest: { delayed: 0, errors: 0, hangs: 0, purchasesLost: 0, withdrawalsLost: 0, itemMovesLost: 0, storm429: 0, storms: 0 },
    websocket: { delayedFrames: 0, cleanDrops: 0, halfOpen: 0, halfOpenClosedByClient: 0 },
    webhooks: {
      failed: 0,
      lostAnswers: 0,
      duplicated: 0,
      delayed: 0,
      injected: { forged: 0, tampered: 0, stale: 0, replayed: 0 },
      injectedAccepted: 0,
      injectedAnswers: {},
    },
    restarts: 0,
  };

  constructor(seed: number, initial: ChaosChange = {}) {
    this.#settings = mergeSettings(calmSettings(), initial);
    this.#rest = Random.derive(seed, 'chaos-rest');
    this.#ws = Random.derive(seed, 'chaos-websocket');
    this.#webhooks = Random.derive(seed, 'chaos-webhooks');
  }

  get settings(): ChaosSettings {
    return mergeSettings(this.#settings);
  }

  /** Changes some switches (the rest keep their values). */
  set(change: ChaosChange): void {
    this.#settings = mergeSettings(this.#settings, change);
  }

  /** Every rate and delay back to zero, and any storm ended: the market behaves normally again. */
  calm(): void {
    this.#settings = calmSettings();
    this.#stormUntil = 0;
  }

  /** For `seconds` from now every rate-limited route answers 429 with `Retry-After: retryAfterSeconds`. */
  startStorm(seconds: number, retryAfterSeconds = 2): void {
    if (!(seconds > 0) || !Number.isFinite(seconds)) throw new RangeError('a storm lasts a positive number of seconds');
    this.#stormUntil = Date.now() + seconds * 1000;
    this.#stormRetryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
    this.stats.rest.storms++;
  }

  get storming(): boolean {
    return Date.now() < this.#stormUntil;
  }

  // ---- REST ------------------------------------------------------------------------------------

  /** Consulted after the rate limit let the request through, before its route runs. */
  beforeRoute(name: EndpointName, rateLimited: boolean): RestFault {
    // The info route is how clients find the service; faults there test nothing the others do not.
    if (name === 'info') return { kind: 'none' };
    if (rateLimited && this.storming) {
      this.stats.rest.storm429++;
      return { kind: 'storm', retryAfterSeconds: this.#stormRetryAfter };
    }
    const { errorRate, timeoutRate, hangMs } = this.#settings.rest;
    if (errorRate > 0 && this.#rest.chance(errorRate)) {
      this.stats.rest.errors++;
      return { kind: 'error' };
    }
    if (timeoutRate > 0 && this.#rest.chance(timeoutRate)) {
      this.stats.rest.hangs++;
      return { kind: 'hang', ms: hangMs };
    }
    return { kind: 'none' };
  }

  /** Consulted after the route produced its answer. */
  answerPlan(name: EndpointName): AnswerPlan {
    const { latencyMs, jitterMs, bookDelayMs, purchaseLostRate, withdrawalLostRate, itemMoveLostRate, hangMs } = this.#settings.rest;
    let delayMs = latencyMs + (jitterMs > 0 ? this.#rest.float(0, jitterMs) : 0);
    if (name === 'book') delayMs += bookDelayMs;
    if (delayMs > 0) this.stats.rest.delayed++;
    let lose: AnswerPlan['lose'] = null;
    if (name === 'purchase' && purchaseLostRate > 0 && this.#rest.chance(purchaseLostRate)) {
      this.stats.rest.purchasesLost++;
      lose = { holdMs: this.#rest.chance(0.5) ? hangMs : 0 };
    } else if (name === 'cryptoWithdraw' && withdrawalLostRate > 0 && this.#rest.chance(withdrawalLostRate)) {
      this.stats.rest.withdrawalsLost++;
      lose = { holdMs: this.#rest.chance(0.5) ? hangMs : 0 };
    } else if (ITEM_MOVES.has(name) && itemMoveLostRate > 0 && this.#rest.chance(itemMoveLostRate)) {
      this.stats.rest.itemMovesLost++;
      lose = { holdMs: this.#rest.chance(0.5) ? hangMs : 0 };
    }
    return { delayMs: Math.round(delayMs), lose };
  }

  // ---- WebSocket -------------------------------------------------------------------------------

  /** Delay of the next frame (0 when the switch is off). */
  frameDelay(): number {
    const { latencyMs, jitterMs } = this.#settings.websocket;
    if (latencyMs <= 0 && jitterMs <= 0) return 0;
    this.stats.websocket.delayedFrames++;
    return Math.round(latencyMs + (jitterMs > 0 ? this.#ws.float(0, jitterMs) : 0));
  }

  // ---- webhooks --------------------------------------------------------------------------------

  webhookAttempt(): WebhookAttemptPlan {
    const w = this.#settings.webhooks;
    const plan: WebhookAttemptPlan = { delayMs: 0, fail: false, loseAnswer: false, duplicate: false };
    if (w.delayRate > 0 && this.#webhooks.chance(w.delayRate)) {
      plan.delayMs = Math.round(this.#webhooks.float(w.delayMs / 2, w.delayMs));
      this.stats.webhooks.delayed++;
    }
    if (w.failRate > 0 && this.#webhooks.chance(w.failRate)) {
      plan.fail = true;
      this.stats.webhooks.failed++;
      return plan;
    }
    if (w.lostAnswerRate > 0 && this.#webhooks.chance(w.lostAnswerRate)) plan.loseAnswer = true;
    if (w.duplicateRate > 0 && this.#webhooks.chance(w.duplicateRate)) plan.duplicate = true;
    return plan;
  }

  /** Remembers a delivery the receiver accepted, as material for replays. */
  captureDelivery(delivery: SignedDelivery): void {
    this.#captured.push(delivery);
    if (this.#captured.length > MAX_CAPTURED) this.#captured.splice(0, this.#captured.length - MAX_CAPTURED);
  }

  /** Accepted deliveries of an account, oldest first. */
  capturedDeliveries(accountId: number): readonly SignedDelivery[] {
    return this.#captured.filter((d) => d.accountId === accountId);
  }

  /** The injector's random stream (ids, choices): same seed, same injected deliveries. */
  get injectionRandom(): Random {
    return this.#webhooks;
  }

  // ---- timers ----------------------------------------------------------------------------------

  /** Waits `ms` real milliseconds; resolves false at once if the market closes meanwhile. */
  sleep(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve(true);
      }, ms);
      this.#timers.set(timer, () => resolve(false));
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    this.#closed = true;
    for (const [timer, cancel] of this.#timers) {
      clearTimeout(timer);
      cancel();
    }
    this.#timers.clear();
  }
}

/**
 * The chaos switches of the demo market: faults a real marketplace shows now and then, turned on at
 * will so the client can be proven against them. Everything is off by default (the demo behaves exactly
 * as without this module); every random choice comes from a seeded stream, so a run with the same seed
 * and the same traffic makes the same choices.
 *
 * Rates are probabilities per request, frame or delivery attempt; times are real milliseconds (network
 * faults are not scaled by --time-scale, which is about the market's own timers).
 *
 * Actions that happen at a moment rather than at a rate (a 429 storm, dropping WebSockets, restarting
 * the server, injecting forged webhooks) are methods of the controller (controller.ts).
 */

export interface RestChaos {
  /** Added before every REST answer is written. */
  latencyMs: number;
  /** Uniform extra delay from 0 to this, per answer. */
  jitterMs: number;
  /** Answer 500 INTERNAL_ERROR before the route runs (nothing applied). */
  errorRate: number;
  /** Hold the request without an answer for `hangMs`, then drop the connection (nothing applied). */
  timeoutRate: number;
  hangMs: number;
  /** Extra delay of GET /book after its snapshot was taken: the feed runs ahead of the snapshot. */
  bookDelayMs: number;
  /**
   * POST /purchase applied, then its answer lost: half of these drop the connection at once, half hold
   * it for `hangMs` first (a client time-out).
   */
  purchaseLostRate: number;
  /** POST /crypto-withdraw applied (money out), then its answer lost, the same two ways. */
  withdrawalLostRate: number;
  /** POST /list, /withdraw, /sell or /deposit applied (items moved), then its answer lost, the same two ways. */
  itemMoveLostRate: number;
}

export interface WebSocketChaos {
  /** Added to every frame; frames of one connection keep their order. */
  latencyMs: number;
  jitterMs: number;
}

export interface WebhookChaos {
  /** The attempt fails without reaching the receiver (retried with back-off). */
  failRate: number;
  /** The receiver answers 2xx but the answer is lost (retried: the receiver sees the same id again). */
  lostAnswerRate: number;
  /** The same signed request is sent twice. */
  duplicateRate: number;
  /** The attempt waits `delayMs` first, so later status changes of the trade overtake it. */
  delayRate: number;
  delayMs: number;
}

export interface ChaosSettings {
  rest: RestChaos;
  websocket: WebSocketChaos;
  webhooks: WebhookChaos;
}

/** A partial change of the settings (each group merged field by field). */
export type ChaosChange = { [G in keyof ChaosSettings]?: Partial<ChaosSettings[G]> };

export const CALM: ChaosSettings = Object.freeze({
  rest: Object.freeze({ latencyMs: 0, jitterMs: 0, errorRate: 0, timeoutRate: 0, hangMs: 12_000, bookDelayMs: 0, purchaseLostRate: 0, withdrawalLostRate: 0, itemMoveLostRate: 0 }),
  websocket: Object.freeze({ latencyMs: 0, jitterMs: 0 }),
  webhooks: Object.freeze({ failRate: 0, lostAnswerRate: 0, duplicateRate: 0, delayRate: 0, delayMs: 1_500 }),
}) as ChaosSettings;

export function calmSettings(): ChaosSettings {
  return { rest: { ...CALM.rest }, websocket: { ...CALM.websocket }, webhooks: { ...CALM.webhooks } };
}

/** Applies a change and checks every value; throws RangeError naming the first bad one. */
export function mergeSettings(base: ChaosSettings, change: ChaosChange = {}): ChaosSettings {
  const next: ChaosSettings = {
    rest: { ...base.rest, ...change.rest },
    websocket: { ...base.websocket, ...change.websocket },
    webhooks: { ...base.webhooks, ...change.webhooks },
  };
  for (const [group, values] of Object.entries(next) as [string, Record<string, number>][]) {
    for (const [name, value] of Object.entries(values)) {
      const probability = name.endsWith('Rate');
      const ok = Number.isFinite(value) && value >= 0 && (!probability || value <= 1) && (probability || value <= 600_000);
      if (!ok) {
        throw new RangeError(`chaos ${group}.${name} must be ${probability ? 'a probability from 0 to 1' : 'from 0 to 600000 ms'}`);
      }
    }
  }
  return next;
}

/**
 * Named levels for runs that do not tune each switch: 0 none, 1 mild (what a good day on a real service
 * looks like), 2 heavy (a bad day). The feed's reorder/duplicate probabilities and the schedule of
 * moment actions (storms, drops, restarts, injections) belong to the level too.
 */
export interface ChaosLevel {
  settings: ChaosSettings;
  reorder: number;
  duplicate: number;
  /** Mean seconds between moment actions of each kind (0: never). */
  every: {
    storm: number;
    cleanDrop: number;
    halfOpen: number;
    restart: number;
    injection: number;
  };
  stormSeconds: number;
  restartDownMs: number;
}

export const CHAOS_LEVELS: readonly ChaosLevel[] = [
  {
    settings: calmSettings(),
    reorder: 0,
    duplicate: 0,
    every: { storm: 0, cleanDrop: 0, halfOpen: 0, restart: 0, injection: 0 },
    stormSeconds: 0,
    restartDownMs: 0,
  },
  {
    settings: mergeSettings(CALM, {
      rest: { latencyMs: 15, jitterMs: 40, errorRate: 0.02, timeoutRate: 0.004, bookDelayMs: 1_500, purchaseLostRate: 0.08 },
      websocket: { latencyMs: 5, jitterMs: 25 },
      webhooks: { failRate: 0.1, lostAnswerRate: 0.05, duplicateRate: 0.05, delayRate: 0.1, delayMs: 1_500 },
    }),
    reorder: 0.03,
    duplicate: 0.02,
    every: { storm: 60, cleanDrop: 45, halfOpen: 90, restart: 120, injection: 10 },
    stormSeconds: 3,
    restartDownMs: 1_500,
  },
  {
    settings: mergeSettings(CALM, {
      rest: { latencyMs: 50, jitterMs: 150, errorRate: 0.08, timeoutRate: 0.02, bookDelayMs: 4_000, purchaseLostRate: 0.2 },
      websocket: { latencyMs: 20, jitterMs: 80 },
      webhooks: { failRate: 0.3, lostAnswerRate: 0.1, duplicateRate: 0.15, delayRate: 0.2, delayMs: 2_500 },
    }),
    reorder: 0.1,
    duplicate: 0.05,
    every: { storm: 25, cleanDrop: 15, halfOpen: 40, restart: 45, injection: 4 },
    stormSeconds: 5,
    restartDownMs: 3_000,
  },
];

export function chaosLevel(level: number): ChaosLevel {
  const found = CHAOS_LEVELS[level];
  if (!Number.isInteger(level) || !found) throw new RangeError(`chaos level must be an integer from 0 to ${CHAOS_LEVELS.length - 1}`);
  return found;
}

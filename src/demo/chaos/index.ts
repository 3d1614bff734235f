/**
 * The chaos switches of a running demo market, in one place (`demo.chaos`): rates and delays
 * (settings.ts, changed with `set` and `calm`), moment actions (a 429 storm, dropped WebSockets, a
 * server restart, injected webhooks), and what was injected so far (`stats`, `injections`).
 */
import type { Account } from '../market/records.ts';
import type { DropMode } from '../server/ws-feed.ts';
import type { ChaosController, ChaosStats } from './controller.ts';
import type { ChaosChange, ChaosSettings } from './settings.ts';
import type { InjectionKind, InjectionRecord, WebhookInjector } from './webhook-injector.ts';

export { ChaosController, type ChaosStats, type RestFault, type AnswerPlan, type WebhookAttemptPlan, type SignedDelivery } from './controller.ts';
export { CALM, CHAOS_LEVELS, calmSettings, chaosLevel, mergeSettings, type ChaosChange, type ChaosLevel, type ChaosSettings } from './settings.ts';
export { INJECTION_KINDS, WebhookInjector, type InjectionKind, type InjectionRecord } from './webhook-injector.ts';
export { DelayedFrames } from './frame-queue.ts';

export interface ChaosActuators {
  controller: ChaosController;
  injector: WebhookInjector;
  account: (id: number) => Account;
  dropWebSockets: (mode: DropMode, account: Account | undefined) => number;
  restartServer: (downMs: number) => Promise<void>;
}

export class DemoChaos {
  readonly #a: ChaosActuators;

  constructor(actuators: ChaosActuators) {
    this.#a = actuators;
  }

  get settings(): ChaosSettings {
    return this.#a.controller.settings;
  }

  /** Changes some switches; the others keep their values. */
  set(change: ChaosChange): void {
    this.#a.controller.set(change);
  }

  /** Every switch off and any storm over (moment actions already under way finish). */
  calm(): void {
    this.#a.controller.calm();
  }

  /** Every rate-limited route answers 429 (`Retry-After: retryAfterSeconds`) for `seconds`. */
  storm(seconds: number, retryAfterSeconds = 2): void {
    this.#a.controller.startStorm(seconds, retryAfterSeconds);
  }

  /** Drops the open feed connections (of one account, or all): closed with 1012, or left half-open. */
  dropWebSockets(mode: DropMode, accountId?: number): number {
    return this.#a.dropWebSockets(mode, accountId === undefined ? undefined : this.#a.account(accountId));
  }

  /**
   * Stops the server (every HTTP and WebSocket connection cut, new ones refused) and starts it again on
   * the same port after `downMs`, with the same market state; the market keeps moving meanwhile.
   */
  async restart(downMs: number): Promise<void> {
    await this.#a.restartServer(downMs);
  }

  /** Sends one delivery the account's receiver must refuse (see webhook-injector.ts). */
  injectWebhook(kind: InjectionKind, accountId = 1): Promise<InjectionRecord | null> {
    return this.#a.injector.inject(kind, this.#a.account(accountId));
  }

  /** Every injected delivery and how the receiver answered, oldest first. */
  get injections(): readonly InjectionRecord[] {
    return this.#a.injector.records;
  }

  get stats(): ChaosStats {
    return structuredClone(this.#a.controller.stats);
  }
}

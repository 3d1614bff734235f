/**
 * The trade feeds wired together: one tracker, the poller always (the safety net), and the webhook
 * receiver when the user runs one. The main process and the soak suite start this one object.
 */
import type Database from 'better-sqlite3';
import { IN_FLIGHT_TRADE_STATUSES } from '../../shared/api/index.ts';
import { type Clock, systemClock } from '../api/clock.ts';
import { DeliveryLog } from './delivery-log.ts';
import { TradePoller, type TradePollerOptions, type TradesSource } from './poller.ts';
import { TradeTracker } from './tracker.ts';
import { WebhookReceiver, type WebhookReceiverOptions } from './webhook-receiver.ts';

export interface TradeFeedsOptions {
  db: Database.Database;
  source: TradesSource;
  clock?: Clock;
  poller?: Omit<TradePollerOptions, 'source' | 'tracker' | 'clock'>;
  /** Receiver settings; absent or null when the user runs no receiver. */
  webhook?: Omit<WebhookReceiverOptions, 'onTrade' | 'clock' | 'deliveryLog'> | null;
}

export class TradeFeeds {
  readonly tracker: TradeTracker;
  readonly poller: TradePoller;
  readonly receiver: WebhookReceiver | null;

  constructor(options: TradeFeedsOptions) {
    const clock = options.clock ?? systemClock;
    this.tracker = new TradeTracker({ db: options.db, clock });
    this.poller = new TradePoller({ ...options.poller, source: options.source, tracker: this.tracker, clock });
    this.receiver = options.webhook
      ? new WebhookReceiver({
          ...options.webhook,
          clock,
          deliveryLog: new DeliveryLog({ db: options.db }),
          onTrade: (trade) => void this.tracker.apply(trade, 'webhook'),
        })
      : null;
    // A webhook that shows a trade in flight switches the poller to its fast cadence without waiting
    // for the idle interval to run out: if later deliveries are lost, polling catches up soon.
    this.tracker.on('change', (change) => {
      if (change.source === 'webhook' && IN_FLIGHT_TRADE_STATUSES.includes(change.trade.status)) this.poller.refreshCadence();
    });
  }

  /** Starts the receiver (if any) and the poller; resolves with the receiver's local URL. */
  async start(): Promise<{ webhookUrl: string | null }> {
    const address = this.receiver ? await this.receiver.listen() : null;
    this.poller.start();
    return { webhookUrl: address?.url ?? null };
  }

  async stop(): Promise<void> {
    await this.poller.stop();
    await this.receiver?.close();
  }

  stats() {
    return {
      tracker: this.tracker.stats(),
      poller: this.poller.stats(),
      webhooks: this.receiver?.stats() ?? null,
    };
  }
}

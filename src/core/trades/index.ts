/** Trades: one tracker fed by the webhook receiver and the `GET /trades` poller. */
export * from './instant.ts';
export * from './tracker.ts';
export * from './delivery-log.ts';
export * from './webhook-receiver.ts';
export * from './poller.ts';
export * from './status-words.ts';
export * from './trade-feeds.ts';

export { WatchService, WatchError, type WatchServiceOptions } from './service.ts';
export { WatchStore, killSwitchEngaged, WatchlistNameTaken, WatchlistNotFound, ALERT_STATES, type WatchAlert, type AlertState, type AutoBuyLogEntry, type AutoBuyStatus } from './store.ts';
export { type WatchMatch } from './evaluator.ts';
export { BLOCK_REASONS, checkGuardrails, type BlockReason, type PurchaseFacts } from './guardrails.ts';
export { compileFilter, ListingReader, NameMatcher, listingFromCreated, type WatchedListing } from './matcher.ts';
export { AlertWebhooks, WebhookPostError, postWebhook, webhookOrigin, webhookPayload, type WebhookAlertPayload, type AlertRecord } from './alert-webhook.ts';

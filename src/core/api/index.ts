/** The REST side of core: client, governor, errors, journaled purchases. */
export * from './clock.ts';
export * from './errors.ts';
export * from './governor.ts';
export * from './etag-cache.ts';
export * from './pagers.ts';
export * from './export-stream.ts';
export * from './client.ts';
export * from './purchase-journal.ts';
export * from './purchaser.ts';

export * from './primitives.ts';
export * from './json.ts';
export * from './resources.ts';
export * from './errors.ts';
export * from './limits.ts';
export * from './events.ts';
export * from './webhooks.ts';
export * from './endpoints.ts';

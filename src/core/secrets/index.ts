/** Secrets (API key, webhook signing secret): one interface, three stores, and the CLI's lookup order. */
export * from './store.ts';
export * from './memory.ts';
export * from './env.ts';
export * from './keyring.ts';
export * from './resolve.ts';

/** The IPC contract (calls and pushes), its envelopes and errors, and the pieces both transports share. */
export * from './contract.ts';
export * from './errors.ts';
export * from './api.ts';
export * from './dispatch.ts';
export * from './coalesce.ts';
export * from './wire.ts';
export * from './csp.ts';

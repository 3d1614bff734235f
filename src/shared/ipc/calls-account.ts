/** IPC calls of the account screens (portfolio, selling, listings, trades, orders, wallet). Merged into IPC_CALLS. */
// Entries are built with call() from ./call.ts, each with an `example` input.
export const ACCOUNT_CALLS = {} as const;

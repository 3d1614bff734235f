/** IPC calls of the market screens (live book, item detail, buying). Merged into IPC_CALLS. */
// Entries are built with call() from ./call.ts, each with an `example` input.
export const MARKET_CALLS = {} as const;

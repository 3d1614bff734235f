/**
 * The one IPC contract between the renderer and the app (Electron main, or the browser test host).
 *
 * Every call (request → response) and every push (app → renderer) is declared here once, with zod
 * schemas. Main registers one handler per call by looping over IPC_CALLS, the preload and the test host's
 * bridge generate `window.skindesk` from the same table, and the renderer's types are inferred from it.
 * Everything that crosses is JSON-safe: int64 `seq` values travel as decimal strings.
 *
 * Adding a call: add an entry to the area's table (calls-market.ts for the market screens,
 * calls-account.ts for the account screens, IPC_CALLS below for the app itself) with an `example` input
 * the tests use, then a handler in src/core/app/handlers/<area>.ts (the type of the handler table makes a
 * missing one a compile error).
 */
import { z } from 'zod';
import { appId, fullListing, id, seqString, timestamp, trade } from '../api/index.ts';
import { bookQuery } from '../query.ts';
import { marketUrlProblem } from '../market-url.ts';
import { call } from './call.ts';
import { MARKET_CALLS } from './calls-market.ts';
import { ACCOUNT_CALLS, tradePollerView, undercutGuardView, withdrawalAttempt, withdrawalView } from './calls-account.ts';
import { WATCH_CALLS, WATCH_PUSHES } from './calls-watch.ts';

export type { CallDef } from './call.ts';

// ---- value shapes used by several calls and pushes ------------------------------------------------

const noInput = z.strictObject({});

export const MARKET_MODES = ['demo', 'real'] as const;
/** Why the demo market is in use (null when connected to the real one). */
export const DEMO_REASONS = ['no_api_key', 'keychain_unavailable', 'no_market_url', 'chosen_in_settings'] as const;

export const marketState = z.strictObject({
  mode: z.enum(MARKET_MODES),
  /** REST base URL in use; null before the first connection. */
  baseUrl: z.string().nullable(),
  demoReason: z.enum(DEMO_REASONS).nullable(),
});
export type MarketState = z.infer<typeof marketState>;

export const secretState = z.strictObject({
  set: z.boolean(),
  last4: z.string().length(4).nullable(),
});

export const settingsView = z.strictObject({
  market: z.strictObject({
    /** Use the embedded demo market even when an API key is set. */
    useDemo: z.boolean(),
    /** REST base URL of the real marketplace. */
    baseUrl: z.string().nullable(),
  }),
  apiKey: secretState,
  webhookSecret: secretState,
  secretStorage: z.strictObject({
    kind: z.enum(['keyring', 'env', 'memory']),
    /** Why the store cannot be used right now (no Secret Service on this Linux session, say). */
    problem: z.string().nullable(),
  }),
});
export type SettingsView = z.infer<typeof settingsView>;

export const SYNC_STATES = ['opening', 'connecting', 'live', 'resyncing', 'offline', 'stopped'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/**
 * A read of the whole book on its way (a first load or a resync: a million listings take seconds to
 * minutes): `reading` while the body arrives (listings checked so far, bytes received), then `merging`
 * while they are written into the mirror (`merged` of all `rows`; the body's size stays in `bytes`).
 */
export const bookRead = z.strictObject({
  phase: z.enum(['reading', 'merging']),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  merged: z.number().int().nonnegative(),
});
export type BookRead = z.infer<typeof bookRead>;

export const syncStatus = z.strictObject({
  market: marketState,
  /** opening: reading the mirror from disk; live: following the feed; offline: showing the cached book. */
  state: z.enum(SYNC_STATES),
  /** When `state` was entered. */
  since: timestamp,
  /** Highest seq applied to the mirror. */
  lastSeq: seqString.nullable(),
  /** The last moment the mirror was known to match the marketplace ("book as of ..."). */
  bookAsOf: timestamp.nullable(),
  /** Live listings in the mirror. */
  rows: z.number().int().nonnegative(),
  eventsPerSecond: z.number().nonnegative(),
  /** Plain words: why the state is offline or resyncing. */
  problem: z.string().nullable(),
  /** The read of the whole book under way, if one is (null otherwise). */
  bookRead: bookRead.nullable(),
});
export type SyncStatus = z.infer<typeof syncStatus>;

export const backfillProgress = z.strictObject({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  /** Listings whose full detail (float, stickers, ...) is in the mirror. */
  detailed: z.number().int().nonnegative(),
  /** Live listings in the mirror. */
  total: z.number().int().nonnegative(),
  problem: z.string().nullable(),
  /** Estimated time until every live listing has its detail (ms), from the recent pace; null when not known. */
  etaMs: z.number().nonnegative().nullable(),
});
export type BackfillProgress = z.infer<typeof backfillProgress>;

const nullableNumber = z.number().nullable();

/** One row of the book grid: price state plus the detail columns the grid shows (null until known). */
export const bookRow = z.strictObject({
  id,
  app_id: appId,
  market_hash_name: z.string(),
  price: z.number().int(),
  amount: z.number().int().nonnegative(),
  commodity: z.boolean(),
  created_at: z.string(),
  paint_wear: nullableNumber,
  paint_seed: nullableNumber,
  paint_index: nullableNumber,
  fade: nullableNumber,
  blue: nullableNumber,
  stattrak: z.boolean().nullable(),
  souvenir: z.boolean().nullable(),
  /** Stickers and keychains by slot, with wear (0 = pristine); null until the listing's detail is known. */
  stickers: z
    .array(z.strictObject({ slot: z.number().int(), name: z.string(), wear: nullableNumber }))
    .nullable(),
  keychains: z
    .array(z.strictObject({ slot: z.number().int(), name: z.string(), pattern: nullableNumber }))
    .nullable(),
  /** The item's market price (prices/all, cents), for "against the market"; null until the app has read it. */
  market_price: z.number().int().nullable(),
});
export type BookRow = z.infer<typeof bookRow>;

export const bookPage = z.strictObject({
  rows: z.array(bookRow),
  /** Keyset cursor for the next page (pass as `after`), null at the end. */
  next: z.string().nullable(),
  /** Matching rows in total, when `count` was asked for. */
  total: z.number().int().nonnegative().nullable(),
  /** The book version the page was read at (see the bookChanged push). */
  version: z.number().int().nonnegative(),
  lastSeq: seqString.nullable(),
});
export type BookPage = z.infer<typeof bookPage>;

export const rateLimitView = z.strictObject({
  endpoints: z.array(
    z.strictObject({
      key: z.string(),
      limit: z.number().int().nonnegative(),
      windowMs: z.number().int().nonnegative(),
      headroom: z.number().int().nonnegative(),
      blockedUntil: timestamp.nullable(),
    }),
  ),
  rateLimited: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
});

/** https URLs only; the host allowlist is applied by the app (src/core/app/external-links.ts). */
const externalUrl = z.url().max(2048);

const apiKeyInput = z.string().min(1).max(512);

export const notification = z.strictObject({
  id: z.string(),
  level: z.enum(['info', 'success', 'warning', 'error']),
  title: z.string(),
  message: z.string(),
  at: timestamp,
  /**
   * What the notification is about, when later ones about it supersede it (a trade's next status): the
   * window shows the latest in place of the earlier toast instead of stacking them.
   */
  topic: z.string().max(100).optional(),
});
export type Notification = z.infer<typeof notification>;

/**
 * The topic of the notice that the keychain could not be read at start. Its advice ("…then restart
 * Skindesk") is wrong once a secret saved later shows the keychain works: the window closes it when the
 * settings no longer report a keychain problem.
 */
export const KEYCHAIN_NOTICE_TOPIC = 'keychain';

// ---- calls ------------------------------------------------------------------------------------

export const IPC_CALLS = {
  ...MARKET_CALLS,
  ...ACCOUNT_CALLS,
  ...WATCH_CALLS,
  getAppInfo: call({
    summary: 'Name, version and platform of the running app.',
    input: noInput,
    output: z.strictObject({ name: z.string(), version: z.string(), platform: z.string() }),
    example: {},
  }),
  takeStartupNotifications: call({
    summary:
      'Notifications the app published before a window could show them (a damaged settings file, a keychain problem, a market that did not start), handed over once: the first call takes them, later ones get none.',
    input: noInput,
    output: z.strictObject({ notifications: z.array(notification) }),
    example: {},
  }),
  getStatus: call({
    summary: 'Current sync status (the same payload as the syncStatus push).',
    input: noInput,
    output: syncStatus,
    example: {},
  }),
  getBackfillProgress: call({
    summary: 'Current detail backfill progress (the same payload as the backfillProgress push).',
    input: noInput,
    output: backfillProgress,
    example: {},
  }),
  getRateLimits: call({
    summary: 'Headroom per marketplace endpoint, from the rate governor.',
    input: noInput,
    output: rateLimitView,
    example: {},
  }),
  queryBook: call({
    summary: 'One window of the mirrored book: filter, sort, keyset paging, optional total count.',
    input: bookQuery,
    output: bookPage,
    example: {
      filter: { app_id: 730, price: { max: 10_000 } },
      sort: { field: 'price', dir: 'asc' },
      limit: 50,
      count: true,
    },
  }),
  getListing: call({
    summary: 'Everything the mirror holds about one listing, or null when it is not in the book.',
    input: z.strictObject({ id }),
    output: z.strictObject({
      listing: fullListing.nullable(),
      alive: z.boolean(),
      /** The float's rank among the item's live listings with a known float in the book (1 = lowest). */
      floatRank: z.strictObject({ rank: z.number().int().positive(), of: z.number().int().positive() }).nullable(),
    }),
    example: { id: 1 },
  }),
  getSettings: call({
    summary: 'Settings, and what the UI may know about the secrets (set or not, last 4 characters).',
    input: noInput,
    output: settingsView,
    example: {},
  }),
  setApiKey: call({
    summary: 'Stores (or replaces) the API key in the keychain and reconnects.',
    input: z.strictObject({ apiKey: apiKeyInput }),
    output: settingsView,
    example: { apiKey: 'sk_example_0000' },
    sensitiveInput: true,
  }),
  clearApiKey: call({
    summary: 'Removes the API key from the keychain and switches to the demo market.',
    input: noInput,
    output: settingsView,
    example: {},
  }),
  setWebhookSecret: call({
    summary: 'Stores (or replaces) the webhook signing secret in the keychain.',
    input: z.strictObject({ secret: apiKeyInput }),
    output: settingsView,
    example: { secret: 'whsec_example_0000' },
    sensitiveInput: true,
  }),
  clearWebhookSecret: call({
    summary: 'Removes the webhook signing secret from the keychain.',
    input: noInput,
    output: settingsView,
    example: {},
  }),
  setMarket: call({
    summary:
      'Chooses the demo market or the real one (by its REST base URL) and reconnects. The stored API key ' +
      'belongs to the URL it was saved with: a URL of another origin removes it unless `apiKey` brings one.',
    input: z.strictObject({
      useDemo: z.boolean(),
      baseUrl: z
        .url()
        .max(2048)
        .superRefine((u, ctx) => {
          const problem = marketUrlProblem(u);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .nullable(),
      /** The key for this market, saved with it (replacing any stored key). */
      apiKey: apiKeyInput.optional(),
    }),
    output: settingsView,
    example: { useDemo: true, baseUrl: null },
    sensitiveInput: true,
  }),
  openExternal: call({
    summary: "Opens an https link on the allowlist in the user's browser.",
    input: z.strictObject({ url: externalUrl }),
    output: z.strictObject({ opened: z.boolean() }),
    example: { url: 'https://steamcommunity.com/market/' },
  }),
} as const;

export type IpcCalls = typeof IPC_CALLS;
export type IpcCallName = keyof IpcCalls;
export const IPC_CALL_NAMES = Object.keys(IPC_CALLS) as IpcCallName[];
/** What the renderer passes (defaults may be left out). */
export type IpcInput<N extends IpcCallName> = z.input<IpcCalls[N]['input']>;
/** What a handler receives: the input after parsing, defaults filled in. */
export type IpcParsedInput<N extends IpcCallName> = z.output<IpcCalls[N]['input']>;
export type IpcOutput<N extends IpcCallName> = z.output<IpcCalls[N]['output']>;

export function isIpcCallName(name: unknown): name is IpcCallName {
  return typeof name === 'string' && Object.hasOwn(IPC_CALLS, name);
}

// ---- pushes ------------------------------------------------------------------------------------

export interface PushDef<P extends z.ZodType = z.ZodType> {
  payload: P;
  summary: string;
  /**
   * Minimum spacing between two deliveries; what arrives in between is merged with `merge`. 0 delivers
   * every payload at once (notifications: each one matters).
   */
  intervalMs: number;
  merge: (older: z.output<P>, newer: z.output<P>) => z.output<P>;
  example: z.output<P>;
}

function push<P extends z.ZodType>(def: PushDef<P>): PushDef<P> {
  return def;
}
const latest = <T>(_older: T, newer: T): T => newer;

/** Changed ids carried per bookChanged batch; beyond that the renderer refetches what it shows. */
export const BOOK_CHANGE_MAX_IDS = 1000;

export const bookChanged = z.strictObject({
  /** Increases with every change of the mirror; a query answered at an older version is stale. */
  version: z.number().int().nonnegative(),
  lastSeq: seqString.nullable(),
  /** The whole book was replaced (a snapshot merge, a switch of market): refetch everything. */
  reset: z.boolean(),
  upserted: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** Ids of created, changed and removed listings (at most BOOK_CHANGE_MAX_IDS). */
  ids: z.array(id).max(BOOK_CHANGE_MAX_IDS),
  /** More ids changed than `ids` holds. */
  idsTruncated: z.boolean(),
});
export type BookChanged = z.infer<typeof bookChanged>;

export function mergeBookChanges(older: BookChanged, newer: BookChanged): BookChanged {
  const ids = [...new Set([...older.ids, ...newer.ids])];
  return {
    version: Math.max(older.version, newer.version),
    lastSeq: newer.lastSeq ?? older.lastSeq,
    reset: older.reset || newer.reset,
    upserted: older.upserted + newer.upserted,
    removed: older.removed + newer.removed,
    ids: ids.slice(0, BOOK_CHANGE_MAX_IDS),
    idsTruncated: older.idsTruncated || newer.idsTruncated || ids.length > BOOK_CHANGE_MAX_IDS,
  };
}

export const tradesUpdated = z.strictObject({ trades: z.array(trade) });
export type TradesUpdated = z.infer<typeof tradesUpdated>;

/** Keeps the newest state of each trade (by updated_at), as the trade tracker does. */
export function mergeTradeUpdates(older: TradesUpdated, newer: TradesUpdated): TradesUpdated {
  const byId = new Map<number, TradesUpdated['trades'][number]>();
  for (const t of [...older.trades, ...newer.trades]) {
    const held = byId.get(t.id);
    if (!held || Date.parse(t.updated_at) >= Date.parse(held.updated_at)) byId.set(t.id, t);
  }
  return { trades: [...byId.values()] };
}

export const exportProgress = z.strictObject({
  exportId: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  bytes: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative().nullable(),
  rows: z.number().int().nonnegative(),
  problem: z.string().nullable(),
});
export type ExportProgress = z.infer<typeof exportProgress>;

const EXAMPLE_TS = '2026-01-01T00:00:00.000Z';

export const IPC_PUSHES = {
  ...WATCH_PUSHES,
  bookChanged: push({
    summary: 'The mirror changed; at most ~60 batches a second.',
    payload: bookChanged,
    intervalMs: 17,
    merge: mergeBookChanges,
    example: {
      version: 1,
      lastSeq: '42',
      reset: false,
      upserted: 1,
      removed: 0,
      ids: [7],
      idsTruncated: false,
    },
  }),
  syncStatus: push({
    summary: 'Connection and sync state for the status bar.',
    payload: syncStatus,
    intervalMs: 100,
    merge: latest,
    example: {
      market: { mode: 'demo', baseUrl: 'http://127.0.0.1:1', demoReason: 'no_api_key' },
      state: 'live',
      since: EXAMPLE_TS,
      lastSeq: '42',
      bookAsOf: EXAMPLE_TS,
      rows: 1,
      eventsPerSecond: 0,
      problem: null,
      bookRead: null,
    },
  }),
  backfillProgress: push({
    summary: 'How much of the book has its full detail (float, stickers) yet.',
    payload: backfillProgress,
    intervalMs: 250,
    merge: latest,
    example: { state: 'running', detailed: 10, total: 100, problem: null, etaMs: 90_000 },
  }),
  tradesUpdated: push({
    summary: 'Changed trades of the account (newest state of each).',
    payload: tradesUpdated,
    intervalMs: 100,
    merge: mergeTradeUpdates,
    example: { trades: [] },
  }),
  tradePollChanged: push({
    summary: 'The trade poller polled, or failed to (the Trades screen says so while polls fail).',
    payload: tradePollerView,
    intervalMs: 250,
    merge: latest,
    example: { running: true, lastPollAt: EXAMPLE_TS, nextPollAt: null, lastError: 'The marketplace is failing on its side (a server error).', failingSince: EXAMPLE_TS },
  }),
  notification: push({
    summary: 'Something the user should see once (a toast).',
    payload: notification,
    intervalMs: 0,
    merge: latest,
    example: {
      id: 'n1',
      level: 'info',
      title: 'Demo market',
      message: 'Connected to the demo market.',
      at: EXAMPLE_TS,
    },
  }),
  undercutGuardChanged: push({
    summary: 'An undercut guard acted (lowered its listing) or changed state (lowest, holding at its floor, stopped).',
    payload: undercutGuardView,
    intervalMs: 0,
    merge: latest,
    example: {
      listingId: 1,
      appId: 730,
      marketHashName: 'AK-47 | Redline (Field-Tested)',
      floor: 900,
      step: 1,
      ceiling: null,
      state: 'undercut',
      note: 'Lowered to $9.79, $0.01 under the cheapest other (#2).',
      edits: 1,
      lastEditAt: EXAMPLE_TS,
    },
  }),
  withdrawalUpdated: push({
    summary:
      'A crypto withdrawal moved (PENDING → CONFIRMING → SUCCESS, or FAILED with the refund), or (`attempt`) one whose outcome was unknown was checked by the app on its own: settled, or still unknown with the check’s note.',
    payload: z.union([withdrawalView, z.strictObject({ attempt: withdrawalAttempt })]),
    intervalMs: 0,
    merge: latest,
    example: {
      withdrawal: {
        withdrawal_id: 1,
        status: 'PENDING',
        balance_amount: 5000,
        token_amount: 0.00076,
        ticker: 'BTC',
        created_at: EXAMPLE_TS,
        tx_hash: null,
        network_fee: null,
      },
      statuses: [{ status: 'PENDING', seenAt: EXAMPLE_TS }],
      refunded: 0,
      checkTrouble: null,
    },
  }),
  exportProgress: push({
    summary: 'Progress of an export being written to disk (orders, the book view, the sales tape).',
    payload: exportProgress,
    intervalMs: 100,
    merge: latest,
    example: { exportId: 'e1', state: 'running', bytes: 1024, totalBytes: null, rows: 10, problem: null },
  }),
  settingsChanged: push({
    summary: 'Settings or secret state changed (from any window).',
    payload: settingsView,
    intervalMs: 0,
    merge: latest,
    example: {
      market: { useDemo: false, baseUrl: null },
      apiKey: { set: false, last4: null },
      webhookSecret: { set: false, last4: null },
      secretStorage: { kind: 'memory', problem: null },
    },
  }),
} as const;

export type IpcPushes = typeof IPC_PUSHES;
export type IpcPushName = keyof IpcPushes;
export const IPC_PUSH_NAMES = Object.keys(IPC_PUSHES) as IpcPushName[];
export type IpcPushPayload<P extends IpcPushName> = z.output<IpcPushes[P]['payload']>;

export function isIpcPushName(name: unknown): name is IpcPushName {
  return typeof name === 'string' && Object.hasOwn(IPC_PUSHES, name);
}

// ---- channels (Electron) -------------------------------------------------------------------------

const CHANNEL_PREFIX = 'skindesk';
export function callChannel(name: IpcCallName): string {
  return `${CHANNEL_PREFIX}:call:${name}`;
}
export function pushChannel(name: IpcPushName): string {
  return `${CHANNEL_PREFIX}:push:${name}`;
}

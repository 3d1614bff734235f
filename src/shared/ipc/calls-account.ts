/**
 * IPC calls of the account screens (portfolio, selling, listings, trades, orders, wallet). Merged into
 * IPC_CALLS.
 *
 * Reads answer with a `freshness` block: every read is cached in SQLite by the app, so a screen opens
 * at once (and offline) with the stored copy, and says how old it is and why it could not be refreshed.
 * Writes take `dryRun: true` to run the app's pre-send checks (limits, token lifetimes, pools) without
 * sending anything; a real send that fails those checks is refused with code REFUSED, `apiCode` set to
 * the spec's code of the first problem, and every problem in `issues`.
 *
 * External-inventory rows are named by `assetId` (their `steam_asset_id`), never by token: the tokens
 * stay in the app, which knows how old they are.
 */
import { z } from 'zod';
import { savedExport } from './file-export.ts';
import {
  CRYPTO_FEE_LEVELS,
  CRYPTO_TICKERS,
  LIMITS,
  LISTING_STATUSES,
  ORDER_SIDES,
  TRADE_STATUSES,
  appId,
  backpackItem,
  balanceTransaction,
  cryptoWithdrawal,
  leanListing,
  metadata,
  myListing,
  orderItem,
  priceDecayRequest,
  timestamp,
  trade,
  user,
} from '../api/index.ts';
import { DOPPLER_PHASES } from '../phases.ts';
import { call } from './call.ts';

// ---- shared shapes -------------------------------------------------------------------------------

/** How fresh a read is. */
export const freshness = z.strictObject({
  /** When the data came from the marketplace. */
  fetchedAt: timestamp,
  /** Served from the app's SQLite cache instead of a fresh request. */
  fromCache: z.boolean(),
  /** Plain words: why the refresh failed and the stored copy is shown (offline, rate limited, ...). */
  problem: z.string().nullable(),
});
export type Freshness = z.infer<typeof freshness>;

const page = z.number().int().min(1).max(100_000);
const pageLimit = z.union([z.literal(5), z.literal(10), z.literal(25), z.literal(30), z.literal(50), z.literal(100)]);
/** The largest amount of money an account call takes ($100,000,000.00); the price fields stop there. */
export const MAX_ACCOUNT_CENTS = 100_000_000_00;
const cents = z.number().int().positive().max(MAX_ACCOUNT_CENTS);
const copies = z.number().int().positive().max(100_000);
const assetId = z.string().min(1).max(64);
const listingId = z.number().int().positive();

/**
 * One pre-send problem, in plain words, with the spec's code and where it is. A problem that does not
 * block (`blocking: false`) is a note on what happens when it is sent (an earlier send of the same item
 * got no clear answer, so the app checks the backpack first).
 */
export const sendProblem = z.strictObject({
  code: z.string(),
  message: z.string(),
  group: z.number().int().nonnegative().nullable(),
  entry: z.number().int().nonnegative().nullable(),
  blocking: z.boolean(),
});
export type SendProblem = z.infer<typeof sendProblem>;

const checked = z.strictObject({ ok: z.boolean(), problems: z.array(sendProblem) });

/** An external-inventory row as the screens see it (no token). */
export const inventoryRow = z.strictObject({
  assetId,
  appId,
  name: z.string(),
  amount: z.number().int().positive(),
  commodity: z.boolean(),
  tradable: z.boolean(),
  marketPrice: z.number().int().nonnegative(),
  recommendedPrice: z.number().int().nonnegative(),
  iconUrl: z.string(),
  /**
   * Sent in a sell or deposit offer since the inventory was read: its deposit id, or 'unknown' when the
   * answer to that sell or deposit was lost (the row may be in an offer; reading the inventory tells).
   */
  inOffer: z.union([z.number().int().positive(), z.literal('unknown')]).nullable(),
});
export type InventoryRow = z.infer<typeof inventoryRow>;

/** A result row of bulk edit and bulk delist, in the order sent. */
export const bulkRow = z.strictObject({
  listingId,
  ok: z.boolean(),
  /** The spec's code when the row failed. */
  error: z.string().nullable(),
  /** The code in plain words. */
  explanation: z.string().nullable(),
});
export type BulkRow = z.infer<typeof bulkRow>;

export const timelineStep = z.strictObject({
  status: z.enum(TRADE_STATUSES),
  /** The trade's updated_at when it had this status. */
  at: timestamp,
  /** Which feed saw it first: a signed webhook, a poll of GET /trades, or the answer to our own write. */
  source: z.enum(['webhook', 'poll', 'action']),
});

export const trackedTrade = z.strictObject({
  trade,
  timeline: z.array(timelineStep),
  /** The status in plain words, then the trade's own reason when it adds one (sentences, lower-case start). */
  words: z.string(),
  inFlight: z.boolean(),
});
export type TrackedTrade = z.infer<typeof trackedTrade>;

export const withdrawalView = z.strictObject({
  withdrawal: cryptoWithdrawal,
  /** Statuses seen, in order, with when this app first saw each. */
  statuses: z.array(z.strictObject({ status: z.string(), seenAt: timestamp })),
  /** Cents returned to the balance (the whole amount once FAILED, else 0). */
  refunded: z.number().int().nonnegative(),
  /** While its status checks fail: the status shown is as old as `lastSeenAt`, and `problem` says why. */
  checkTrouble: z
    .strictObject({
      lastSeenAt: timestamp,
      failingSince: timestamp,
      problem: z.string(),
      /** False once the app stopped checking it (a refusal, or it gave up after a day). */
      retrying: z.boolean(),
    })
    .nullable(),
});
export type WithdrawalView = z.infer<typeof withdrawalView>;

export const WITHDRAWAL_ATTEMPT_STATES = ['intent', 'sent', 'refused', 'unknown', 'not_sent'] as const;
/** How a journaled withdrawal's outcome was learned: the answer, the ledger, the balance, or the trader's word. */
export const WITHDRAWAL_SETTLED_BY = ['response', 'ledger', 'balance', 'trader'] as const;

/**
 * A crypto withdrawal as the app's journal holds it (written before sending, resolved after). One whose
 * state is `intent` or `unknown` got no clear answer (a timeout, a dropped connection, a 5xx): it may
 * have been sent, and new withdrawals are held until it is settled (settleWithdrawal).
 */
export const withdrawalAttempt = z.strictObject({
  id: z.uuid(),
  /** When it was asked for. */
  at: timestamp,
  amount: z.number().int().positive(),
  ticker: z.enum(CRYPTO_TICKERS),
  address: z.string(),
  state: z.enum(WITHDRAWAL_ATTEMPT_STATES),
  withdrawalId: z.number().int().positive().nullable(),
  /** How the outcome was learned: the answer, the ledger, the balance, or the trader's word. */
  settledBy: z.enum(WITHDRAWAL_SETTLED_BY).nullable(),
  /** Plain words: what is not known and why, or how it was settled. */
  words: z.string(),
  /** What the last automatic check saw, and when. */
  lastCheck: z.strictObject({ at: timestamp, note: z.string() }).nullable(),
});
export type WithdrawalAttemptView = z.infer<typeof withdrawalAttempt>;

export const WEBHOOK_RECEIVER_STATES = ['off', 'no_secret', 'starting', 'listening', 'failed'] as const;

export const tradeFeedSettings = z.strictObject({
  /** An OS notification (and a toast) on every status change of a trade or crypto withdrawal. */
  notifyOnStatusChange: z.boolean(),
  webhook: z.strictObject({
    enabled: z.boolean(),
    /** Local port the receiver listens on (127.0.0.1); the https tunnel forwards to it. */
    port: z.number().int().min(1024).max(65_535),
    /** The header prefix of the service's webhook headers (`X-Service-` in the spec). */
    headerPrefix: z
      .string()
      .min(2)
      .max(40)
      .regex(/^[A-Za-z][A-Za-z0-9-]*-$/, 'letters, digits and dashes, ending in a dash (like X-Service-)'),
  }),
});
export type TradeFeedSettings = z.infer<typeof tradeFeedSettings>;

/** The trade poller: when it last polled, and whether polls are failing now (and why, in words). */
export const tradePollerView = z.strictObject({
  running: z.boolean(),
  lastPollAt: timestamp.nullable(),
  nextPollAt: timestamp.nullable(),
  /** The failure in words while polls fail; null after a good poll. */
  lastError: z.string().nullable(),
  /** Since when polls have been failing (the first of the failures going on now); null after a good poll. */
  failingSince: timestamp.nullable(),
});
export type TradePollerView = z.infer<typeof tradePollerView>;

export const tradeFeedView = z.strictObject({
  settings: tradeFeedSettings,
  /** Whether the signing secret is stored (Settings → webhook signing secret). */
  secretSet: z.boolean(),
  receiver: z.strictObject({
    state: z.enum(WEBHOOK_RECEIVER_STATES),
    /** Where the receiver answers locally; point the tunnel here. */
    localUrl: z.string().nullable(),
    problem: z.string().nullable(),
    accepted: z.number().int().nonnegative(),
    rejected: z.number().int().nonnegative(),
  }),
  poller: tradePollerView,
  /** On the demo market the receiver is registered with it automatically (no tunnel needed). */
  demo: z.boolean(),
});
export type TradeFeedView = z.infer<typeof tradeFeedView>;

const decay = priceDecayRequest;

/** One item held (all copies: backpack lots and Steam assets), at market prices. */
const heldPosition = z.strictObject({
  app_id: appId,
  market_hash_name: z.string(),
  inBackpack: z.number().int().nonnegative(),
  inInventory: z.number().int().nonnegative(),
  marketPrice: z.number().int().nonnegative(),
  value: z.number().int().nonnegative(),
});
export type HeldPosition = z.infer<typeof heldPosition>;

/** Trading results of one item from the order history (core/account/trading-pnl.ts says how). */
const itemPnl = z.strictObject({
  app_id: appId,
  market_hash_name: z.string(),
  bought: z.number().int().nonnegative(),
  paid: z.number().int().nonnegative(),
  sold: z.number().int().nonnegative(),
  received: z.number().int(),
  fees: z.number().int().nonnegative(),
  avgPaid: z.number().int().nullable(),
  avgReceived: z.number().int().nullable(),
  /** Copies of settled sales that had been bought here before the sale: the only ones a profit is told for. */
  matched: z.number().int().nonnegative(),
  realized: z.number().int().nullable(),
  /** The same for sales not settled yet: apart, not in `realized`. */
  unsettledMatched: z.number().int().nonnegative(),
  unsettledRealized: z.number().int().nullable(),
  /** Copies bought here and not sold here since, and their cost at the moving average. */
  unsold: z.number().int().nonnegative(),
  unsoldCost: z.number().int().nonnegative(),
  lastTradeAt: timestamp,
});
export type ItemPnlView = z.infer<typeof itemPnl>;

/** An own listing's undercut guard (core/account/undercut-guard.ts): its rule and what it did last. */
export const undercutGuardView = z.strictObject({
  listingId,
  appId,
  marketHashName: z.string(),
  floor: z.number().int().positive(),
  step: z.number().int().positive(),
  /** The highest price it may raise to once rivals are gone; null: it never raises. */
  ceiling: z.number().int().positive().nullable(),
  state: z.enum(['watching', 'lowest', 'undercut', 'raised', 'holding', 'stopped']),
  /** Plain words: what the guard did last, or why it holds. */
  note: z.string(),
  edits: z.number().int().nonnegative(),
  lastEditAt: timestamp.nullable(),
});
export type UndercutGuardView = z.infer<typeof undercutGuardView>;

/** An own listing against the others of its item in the local book: the undercut check. */
const bookStanding = z.strictObject({
  listingId,
  others: z.number().int().nonnegative(),
  cheaper: z.number().int().nonnegative(),
  lowestOther: z.number().int().nonnegative().nullable(),
  lowestOtherId: listingId.nullable(),
  /** A Doppler's phase: the standing is among the same name in that phase only. */
  phase: z.enum(DOPPLER_PHASES).nullable(),
});
export type BookStandingView = z.infer<typeof bookStanding>;

// ---- calls ---------------------------------------------------------------------------------------

export const ACCOUNT_CALLS = {
  getPortfolio: call({
    summary:
      'Balance and user, listed value, backpack and Steam inventory at market prices, and the value over time.',
    input: z.strictObject({
      /** Also read the Steam inventory of every game (4 of the route's 5 reads a minute). */
      readInventories: z.boolean().default(false),
      /**
       * Read every game's inventory anew, however young its stored read (the route reads live: the spec
       * gives it no cache, only 5 reads a minute), except one read in the last minute. Implies readInventories.
       */
      readInventoriesAgain: z.boolean().default(false),
      /**
       * The trader asked for a refresh: the backpack is read anew too (otherwise a read up to a minute
       * old is used, unless this app moved items since).
       */
      refresh: z.boolean().default(false),
    }),
    output: z.strictObject({
      user: user.nullable(),
      listed: z
        .strictObject({
          listingCount: z.number().int().nonnegative(),
          itemCount: z.number().int().nonnegative(),
          value: z.number().int().nonnegative(),
        })
        .nullable(),
      backpack: z
        .strictObject({
          value: z.number().int().nonnegative(),
          /** Backpack rows (lots) read: what the spec's backpack `total_items` counts. */
          rows: z.number().int().nonnegative(),
          /** Copies in those rows, each row's `amount` summed (a commodity row holds many). */
          copies: z.number().int().nonnegative(),
          /** False when some lots may be missing: a page could not be read, or the backpack changed while read. */
          complete: z.boolean(),
        })
        .nullable(),
      inventory: z.strictObject({
        value: z.number().int().nonnegative(),
        /** The games whose Steam inventory has been read, with when. */
        games: z.array(
          z.strictObject({
            appId,
            value: z.number().int().nonnegative(),
            items: z.number().int().nonnegative(),
            fetchedAt: timestamp,
          }),
        ),
      }),
      /** What is held (backpack and the Steam inventories read), by item, largest value first. */
      positions: z.array(heldPosition),
      /** How many items are held in all: `positions` is the largest of them, 100 at most. */
      positionCount: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      history: z.array(
        z.strictObject({
          at: timestamp,
          total: z.number().int().nonnegative(),
          balance: z.number().int(),
          listed: z.number().int().nonnegative(),
          held: z.number().int().nonnegative(),
        }),
      ),
      freshness: freshness.nullable(),
    }),
    example: { readInventories: false },
  }),

  getTradingPnl: call({
    summary:
      'Trading results per item from the whole order history (GET /orders/export, 5 a minute): paid, received after fees, and the profit on copies sold after being bought here (moving average cost), from settled sales, with that of sales not settled yet apart. Without refresh, the last results stored.',
    input: z.strictObject({ refresh: z.boolean().default(false) }),
    output: z.strictObject({
      items: z.array(itemPnl),
      totals: z.strictObject({
        paid: z.number().int().nonnegative(),
        received: z.number().int(),
        /** Of `received`, the sales not settled yet. */
        unsettled: z.number().int(),
        fees: z.number().int().nonnegative(),
        /** Profit of settled sales only. */
        realized: z.number().int(),
        matched: z.number().int().nonnegative(),
        /** Profit on copies of sales not settled yet, apart from `realized`. */
        unsettledRealized: z.number().int(),
        unsettledMatched: z.number().int().nonnegative(),
        rows: z.number().int().nonnegative(),
      }),
      /** When the history was read; null: never yet. */
      computedAt: timestamp.nullable(),
      /** Why a refresh failed while older results are shown. */
      problem: z.string().nullable(),
    }),
    example: { refresh: false },
  }),

  getInventory: call({
    summary: 'The Steam inventory of one game, with tradable state and the tokens’ remaining lifetime.',
    input: z.strictObject({ appId, refresh: z.boolean().default(false) }),
    output: z.strictObject({
      appId,
      items: z.array(inventoryRow),
      freshness,
      /** When the tokens of this read stop being accepted (30 minutes after the read). */
      tokensExpireAt: timestamp,
      /** Expired or about to: read again before selling. */
      expired: z.boolean(),
      tradesInFlight: z.number().int().nonnegative(),
    }),
    example: { appId: 730, refresh: false },
  }),

  sellItems: call({
    summary: 'Sells Steam inventory items: one trade offer per game, then listed at the price per copy.',
    input: z.strictObject({
      appId,
      groups: z
        .array(
          z.strictObject({
            items: z.array(z.strictObject({ assetId, amount: copies })).min(1).max(LIMITS.entriesPerGroup),
            price: cents,
          }),
        )
        .min(1)
        .max(LIMITS.groupsPerBody),
      dryRun: z.boolean().default(false),
    }),
    output: z.strictObject({ check: checked, depositIds: z.array(z.number().int().positive()) }),
    example: { appId: 730, groups: [{ items: [{ assetId: '1001', amount: 1 }], price: 1250 }], dryRun: true },
  }),

  depositItems: call({
    summary: 'Moves Steam inventory items into the backpack (a trade offer, no price).',
    input: z.strictObject({
      appId,
      items: z.array(z.strictObject({ assetId, amount: copies })).min(1).max(LIMITS.groupsPerBody * LIMITS.entriesPerGroup),
      dryRun: z.boolean().default(false),
    }),
    output: z.strictObject({ check: checked, depositIds: z.array(z.number().int().positive()) }),
    example: { appId: 730, items: [{ assetId: '1001', amount: 1 }], dryRun: true },
  }),

  getBackpack: call({
    summary: 'One page of the backpack, optionally by game and by name.',
    input: z.strictObject({
      page: page.default(1),
      limit: pageLimit.default(50),
      appId: appId.nullable().default(null),
      search: z.string().trim().min(LIMITS.backpackSearchMin).max(LIMITS.backpackSearchMax).nullable().default(null),
    }),
    output: z.strictObject({ items: z.array(backpackItem), metadata, freshness }),
    example: { page: 1, limit: 50, appId: null, search: null },
  }),

  listItems: call({
    summary: 'Lists backpack items: each group becomes one listing, at a fixed price or with a price decay.',
    input: z.strictObject({
      groups: z
        .array(
          z.strictObject({
            items: z.array(z.strictObject({ id: listingId, amount: copies })).min(1).max(LIMITS.entriesPerGroup),
            price: cents.nullable().default(null),
            decay: decay.nullable().default(null),
          }),
        )
        .min(1)
        .max(LIMITS.groupsPerBody),
      dryRun: z.boolean().default(false),
    }),
    output: z.strictObject({ check: checked, listings: z.array(leanListing) }),
    example: { groups: [{ items: [{ id: 1, amount: 1 }], price: 1250, decay: null }], dryRun: true },
  }),

  withdrawItems: call({
    summary: 'Sends backpack items to the Steam inventory as trade offers.',
    input: z.strictObject({
      items: z.array(z.strictObject({ id: listingId, amount: copies })).min(1).max(LIMITS.groupsPerBody),
    }),
    output: z.strictObject({ withdrawIds: z.array(z.number().int().positive()) }),
    example: { items: [{ id: 1, amount: 1 }] },
  }),

  getMyListings: call({
    summary: 'One page of the own listings by status.',
    input: z.strictObject({
      status: z.enum(LISTING_STATUSES).default('ACTIVE'),
      page: page.default(1),
      limit: pageLimit.default(50),
      appId: appId.nullable().default(null),
    }),
    output: z.strictObject({
      listings: z.array(myListing),
      metadata,
      freshness,
      /** Where each listing stands in the mirrored book (none for games not mirrored, or before a snapshot). */
      standings: z.array(bookStanding),
      /** The undercut guards of the account (all of them: few, and a stopped one says why). */
      guards: z.array(undercutGuardView),
    }),
    example: { status: 'ACTIVE', page: 1, limit: 50, appId: null },
  }),

  setUndercutGuard: call({
    summary:
      'Starts, changes or stops (floor null) the undercut guard of an own listing: kept one step under the cheapest other listing of its item in the book, never under the floor, raised back (never above the ceiling) only when a ceiling is given.',
    input: z.strictObject({
      listingId,
      /** The lowest price per copy the guard may set; null stops the guard. */
      floor: cents.nullable(),
      step: z.number().int().min(1).max(10_000).default(1),
      /** The highest price the guard may raise to when the rivals below have gone; null: never raise. */
      ceiling: cents.nullable().default(null),
    }),
    output: z.strictObject({ guard: undercutGuardView.nullable() }),
    example: { listingId: 1, floor: 900, step: 1, ceiling: null },
  }),

  editListing: call({
    summary:
      'Edits one listing: price, amount or decay. Lowering the amount with a price is a partial reprice (the surplus stays listed at the old price as a new listing).',
    input: z
      .strictObject({
        listingId,
        price: cents.nullable().default(null),
        amount: copies.nullable().default(null),
        decay: decay.nullable().default(null),
      })
      .refine((e) => e.price !== null || e.amount !== null || e.decay !== null, { message: 'change the price, the amount or the decay' })
      .refine((e) => e.price === null || e.decay === null, { message: 'a decay replaces the price; send one of them' }),
    output: z.strictObject({
      listing: leanListing,
      /** After a partial reprice: the new listing that holds the surplus at the old price, when found. */
      split: myListing.nullable(),
    }),
    example: { listingId: 1, price: 990, amount: null, decay: null },
  }),

  bulkEditListings: call({
    summary: 'Reprices up to 50 listings; each row is applied on its own and reported in a result table.',
    input: z.strictObject({
      edits: z
        .array(
          z
            .strictObject({ listingId, price: cents.nullable().default(null), decay: decay.nullable().default(null) })
            .refine((e) => (e.price === null) !== (e.decay === null), { message: 'send a price or a decay' }),
        )
        .min(1)
        .max(LIMITS.bulkEditOrDelist),
    }),
    output: z.strictObject({ results: z.array(bulkRow) }),
    example: { edits: [{ listingId: 1, price: 990, decay: null }] },
  }),

  delistListings: call({
    summary: 'Delists up to 50 listings (items return to the backpack), with a per-row result table.',
    input: z.strictObject({ listingIds: z.array(listingId).min(1).max(LIMITS.bulkEditOrDelist) }),
    output: z.strictObject({ results: z.array(bulkRow) }),
    example: { listingIds: [1, 2] },
  }),

  getTrades: call({
    summary: 'One page of the trades the app follows (webhooks and polling feed one tracker), newest first, each with its status timeline.',
    input: z.strictObject({
      page: z.number().int().min(1).default(1),
      limit: z.number().int().min(1).max(1000).default(200),
      status: z.enum(TRADE_STATUSES).nullable().default(null),
      /** Only trades in flight (true), only finished ones (false), or both (null). */
      inFlight: z.boolean().nullable().default(null),
      /** Only trades with these deposit ids (the result of a sell or deposit). */
      depositIds: z.array(z.number().int().positive()).max(1000).nullable().default(null),
      /** Only trades with these withdraw ids (the result of a withdrawal from the backpack). */
      withdrawIds: z.array(z.number().int().positive()).max(1000).nullable().default(null),
    }),
    output: z.strictObject({
      trades: z.array(trackedTrade),
      inFlight: z.number().int().nonnegative(),
      /** Every trade followed, whatever the filters. */
      total: z.number().int().nonnegative(),
      /** The pages of the trades the filters match. */
      metadata,
    }),
    example: { page: 1, limit: 200, status: null, inFlight: null, depositIds: null, withdrawIds: null },
  }),

  refreshTrades: call({
    summary: 'Polls GET /trades now (within its 1/s limit) and answers when the poll is done.',
    input: z.strictObject({}),
    output: z.strictObject({ applied: z.number().int().nonnegative(), inFlight: z.number().int().nonnegative() }),
    example: {},
  }),

  getTradeFeeds: call({
    summary: 'The trade feeds: notification and webhook receiver settings, the receiver’s and the poller’s state.',
    input: z.strictObject({}),
    output: tradeFeedView,
    example: {},
  }),

  setTradeFeeds: call({
    summary: 'Changes the trade feed settings; the webhook receiver starts, moves or stops accordingly.',
    input: tradeFeedSettings,
    output: tradeFeedView,
    example: { notifyOnStatusChange: true, webhook: { enabled: false, port: 8931, headerPrefix: 'X-Service-' } },
  }),

  getOrders: call({
    summary: 'One page of the order history, newest first.',
    input: z.strictObject({ page: page.default(1), limit: pageLimit.default(50) }),
    output: z.strictObject({ orders: z.array(orderItem), metadata, freshness }),
    example: { page: 1, limit: 50 },
  }),

  exportOrders: call({
    summary:
      'Exports the order history as CSV or JSON through a save dialog, streamed to disk with progress (exportProgress pushes).',
    input: z.strictObject({
      format: z.enum(['csv', 'json']).default('csv'),
      side: z.enum(ORDER_SIDES).nullable().default(null),
      appId: appId.nullable().default(null),
      from: z.iso.date().nullable().default(null),
      to: z.iso.date().nullable().default(null),
    }),
    output: savedExport,
    example: { format: 'csv', side: null, appId: null, from: null, to: null },
  }),

  getTransactions: call({
    summary: 'One page of the balance ledger with the running balance, newest first.',
    input: z.strictObject({ page: page.default(1), limit: pageLimit.default(50) }),
    output: z.strictObject({ transactions: z.array(balanceTransaction), metadata, freshness }),
    example: { page: 1, limit: 50 },
  }),

  getWithdrawals: call({
    summary:
      'Crypto withdrawals the app has made or followed, newest first, with their status history; and those whose outcome is unknown (they hold new withdrawals).',
    input: z.strictObject({}),
    output: z.strictObject({ withdrawals: z.array(withdrawalView), unsettled: z.array(withdrawalAttempt) }),
    example: {},
  }),

  settleWithdrawal: call({
    summary:
      'Settles a crypto withdrawal whose outcome is unknown: `check` looks at the balance and the ledger again; `sent` or `not_sent` is the trader’s word after checking the marketplace or the wallet.',
    input: z.strictObject({ id: z.uuid(), answer: z.enum(['check', 'sent', 'not_sent']) }),
    output: withdrawalAttempt,
    example: { id: '0b0e8f7e-4f43-4c55-9a55-5f1c2f7e9d10', answer: 'check' },
  }),

  checkWithdrawal: call({
    summary: 'What a crypto withdrawal would cost (fee and minimum: known on the demo market only) and what is wrong with it, before sending.',
    input: z.strictObject({
      ticker: z.enum(CRYPTO_TICKERS),
      amount: z.number().int().nonnegative().max(MAX_ACCOUNT_CENTS),
      address: z.string().max(128),
    }),
    // minimum, platformFee, converted and feeBps: the spec publishes none of them ("not shown"), so they
    // are null on a real market (the server judges the minimum) and the demo market's own values on it.
    output: z.strictObject({
      minimum: z.number().int().positive().nullable(),
      platformFee: z.number().int().nonnegative().nullable(),
      converted: z.number().int().nonnegative().nullable(),
      feeBps: z.number().int().nonnegative().nullable(),
      balance: z.number().int().nullable(),
      check: checked,
    }),
    example: { ticker: 'BTC', amount: 5000, address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  }),

  createWithdrawal: call({
    summary:
      'Withdraws balance to a crypto address; the app then follows it to SUCCESS or FAILED. Held (REFUSED, apiCode WITHDRAWAL_OUTCOME_UNKNOWN, or EARLIER_WITHDRAWAL_SENT when the check just found the earlier one went out) while an earlier withdrawal’s outcome is unknown.',
    input: z.strictObject({
      ticker: z.enum(CRYPTO_TICKERS),
      address: z.string().min(1).max(128),
      amount: cents,
      feeLevel: z.enum(CRYPTO_FEE_LEVELS),
      twoFactorCode: z.string().trim().min(1).max(32).nullable().default(null),
    }),
    output: withdrawalView,
    example: { ticker: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: 5000, feeLevel: 'LOW', twoFactorCode: null },
  }),
} as const;

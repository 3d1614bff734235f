/**
 * IPC calls and pushes of the watchlists screen (watchlists, the alert feed, guarded auto-buy and its
 * kill switch). Merged into IPC_CALLS and IPC_PUSHES.
 *
 * This module is evaluated while contract.ts is still loading, so it takes nothing from contract.ts at
 * run time (types only).
 */
import { z } from 'zod';
import { appId, id, seqString, timestamp } from '../api/index.ts';
import { bookFilter } from '../query.ts';
import { AUTO_BUY_MODES, alertWebhookUrl, priceCondition, watchlist, watchlistInput } from '../watchlist.ts';
import { call } from './call.ts';
import type { PushDef } from './contract.ts';

export const ALERT_STATES = ['new', 'buying', 'bought', 'not_bought', 'unknown', 'blocked', 'dismissed'] as const;
/**
 * Alerts a trader may mark as dealt with: those nothing came of. A purchase made, in flight or of
 * unknown outcome stays as it is: "dismissed" would hide the one alert that says to check the orders.
 */
export const DISMISSABLE_ALERT_STATES: readonly (typeof ALERT_STATES)[number][] = ['new', 'not_bought', 'blocked'];

/** One alert of the feed: a listing that matched a watchlist, and what became of it. */
export const watchAlertView = z.strictObject({
  id,
  at: timestamp,
  watchlistId: id,
  watchlistName: z.string(),
  listingId: id,
  appId,
  marketHashName: z.string(),
  /** The price seen when it matched (cents per copy): what a purchase of it pays at most. */
  price: z.number().int().nonnegative(),
  amount: z.number().int().nonnegative(),
  seq: seqString,
  /** The reference price of an "N % below" condition. */
  referencePrice: z.number().int().nullable(),
  ceiling: z.number().int().nonnegative(),
  /** 'event': a new listing or price change; 'sweep': found by the whole-book check. */
  origin: z.enum(['event', 'sweep']),
  state: z.enum(ALERT_STATES),
  /** Whether its watchlist buys, and how: a 'confirm' alert is bought with one keystroke. */
  mode: z.enum(AUTO_BUY_MODES),
  /** Play the alert sound (its watchlist asks for it). */
  sound: z.boolean(),
});
export type WatchAlertView = z.infer<typeof watchAlertView>;

/** One decision of the auto-buyer: sent (with its outcome) or blocked by a guardrail (with why). */
export const autoBuyEntryView = z.strictObject({
  id,
  at: timestamp,
  watchlistId: id,
  alertId: id.nullable(),
  listingId: id,
  marketHashName: z.string(),
  maxPrice: z.number().int().nonnegative(),
  amount: z.number().int().positive(),
  triggerSeq: seqString,
  mode: z.enum(['confirm', 'auto']),
  decision: z.enum(['sent', 'blocked']),
  status: z.enum(['pending', 'bought', 'not_bought', 'unknown']).nullable(),
  /** Plain words: the guardrail that blocked it, or why it was not bought. */
  reason: z.string().nullable(),
  orderId: z.number().int().nullable(),
});
export type AutoBuyEntryView = z.infer<typeof autoBuyEntryView>;

export const autoBuyState = z.strictObject({
  killSwitch: z.boolean(),
  /** Purchases may be sent now (live book, connected market). */
  live: z.boolean(),
  log: z.array(autoBuyEntryView),
});
export type AutoBuyState = z.infer<typeof autoBuyState>;

const watchlists = z.strictObject({ watchlists: z.array(watchlist) });

const EXAMPLE_WATCHLIST = {
  name: 'Cheap AK-47 Redlines',
  filter: { app_id: 730, name: 'AK-47 | Redline', float: { max: 0.2 } },
  price: { kind: 'below', reference: 'average_30d', percent: 15 },
  auto_buy: {
    mode: 'confirm',
    copies: 1,
    guardrails: { max_price: 5_000, total_budget: 50_000, daily_cap: 20_000, max_per_hour: 5, min_balance: 1_000 },
  },
} as const;

export const WATCH_CALLS = {
  listWatchlists: call({
    summary: 'Every watchlist of the market in use.',
    input: z.strictObject({}),
    output: watchlists,
    example: {},
  }),
  createWatchlist: call({
    summary:
      'Saves a watchlist — from the current book filter in one click (only `filter` is needed) or fully specified — and checks the whole book for it.',
    input: z.strictObject({
      filter: bookFilter,
      /** Default: made from the filter. */
      name: z.string().trim().min(1).max(100).optional(),
      /** Default: the filter's price ceiling when it has one, else 10 % below the 30-day average. */
      price: priceCondition.optional(),
      watchlist: watchlistInput.omit({ filter: true }).partial().optional(),
    }),
    output: watchlist,
    example: { filter: { app_id: 730, name: 'AK-47', float: { max: 0.07 } } },
  }),
  updateWatchlist: call({
    summary: 'Replaces a watchlist (filter, price condition, alerts, auto-buy and guardrails); re-checks the book.',
    input: z.strictObject({ id, watchlist: watchlistInput }),
    output: watchlist,
    example: { id: 1, watchlist: EXAMPLE_WATCHLIST },
  }),
  setWatchlistPaused: call({
    summary: 'Pauses (no alerts, no buying) or resumes a watchlist.',
    input: z.strictObject({ id, paused: z.boolean() }),
    output: watchlist,
    example: { id: 1, paused: true },
  }),
  deleteWatchlist: call({
    summary: 'Deletes a watchlist (its alerts and auto-buy log stay as history).',
    input: z.strictObject({ id }),
    output: z.strictObject({ deleted: z.boolean() }),
    example: { id: 1 },
  }),
  listWatchAlerts: call({
    summary: 'The alert feed, newest first.',
    input: z.strictObject({ limit: z.number().int().min(1).max(1_000).default(200), afterId: z.number().int().nonnegative().default(0) }),
    output: z.strictObject({ alerts: z.array(watchAlertView) }),
    example: { limit: 50 },
  }),
  dismissWatchAlert: call({
    summary: 'Marks an alert as dealt with (only one nothing came of: new, not bought or blocked).',
    input: z.strictObject({ id }),
    output: watchAlertView,
    example: { id: 1 },
  }),
  confirmWatchAlert: call({
    summary:
      'Confirm-first: buys the alerted listing at the price seen, within its watchlist’s guardrails; answers with the outcome.',
    input: z.strictObject({ id }),
    output: autoBuyEntryView,
    example: { id: 1 },
  }),
  getAutoBuyState: call({
    summary: 'The kill switch, whether purchases can be sent now, and the auto-buy log (newest first).',
    input: z.strictObject({ limit: z.number().int().min(1).max(1_000).default(100) }),
    output: autoBuyState,
    example: {},
  }),
  setAutoBuyKillSwitch: call({
    summary: 'Engages (stops every automatic and confirm-first purchase at once) or releases the kill switch.',
    input: z.strictObject({ engaged: z.boolean() }),
    output: autoBuyState,
    example: { engaged: true },
  }),
  testAlertWebhook: call({
    summary: 'Posts a test message to an alert webhook URL (Discord, Slack or your own) and says whether it arrived.',
    input: z.strictObject({ url: alertWebhookUrl }),
    output: z.strictObject({
      ok: z.boolean(),
      /** Plain words, naming the webhook by its origin only (its path is a secret): why it did not arrive. */
      problem: z.string().nullable(),
    }),
    example: { url: 'https://discord.com/api/webhooks/1/token' },
  }),
} as const;

// ---- pushes ------------------------------------------------------------------------------------

export const watchAlertsPushed = z.strictObject({
  /** New alerts, newest first. */
  alerts: z.array(watchAlertView),
  /** Alerts pushed before whose state changed since (a purchase's outcome, a dismissal), newest first. */
  changed: z.array(watchAlertView),
  /**
   * Alerts and state changes left out because a burst exceeded WATCH_PUSH_MAX_ALERTS (both lists together):
   * the feed call has them, and a renderer told of any reads it again.
   */
  omitted: z.number().int().nonnegative(),
});
export type WatchAlertsPushed = z.infer<typeof watchAlertsPushed>;
export const WATCH_PUSH_MAX_ALERTS = 100;

const newestFirst = (alerts: Iterable<WatchAlertView>) => [...alerts].sort((a, b) => b.id - a.id);

/**
 * One push of bounded size. State changes are kept first: the renderer already shows those alerts, and a
 * change left out would leave one "buying…" for good, while a new alert left out is only not there yet.
 * New alerts fill what is left, newest first; whatever does not fit is counted in `omitted`.
 */
export function watchAlertsPush(alerts: readonly WatchAlertView[], changed: readonly WatchAlertView[], omitted = 0): WatchAlertsPushed {
  const keptChanged = newestFirst(changed).slice(0, WATCH_PUSH_MAX_ALERTS);
  const keptAlerts = newestFirst(alerts).slice(0, WATCH_PUSH_MAX_ALERTS - keptChanged.length);
  const left = alerts.length - keptAlerts.length + changed.length - keptChanged.length;
  return { alerts: keptAlerts, changed: keptChanged, omitted: omitted + left };
}

/** Latest state per alert id, capped as one push (watchAlertsPush): a burst of matches is one push of bounded size. */
export function mergeWatchAlerts(older: WatchAlertsPushed, newer: WatchAlertsPushed): WatchAlertsPushed {
  const alerts = new Map([...older.alerts, ...newer.alerts].map((a) => [a.id, a]));
  const changed = new Map([...older.changed, ...newer.changed].map((a) => [a.id, a]));
  // an alert made and changed within one window is new to the renderer: sent once, as new, in its latest state
  for (const [id, alert] of changed) {
    if (!alerts.has(id)) continue;
    alerts.set(id, alert);
    changed.delete(id);
  }
  return watchAlertsPush([...alerts.values()], [...changed.values()], older.omitted + newer.omitted);
}

export const autoBuyPushed = z.strictObject({
  killSwitch: z.boolean(),
  live: z.boolean(),
  /** Log entries written or resolved since the last push (latest state per id). */
  entries: z.array(autoBuyEntryView),
});
export type AutoBuyPushed = z.infer<typeof autoBuyPushed>;

export function mergeAutoBuy(older: AutoBuyPushed, newer: AutoBuyPushed): AutoBuyPushed {
  const byId = new Map<number, AutoBuyEntryView>();
  for (const e of [...older.entries, ...newer.entries]) byId.set(e.id, e);
  return { killSwitch: newer.killSwitch, live: newer.live, entries: [...byId.values()].sort((a, b) => b.id - a.id).slice(0, 200) };
}

const EXAMPLE_TS = '2026-01-01T00:00:00.000Z';
const latest = <T>(_older: T, newer: T): T => newer;

export const WATCH_PUSHES = {
  watchAlerts: {
    summary: 'New watchlist alerts and alert state changes; bursts are merged (at most 4 pushes a second).',
    payload: watchAlertsPushed,
    intervalMs: 250,
    merge: mergeWatchAlerts,
    example: {
      alerts: [
        {
          id: 1,
          at: EXAMPLE_TS,
          watchlistId: 1,
          watchlistName: 'Cheap AK-47 Redlines',
          listingId: 7,
          appId: 730,
          marketHashName: 'AK-47 | Redline (Field-Tested)',
          price: 1_000,
          amount: 1,
          seq: '42',
          referencePrice: 1_250,
          ceiling: 1_062,
          origin: 'event',
          state: 'new',
          mode: 'confirm',
          sound: false,
        },
      ],
      changed: [],
      omitted: 0,
    },
  } satisfies PushDef<typeof watchAlertsPushed>,
  autoBuyChanged: {
    summary: 'The kill switch, whether purchases can be sent, and auto-buy log entries written or resolved.',
    payload: autoBuyPushed,
    intervalMs: 100,
    merge: mergeAutoBuy,
    example: { killSwitch: false, live: true, entries: [] },
  } satisfies PushDef<typeof autoBuyPushed>,
  watchlistsChanged: {
    summary: 'The watchlists changed (created, edited, paused, deleted; from any window or the market switch).',
    payload: watchlists,
    intervalMs: 100,
    merge: latest,
    example: { watchlists: [] },
  } satisfies PushDef<typeof watchlists>,
} as const;

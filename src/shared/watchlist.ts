/**
 * Watchlists: a saved book filter (the query engine's own shape, src/shared/query.ts) plus a price
 * condition, judged on every new listing and price change. Optionally they buy: "confirm" waits for one
 * keystroke on the alert, "auto" buys at once; both only within the guardrails below. Pure data,
 * validated at every boundary (IPC, the CLI's watchlists file, the database).
 */
import { z } from 'zod';
import { cents, positiveCents } from './api/primitives.ts';
import { bookFilter } from './query.ts';
import { isPrivateNetworkHost } from './market-url.ts';

/** A percentage with at most two decimals, strictly between 0 and 100 (12.5 = 12.5 % below). */
const percentBelow = z
  .number()
  .gt(0)
  .lt(100)
  .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, { message: 'at most two decimals' });

export const PRICE_REFERENCES = ['average_30d', 'recommended', 'cheapest_other'] as const;
export type PriceReference = (typeof PRICE_REFERENCES)[number];

export const priceCondition = z.discriminatedUnion('kind', [
  /** At most this many cents per copy. */
  z.strictObject({ kind: z.literal('ceiling'), max_price: positiveCents }),
  /**
   * At least `percent` % below a reference price of the same item: its 30-day volume-weighted average
   * sale price, the marketplace's recommended price, or the cheapest other live listing of the same name.
   * A listing whose item has no such reference (never sold, no price row, the only one listed) does not match.
   */
  z.strictObject({ kind: z.literal('below'), reference: z.enum(PRICE_REFERENCES), percent: percentBelow }),
]);
export type PriceCondition = z.infer<typeof priceCondition>;

export const AUTO_BUY_MODES = ['off', 'confirm', 'auto'] as const;
export type AutoBuyMode = (typeof AUTO_BUY_MODES)[number];

/**
 * Guardrails, all checked before a purchase is sent. Money in cents; windows roll (the last hour, the
 * last 24 hours). Spend counts every purchase sent whose outcome is not "not bought" (an unknown outcome
 * counts as spent until the order history says otherwise).
 */
export const guardrails = z.strictObject({
  /** Highest price per copy this watchlist ever pays. */
  max_price: positiveCents,
  /** Total this watchlist may spend, ever. */
  total_budget: positiveCents,
  /** Spend in any 24 hours. */
  daily_cap: positiveCents,
  /** Purchases sent in any hour. */
  max_per_hour: z.number().int().min(1).max(1_000),
  /** Never buy if the balance afterwards would be below this. */
  min_balance: cents,
});
export type Guardrails = z.infer<typeof guardrails>;

export const autoBuy = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('off') }),
  z.strictObject({
    mode: z.enum(['confirm', 'auto']),
    /** Copies bought of a commodity listing (never more than it holds). */
    copies: z.number().int().min(1).max(1_000).default(1),
    guardrails,
  }),
]);
export type AutoBuy = z.infer<typeof autoBuy>;

/**
 * Where alerts may be posted: an https URL (Discord and Slack incoming webhooks, a bot relay), or plain
 * http on this machine only (a local script). Nothing else: the URL comes from the untrusted renderer or
 * a watchlists file, and the app must not become a way to POST into the local network — so an https
 * URL written with a local network's address is refused too (a name that resolves to one is not looked
 * up; https then needs a certificate valid for it, which devices on a home network rarely have).
 */
export const alertWebhookUrl = z
  .string()
  .trim()
  .max(2_000)
  .refine((text) => {
    try {
      const url = new URL(text);
      if (url.username || url.password) return false;
      if (url.protocol === 'https:') return !isPrivateNetworkHost(url.hostname);
      return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    } catch {
      return false;
    }
  }, 'must be an https:// URL on the internet (or http:// on this machine: 127.0.0.1 or localhost), without a user name or password');

export const alertOptions = z.strictObject({
  /** An OS notification (bursts coalesced into one). */
  notify: z.boolean().default(true),
  /** A short sound in the app when it alerts. */
  sound: z.boolean().default(false),
  /** Also POST the alerts (coalesced the same way) to this webhook: Discord, Slack, or your own. */
  webhook: alertWebhookUrl.nullable().default(null),
});

/** What a user writes (UI form, CLI watchlists file); defaults filled on parse. */
export const watchlistInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  filter: bookFilter,
  price: priceCondition,
  paused: z.boolean().default(false),
  alerts: alertOptions.default({ notify: true, sound: false, webhook: null }),
  auto_buy: autoBuy.default({ mode: 'off' }),
});
export type WatchlistInput = z.input<typeof watchlistInput>;
export type WatchlistDefinition = z.output<typeof watchlistInput>;

export const watchlist = watchlistInput.extend({
  id: z.number().int().positive(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type Watchlist = z.output<typeof watchlist>;

/** The CLI's `--watchlists FILE.json`: an array of watchlists, or `{ "watchlists": [...] }`. */
export const watchlistsFile = z.union([
  z.array(watchlistInput).max(1_000),
  z.strictObject({ watchlists: z.array(watchlistInput).max(1_000) }).transform((f) => f.watchlists),
]);

/** Basis points of a two-decimal percentage (12.5 → 1250), exactly. */
export function percentToBps(percent: number): number {
  return Math.round(percent * 100);
}

/**
 * The highest price (cents per copy) a condition accepts, given the reference price when the condition
 * has one: `floor(reference × (100 − percent) / 100)` in integer arithmetic. Null: nothing can match
 * (no reference).
 */
export function priceCeiling(condition: PriceCondition, reference: number | null): number | null {
  if (condition.kind === 'ceiling') return condition.max_price;
  if (reference === null) return null;
  return Math.floor((reference * (10_000 - percentToBps(condition.percent))) / 10_000);
}

/** One line for lists and notifications: "≤ $12.00", "15 % below the 30-day average". */
export function describePriceCondition(condition: PriceCondition, format: (cents: number) => string): string {
  if (condition.kind === 'ceiling') return `at most ${format(condition.max_price)}`;
  const what: Record<PriceReference, string> = {
    average_30d: 'the 30-day average',
    recommended: 'the recommended price',
    cheapest_other: 'the cheapest other listing',
  };
  return `${condition.percent} % below ${what[condition.reference]}`;
}

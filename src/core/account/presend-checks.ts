/**
 * Checks run before a sell, deposit, list or bulk edit is sent, so a person sees every problem at once,
 * in plain words and with the code the server would answer, instead of one refusal per attempt (and
 * instead of spending the route's rate budget on requests bound to fail). The server stays the
 * authority: it may still refuse (another device moved items), and its error is shown then.
 *
 * Limits come from the contract's LIMITS; nothing here has its own copy of a number.
 */
import type { z } from 'zod';
import {
  type AppId,
  type BackpackItem,
  type ErrorCode,
  type InventoryItem,
  LIMITS,
  type depositBody,
  type listBody,
  type sellBody,
} from '../../shared/api/index.ts';
import { isTokenExpired } from './inventory-tokens.ts';
import { decayCurveProblems } from './price-decay.ts';

export interface PreSendProblem {
  code: ErrorCode;
  message: string;
  /** Index of the group (sell, list) the problem is in. */
  group?: number;
  /** Index of the entry inside its group (or inside the deposit's item list). */
  entry?: number;
  appId?: AppId;
}

export interface PreSendResult {
  ok: boolean;
  problems: PreSendProblem[];
}

/** An inventory row as cached: the row plus when it was read (its token's clock). */
export interface InventoryRowSeen {
  item: InventoryItem;
  fetchedAt: number;
}

export interface InventoryContext {
  /** Inventory rows the tokens were read from (every game in the request). */
  inventory: readonly InventoryRowSeen[];
  /** Trades currently in flight (tracker.inFlightCount()). */
  tradesInFlight: number;
  now: number;
}

export interface ListContext {
  /** Backpack rows the request draws from. */
  backpack: readonly BackpackItem[];
  /** Items listed right now (my-listings/value `item_count`), when known. */
  listedItems?: number;
  /**
   * The account's ceiling on listed items, when known: the spec does not publish it (§8 "not shown"), so
   * only the demo market's own is checked here; a real market's LISTING_LIMIT_REACHED comes from it.
   */
  listedItemsCeiling?: { value: number; market: string };
}

type SellBody = z.input<typeof sellBody>;
type DepositBody = z.input<typeof depositBody>;
type ListBody = z.input<typeof listBody>;

function result(problems: PreSendProblem[]): PreSendResult {
  return { ok: problems.length === 0, problems };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function groupShapeProblems(groupCount: number, entriesPerGroup: readonly number[]): PreSendProblem[] {
  const problems: PreSendProblem[] = [];
  if (groupCount === 0) problems.push({ code: 'VALIDATION_ERROR', message: 'nothing to send: add at least one group' });
  if (groupCount > LIMITS.groupsPerBody) {
    problems.push({
      code: 'VALIDATION_ERROR',
      message: `${plural(groupCount, 'group')} in one request; at most ${LIMITS.groupsPerBody} (send the rest in another request)`,
    });
  }
  entriesPerGroup.forEach((n, group) => {
    if (n === 0) problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1} is empty`, group });
    if (n > LIMITS.entriesPerGroup) {
      problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1} has ${n} entries; at most ${LIMITS.entriesPerGroup}`, group });
    }
  });
  return problems;
}

interface TokenEntryAt {
  token: string;
  amount: number;
  group?: number;
  entry: number;
}

/**
 * Shared by sell and deposit: every token known, fresh and tradable; no stack asked for more copies
 * than it holds; at most 500 copies per game's offer; the new offers (one per game) within the
 * in-flight cap. Returns the rows per entry for the caller's own checks.
 */
function tokenProblems(entries: readonly TokenEntryAt[], ctx: InventoryContext): { problems: PreSendProblem[]; rows: (InventoryItem | null)[] } {
  const problems: PreSendProblem[] = [];
  const byToken = new Map(ctx.inventory.map((r) => [r.item.token, r]));
  const usedPerToken = new Map<string, number>();
  const copiesPerGame = new Map<AppId, number>();
  const rows = entries.map((e) => {
    const where = { group: e.group, entry: e.entry };
    const label = e.group === undefined ? `item ${e.entry + 1}` : `group ${e.group + 1}, item ${e.entry + 1}`;
    if (!Number.isInteger(e.amount) || e.amount <= 0) {
      problems.push({ code: 'VALIDATION_ERROR', message: `${label}: the amount must be a whole number above 0`, ...where });
      return null;
    }
    const seen = byToken.get(e.token);
    if (!seen) {
      problems.push({ code: 'INVALID_ITEM_TOKEN', message: `${label}: this item is not in the inventory read; refresh the inventory`, ...where });
      return null;
    }
    const { item } = seen;
    if (isTokenExpired(seen.fetchedAt, ctx.now)) {
      problems.push({ code: 'INVALID_ITEM_TOKEN', message: `${label} (${item.market_hash_name}): its token expired (they last 30 minutes); refresh the inventory`, ...where, appId: item.app_id });
    }
    if (!item.tradable) {
      problems.push({ code: 'ITEM_NOT_TRADABLE', message: `${label} (${item.market_hash_name}): the platform still holds this item`, ...where, appId: item.app_id });
    }
    const used = (usedPerToken.get(e.token) ?? 0) + e.amount;
    usedPerToken.set(e.token, used);
    if (used > item.amount) {
      problems.push({
        code: 'INSUFFICIENT_ITEMS',
        message: `${label} (${item.market_hash_name}): ${used} copies asked for in total, the stack holds ${item.amount}`,
        ...where,
        appId: item.app_id,
      });
    }
    copiesPerGame.set(item.app_id, (copiesPerGame.get(item.app_id) ?? 0) + e.amount);
    return item;
  });
  for (const [appId, copies] of copiesPerGame) {
    if (copies > LIMITS.copiesPerGameOffer) {
      problems.push({
        code: 'DEPOSIT_ITEM_LIMIT',
        message: `the offer for game ${appId} would carry ${copies} copies; one trade offer carries at most ${LIMITS.copiesPerGameOffer} per game`,
        appId,
      });
    }
  }
  const newTrades = copiesPerGame.size;
  if (newTrades > 0 && ctx.tradesInFlight + newTrades > LIMITS.tradesInFlight) {
    problems.push({
      code: 'ACTIVE_TRADE_LIMIT',
      message: `${plural(ctx.tradesInFlight, 'trade is', 'trades are')} in flight and this would start ${newTrades} more; at most ${LIMITS.tradesInFlight} at once`,
    });
  }
  return { problems, rows };
}

export function checkSell(body: SellBody, ctx: InventoryContext): PreSendResult {
  const groups = body.listings;
  const problems = groupShapeProblems(groups.length, groups.map((g) => g.items.length));
  const entries = groups.flatMap((g, group) => g.items.map((it, entry) => ({ ...it, group, entry })));
  const tokens = tokenProblems(entries, ctx);
  problems.push(...tokens.problems);
  let cursor = 0;
  groups.forEach((g, group) => {
    if (!Number.isInteger(g.price) || g.price <= 0) {
      problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1}: the price must be a whole number of cents above 0`, group });
    }
    const rows = tokens.rows.slice(cursor, cursor + g.items.length).filter((r): r is InventoryItem => r !== null);
    cursor += g.items.length;
    problems.push(...groupItemProblems(rows.map((r) => ({ name: r.market_hash_name, commodity: r.commodity })), g.items, group));
  });
  return result(problems);
}

export function checkDeposit(body: DepositBody, ctx: InventoryContext): PreSendResult {
  const problems: PreSendProblem[] = [];
  const max = LIMITS.groupsPerBody * LIMITS.entriesPerGroup;
  if (body.items.length === 0) problems.push({ code: 'VALIDATION_ERROR', message: 'nothing to deposit: pick at least one item' });
  if (body.items.length > max) problems.push({ code: 'VALIDATION_ERROR', message: `${body.items.length} items in one deposit; at most ${max}` });
  problems.push(...tokenProblems(body.items.map((it, entry) => ({ ...it, entry })), ctx).problems);
  return result(problems);
}

/**
 * A group is one listing: one kind of item, and a non-commodity item is one copy per group (the
 * server's rule: VALIDATION_ERROR otherwise).
 */
function groupItemProblems(
  rows: readonly { name: string; commodity: boolean }[],
  entries: readonly { amount: number }[],
  group: number,
): PreSendProblem[] {
  const first = rows[0];
  if (!first) return [];
  const problems: PreSendProblem[] = [];
  if (rows.some((r) => r.name !== first.name)) {
    problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1}: different items need separate groups`, group });
  }
  const copies = entries.reduce((s, e) => s + e.amount, 0);
  if (!first.commodity && copies !== 1) {
    problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1}: ${first.name} is not a commodity, so it is listed one copy per group`, group });
  }
  return problems;
}

export function checkList(body: ListBody, ctx: ListContext): PreSendResult {
  const groups = body.listings;
  const problems = groupShapeProblems(groups.length, groups.map((g) => g.items.length));
  const rows = new Map(ctx.backpack.map((r) => [r.id, r]));
  // A commodity backpack row is one pool that every group drawing from it shares (§4.4 list rule 2).
  const drawn = new Map<number, number>();
  // Where each overdrawn pool first ran out, reported once with the total asked for.
  const overdrawnAt = new Map<number, { group: number; entry: number }>();
  let copies = 0;
  groups.forEach((g, group) => {
    const hasPrice = g.price !== undefined;
    const hasDecay = g.price_decay !== undefined;
    if (hasPrice === hasDecay) {
      problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1}: give either a fixed price or a price decay`, group });
    } else if (hasPrice && (!Number.isInteger(g.price) || (g.price as number) <= 0)) {
      problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1}: the price must be a whole number of cents above 0`, group });
    } else if (g.price_decay) {
      for (const message of decayCurveProblems(g.price_decay)) problems.push({ code: 'VALIDATION_ERROR', message: `group ${group + 1}: ${message}`, group });
    }
    const groupRows: { name: string; commodity: boolean }[] = [];
    g.items.forEach((it, entry) => {
      const label = `group ${group + 1}, item ${entry + 1}`;
      if (!Number.isInteger(it.amount) || it.amount <= 0) {
        problems.push({ code: 'VALIDATION_ERROR', message: `${label}: the amount must be a whole number above 0`, group, entry });
        return;
      }
      const row = rows.get(it.id);
      if (!row) {
        problems.push({ code: 'BACKPACK_ITEM_NOT_FOUND', message: `${label}: backpack item ${it.id} is not in the backpack read; refresh it`, group, entry });
        return;
      }
      groupRows.push({ name: row.market_hash_name, commodity: row.commodity });
      copies += it.amount;
      const total = (drawn.get(row.id) ?? 0) + it.amount;
      drawn.set(row.id, total);
      if (total > row.amount && !overdrawnAt.has(row.id)) overdrawnAt.set(row.id, { group, entry });
    });
    problems.push(...groupItemProblems(groupRows, g.items, group));
  });
  for (const [id, where] of overdrawnAt) {
    const row = rows.get(id) as BackpackItem;
    problems.push({
      code: 'INSUFFICIENT_ITEMS',
      message: `${row.market_hash_name} (backpack item ${id}) holds ${row.amount}; the groups ask for ${drawn.get(id)} in total`,
      ...where,
      appId: row.app_id,
    });
  }
  const ceiling = ctx.listedItemsCeiling;
  if (ceiling && ctx.listedItems !== undefined && ctx.listedItems + copies > ceiling.value) {
    problems.push({
      code: 'LISTING_LIMIT_REACHED',
      message: `${plural(ctx.listedItems, 'item is', 'items are')} listed and this adds ${copies}; ${ceiling.market} lists at most ${ceiling.value} per account at once`,
    });
  }
  return result(problems);
}

/** Bulk edit and bulk delist: at most 50 rows per request. */
export function checkBulkSize(count: number): PreSendResult {
  if (count === 0) return result([{ code: 'VALIDATION_ERROR', message: 'nothing selected' }]);
  if (count > LIMITS.bulkEditOrDelist) {
    return result([{ code: 'VALIDATION_ERROR', message: `${count} listings selected; at most ${LIMITS.bulkEditOrDelist} per request` }]);
  }
  return result([]);
}

/**
 * The Steam inventory screen: one game's inventory with each token's clock, and selling or depositing
 * from it. The screen names rows by asset id; the tokens stay here, where their age is known. Every
 * send is checked first (limits, token lifetime, stacks, trades in flight), and the deposit ids of the
 * answer are followed as trades (the poller is nudged to its fast cadence). Rows sent are refused until
 * the inventory is read again: in the offer of a deposit, or maybe in one when the answer was lost
 * (marks kept in the desk, so a restart keeps them: inventory-offers.ts).
 */
import type { AppId, InventoryItem } from '../../../shared/api/index.ts';
import type { ACCOUNT_CALLS, InventoryRow } from '../../../shared/ipc/calls-account.ts';
import { utcClock } from '../../../shared/utc-words.ts';
import type { InventoryRead } from '../../account/account-reads.ts';
import { type PreSendProblem, checkDeposit, checkSell } from '../../account/presend-checks.ts';
import { ApiError } from '../../api/errors.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AccountRuntime } from './account-runtime.ts';
import type { InOffer } from '../../account/inventory-offers.ts';
import type { AccountSession } from './account-session.ts';
import { checkedOf, freshnessOf, iso, lostAnswer, refusal } from './views.ts';

function rowOf(item: InventoryItem, offer: InOffer | undefined): InventoryRow {
  return {
    assetId: item.steam_asset_id,
    appId: item.app_id,
    name: item.market_hash_name,
    amount: item.amount,
    commodity: item.commodity,
    tradable: item.tradable,
    marketPrice: item.market_price,
    recommendedPrice: item.recommended_price,
    iconUrl: item.icon_url,
    // a send whose answer was lost: the row may be in an offer whose deposit id is not known
    inOffer: offer === undefined ? null : (offer.depositId ?? 'unknown'),
  };
}

interface Resolved {
  read: InventoryRead | null;
  tokens: Map<string, string>;
  problems: PreSendProblem[];
  /** Where (group:entry) an asset was missing from the read: already reported, by name. */
  missingAt: Set<string>;
}

const at = (p: { group?: number | undefined; entry?: number | undefined }) => `${p.group ?? '-'}:${p.entry ?? '-'}`;

/** Finds each asset's token in the stored inventory read; assets not there, or already in an offer, are problems. */
function resolveAssets(
  account: AccountSession,
  appId: AppId,
  entries: readonly { assetId: string; group?: number; entry: number }[],
): Resolved {
  const read = account.reads.cachedInventory(appId);
  const problems: PreSendProblem[] = [];
  const tokens = new Map<string, string>();
  const missingAt = new Set<string>();
  if (!read) {
    problems.push({ code: 'INVALID_ITEM_TOKEN', message: 'the inventory of this game has not been read yet; read it first' });
    return { read, tokens, problems, missingAt };
  }
  const byAsset = new Map(read.data.map((r) => [r.item.steam_asset_id, r.item]));
  for (const e of entries) {
    const item = byAsset.get(e.assetId);
    const where = { ...(e.group !== undefined ? { group: e.group } : {}), entry: e.entry };
    if (!item) {
      problems.push({ code: 'INVALID_ITEM_TOKEN', message: `item ${e.assetId} is not in the inventory read; read it again`, ...where });
      missingAt.add(at(where));
      continue;
    }
    const offer = account.inOffer.of(e.assetId, read.fetchedAt);
    if (offer) {
      problems.push({
        code: 'INVALID_ITEM_TOKEN',
        message:
          offer.depositId !== null
            ? `${item.market_hash_name} is already in the offer of deposit ${offer.depositId}`
            : `${item.market_hash_name} may be in a trade offer: the answer to the ${offer.action} at ${utcClock(offer.atMs)} was lost; read the inventory again to see`,
        ...where,
      });
    }
    tokens.set(e.assetId, item.token);
  }
  return { read, tokens, problems, missingAt };
}

/**
 * Sends a sell or deposit. Its rows are marked "maybe in an offer" before the request leaves, so a crash
 * while it is out leaves them as a lost answer does: marked until the game's inventory is read again,
 * which shows where they are, and a repeat refused until then instead of offering (or failing on) the
 * same items twice. The answer puts its deposit id on the marks; a refusal (nothing offered) takes them off.
 */
async function sendOffer(
  account: AccountSession,
  action: InOffer['action'],
  appId: AppId,
  assetIds: readonly string[],
  send: () => Promise<{ deposit_ids: number[] }>,
): Promise<number[]> {
  const sentAt = account.clock.now();
  account.inOffer.mark(assetIds, { appId, depositId: null, action, atMs: sentAt });
  let depositIds: number[];
  try {
    ({ deposit_ids: depositIds } = await send());
  } catch (err) {
    if (!(err instanceof ApiError) || !err.outcomeUnknown) {
      account.inOffer.unmark(assetIds, sentAt);
      throw err;
    }
    // the offer, if it was made, shows up as a trade
    account.feeds.poller.nudge();
    throw lostAnswer(
      err,
      'The items may now be in a trade offer: they are marked so until the inventory is read again, which shows where they are.',
    );
  }
  // One offer per game: every row of this request went into the (single) offer of its game.
  const depositId = depositIds[0];
  if (depositId === undefined) account.inOffer.unmark(assetIds, sentAt);
  else account.inOffer.mark(assetIds, { appId, depositId, action, atMs: account.clock.now() });
  account.feeds.poller.nudge();
  return depositIds;
}

export function sellingHandlers(
  runtime: AccountRuntime,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getInventory' | 'sellItems' | 'depositItems'>> {
  return {
    getInventory: async ({ appId, refresh }) => {
      const account = runtime.account();
      const read = await account.reads.inventory(appId, refresh ? { maxAgeMs: 0 } : {});
      // A fresh read shows where the offered items are now: this game's older "in offer" marks go (a
      // mark counts only against a read older than it, wherever the read was made: the portfolio too).
      if (!read.fromCache) account.inOffer.forgetBefore(appId, read.fetchedAt);
      return {
        appId,
        items: read.data.map((r) => rowOf(r.item, account.inOffer.of(r.item.steam_asset_id, read.fetchedAt))),
        freshness: freshnessOf(read),
        tokensExpireAt: iso(read.tokensExpireAt),
        expired: account.reads.inventoryExpired(read),
        tradesInFlight: account.tradesInFlight(),
      };
    },

    sellItems: async ({ appId, groups, dryRun }) => {
      const account = runtime.account();
      const entries = groups.flatMap((g, group) => g.items.map((it, entry) => ({ ...it, group, entry })));
      const resolved = resolveAssets(account, appId, entries);
      const body = {
        listings: groups.map((g) => ({
          price: g.price,
          items: g.items.map((it) => ({ token: resolved.tokens.get(it.assetId) ?? '', amount: it.amount })),
        })),
      };
      const problems = resolved.read
        ? [...resolved.problems, ...checkSell(body, ctx(account, resolved.read)).problems.filter((p) => !unknownToken(p, resolved))]
        : resolved.problems;
      const check = checkedOf({ ok: problems.length === 0, problems });
      if (dryRun) return { check, depositIds: [] };
      if (!check.ok) throw refusal(problems);
      const client = account.client();
      const depositIds = await sendOffer(account, 'sell', appId, entries.map((e) => e.assetId), () =>
        client.sell(body, { priority: 'interactive' }),
      );
      return { check, depositIds };
    },

    depositItems: async ({ appId, items, dryRun }) => {
      const account = runtime.account();
      const entries = items.map((it, entry) => ({ ...it, entry }));
      const resolved = resolveAssets(account, appId, entries);
      const body = { items: items.map((it) => ({ token: resolved.tokens.get(it.assetId) ?? '', amount: it.amount })) };
      const problems = resolved.read
        ? [...resolved.problems, ...checkDeposit(body, ctx(account, resolved.read)).problems.filter((p) => !unknownToken(p, resolved))]
        : resolved.problems;
      const check = checkedOf({ ok: problems.length === 0, problems });
      if (dryRun) return { check, depositIds: [] };
      if (!check.ok) throw refusal(problems);
      const client = account.client();
      const depositIds = await sendOffer(account, 'deposit', appId, items.map((it) => it.assetId), () =>
        client.deposit(body, { priority: 'interactive' }),
      );
      return { check, depositIds };
    },
  };
}

function ctx(account: AccountSession, read: InventoryRead) {
  return { inventory: read.data, tradesInFlight: account.tradesInFlight(), now: account.clock.now() };
}

/**
 * An asset missing from the read was already reported by its id; the core check would report its empty
 * token at the same place a second time, less clearly.
 */
function unknownToken(problem: PreSendProblem, resolved: Resolved): boolean {
  return problem.code === 'INVALID_ITEM_TOKEN' && resolved.missingAt.has(at(problem));
}

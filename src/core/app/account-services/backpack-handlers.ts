/**
 * The backpack screen: paged rows (search 1–200 characters), listing them at a fixed price or with a
 * price decay (a commodity row is one pool that several groups draw from), and withdrawing them to the
 * Steam inventory. Sends are checked against the rows last seen first; an item whose earlier list or
 * withdraw got no clear answer is read fresh before it is sent again (move-check.ts).
 */
import { type BackpackItem, LIMITS } from '../../../shared/api/index.ts';
import type { ACCOUNT_CALLS } from '../../../shared/ipc/calls-account.ts';
import { type PreSendProblem, checkList } from '../../account/presend-checks.ts';
import type { AreaHandlers } from '../handlers/types.ts';
import type { AccountRuntime } from './account-runtime.ts';
import type { AccountSession } from './account-session.ts';
import { sendMove, unclearMoveNotes } from './move-check.ts';
import { checkedOf, freshnessOf, pageQuery, refusal } from './views.ts';

/** Withdraw has no core check yet: rows known, not in a trade hold, pools not overdrawn, trade cap. */
function checkWithdraw(account: AccountSession, items: readonly { id: number; amount: number }[]): PreSendProblem[] {
  const problems: PreSendProblem[] = [];
  const drawn = new Map<number, number>();
  const now = account.clock.now();
  items.forEach((it, entry) => {
    const row = account.backpackSeen.get(it.id);
    if (!row) {
      problems.push({ code: 'BACKPACK_ITEM_NOT_FOUND', message: `item ${entry + 1}: backpack item ${it.id} is not in the backpack read; refresh it`, entry });
      return;
    }
    if (row.trade_locked_until && Date.parse(row.trade_locked_until) > now) {
      problems.push({ code: 'ITEM_NOT_TRADABLE', message: `${row.market_hash_name} is inside a trade hold until ${row.trade_locked_until}`, entry });
    }
    const total = (drawn.get(row.id) ?? 0) + it.amount;
    drawn.set(row.id, total);
    if (total > row.amount) {
      problems.push({ code: 'INSUFFICIENT_ITEMS', message: `${row.market_hash_name} holds ${row.amount}; ${total} asked for`, entry });
    }
  });
  const games = new Set(items.map((it) => account.backpackSeen.get(it.id)?.app_id).filter((a) => a !== undefined));
  const inFlight = account.tradesInFlight();
  if (inFlight + games.size > LIMITS.tradesInFlight) {
    problems.push({
      code: 'ACTIVE_TRADE_LIMIT',
      message: `${inFlight} trades are in flight and this starts ${games.size} more; at most ${LIMITS.tradesInFlight} at once`,
    });
  }
  return problems;
}

function rowsFor(account: AccountSession, ids: Iterable<number>): BackpackItem[] {
  const rows: BackpackItem[] = [];
  for (const id of new Set(ids)) {
    const row = account.backpackSeen.get(id);
    if (row) rows.push(row);
  }
  return rows;
}

export function backpackHandlers(
  runtime: AccountRuntime,
): AreaHandlers<Pick<typeof ACCOUNT_CALLS, 'getBackpack' | 'listItems' | 'withdrawItems'>> {
  return {
    getBackpack: async ({ page, limit, appId, search }) => {
      const account = runtime.account();
      const read = await account.reads.backpack({
        ...pageQuery(page, limit),
        ...(appId !== null ? { app_id: String(appId) } : {}),
        ...(search !== null ? { search } : {}),
      });
      account.rememberBackpack(read.data.items);
      return { items: read.data.items, metadata: read.data.metadata, freshness: freshnessOf(read) };
    },

    listItems: async ({ groups, dryRun }) => {
      const account = runtime.account();
      const body = {
        listings: groups.map((g) => ({
          items: g.items,
          ...(g.decay ? { price_decay: g.decay } : g.price !== null ? { price: g.price } : {}),
        })),
      };
      const entries = groups.flatMap((g, group) => g.items.map((it, entry) => ({ ...it, group, entry })));
      const checkBody = () => {
        const listedItems = account.reads.cached('myListingsValue', {})?.data.item_count;
        return checkList(body, {
          backpack: rowsFor(account, entries.map((e) => e.id)),
          ...(listedItems !== undefined ? { listedItems } : {}),
          // The ceiling's value is not published (spec §8): only the demo market's own is known.
          ...(runtime.demo ? { listedItemsCeiling: { value: LIMITS.listedItemsCeiling, market: 'the demo market' } } : {}),
        });
      };
      if (dryRun) {
        const check = checkedOf(checkBody());
        return { check: { ...check, problems: [...check.problems, ...unclearMoveNotes(account, entries)] }, listings: [] };
      }
      return sendMove(account, 'list', entries, async () => {
        // after the check of unclear moves, which may have read some of these rows afresh
        const result = checkBody();
        if (!result.ok) throw refusal(result.problems);
        const { listings } = await account.client().list(body, { priority: 'interactive' });
        return { check: checkedOf(result), listings };
      });
    },

    withdrawItems: async ({ items }) => {
      const account = runtime.account();
      const entries = items.map((it, entry) => ({ ...it, entry }));
      return sendMove(account, 'withdraw', entries, async () => {
        const problems = checkWithdraw(account, items);
        if (problems.length > 0) throw refusal(problems);
        const { withdraw_ids } = await account.client().withdraw({ items }, { priority: 'interactive' });
        account.feeds.poller.nudge();
        return { withdrawIds: withdraw_ids };
      });
    },
  };
}

// Item moves whose answer is lost, over the real core and the demo market: list and withdraw (backpack)
// and sell and deposit (Steam inventory) applied by the market, then the connection dropped. A repeat is
// never sent blindly: the backpack is read fresh for the item and the repeat is refused when the earlier
// move went through (and sent when it did not), held while that cannot be told; Steam items of a lost
// sell or deposit are refused as possibly in a trade offer until the inventory is read again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src/core/app/index.ts';
import type { DemoMarket } from '../../../src/demo/index.ts';
import type { BackpackItem } from '../../../src/shared/api/index.ts';
import { type DemoCore, failure, startDemoCore } from './demo-core.ts';
import { until } from './until.ts';

let started: DemoCore;
let core: AppCore;
let demo: DemoMarket;

/** What the demo market itself holds of a backpack row (0: gone). */
const held = (id: number) => demo.state.account(1)!.backpack.get(id)?.amount ?? 0;
/** Trades the demo market holds for the account. */
const trades = () => demo.state.account(1)!.trades.length;

/** Answers of list, withdraw, sell and deposit lost after the market applied them (at once). */
const loseMoves = () => demo.chaos.set({ rest: { itemMoveLostRate: 1, hangMs: 0 } });

/** Unlocked commodity rows of the backpack holding at least `min` copies, largest first. */
async function pools(min: number): Promise<BackpackItem[]> {
  const { items } = await core.call('getBackpack', { limit: 100 });
  return items
    .filter((r) => r.commodity && r.trade_locked_until === null && r.amount >= min)
    .sort((a, b) => b.amount - a.amount);
}

beforeAll(async () => {
  // an unchanged row means "not sent" at once here (30 s in the app: see judgeMove's unit test)
  started = await startDemoCore(29, {
    poller: { activeIntervalMs: 300, idleIntervalMs: 1_000 },
    moveNotSentAfterMs: 0,
  });
  ({ core, demo } = started);
});

afterEach(() => {
  demo.chaos.calm();
});

afterAll(async () => {
  await started?.close();
});

describe('backpack moves whose answer is lost', () => {
  it('list: the repeat is checked against the backpack, refused because the first went through, then sent when asked again', async () => {
    const [pool] = await pools(5);
    expect(pool).toBeTruthy();
    const before = held(pool!.id);
    // one commodity row drawn by two groups of one request: 2 copies in all
    const request = {
      groups: [
        { items: [{ id: pool!.id, amount: 1 }], price: 700 },
        { items: [{ id: pool!.id, amount: 1 }], price: 710 },
      ],
    };
    loseMoves();
    const lost = await failure(core.call('listItems', request));
    demo.chaos.calm();
    expect(lost).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(lost!.message).toContain('Skindesk reads the backpack');
    expect(held(pool!.id)).toBe(before - 2);

    // the form's check says what will happen, without blocking the send
    const dry = await core.call('listItems', { ...request, dryRun: true });
    expect(dry.check.ok).toBe(true);
    expect(dry.check.problems).toEqual([
      expect.objectContaining({ code: 'CHECKED_BEFORE_SENDING', blocking: false, group: 0, entry: 0 }),
    ]);
    expect(dry.check.problems[0]!.message).toContain(`listing of 2 × ${pool!.market_hash_name}`);

    // the trader presses list again: the backpack shows the first went through; nothing more is listed
    const again = await failure(core.call('listItems', request));
    expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'EARLIER_MOVE_SENT' });
    expect(again!.message).toBe(
      `Your earlier listing of 2 × ${pool!.market_hash_name} went through (the backpack now holds ${before - 2}); nothing was sent again. Send again to list more.`,
    );
    expect(held(pool!.id)).toBe(before - 2);

    // the hold is lifted: a deliberate repeat goes out, checked against the row as read now
    const listed = await core.call('listItems', request);
    expect(listed.listings).toHaveLength(2);
    expect(held(pool!.id)).toBe(before - 4);
    const dryAfter = await core.call('listItems', {
      groups: [{ items: [{ id: pool!.id, amount: 1 }], price: 700 }],
      dryRun: true,
    });
    expect(dryAfter.check.problems).toEqual([]);
  });

  it('withdraw: refused because the first went through; a read that fails keeps it held; unchanged means sent', async () => {
    const [pool] = await pools(4);
    expect(pool).toBeTruthy();
    const before = held(pool!.id);
    const request = { items: [{ id: pool!.id, amount: 2 }] };
    loseMoves();
    const lost = await failure(core.call('withdrawItems', request));
    demo.chaos.calm();
    expect(lost).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(held(pool!.id)).toBe(before - 2);

    // the backpack cannot be read: nothing is sent, and the trader is told what to check
    demo.chaos.set({ rest: { errorRate: 1 } });
    const blind = await failure(core.call('withdrawItems', request));
    demo.chaos.calm();
    expect(blind).toMatchObject({ code: 'REFUSED', apiCode: 'MOVE_OUTCOME_UNKNOWN' });
    expect(blind!.message).toMatch(
      /^Nothing was sent: your earlier withdrawal of 2 × .+ at \d\d:\d\d UTC got no clear answer/,
    );
    expect(blind!.message).toContain('the backpack could not be read');
    expect(blind!.message).toContain(
      'Check the backpack and the trade offers on Steam; Skindesk checks again on the next try.',
    );
    expect(held(pool!.id)).toBe(before - 2);

    const again = await failure(core.call('withdrawItems', request));
    expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'EARLIER_MOVE_SENT' });
    expect(again!.message).toContain(
      `Your earlier withdrawal of 2 × ${pool!.market_hash_name} went through (the backpack now holds ${before - 2})`,
    );
    expect(held(pool!.id)).toBe(before - 2);

    // a send that hangs and drops with nothing applied: the repeat finds the row unchanged and goes out once
    demo.chaos.set({ rest: { timeoutRate: 1, hangMs: 50 } });
    const dropped = await failure(core.call('withdrawItems', { items: [{ id: pool!.id, amount: 1 }] }));
    demo.chaos.calm();
    expect(dropped).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
    expect(held(pool!.id)).toBe(before - 2);
    const sent = await core.call('withdrawItems', { items: [{ id: pool!.id, amount: 1 }] });
    expect(sent.withdrawIds).toHaveLength(1);
    expect(held(pool!.id)).toBe(before - 3);
  });

  it('a row the backpack cannot explain: told once what it holds, never held for good', async () => {
    const [pool] = await pools(6);
    expect(pool).toBeTruthy();
    const request = { groups: [{ items: [{ id: pool!.id, amount: 2 }], price: 700 }] };
    loseMoves();
    await failure(core.call('listItems', request));
    demo.chaos.calm();
    const before = held(pool!.id);
    // one copy came back meanwhile (a listing of it ended, say): neither "went through" nor "not sent"
    demo.state.account(1)!.backpack.get(pool!.id)!.amount = before + 1;
    const told = await failure(core.call('listItems', request));
    expect(told).toMatchObject({ code: 'REFUSED', apiCode: 'MOVE_OUTCOME_UNKNOWN' });
    expect(told!.message).toContain('it cannot be told whether it went through');
    expect(told!.message).toContain('send again to send it anyway');
    expect(held(pool!.id)).toBe(before + 1);
    const listed = await core.call('listItems', request);
    expect(listed.listings).toHaveLength(1);
    expect(held(pool!.id)).toBe(before - 1);
  });

  it('an item on its way in one send is refused by another until the first is answered', async () => {
    const [pool] = await pools(3);
    demo.chaos.set({ rest: { timeoutRate: 1, hangMs: 300 } });
    const first = failure(
      core.call('listItems', { groups: [{ items: [{ id: pool!.id, amount: 1 }], price: 700 }] }),
    );
    await new Promise((r) => setTimeout(r, 50));
    const second = await failure(core.call('withdrawItems', { items: [{ id: pool!.id, amount: 1 }] }));
    expect(second).toMatchObject({ code: 'REFUSED' });
    expect(second!.message).toContain('is being sent right now');
    expect(await first).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
  });
});

describe('Steam inventory moves whose answer is lost', () => {
  for (const action of ['sell', 'deposit'] as const) {
    it(`${action}: the items are marked as maybe in an offer and a repeat is refused until the inventory is read again`, async () => {
      const inv = await core.call('getInventory', { appId: 730, refresh: true });
      const item = inv.items.find((i) => i.tradable && !i.commodity && i.inOffer === null)!;
      expect(item).toBeTruthy();
      const send = () =>
        action === 'sell'
          ? core.call('sellItems', {
              appId: 730,
              groups: [{ items: [{ assetId: item.assetId, amount: 1 }], price: 4321 }],
            })
          : core.call('depositItems', { appId: 730, items: [{ assetId: item.assetId, amount: 1 }] });
      const tradesBefore = trades();
      loseMoves();
      const lost = await failure(send());
      demo.chaos.calm();
      expect(lost).toMatchObject({ code: 'MARKET', outcomeUnknown: true });
      expect(trades()).toBe(tradesBefore + 1);

      // the stored read shows the row as maybe in an offer
      const shown = await core.call('getInventory', { appId: 730 });
      expect(shown.freshness.fromCache).toBe(true);
      expect(shown.items.find((i) => i.assetId === item.assetId)?.inOffer).toBe('unknown');

      const again = await failure(send());
      expect(again).toMatchObject({ code: 'REFUSED', apiCode: 'INVALID_ITEM_TOKEN' });
      expect(again!.message).toMatch(
        new RegExp(
          `^Nothing was sent: .+ may be in a trade offer: the answer to the ${action} at \\d\\d:\\d\\d UTC was lost; read the inventory again to see\\.$`,
        ),
      );
      expect(trades()).toBe(tradesBefore + 1);

      // a fresh read shows where the item is (in the offer: gone from the inventory) and forgets the mark
      const fresh = await core.call('getInventory', { appId: 730, refresh: true });
      expect(fresh.items.some((i) => i.assetId === item.assetId)).toBe(false);
      expect(fresh.items.every((i) => i.inOffer === null)).toBe(true);
      await until(
        'the offer followed as a trade',
        async () => (await core.call('getTrades', {})).trades.length > 0,
      );
    });
  }
});

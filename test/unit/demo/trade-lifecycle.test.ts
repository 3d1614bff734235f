/**
 * The demo market's trade lifecycle (src/demo/market/trades.ts) on a market stand-in whose timers run
 * when the test says: every status of spec §3.2 is reached by the simulation, only through the
 * transitions docs/api-assumptions.md writes down, and a trade that fails gives its items back.
 */
import { describe, expect, it } from 'vitest';
import type { TradeStatus } from '../../../src/shared/api/index.ts';
import { FINAL_TRADE_STATUSES, IN_FLIGHT_TRADE_STATUSES } from '../../../src/shared/api/index.ts';
import type { Market } from '../../../src/demo/market/market.ts';
import type { Account, TradeRecord } from '../../../src/demo/market/records.ts';
import { TradeEngine } from '../../../src/demo/market/trades.ts';
import { Random } from '../../../src/demo/random.ts';

const ALLOWED_MOVES: Record<string, readonly TradeStatus[]> = {
  CreatedNeedsConfirmation: ['Active', 'CanceledBySecondFactor'],
  Active: ['Accepted', 'Declined', 'Expired', 'Canceled', 'InvalidItems', 'Invalid', 'InEscrow', 'Countered'],
  InEscrow: ['Accepted', 'Reversed'],
  Countered: ['Declined'],
};

/** Just what TradeEngine asks of the market, with a timer queue the test drains. */
function standIn(seed: number) {
  const timers: (() => void)[] = [];
  const moves: [TradeStatus, TradeStatus][] = [];
  const lastStatus = new Map<number, TradeStatus>();
  const account = { id: 1, trades: [] as TradeRecord[], inventory: new Map() } as unknown as Account;
  let id = 0;
  const market = {
    now: () => 1_700_000_000_000,
    nextId: () => ++id,
    account: () => account,
    random: { outcomes: Random.derive(seed, 'outcomes') },
    clock: {
      after: (_ms: number, fn: () => void) => {
        timers.push(fn);
        return () => timers.splice(timers.indexOf(fn) >>> 0, 1);
      },
    },
    notifyTrade: (_account: Account, trade: TradeRecord) => {
      moves.push([lastStatus.get(trade.id) ?? 'CreatedNeedsConfirmation', trade.status]);
      lastStatus.set(trade.id, trade.status);
    },
    catalog: { items: [] },
  } as unknown as Market;
  const runTimers = () => {
    while (timers.length > 0) timers.shift()!();
  };
  return { market, account, moves, runTimers };
}

describe('demo trade lifecycle', () => {
  it('reaches every trade status of the spec, through the written transitions only', () => {
    const { market, account, moves, runTimers } = standIn(20261123);
    const engine = new TradeEngine(market);
    for (let i = 0; i < 3_000; i++) {
      engine.open(account, 'DEPOSIT', [], { kind: 'DEPOSIT', entries: [] });
      runTimers();
    }
    for (const [from, to] of moves) expect(ALLOWED_MOVES[from], `${from} → ${to}`).toContain(to);
    const reached = new Set(moves.map(([, to]) => to).concat('CreatedNeedsConfirmation'));
    expect([...reached].sort()).toEqual([...FINAL_TRADE_STATUSES, ...IN_FLIGHT_TRADE_STATUSES].sort());
    // every trade ended
    expect(account.trades.every((t) => FINAL_TRADE_STATUSES.includes(t.status))).toBe(true);
  });

  it('draws nothing while an outcome is forced: confirmation, escrow and counter-offer each take one way', () => {
    const { market, account, moves, runTimers } = standIn(1);
    const engine = new TradeEngine(market);
    for (const forced of ['Accepted', 'InEscrow', 'Countered'] as const) {
      engine.forcedOutcome = forced;
      for (let i = 0; i < 200; i++) {
        engine.open(account, 'DEPOSIT', [], { kind: 'DEPOSIT', entries: [] });
        runTimers();
      }
    }
    const ends = account.trades.map((t) => t.status);
    expect(ends.slice(0, 400).every((s) => s === 'Accepted')).toBe(true);
    expect(ends.slice(400).every((s) => s === 'Declined')).toBe(true);
    expect(moves.some(([, to]) => to === 'CanceledBySecondFactor' || to === 'Reversed')).toBe(false);
  });

  it('gives the items of a reversed or canceled trade back to the account', () => {
    const { market, account, runTimers } = standIn(2);
    const engine = new TradeEngine(market);
    engine.autoProgress = false;
    const inventory = account.inventory as Map<number, { heldBy: number | null }>;
    for (const [assetId, path] of [
      [11, ['Active', 'InEscrow', 'Reversed']],
      [12, ['CanceledBySecondFactor']],
      [13, ['Active', 'Invalid']],
    ] as const) {
      inventory.set(assetId, { heldBy: null });
      const trade = engine.open(account, 'DEPOSIT', [], {
        kind: 'DEPOSIT',
        entries: [{ assetId, amount: 1 }],
      });
      inventory.get(assetId)!.heldBy = trade.id;
      for (const status of path) engine.move(trade, status);
      runTimers();
      expect(trade.status).toBe(path.at(-1));
      expect(trade.error).toMatch(/\w/);
      expect(inventory.get(assetId)!.heldBy).toBeNull();
    }
  });
});

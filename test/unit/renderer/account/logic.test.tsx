// The account screens' pure rules: what an edit will do (the partial reprice above all), commodity pools
// shared by list groups, default sell groups, the ledger’s running-balance check, the decay preview, and a bulk reprice’s rounding.
import { describe, expect, it } from 'vitest';
import { curvePoints, curveProblems, hourReaching, priceAt } from '../../../../src/renderer/screens/account/logic/decay.ts';
import { repriced } from '../../../../src/renderer/screens/account/listings/BulkDialogs.tsx';
import { explainEdit } from '../../../../src/renderer/screens/account/logic/edit-explain.ts';
import { ledgerBreaks } from '../../../../src/renderer/screens/account/logic/ledger.ts';
import { overdrawn, poolsLeft } from '../../../../src/renderer/screens/account/logic/pools.ts';
import { defaultSellGroups, groupCopies } from '../../../../src/renderer/screens/account/logic/sell-groups.ts';
import type { InventoryRow } from '../../../../src/shared/ipc/calls-account.ts';

describe('explainEdit', () => {
  const stack = { amount: 5, price: 1000, commodity: true, available: 2 };

  it('calls lowering the amount WITH a price a partial reprice: the surplus stays listed at the old price', () => {
    const e = explainEdit(stack, { price: 900, amount: 2, decay: null });
    expect(e.kind).toBe('partial_reprice');
    expect(e.warning).toBe(true);
    expect(e.lines.join(' ')).toContain('keeps 2 copies at $9.00');
    expect(e.lines.join(' ')).toContain('other 3 copies stay on the market as a NEW listing at the old price $10.00');
  });

  it('decides by the presence of a price, not by whether it changed', () => {
    expect(explainEdit(stack, { price: 1000, amount: 2, decay: null }).kind).toBe('partial_reprice');
  });

  it('a decay counts as a price', () => {
    const e = explainEdit(stack, { price: null, amount: 1, decay: { start_price: 1200, end_price: 800, total_hours: 48 } });
    expect(e.kind).toBe('partial_reprice');
    expect(e.lines[0]).toContain('falling from $12.00 to $8.00 over 48 h');
  });

  it('lowering the amount without a price returns the surplus to the backpack', () => {
    const e = explainEdit(stack, { price: null, amount: 3, decay: null });
    expect(e).toMatchObject({ kind: 'reduce', warning: false });
    expect(e.lines[0]).toContain('2 copies go back to your backpack');
  });

  it('raising the amount takes copies from the backpack', () => {
    expect(explainEdit(stack, { price: null, amount: 7, decay: null }).lines[0]).toContain('2 more copies are taken from your backpack');
    expect(explainEdit(stack, { price: 800, amount: 7, decay: null }).kind).toBe('raise_and_price');
  });

  it('agrees the verb with one copy: "1 copy stays", "goes back", "is taken"', () => {
    expect(explainEdit(stack, { price: 900, amount: 4, decay: null }).lines.join(' ')).toContain('other 1 copy stays on the market');
    expect(explainEdit(stack, { price: null, amount: 4, decay: null }).lines[0]).toContain('1 copy goes back to your backpack');
    expect(explainEdit(stack, { price: null, amount: 6, decay: null }).lines[0]).toContain('1 more copy is taken from your backpack');
  });

  it('an amount the stack cannot hold explains no edit: it says what the stack can hold', () => {
    for (const amount of [0, 8, 99]) {
      for (const price of [900, null]) {
        const e = explainEdit(stack, { price, amount, decay: null });
        expect(e).toMatchObject({ kind: 'out_of_range', warning: false });
        expect(e.lines).toEqual([`${amount} copies cannot be listed: the listing can hold 1 to 7 (5 listed, 2 more in the backpack).`]);
      }
    }
    expect(explainEdit(stack, { price: null, amount: 7, decay: null }).kind).toBe('raise');
  });

  it('a price alone reprices the whole stack in place; nothing at all changes nothing', () => {
    expect(explainEdit(stack, { price: 800, amount: null, decay: null })).toMatchObject({ kind: 'reprice', warning: false });
    expect(explainEdit(stack, { price: null, amount: 5, decay: null }).kind).toBe('none');
    expect(explainEdit(stack, { price: null, amount: null, decay: null }).kind).toBe('none');
    // the price it already asks (the dialog's untouched field): nothing to send
    expect(explainEdit(stack, { price: 1000, amount: null, decay: null })).toMatchObject({ kind: 'none', lines: ['Nothing changes: the listing already asks that price.'] });
  });
});

describe('commodity pools', () => {
  const rows = [
    { id: 1, amount: 25 },
    { id: 2, amount: 1 },
  ];
  it('several groups draw from one pool', () => {
    const groups = [
      { key: 'a', rowId: 1, copies: 10 },
      { key: 'b', rowId: 1, copies: 12 },
      { key: 'c', rowId: 2, copies: 1 },
    ];
    expect(poolsLeft(rows, groups)).toEqual(new Map([[1, 3], [2, 0]]));
    expect(overdrawn(rows, groups)).toEqual([]);
  });
  it('finds the overdrawn pool', () => {
    expect(overdrawn(rows, [{ key: 'a', rowId: 1, copies: 20 }, { key: 'b', rowId: 1, copies: 6 }])).toEqual([1]);
  });
});

describe('defaultSellGroups', () => {
  const row = (assetId: string, name: string, commodity: boolean, amount = 1): InventoryRow => ({
    assetId,
    appId: 730,
    name,
    amount,
    commodity,
    tradable: true,
    marketPrice: 100,
    recommendedPrice: 97,
    iconUrl: '',
    inOffer: null,
  });
  it('puts stacks of one commodity in one group, and every other item in its own', () => {
    const groups = defaultSellGroups([row('1', 'Case', true, 3), row('2', 'Knife', false), row('3', 'Case', true, 7), row('4', 'Knife', false)]);
    expect(groups.map((g) => [g.name, g.items.map((i) => i.assetId)])).toEqual([
      ['Case', ['1', '3']],
      ['Knife', ['2']],
      ['Knife', ['4']],
    ]);
    expect(groupCopies(groups[0]!)).toBe(10);
    expect(groups[1]!.price).toBe(97);
  });
});

describe('ledgerBreaks', () => {
  it('marks a row whose running balance does not follow from the older row', () => {
    const rows = [
      { id: 4, amount: -50, balance: 950 },
      { id: 3, amount: 200, balance: 1000 },
      { id: 2, amount: -100, balance: 700 },
      { id: 1, amount: 800, balance: 800 },
    ];
    expect([...ledgerBreaks(rows)]).toEqual([3]);
    expect(ledgerBreaks(rows.slice(0, 2)).size).toBe(0);
  });
});

describe('decay preview', () => {
  const curve = { start_price: 9000, end_price: 6000, total_hours: 48 };
  it('draws one point an hour, both ends included, with the contract’s prices', () => {
    const points = curvePoints(curve);
    expect(points).toHaveLength(49);
    expect(points[0]).toEqual({ x: 0, y: 9000 });
    expect(points[24]).toEqual({ x: 24, y: 7500 });
    expect(points.at(-1)).toEqual({ x: 48, y: 6000 });
    expect(priceAt(curve, 100)).toBe(6000);
    expect(hourReaching(curve, 7500)).toBe(24);
    expect(hourReaching(curve, 5000)).toBeNull();
  });
  it('says what is wrong with a curve in words', () => {
    expect(curveProblems(curve)).toEqual([]);
    expect(curveProblems({ ...curve, total_hours: 12 })).toEqual(['the curve lasts 24 to 168 whole hours']);
    expect(curveProblems({ ...curve, end_price: 9500 })).toEqual(['the end price must be below the start price']);
    expect(curveProblems({ total_hours: 24 })).toEqual(['enter a start price', 'enter an end price']);
  });
});

describe('repriced (bulk reprice by %)', () => {
  it('rounds an exact half cent up, in integer arithmetic, whatever the float would say', () => {
    // 25 × 0.66 = 16.5 exactly; 25 * (1 - 34 / 100) is 16.499999999999996 in floats
    expect(repriced(25, 'percent', -34, null)).toBe(17);
    expect(repriced(25, 'percent', 82, null)).toBe(46);
    expect(repriced(30, 'percent', -55, null)).toBe(14);
    expect(repriced(4550, 'percent', -5, null)).toBe(4323);
    expect(repriced(1000, 'percent', -2.5, null)).toBe(975);
    // never under 1 cent, and every price and percentage against exact rational arithmetic
    expect(repriced(3, 'percent', -99, null)).toBe(1);
    for (let price = 1; price <= 400; price++) {
      for (let tenths = -990; tenths <= 1000; tenths += 5) {
        const exact = price * (1000 + tenths); // thousandths of a cent
        const halfUp = Math.floor((exact + 500) / 1000);
        expect(repriced(price, 'percent', tenths / 10, null)).toBe(Math.max(1, halfUp));
      }
    }
  });
});

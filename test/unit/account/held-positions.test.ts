import { describe, expect, it } from 'vitest';
import { heldPositions } from '../../../src/core/account/portfolio.ts';

const row = (app_id: 730 | 570, market_hash_name: string, amount: number, market_price: number) => ({
  app_id,
  market_hash_name,
  amount,
  market_price,
});

describe('heldPositions', () => {
  it('groups the backpack and the Steam inventory by item, largest value first', () => {
    const backpack = [
      row(730, 'Revolution Case', 10, 50),
      row(730, 'AK-47 | Redline (Field-Tested)', 1, 1200),
      row(730, 'Revolution Case', 5, 50),
    ];
    const inventory = [
      row(730, 'AK-47 | Redline (Field-Tested)', 1, 1250),
      row(730, 'AK-47 | Redline (Field-Tested)', 1, 1250),
      row(570, 'Revolution Case', 1, 40), // same name, another game: another item
    ];
    expect(heldPositions(backpack, inventory, 10)).toEqual([
      {
        app_id: 730,
        market_hash_name: 'AK-47 | Redline (Field-Tested)',
        inBackpack: 1,
        inInventory: 2,
        marketPrice: 1200,
        value: 3700,
      },
      {
        app_id: 730,
        market_hash_name: 'Revolution Case',
        inBackpack: 15,
        inInventory: 0,
        marketPrice: 50,
        value: 750,
      },
      {
        app_id: 570,
        market_hash_name: 'Revolution Case',
        inBackpack: 0,
        inInventory: 1,
        marketPrice: 40,
        value: 40,
      },
    ]);
  });

  it('keeps the largest positions and a stable order among equal values', () => {
    const inventory = [
      row(730, 'B', 1, 100),
      row(730, 'A', 1, 100),
      row(730, 'C', 1, 300),
      row(730, 'D', 2, 1),
    ];
    expect(heldPositions([], inventory, 3).map((h) => h.market_hash_name)).toEqual(['C', 'A', 'B']);
    expect(heldPositions([], [], 3)).toEqual([]);
  });
});

// "vs paid" on the portfolio's held positions: the market price against what was paid here, from the
// whole sum paid rather than an average rounded to a cent (which made 7 copies for 16¢ against a 3¢
// market read +50 % instead of +31 %).
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HeldPositions } from '../../../../src/renderer/screens/account/portfolio/HeldPositions.tsx';
import { itemKey } from '../../../../src/renderer/screens/account/ui/DenseTable.tsx';
import { renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

const scrap = {
  app_id: 440 as const,
  market_hash_name: 'Scrap Metal',
  inBackpack: 7,
  inInventory: 0,
  marketPrice: 3,
  value: 21,
};

describe('vs paid', () => {
  it('compares with the whole sum paid, not a rounded average', () => {
    renderWithTheme(
      <HeldPositions
        positions={[scrap]}
        positionCount={1}
        heldValue={21}
        gamesRead={4}
        paidFor={new Map([[itemKey(scrap), { paid: 16, bought: 7 }]])}
      />,
    );
    expect(screen.getByTestId('versus-paid').textContent).toBe('+31.3%');
  });

  it('shows a dash while nothing is known to have been paid here', () => {
    renderWithTheme(<HeldPositions positions={[scrap]} positionCount={1} heldValue={21} gamesRead={4} paidFor={new Map()} />);
    expect(screen.queryByTestId('versus-paid')).toBeNull();
  });

  it('says which price values the positions: the Steam-derived market price, not the book here', () => {
    renderWithTheme(<HeldPositions positions={[scrap]} positionCount={1} heldValue={21} gamesRead={4} paidFor={new Map()} />);
    expect(screen.getByText(/backpack and Steam inventories · at Steam-derived market prices/)).toBeTruthy();
  });
});

// The held positions table shows the largest 100: it says it is cut only when more items are held
// than it shows (exactly 100 held is the whole list).
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HeldPositions } from '../../../../src/renderer/screens/account/portfolio/HeldPositions.tsx';
import { renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

const positions = Array.from({ length: 100 }, (_, i) => ({
  app_id: 730 as const,
  market_hash_name: `Sticker | Item ${i + 1}`,
  inBackpack: 1,
  inInventory: 0,
  marketPrice: 1_000 - i,
  value: 1_000 - i,
}));
const heldValue = positions.reduce((s, p) => s + p.value, 0);

describe('held positions: the note on a cut table', () => {
  it('says nothing is cut when exactly the 100 shown are held', () => {
    renderWithTheme(
      <HeldPositions
        positions={positions}
        positionCount={100}
        heldValue={heldValue}
        gamesRead={4}
        paidFor={new Map()}
      />,
    );
    expect(screen.getAllByTestId('position-row')).toHaveLength(100);
    expect(screen.queryByText(/largest/)).toBeNull();
  });

  it('says the table holds the largest when more are held than shown', () => {
    renderWithTheme(
      <HeldPositions
        positions={positions}
        positionCount={1_250}
        heldValue={heldValue}
        gamesRead={4}
        paidFor={new Map()}
      />,
    );
    expect(screen.getByText(/· the 100 largest of 1,250 items/)).toBeTruthy();
  });
});

// Held positions when the backpack could not be read: no row is not "Nothing held.", and the line above
// the table does not say the positions are the backpack's.
// And "vs paid" says where its figures come from while they are all dashes (the order history unread).
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { HeldPositions } from '../../../../src/renderer/screens/account/portfolio/HeldPositions.tsx';
import { resetRendererState } from '../fake-app.ts';
import { renderWithTheme } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

const position = {
  app_id: 730 as const,
  market_hash_name: 'Skin 1',
  inBackpack: 0,
  inInventory: 1,
  marketPrice: 500,
  value: 500,
};

describe('held positions, the backpack unread', () => {
  it('says nothing can be shown, not that nothing is held', () => {
    renderWithTheme(
      <HeldPositions
        positions={[]}
        positionCount={0}
        heldValue={0}
        gamesRead={0}
        backpackRead={false}
        paidFor={new Map()}
      />,
    );
    expect(screen.getByTestId('positions-empty').textContent).toBe(
      'Nothing to show: the backpack could not be read, and the Steam inventories are not read.',
    );
    expect(screen.queryByText(/backpack only/)).toBeNull();
  });

  it('with the inventories read, says the positions are theirs only', () => {
    renderWithTheme(
      <HeldPositions
        positions={[position]}
        positionCount={1}
        heldValue={500}
        gamesRead={4}
        backpackRead={false}
        paidFor={new Map()}
      />,
    );
    expect(screen.getByText(/Steam inventories only: the backpack could not be read/)).toBeTruthy();
  });

  it('read and empty, says nothing is held', () => {
    renderWithTheme(
      <HeldPositions
        positions={[]}
        positionCount={0}
        heldValue={0}
        gamesRead={4}
        backpackRead
        paidFor={new Map()}
      />,
    );
    expect(screen.getByTestId('positions-empty').textContent).toBe('Nothing held.');
  });
});

describe('vs paid, the order history unread', () => {
  it('its header says the column fills once the order history is read', async () => {
    const user = userEvent.setup();
    renderWithTheme(
      <HeldPositions
        positions={[position]}
        positionCount={1}
        heldValue={500}
        gamesRead={4}
        historyRead={false}
        paidFor={new Map()}
      />,
    );
    await user.hover(screen.getByTestId('versus-paid-header'));
    expect((await screen.findByRole('tooltip')).textContent).toContain(
      'Empty until the order history is read',
    );
  });
});

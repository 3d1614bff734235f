// The backpack's selection line counts copies, as the inventory's does: a row of a commodity pool is many
// copies, and copies are what a listing or a withdrawal takes.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { resetRendererState } from '../fake-app.ts';
import { backpackStack, freshness, installFakeBridge, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

describe('Backpack selection line', () => {
  it('says the rows, their copies and their value', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getBackpack: () => ({
        items: [backpackStack(1), { ...backpackStack(2), market_hash_name: 'Sticker | Y', amount: 3 }],
        metadata: { total_pages: 1, total_items: 2, current_page: 1, current_limit: 50 },
        freshness,
      }),
    });
    renderWithTheme(<BackpackScreen />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select Sticker | X' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Sticker | Y' }));
    expect(screen.getByTestId('backpack-selection').textContent).toBe('2 rows selected · 13 copies · $15.60');
  });
});

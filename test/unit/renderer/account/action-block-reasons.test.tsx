// Why the inventory's and the backpack's action buttons are held back is said in words beside them, which
// the buttons name as their description: it was said only in a tooltip, and a disabled button takes neither
// hover nor focus, so the keyboard and a screen reader never reached it.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { InventoryScreen } from '../../../../src/renderer/screens/account/inventory/InventoryScreen.tsx';
import { resetRendererState } from '../fake-app.ts';
import { backpackStack, freshness, installFakeBridge, renderWithTheme, skinRow } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

/** The words a button is described by (aria-describedby), or null when it names none. */
function description(button: HTMLElement): string | null {
  const id = button.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

function installInventory(tokensLeftMs: number) {
  const fetched = Date.now();
  installFakeBridge({
    getInventory: ({ appId }) => ({
      appId,
      items: [skinRow('1')],
      freshness: { fetchedAt: new Date(fetched).toISOString(), fromCache: false, problem: null },
      tokensExpireAt: new Date(fetched + tokensLeftMs).toISOString(),
      expired: tokensLeftMs <= 0,
      tradesInFlight: 0,
    }),
  });
}

describe('Inventory: why Sell and Deposit are held back', () => {
  it('is said beside the buttons and describes them, and goes once they can be used', async () => {
    installInventory(30 * 60_000);
    renderWithTheme(<InventoryScreen />);
    await screen.findByTestId('token-clock');
    const sell = screen.getByTestId('sell-open');
    const deposit = screen.getByTestId('deposit-open');
    expect(screen.getByTestId('inventory-action-block').textContent).toBe('Select items first.');
    expect(description(sell)).toBe('Select items first.');
    expect(description(deposit)).toBe('Select items first.');

    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Select Skin 1' }));
    expect((sell as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('inventory-action-block').textContent).toBe('');
  });

  it('says the tokens expired', async () => {
    installInventory(-60_000);
    renderWithTheme(<InventoryScreen />);
    await screen.findByTestId('token-clock');
    expect(screen.getByTestId('inventory-action-block').textContent).toBe(
      'Read the inventory again: the tokens expired.',
    );
    expect(description(screen.getByTestId('sell-open'))).toBe(
      'Read the inventory again: the tokens expired.',
    );
  });
});

describe('Backpack: why Withdraw and List are held back', () => {
  it('says nothing is selected, then that a trade hold keeps the items from leaving; List is described only while held back', async () => {
    const user = userEvent.setup();
    const held = {
      ...backpackStack(2),
      market_hash_name: 'Sticker | Held',
      trade_locked_until: new Date(Date.now() + 86_400_000).toISOString(),
    };
    installFakeBridge({
      getBackpack: () => ({
        items: [held],
        metadata: { total_pages: 1, total_items: 1, current_page: 1, current_limit: 50 },
        freshness,
      }),
    });
    renderWithTheme(<BackpackScreen />);
    const select = await screen.findByRole('checkbox', { name: 'Select Sticker | Held' });
    expect(screen.getByTestId('backpack-action-block').textContent).toBe('Select items first.');
    expect(description(screen.getByTestId('withdraw-open'))).toBe('Select items first.');
    expect(description(screen.getByTestId('list-open'))).toBe('Select items first.');

    await user.click(select);
    expect(screen.getByTestId('backpack-action-block').textContent).toBe(
      'Items inside a trade hold cannot be withdrawn yet.',
    );
    expect(description(screen.getByTestId('withdraw-open'))).toBe(
      'Items inside a trade hold cannot be withdrawn yet.',
    );
    expect((screen.getByTestId('list-open') as HTMLButtonElement).disabled).toBe(false);
    expect(description(screen.getByTestId('list-open'))).toBeNull();
  });
});

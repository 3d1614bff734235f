// The account screens' keys, through the same hotkey wiring as the app frame: R reads the screen again
// (what its Refresh or Poll now button does), "/" goes to the backpack's search; typed into that search,
// an "r" is text, not a refresh.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { BackpackScreen } from '../../../../src/renderer/screens/account/backpack/BackpackScreen.tsx';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { useCommands } from '../../../../src/renderer/shell/commands.ts';
import { useCommandHotkeys } from '../../../../src/renderer/shell/hotkeys.ts';
import { freshness, installFakeBridge, myListing, myListingsPage, renderWithTheme } from './fake-bridge.tsx';

function WithHotkeys({ children }: { children: ReactNode }) {
  useCommandHotkeys(useCommands());
  return <>{children}</>;
}

const metadata = { total_pages: 1, total_items: 1, current_page: 1, current_limit: 50 };

describe('account screen keys', () => {
  it('R refreshes my listings', async () => {
    const bridge = installFakeBridge({
      getMyListings: () => myListingsPage([myListing(7, { amount: 2 })]),
    });
    renderWithTheme(
      <WithHotkeys>
        <MyListingsScreen />
      </WithHotkeys>,
    );
    await screen.findByTestId('listing-row');
    const reads = () => bridge.calls.filter((c) => c.name === 'getMyListings').length;
    const before = reads();
    fireEvent.keyDown(document.body, { key: 'r', code: 'KeyR' });
    await waitFor(() => expect(reads()).toBe(before + 1));
  });

  it('"/" goes to the backpack search, where R is typed, and R outside it refreshes', async () => {
    const searches: (string | null)[] = [];
    const bridge = installFakeBridge({
      getBackpack: ({ search }) => {
        searches.push(search);
        return { items: [], metadata: { ...metadata, total_items: 0 }, freshness };
      },
    });
    const user = userEvent.setup();
    renderWithTheme(
      <WithHotkeys>
        <BackpackScreen />
      </WithHotkeys>,
    );
    await waitFor(() => expect(searches).toHaveLength(1));
    await user.keyboard('/');
    const field = screen.getByTestId('backpack-search') as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    await user.keyboard('rug');
    expect(field.value).toBe('rug');
    await waitFor(() => expect(searches.at(-1)).toBe('rug'));
    const reads = bridge.calls.filter((c) => c.name === 'getBackpack').length;
    field.blur();
    fireEvent.keyDown(document.body, { key: 'r', code: 'KeyR' });
    await waitFor(() => expect(bridge.calls.filter((c) => c.name === 'getBackpack').length).toBe(reads + 1));
    expect(searches.at(-1)).toBe('rug');
  });
});

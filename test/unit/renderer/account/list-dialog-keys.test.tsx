// The list dialog's "selected group" (the one "Use a price decay for the selected group" changes) follows
// the keyboard: Tab into a group's fields selects it. It followed clicks only, so a trader who tabbed into
// the second group's price and pressed the button changed the first group.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { resetRendererState } from '../fake-app.ts';
import { backpackStack, installFakeBridge, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

describe('ListDialog from the keyboard', () => {
  it('the group typed in is the group selected: "Use a price decay for the selected group" changes it', async () => {
    const user = userEvent.setup();
    installFakeBridge({ listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }) });
    const stickerY = { ...backpackStack(2), market_hash_name: 'Sticker | Y' };
    renderWithTheme(<ListDialog rows={[backpackStack(1), stickerY]} onClose={() => {}} onSent={() => {}} />);
    // the dialog opens in the first group's price; from there into the second group's, as a trader tabs
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Price of group 1' })),
    );
    const second = screen.getByRole('textbox', { name: 'Price of group 2' });
    while (document.activeElement !== second) await user.tab();
    await user.click(screen.getByRole('button', { name: 'Use a price decay for the selected group' }));
    expect(await screen.findByText('Price decay · Sticker | Y')).toBeTruthy();
  });
});

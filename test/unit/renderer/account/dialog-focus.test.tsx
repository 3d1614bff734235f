// The selling dialogs open with the cursor in the price, its offered figure selected: the trader types a
// price at once, and it replaces the market's or the listing's price rather than being appended to it.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { SellDialog } from '../../../../src/renderer/screens/account/inventory/SellDialog.tsx';
import { BulkRepriceDialog } from '../../../../src/renderer/screens/account/listings/BulkDialogs.tsx';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { backpackStack, installFakeBridge, myListing, myListingsPage, renderWithTheme, skinRow } from './fake-bridge.tsx';

/** Waits for the dialog's focus trap to place the focus, then types over whatever it selected. */
async function typeAtOpenFocus(testId: string, text: string): Promise<HTMLInputElement> {
  const field = (await screen.findAllByTestId(testId))[0] as HTMLInputElement;
  await waitFor(() => expect(document.activeElement).toBe(field));
  await userEvent.setup().keyboard(text);
  return field;
}

describe('selling dialogs: the price has the focus as they open', () => {
  it('Sell: the first group’s price per copy, the recommended price replaced by what is typed', async () => {
    installFakeBridge({});
    renderWithTheme(<SellDialog appId={730} rows={[skinRow()]} onClose={() => {}} onSent={() => {}} />);
    const price = await typeAtOpenFocus('sell-price', '4.5');
    expect(price.value).toBe('4.5'); // as typed: written out in full when the field is left
  });

  it('List: the first group’s price, the market price replaced by what is typed', async () => {
    installFakeBridge({ listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }) });
    const row = backpackStack(9);
    renderWithTheme(<ListDialog rows={[row]} onClose={() => {}} onSent={() => {}} />);
    const price = await typeAtOpenFocus('list-price', '2.99');
    expect(price.value).toBe('2.99');
  });

  it('Edit listing: the new price per copy, the listing’s price replaced by what is typed', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      getMyListings: () => myListingsPage([myListing(7)]),
    });
    renderWithTheme(<MyListingsScreen />);
    await user.click(await screen.findByTestId('listing-edit'));
    const price = await typeAtOpenFocus('edit-price', '9.25');
    expect(price.value).toBe('9.25');
  });

  it('Bulk reprice: the percent', async () => {
    installFakeBridge({});
    renderWithTheme(
      <BulkRepriceDialog listings={[myListing(1), myListing(2)]} onClose={() => {}} onSent={() => {}} />,
    );
    const percent = await typeAtOpenFocus('bulk-percent', '5');
    expect(percent.value).toBe('5%');
  });
});

// The selling side's typed figures: a value the trader typed is never put back without a word, and a
// send that would change nothing is not offered. Bulk reprice by %, the undercut guard's step, the copies
// of a list group (and the title that counts them), and the edit dialog's copies after part of the stack sells.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { BulkRepriceDialog } from '../../../../src/renderer/screens/account/listings/BulkDialogs.tsx';
import { MyListingsScreen } from '../../../../src/renderer/screens/account/listings/MyListingsScreen.tsx';
import { UndercutGuardPanel } from '../../../../src/renderer/screens/account/listings/UndercutGuardPanel.tsx';
import {
  backpackStack,
  blockedReason,
  confirmButton,
  fieldError,
  installFakeBridge,
  myListing,
  myListingsPage,
  renderWithTheme,
} from './fake-bridge.tsx';

const listing = myListing;


describe('BulkRepriceDialog: the percent typed', () => {
  it('does not offer a 0 % change, and keeps a percent out of range with the range as the field’s error', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      bulkEditListings: ({ edits }) => ({
        results: edits.map((e) => ({ listingId: e.listingId, ok: true, error: null, explanation: null })),
      }),
    });
    renderWithTheme(
      <BulkRepriceDialog
        listings={[listing(1), listing(2, { price: 250 })]}
        onClose={() => {}}
        onSent={() => {}}
      />,
    );
    const percent = screen.getByTestId('bulk-percent') as HTMLInputElement;

    await user.clear(percent);
    await user.type(percent, '0');
    await user.tab();
    expect(confirmButton().disabled).toBe(true);
    expect(blockedReason()).toBe('0% changes no price.');

    await user.clear(percent);
    await user.type(percent, '-150');
    await user.tab();
    expect(percent.value).toBe('-150%');
    expect(fieldError(percent)).toBe('A cut can be at most 99%.');
    expect(confirmButton().disabled).toBe(true);

    await user.clear(percent);
    await user.type(percent, '1500');
    await user.tab();
    expect(percent.value).toBe('1500%');
    expect(fieldError(percent)).toBe('A rise can be at most 1,000%.');
    expect(confirmButton().disabled).toBe(true);

    await user.clear(percent);
    await user.type(percent, '-10');
    await user.tab();
    expect(fieldError(percent)).toBeNull();
    expect(confirmButton().disabled).toBe(false);
    await user.click(confirmButton());
    await waitFor(() =>
      expect(bridge.calls.find((c) => c.name === 'bulkEditListings')?.input).toEqual({
        edits: [
          { listingId: 1, price: 900, decay: null },
          { listingId: 2, price: 225, decay: null },
        ],
      }),
    );
  });
});

describe('BulkRepriceDialog: one price typed', () => {
  it('a price of $0.00 is refused in those words, not asked for as if nothing were typed', async () => {
    const user = userEvent.setup();
    installFakeBridge({});
    renderWithTheme(<BulkRepriceDialog listings={[listing(1)]} onClose={() => {}} onSent={() => {}} />);
    await user.click(screen.getByText('Set one price'));
    const price = screen.getByLabelText('New price per copy') as HTMLInputElement;
    expect(blockedReason()).toBe('Enter the new price.');
    await user.type(price, '0');
    await user.tab();
    expect(blockedReason()).toBe('A new price above $0.00.');
    expect(confirmButton().disabled).toBe(true);
    await user.clear(price);
    await user.type(price, '7.5');
    await user.tab();
    expect(confirmButton().disabled).toBe(false);
  });
});

describe('UndercutGuardPanel: the step typed', () => {
  it('keeps a step out of range with the range as the field’s error, and saves only a step in range', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      setUndercutGuard: ({ listingId, floor, step, ceiling }) => ({
        guard:
          floor === null
            ? null
            : {
                listingId,
                appId: 730,
                marketHashName: 'Item 7',
                floor,
                step,
                ceiling,
                state: 'watching',
                note: 'Watching the book.',
                edits: 0,
                lastEditAt: null,
              },
      }),
    });
    renderWithTheme(<UndercutGuardPanel listing={listing(7)} guard={undefined} onChanged={() => {}} />);
    const step = screen.getByLabelText('Step (cents)') as HTMLInputElement;
    const save = screen.getByTestId('guard-save') as HTMLButtonElement;

    for (const typed of ['0', '20000']) {
      await user.clear(step);
      await user.type(step, typed);
      await user.tab();
      expect(step.value).toBe(typed);
      expect(fieldError(step)).toBe('The step is 1 to 10,000 cents ($0.01 to $100.00).');
      expect(save.disabled).toBe(true);
    }

    await user.clear(step);
    await user.type(step, '25');
    await user.tab();
    expect(fieldError(step)).toBeNull();
    expect(save.disabled).toBe(false);
    await user.click(save);
    await screen.findByTestId('guard-note');
    expect(bridge.calls.find((c) => c.name === 'setUndercutGuard')?.input).toEqual({
      listingId: 7,
      floor: 900,
      step: 25,
      ceiling: null,
    });
  });
});

describe('ListDialog: the copies typed', () => {
  it('never counts copies that cannot be listed in its title, and keeps them in the field with its error', async () => {
    const user = userEvent.setup();
    installFakeBridge({ listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }) });
    const row = backpackStack(9);
    renderWithTheme(<ListDialog rows={[row]} onClose={() => {}} onSent={() => {}} />);
    const title = () => document.querySelector('.mantine-Modal-title')?.textContent;
    const copies = screen.getByLabelText('Copies in group 1') as HTMLInputElement;
    expect(title()).toBe('List 10 copies from the backpack');

    for (const [typed, error, pool] of [
      ['0', 'At least 1 copy.', '10 of 10 left'],
      ['', 'At least 1 copy.', '10 of 10 left'],
      ['12', '2 copies more than the pool holds.', '-2 of 10 left'],
    ] as const) {
      await user.clear(copies);
      if (typed) await user.type(copies, typed);
      expect(title()).toBe('List Sticker | X from the backpack');
      // leaving the field keeps what was typed
      await user.tab();
      expect(copies.value).toBe(typed);
      expect(fieldError(copies)).toBe(error);
      expect(screen.getByTestId('pool-left').textContent).toBe(`pool #9: ${pool}`);
      expect(title()).toBe('List Sticker | X from the backpack');
      expect(confirmButton().disabled).toBe(true);
    }

    // a minus is not taken at all (no copies field of the app takes one): what is shown is what is listed
    await user.clear(copies);
    await user.type(copies, '-3');
    expect(copies.value).toBe('3');
    expect(fieldError(copies)).toBeNull();

    await user.clear(copies);
    await user.type(copies, '4');
    await user.tab();
    expect(copies.value).toBe('4');
    expect(fieldError(copies)).toBeNull();
    expect(title()).toBe('List 4 copies from the backpack');
    expect(screen.getByTestId('pool-left').textContent).toBe('pool #9: 6 of 10 left');
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
  });
});

describe('EditListingDialog while part of the stack sells', () => {
  it('shows the copies still listed, keeps what the trader typed, and says when that is more than is left', async () => {
    const user = userEvent.setup();
    let current = listing(7, { amount: 5 });
    const bridge = installFakeBridge({
      getMyListings: () => myListingsPage([current]),
    });
    renderWithTheme(<MyListingsScreen />);
    await user.click(await screen.findByTestId('listing-edit'));
    const amount = screen.getByTestId('edit-amount') as HTMLInputElement;
    expect(amount.disabled).toBe(true);
    expect(amount.value).toBe('5');

    // 2 of the 5 copies sell while the dialog is open: the screen reads its listings again
    current = listing(7, { amount: 3 });
    bridge.push('tradesUpdated', { trades: [] });
    await waitFor(() => expect(amount.value).toBe('3'));
    expect(amount.disabled).toBe(true);

    // typed, the copies stay as typed when another copy sells
    await user.click(screen.getByTestId('edit-amount-switch'));
    await user.clear(amount);
    await user.type(amount, '2');
    expect(screen.getByTestId('edit-explanation').textContent).toContain('The listing keeps 2 copies at $10.00; 1 copy goes back to your backpack.');
    expect(confirmButton().disabled).toBe(false);
    current = listing(7, { amount: 1 });
    bridge.push('tradesUpdated', { trades: [] });
    await waitFor(() => expect(confirmButton().disabled).toBe(true));
    expect(amount.value).toBe('2');
    expect(blockedReason()).toBe(
      'Copies listed: 1 to 1 (1 listed, 0 more in the backpack). Since this dialog opened, 4 copies left the listing (sold or taken off).',
    );
  });
});

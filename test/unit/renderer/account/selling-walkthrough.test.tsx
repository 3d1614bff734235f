// What a trader's walk-through of the selling dialogs found: a refused price said under a field in a
// narrow cell (three lines, the row and the table below it moving), a footer asking "$0.00" when there
// was nothing to ask, and Enter in a price or copies field doing nothing.
import { TextInput, Textarea } from '@mantine/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { SellDialog } from '../../../../src/renderer/screens/account/inventory/SellDialog.tsx';
import { BulkRepriceDialog } from '../../../../src/renderer/screens/account/listings/BulkDialogs.tsx';
import { EditListingDialog } from '../../../../src/renderer/screens/account/listings/EditListingDialog.tsx';
import { ConfirmDialog } from '../../../../src/renderer/screens/account/ui/ConfirmDialog.tsx';
import type { InventoryRow } from '../../../../src/shared/ipc/calls-account.ts';
import {
  NOW_ISO,
  backpackStack,
  blockedReason,
  confirmButton,
  fieldError,
  installFakeBridge,
  myListing,
  renderWithTheme,
  skinRow,
} from './fake-bridge.tsx';

const NOT_AN_AMOUNT = 'Use a point for cents (12.50); a comma only separates thousands (1,250.00).';

/** Whether the words sit in the layout under the field (rather than out of sight, in a tooltip). */
const wordsTakeRoom = (input: HTMLElement) => {
  const error = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  return error !== null && error.style.position !== 'absolute';
};
/**
 * The tooltip with a field's words, while one is open. jsdom lays nothing out, so the tooltip's
 * positioning takes the field for one out of view and hides it: found here whether shown or not (it is
 * mounted only while open); the browser test sees it shown.
 */
const tip = () => screen.queryByRole('tooltip', { hidden: true });
const findTip = () => screen.findByRole('tooltip', { hidden: true });

const sellCalls = (bridge: ReturnType<typeof installFakeBridge>) =>
  bridge.calls.filter((c) => c.name === 'sellItems' && (c.input as { dryRun?: boolean }).dryRun !== true);
const okSell = () =>
  installFakeBridge({
    sellItems: ({ dryRun }) => ({ check: { ok: true, problems: [] }, depositIds: dryRun ? [] : [41] }),
  });

describe('a refused price in a row of the Sell dialog', () => {
  it('turns the field red with its words in a tooltip and beside the button, never under the field in the row', async () => {
    const user = userEvent.setup();
    okSell();
    renderWithTheme(
      <SellDialog appId={730} rows={[skinRow('1'), skinRow('2')]} onClose={() => {}} onSent={() => {}} />,
    );
    const [first, second] = screen.getAllByTestId('sell-price') as HTMLInputElement[];
    await user.clear(second!);
    await user.type(second!, '1,5');

    expect(fieldError(second!)).toBe(NOT_AN_AMOUNT);
    expect(wordsTakeRoom(second!)).toBe(false);
    const row = screen.getAllByTestId('sell-group')[1]!;
    expect(within(row).queryByRole('tooltip', { hidden: true })).toBeNull();
    // while the field has the cursor, the words are in a tooltip (floating, outside the table)
    expect((await findTip()).textContent).toBe(NOT_AN_AMOUNT);
    expect(screen.getByTestId('sell-groups').contains(tip())).toBe(false);
    expect(blockedReason()).toBe(`Group 2: ${NOT_AN_AMOUNT}`);
    expect(confirmButton().disabled).toBe(true);

    // left, the field stays red; the tooltip goes (it comes back under the pointer)
    await user.click(first!);
    await waitFor(() => expect(tip()).toBeNull());
    expect(fieldError(second!)).toBe(NOT_AN_AMOUNT);
    await user.hover(second!);
    expect((await findTip()).textContent).toBe(NOT_AN_AMOUNT);
  });

  it('keeps the cursor in the field as the text turns refused and back, so typing goes on', async () => {
    const user = userEvent.setup();
    okSell();
    renderWithTheme(<SellDialog appId={730} rows={[skinRow()]} onClose={() => {}} onSent={() => {}} />);
    const price = screen.getByTestId('sell-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '12,');
    await user.type(price, '5');
    expect(fieldError(price)).toBe(NOT_AN_AMOUNT);
    await user.type(price, '00');
    expect(screen.getByTestId('sell-price')).toBe(price);
    expect(document.activeElement).toBe(price);
    expect(price.value).toBe('12,500');
    expect(fieldError(price)).toBeNull();
  });
});

describe('the same refusals in the List and bulk reprice dialogs', () => {
  it('List: copies and price out of their cells, in tooltips, and beside the button', async () => {
    const user = userEvent.setup();
    installFakeBridge({ listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }) });
    renderWithTheme(<ListDialog rows={[backpackStack(9)]} onClose={() => {}} onSent={() => {}} />);
    const copies = screen.getByLabelText('Copies in group 1') as HTMLInputElement;
    await user.clear(copies);
    await user.type(copies, '12');
    expect(fieldError(copies)).toBe('2 copies more than the pool holds.');
    expect(wordsTakeRoom(copies)).toBe(false);
    expect((await findTip()).textContent).toBe('2 copies more than the pool holds.');
    expect(blockedReason()).toBe('2 copies more than the pool holds.');

    await user.clear(copies);
    await user.type(copies, '4');
    const price = screen.getByTestId('list-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '1,5');
    expect(fieldError(price)).toBe(NOT_AN_AMOUNT);
    expect(wordsTakeRoom(price)).toBe(false);
    expect(blockedReason()).toBe(NOT_AN_AMOUNT);
    expect(confirmButton().disabled).toBe(true);
  });

  it('bulk reprice: a percent out of range and a refused price, beside the mode switch without moving it', async () => {
    const user = userEvent.setup();
    installFakeBridge({});
    renderWithTheme(<BulkRepriceDialog listings={[myListing(1)]} onClose={() => {}} onSent={() => {}} />);
    const percent = screen.getByTestId('bulk-percent') as HTMLInputElement;
    await user.clear(percent);
    await user.type(percent, '-150');
    expect(fieldError(percent)).toBe('A cut can be at most 99%.');
    expect(wordsTakeRoom(percent)).toBe(false);
    expect(blockedReason()).toBe('A cut can be at most 99%.');

    await user.click(screen.getByText('Set one price'));
    const price = screen.getByLabelText('New price per copy') as HTMLInputElement;
    await user.type(price, '1,5');
    expect(fieldError(price)).toBe(NOT_AN_AMOUNT);
    expect(wordsTakeRoom(price)).toBe(false);
    expect(blockedReason()).toBe(NOT_AN_AMOUNT);
  });
});

describe('the Sell dialog’s asking total', () => {
  it('is a dash, and the button names no amount, while no price can be asked; the amount once every group has one', async () => {
    const user = userEvent.setup();
    okSell();
    renderWithTheme(
      <SellDialog appId={730} rows={[skinRow('1'), skinRow('2')]} onClose={() => {}} onSent={() => {}} />,
    );
    const [first, second] = screen.getAllByTestId('sell-price') as HTMLInputElement[];
    await user.clear(first!);
    await user.clear(second!);
    expect(screen.getByTestId('sell-total').textContent).toBe('–');
    expect(confirmButton().textContent).toBe('Send trade offer');
    expect(confirmButton().disabled).toBe(true);

    // one price of two: still nothing the offer would ask
    await user.type(first!, '4');
    expect(screen.getByTestId('sell-total').textContent).toBe('–');
    expect(confirmButton().textContent).toBe('Send trade offer');
    // a zero price is not a price to ask
    await user.type(second!, '0');
    expect(screen.getByTestId('sell-total').textContent).toBe('–');
    expect(blockedReason()).toBe('Group 2: A price per copy above $0.00.');

    await user.clear(second!);
    await user.type(second!, '6');
    expect(screen.getByTestId('sell-total').textContent).toBe('$10.00');
    expect(confirmButton().textContent).toBe('Send trade offer · $10.00');
  });
});

describe('Enter in a price or copies field of the selling dialogs', () => {
  it('Sell: sends as the button does once the price is checked, even when pressed before the check answered', async () => {
    const user = userEvent.setup();
    const bridge = okSell();
    let sent = 0;
    renderWithTheme(<SellDialog appId={730} rows={[skinRow()]} onClose={() => {}} onSent={() => sent++} />);
    const price = screen.getByTestId('sell-price') as HTMLInputElement;
    await user.clear(price);
    // typed and sent at once: the check of 7.25 is still under way when Enter comes
    await user.type(price, '7.25{Enter}');
    expect(sellCalls(bridge)).toHaveLength(0);
    await screen.findByTestId('action-result');
    expect(sellCalls(bridge).map((c) => c.input)).toEqual([
      { appId: 730, groups: [{ items: [{ assetId: '1', amount: 1 }], price: 725 }] },
    ]);
    expect(sent).toBe(1);
  });

  it('Sell: does nothing while a price is refused, or while the check finds a problem', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      sellItems: ({ groups, dryRun }) => {
        const problems =
          groups[0]!.price > 100_000
            ? [
                {
                  code: 'VALIDATION_ERROR',
                  message: 'that price is above what the check allows',
                  group: 0,
                  entry: null,
                  blocking: true,
                },
              ]
            : [];
        return { check: { ok: problems.length === 0, problems }, depositIds: dryRun ? [] : [41] };
      },
    });
    renderWithTheme(<SellDialog appId={730} rows={[skinRow()]} onClose={() => {}} onSent={() => {}} />);
    const price = screen.getByTestId('sell-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '1,5{Enter}');
    expect(blockedReason()).toBe(NOT_AN_AMOUNT);

    await user.clear(price);
    await user.type(price, '2000{Enter}');
    await screen.findByTestId('send-problems');
    await user.type(price, '{Enter}');
    expect(blockedReason()).toBe('Fix the problem above to send.');
    expect(screen.queryByTestId('action-result')).toBeNull();
    expect(sellCalls(bridge)).toHaveLength(0);
  });

  it('Sell: an Enter that waits for the check is dropped when the trader types on', async () => {
    const user = userEvent.setup();
    const bridge = okSell();
    renderWithTheme(<SellDialog appId={730} rows={[skinRow()]} onClose={() => {}} onSent={() => {}} />);
    const price = screen.getByTestId('sell-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '7{Enter}');
    expect(blockedReason()).toBe('Checking, then sending…');
    await user.type(price, '.5');
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    expect(screen.queryByTestId('action-result')).toBeNull();
    expect(sellCalls(bridge)).toHaveLength(0);
  });

  it('Sell: Enter in a stack’s copies sends too', async () => {
    const user = userEvent.setup();
    const bridge = okSell();
    const stack: InventoryRow = { ...skinRow('5'), name: 'Case', commodity: true, amount: 8 };
    renderWithTheme(<SellDialog appId={730} rows={[stack]} onClose={() => {}} onSent={() => {}} />);
    const copies = screen.getByLabelText('Copies from stack 1 of group 1') as HTMLInputElement;
    await user.tripleClick(copies);
    await user.keyboard('3');
    await waitFor(() => expect(blockedReason()).toBe(''));
    await user.type(copies, '{Enter}');
    await screen.findByTestId('action-result');
    expect(sellCalls(bridge).map((c) => c.input)).toEqual([
      { appId: 730, groups: [{ items: [{ assetId: '5', amount: 3 }], price: 485 }] },
    ]);
  });

  it('Sell: a stack’s copies emptied stay empty (none from it), and more than it holds stay as typed, refused', async () => {
    const user = userEvent.setup();
    const bridge = okSell();
    const first: InventoryRow = { ...skinRow('5'), name: 'Case', commodity: true, amount: 8 };
    const second: InventoryRow = { ...skinRow('6'), name: 'Case', commodity: true, amount: 2 };
    renderWithTheme(<SellDialog appId={730} rows={[first, second]} onClose={() => {}} onSent={() => {}} />);
    const stack1 = screen.getByLabelText('Copies from stack 1 of group 1') as HTMLInputElement;
    const stack2 = screen.getByLabelText('Copies from stack 2 of group 1') as HTMLInputElement;
    await user.clear(stack2);
    expect(stack2.value).toBe(''); // not a "0" the next digit lands after
    await user.type(stack2, '5');
    expect(stack2.value).toBe('5'); // not put back to 2 behind the trader's back
    await waitFor(() => expect(blockedReason()).toBe('Stack 2 holds 2 copies: enter 0 to 2.'));
    expect(confirmButton().disabled).toBe(true);
    await user.clear(stack2);
    await user.tripleClick(stack1);
    await user.keyboard('4');
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    await user.click(confirmButton());
    await screen.findByTestId('action-result');
    expect(sellCalls(bridge).map((c) => c.input)).toEqual([
      { appId: 730, groups: [{ items: [{ assetId: '5', amount: 4 }], price: 485 }] },
    ]);
  });

  it('List: Enter in the copies creates the listings; with copies refused it does nothing', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }),
    });
    renderWithTheme(<ListDialog rows={[backpackStack(9)]} onClose={() => {}} onSent={() => {}} />);
    const listed = () =>
      bridge.calls.filter((c) => c.name === 'listItems' && (c.input as { dryRun?: boolean }).dryRun !== true);
    const copies = screen.getByLabelText('Copies in group 1') as HTMLInputElement;
    await user.clear(copies);
    await user.type(copies, '12{Enter}');
    expect(listed()).toHaveLength(0);
    await user.clear(copies);
    await user.type(copies, '4');
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    await user.type(copies, '{Enter}');
    await screen.findByTestId('action-result');
    expect(listed().map((c) => c.input)).toEqual([
      { groups: [{ items: [{ id: 9, amount: 4 }], price: 120, decay: null }] },
    ]);
  });

  it('Edit listing: Enter in the price applies the edit; not with the price refused, nor from the undercut guard’s fields', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      editListing: (input) => ({
        listing: {
          id: 7,
          app_id: 730,
          market_hash_name: 'Item 7',
          price: input.price ?? 1000,
          amount: 5,
          commodity: true,
          created_at: NOW_ISO,
        },
        split: null,
      }),
    });
    renderWithTheme(<EditListingDialog listing={myListing(7)} onClose={() => {}} onSent={() => {}} />);
    const edits = () => bridge.calls.filter((c) => c.name === 'editListing');
    const price = screen.getByTestId('edit-price') as HTMLInputElement;
    await user.clear(price);
    await user.type(price, '9,5{Enter}');
    expect(blockedReason()).toBe(NOT_AN_AMOUNT);
    await user.clear(price);
    await user.type(price, '9.50');
    await user.type(screen.getByTestId('guard-floor'), '8{Enter}');
    expect(edits()).toHaveLength(0);
    await user.type(price, '{Enter}');
    await screen.findByTestId('edit-result');
    expect(edits().map((c) => c.input)).toEqual([{ listingId: 7, price: 950, amount: null, decay: null }]);
  });
});

describe('BulkRepriceDialog: Enter', () => {
  it('in the percent or the price field reprices, as the button does; not while the figure is refused', async () => {
    const user = userEvent.setup();
    const bridge = installFakeBridge({
      bulkEditListings: ({ edits }) => ({
        results: edits.map((e) => ({ listingId: e.listingId, ok: true, error: null, explanation: null })),
      }),
    });
    renderWithTheme(<BulkRepriceDialog listings={[myListing(1), myListing(2, { price: 250 })]} onClose={() => {}} onSent={() => {}} />);
    const sent = () => bridge.calls.filter((c) => c.name === 'bulkEditListings').map((c) => c.input);
    const percent = screen.getByTestId('bulk-percent') as HTMLInputElement;
    await user.clear(percent);
    await user.type(percent, '-150{Enter}');
    expect(sent()).toEqual([]);
    await user.clear(percent);
    await user.type(percent, '-10{Enter}');
    await waitFor(() =>
      expect(sent()).toEqual([
        {
          edits: [
            { listingId: 1, price: 900, decay: null },
            { listingId: 2, price: 225, decay: null },
          ],
        },
      ]),
    );
  });
});

describe('ConfirmDialog: which fields Enter sends from', () => {
  /** A dialog that sends on Enter around `fields`; how many times it confirmed. */
  function renderEnterDialog(fields: ReactNode, blockedReason?: string) {
    const confirmed = { count: 0 };
    renderWithTheme(
      <ConfirmDialog
        opened
        onClose={() => {}}
        title="T"
        confirmLabel="Go"
        onConfirm={() => confirmed.count++}
        {...(blockedReason === undefined ? {} : { blockedReason })}
        running={false}
        error={null}
        enterSends
      >
        {fields}
      </ConfirmDialog>,
    );
    return confirmed;
  }

  it('a one-line field, but not a multi-line or a search field', async () => {
    const user = userEvent.setup();
    const confirmed = renderEnterDialog(
      <>
        <Textarea aria-label="Note" />
        <TextInput aria-label="Find" type="search" />
        <TextInput aria-label="Price" />
      </>,
    );
    await user.type(screen.getByLabelText('Note'), 'a{Enter}b');
    await user.type(screen.getByLabelText('Find'), 'x{Enter}');
    expect(confirmed.count).toBe(0);
    await user.type(screen.getByLabelText('Price'), '1{Enter}');
    expect(confirmed.count).toBe(1);
  });

  it('does nothing while the button is held back', async () => {
    const user = userEvent.setup();
    const confirmed = renderEnterDialog(<TextInput aria-label="Price" />, 'Enter a price.');
    await user.type(screen.getByLabelText('Price'), '{Enter}');
    expect(confirmed.count).toBe(0);
  });
});

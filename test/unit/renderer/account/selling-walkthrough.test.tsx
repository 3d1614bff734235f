// What a trader's walk-through of the selling dialogs found: a refused price said under a field in a
// narrow cell (three lines, the row and the table below it moving), and a footer asking "$0.00" when
// there was nothing to ask.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { SellDialog } from '../../../../src/renderer/screens/account/inventory/SellDialog.tsx';
import { BulkRepriceDialog } from '../../../../src/renderer/screens/account/listings/BulkDialogs.tsx';
import { backpackStack, installFakeBridge, myListing, renderWithTheme, skinRow } from './fake-bridge.tsx';

const NOT_AN_AMOUNT = 'Use a point for cents (12.50); a comma only separates thousands (1,250.00).';

const confirmButton = () => screen.getByTestId('confirm-button') as HTMLButtonElement;
const blockedReason = () => screen.getByTestId('blocked-reason').textContent;
/** The words a field is described by (its error element), or null while it is not refused. */
const fieldError = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id && input.getAttribute('aria-invalid') === 'true'
    ? (document.getElementById(id)?.textContent ?? null)
    : null;
};
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
    expect(fieldError(percent)).toBe('A cut can be at most 99 %.');
    expect(wordsTakeRoom(percent)).toBe(false);
    expect(blockedReason()).toBe('A cut can be at most 99 %.');

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

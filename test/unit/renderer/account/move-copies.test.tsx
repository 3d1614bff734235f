// The copies of a stack to deposit or withdraw, as typed: a figure above the stack stays on screen and is
// refused in words (it was put back at each key: "15" in a stack of 12 read "1", and 1 copy went), and
// Enter in the field sends, as in the sell and list dialogs.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { WithdrawDialog } from '../../../../src/renderer/screens/account/backpack/WithdrawDialog.tsx';
import { DepositDialog } from '../../../../src/renderer/screens/account/inventory/DepositDialog.tsx';
import { SellDialog } from '../../../../src/renderer/screens/account/inventory/SellDialog.tsx';
import { resetRendererState } from '../fake-app.ts';
import {
  backpackStack,
  blockedReason,
  confirmButton,
  installFakeBridge,
  renderWithTheme,
  skinRow,
} from './fake-bridge.tsx';

afterEach(() => resetRendererState());

describe('copies to move', () => {
  it('Deposit: 15 of a stack of 12 stays "15", refused beside the button; Enter sends the 12 typed after', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    installFakeBridge({
      depositItems: ({ items, dryRun }) => {
        if (!dryRun) sent.push(items);
        return { check: { ok: true, problems: [] }, depositIds: dryRun ? [] : [9] };
      },
    });
    const stack = { ...skinRow('7'), name: 'Sticker | Z', commodity: true, amount: 12 };
    renderWithTheme(<DepositDialog appId={730} rows={[stack]} onClose={() => {}} onSent={() => {}} />);
    const field = screen.getByRole('textbox', { name: 'Copies of Sticker | Z' }) as HTMLInputElement;
    await user.clear(field);
    await user.type(field, '15');
    expect(field.value).toBe('15');
    expect(confirmButton().disabled).toBe(true);
    expect(blockedReason()).toBe('Sticker | Z: The stack holds 12 copies: enter 0 to 12.');
    await user.clear(field);
    await user.type(field, '12');
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    await user.type(field, '{Enter}');
    await waitFor(() => expect(sent).toEqual([[{ assetId: '7', amount: 12 }]]));
  });

  it('Withdraw: the same refusal, and a header saying which figure is the copies', async () => {
    const user = userEvent.setup();
    installFakeBridge({ withdrawItems: () => ({ withdrawIds: [3] }) });
    renderWithTheme(<WithdrawDialog rows={[backpackStack(1)]} onClose={() => {}} onSent={() => {}} />);
    expect(screen.getByRole('columnheader', { name: 'Copies' })).toBeTruthy();
    const field = screen.getByRole('textbox', { name: 'Copies of Sticker | X' }) as HTMLInputElement;
    await user.clear(field);
    await user.type(field, '25');
    expect(field.value).toBe('25');
    expect(confirmButton().disabled).toBe(true);
    expect(blockedReason()).toBe('Sticker | X: The stack holds 10 copies: enter 0 to 10.');
  });
});

// A group's total prices the copies a send would take: a figure typed over its stack was priced as
// typed ("25" of a stack of 12 at $1.00 showed $30.00 with a stack of 5 beside it) until corrected.
describe('a sell group’s total', () => {
  it('leaves out a figure typed over its stack and says why beside it', async () => {
    const user = userEvent.setup();
    installFakeBridge({ sellItems: () => ({ check: { ok: true, problems: [] }, depositIds: [] }) });
    const stack = (assetId: string, amount: number) => ({ ...skinRow(assetId), name: 'Sticker | Z', commodity: true, amount, recommendedPrice: 100 });
    renderWithTheme(<SellDialog appId={730} rows={[stack('7', 12), stack('8', 5)]} onClose={() => {}} onSent={() => {}} />);
    // the figure in the group's last cell (the words beside it are their own element)
    const total = () => screen.getByTestId('sell-group').querySelectorAll('td')[4]!.querySelector('.sd-num')!.textContent;
    expect(total()).toBe('$17.00');
    expect(screen.queryByTestId('sell-group-uncounted')).toBeNull();
    const field = screen.getByRole('textbox', { name: 'Copies from stack 1 of group 1' });
    await user.clear(field);
    await user.type(field, '25');
    expect(total()).toBe('$5.00');
    expect(screen.getByTestId('sell-group-uncounted').textContent).toBe('The 25 typed for stack 1 are not counted: it holds 12 copies.');
    expect(confirmButton().disabled).toBe(true);
    await user.clear(field);
    await user.type(field, '10');
    expect(total()).toBe('$15.00');
    expect(screen.queryByTestId('sell-group-uncounted')).toBeNull();
  });

  it('of one stack counts nothing while its figure is over the stack', async () => {
    const user = userEvent.setup();
    installFakeBridge({ sellItems: () => ({ check: { ok: true, problems: [] }, depositIds: [] }) });
    renderWithTheme(<SellDialog appId={730} rows={[{ ...skinRow('7'), name: 'Sticker | Z', commodity: true, amount: 1, recommendedPrice: 100 }]} onClose={() => {}} onSent={() => {}} />);
    const field = screen.getByRole('textbox', { name: 'Copies from stack 1 of group 1' });
    await user.clear(field);
    await user.type(field, '3');
    expect(screen.getByTestId('sell-group').querySelectorAll('td')[4]!.querySelector('.sd-num')!.textContent).toBe('$0.00');
    expect(screen.getByTestId('sell-group-uncounted').textContent).toBe('The 3 typed are not counted: the stack holds 1 copy.');
  });
});

// The titles count copies, as the footers and the copies fields do, and only copies a send would take:
// "Withdraw 25 items" of a stack of 12 counted a figure typed over the stack, in another noun.
describe('a send dialog’s title', () => {
  const title = () => document.querySelector('.mantine-Modal-title')?.textContent;

  it('Deposit: counts the copies to send, and none typed over the stack', async () => {
    const user = userEvent.setup();
    installFakeBridge({ depositItems: () => ({ check: { ok: true, problems: [] }, depositIds: [] }) });
    const stack = { ...skinRow('7'), name: 'Sticker | Z', commodity: true, amount: 12 };
    renderWithTheme(<DepositDialog appId={730} rows={[stack, skinRow('8')]} onClose={() => {}} onSent={() => {}} />);
    expect(title()).toBe('Deposit 13 copies into the backpack');
    const field = screen.getByRole('textbox', { name: 'Copies of Sticker | Z' });
    await user.clear(field);
    await user.type(field, '25');
    expect(title()).toBe('Deposit items into the backpack');
    await user.clear(field);
    await user.type(field, '5');
    expect(title()).toBe('Deposit 6 copies into the backpack');
  });

  it('Withdraw: counts the copies to send, and names the item while its figure is over the stack', async () => {
    const user = userEvent.setup();
    installFakeBridge({ withdrawItems: () => ({ withdrawIds: [3] }) });
    renderWithTheme(<WithdrawDialog rows={[backpackStack(1)]} onClose={() => {}} onSent={() => {}} />);
    expect(title()).toBe('Withdraw 10 copies to the Steam inventory');
    const field = screen.getByRole('textbox', { name: 'Copies of Sticker | X' });
    await user.clear(field);
    await user.type(field, '25');
    expect(title()).toBe('Withdraw Sticker | X to the Steam inventory');
    await user.clear(field);
    await user.type(field, '1');
    expect(title()).toBe('Withdraw 1 copy to the Steam inventory');
  });

  it('Sell: the title and the footer count the same copies, none typed over a stack', async () => {
    const user = userEvent.setup();
    installFakeBridge({ sellItems: () => ({ check: { ok: true, problems: [] }, depositIds: [] }) });
    const stack = { ...skinRow('7'), name: 'Sticker | Z', commodity: true, amount: 12 };
    renderWithTheme(<SellDialog appId={730} rows={[stack]} onClose={() => {}} onSent={() => {}} />);
    const footer = () => screen.getByText(/in one trade offer for/).textContent;
    expect(title()).toBe('Sell 12 copies from the Counter-Strike 2 inventory');
    expect(footer()).toBe('1 group · 12 copies in one trade offer for Counter-Strike 2');
    const field = screen.getByRole('textbox', { name: 'Copies from stack 1 of group 1' });
    await user.clear(field);
    await user.type(field, '25');
    expect(title()).toBe('Sell Sticker | Z from the Counter-Strike 2 inventory');
    expect(footer()).toBe('1 group · Sticker | Z in one trade offer for Counter-Strike 2');
  });
});

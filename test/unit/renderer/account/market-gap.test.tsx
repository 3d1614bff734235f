// A price typed far from the market price (a decimal point slipped: $0.50 for a $5.00 skin, $12.00 for a
// $1.20 sticker) is said in the sell and list dialogs before anything is sent, without refusing it; the
// list dialog shows the market price beside the price, as the sell dialog does.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ListDialog } from '../../../../src/renderer/screens/account/backpack/ListDialog.tsx';
import { SellDialog } from '../../../../src/renderer/screens/account/inventory/SellDialog.tsx';
import { marketGap } from '../../../../src/renderer/screens/account/logic/market-gap.ts';
import { resetRendererState } from '../fake-app.ts';
import { backpackStack, confirmButton, installFakeBridge, renderWithTheme, skinRow } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

describe('marketGap', () => {
  it('says a price at half the market or less, or three times it or more; nothing near it or without a market price', () => {
    expect(marketGap(52, 5221)).toBe('99% below the market price of $52.21');
    expect(marketGap(250, 500)).toBe('50% below the market price of $5.00');
    expect(marketGap(251, 500)).toBeNull();
    expect(marketGap(1499, 500)).toBeNull();
    expect(marketGap(1500, 500)).toBe('3.0× the market price of $5.00');
    expect(marketGap(123_450, 5221)).toBe('24× the market price of $52.21');
    expect(marketGap(100, 0)).toBeNull();
    expect(marketGap(null, 500)).toBeNull();
  });
});

describe('the sell and list dialogs, before sending', () => {
  it('SellDialog: $0.50 for a $5.00 skin is said, and may still be sent', async () => {
    const user = userEvent.setup();
    installFakeBridge({
      sellItems: ({ dryRun }) => ({ check: { ok: true, problems: [] }, depositIds: dryRun ? [] : [41] }),
    });
    renderWithTheme(<SellDialog appId={730} rows={[skinRow()]} onClose={() => {}} onSent={() => {}} />);
    // the recommended price it starts at is near the market: nothing to say
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
    expect(screen.queryByTestId('market-gap')).toBeNull();
    const price = screen.getByTestId('sell-price');
    await user.clear(price);
    await user.type(price, '0.50');
    await waitFor(() =>
      expect(screen.getByTestId('market-gap').textContent).toContain(
        'Skin 1: $0.50 a copy is 90% below the market price of $5.00.',
      ),
    );
    await waitFor(() => expect(confirmButton().disabled).toBe(false));
  });

  it('ListDialog: shows the market price, and says $12.00 for a $1.20 sticker', async () => {
    const user = userEvent.setup();
    installFakeBridge({ listItems: () => ({ check: { ok: true, problems: [] }, listings: [] }) });
    renderWithTheme(<ListDialog rows={[backpackStack(1)]} onClose={() => {}} onSent={() => {}} />);
    const group = screen.getByTestId('list-group');
    expect(group.textContent).toContain('$1.20');
    expect(screen.queryByTestId('market-gap')).toBeNull();
    const price = screen.getByTestId('list-price');
    await user.clear(price);
    await user.type(price, '12');
    await waitFor(() =>
      expect(screen.getByTestId('market-gap').textContent).toContain(
        'Sticker | X: $12.00 a copy is 10× the market price of $1.20.',
      ),
    );
  });
});

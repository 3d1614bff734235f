// The dollar field every account form uses: what is shown is what is read.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CentsInput } from '../../../../src/renderer/screens/account/ui/CentsInput.tsx';
import { renderWithTheme } from './fake-bridge.tsx';

describe('CentsInput', () => {
  it('takes no minus sign: "-5" typed is $5.00 shown and 500 cents read, never "−$5.00" read as nothing', async () => {
    const user = userEvent.setup();
    const onCents = vi.fn();
    renderWithTheme(<CentsInput label="Price" cents={null} onCents={onCents} />);
    const input = screen.getByLabelText('Price') as HTMLInputElement;
    await user.type(input, '-5');
    expect(input.value).not.toContain('-');
    expect(onCents).toHaveBeenLastCalledWith(500);
    expect(onCents).not.toHaveBeenCalledWith(null);
  });
});

// The dollar field every account form uses: what is shown is what is read, as typed, and what is not an
// amount is said in words instead of being read as another price.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CentsInput } from '../../../../src/renderer/screens/account/ui/CentsInput.tsx';
import { renderWithTheme } from './fake-bridge.tsx';

function field(start: number | null = null) {
  const onCents = vi.fn();
  renderWithTheme(<CentsInput label="Price" cents={start} onCents={onCents} />);
  return { input: screen.getByLabelText('Price') as HTMLInputElement, onCents };
}

describe('CentsInput', () => {
  it.each([
    ['1,000', 100_000], // a thousand dollars, as the field itself writes it — not $1.00
    ['1,250.5', 125_050],
    ['.05', 5], // not $5.00
    ['.5', 50],
    ['12', 1_200],
    ['$7.25', 725],
  ])('reads "%s" as %i cents', async (typed, cents) => {
    const { input, onCents } = field();
    await userEvent.setup().type(input, typed);
    expect(onCents).toHaveBeenLastCalledWith(cents, null);
    expect(input.value).toBe(typed); // as typed while the cursor is in it
  });

  it.each([
    ['1,5', 'Use a point for cents (12.50); a comma only separates thousands (1,250.00).'],
    ['12,50', 'Use a point for cents (12.50); a comma only separates thousands (1,250.00).'],
    ['-5', 'An amount is never below zero.'],
    ['1.234', 'At most two decimals: dollars and cents.'],
    ['2e3', 'Not an amount: type dollars and cents, like 12.50.'],
  ])('reads "%s" as no amount, and says why', async (typed, words) => {
    const { input, onCents } = field();
    await userEvent.setup().type(input, typed);
    // the words go to the form too, for it to say them beside its button
    expect(onCents).toHaveBeenLastCalledWith(null, words);
    expect(screen.getByText(words)).toBeTruthy();
  });

  it('writes the amount out in full when the field is left, and selects it all when it comes back', async () => {
    const user = userEvent.setup();
    const { input } = field(808_71);
    expect(input.value).toBe('$808.71');
    await user.click(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 7]);
    await user.keyboard('1000.5');
    expect(input.value).toBe('1000.5');
    await user.tab();
    expect(input.value).toBe('$1,000.50');
  });

  it('shows an amount set from outside (a "match the lowest" button), but not the echo of what is typed', async () => {
    const user = userEvent.setup();
    function Form() {
      const [cents, setCents] = useState<number | null>(500);
      return (
        <>
          <CentsInput label="Price" cents={cents} onCents={setCents} />
          <button type="button" onClick={() => setCents(889)}>
            match
          </button>
        </>
      );
    }
    renderWithTheme(<Form />);
    const input = screen.getByLabelText('Price') as HTMLInputElement;
    await user.clear(input);
    await user.type(input, '4.5');
    expect(input.value).toBe('4.5');
    await user.click(screen.getByText('match'));
    expect(input.value).toBe('$8.89');
  });
});

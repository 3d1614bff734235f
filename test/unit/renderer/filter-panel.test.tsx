// The filter panel against changes made outside it: the name box's update (debounced in the toolbar)
// can land after a click in the panel that is not sent yet; the click must survive it.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FilterPanel } from '../../../src/renderer/screens/market/filters/FilterPanel.tsx';
import { SEED_PILLS_SHOWN } from '../../../src/renderer/screens/market/filters/seed-pills.tsx';
import { theme } from '../../../src/renderer/theme.ts';
import { floatFlag } from '../../../src/cli/mirror-output.ts';
import { MAX_ACCOUNT_CENTS } from '../../../src/shared/ipc/calls-account.ts';
import type { BookFilter } from '../../../src/shared/query.ts';

afterEach(cleanup);

/** The panel on an empty filter, with the spy that receives each filter it sends. */
function renderPanel() {
  const onChange = vi.fn<(filter: BookFilter) => void>();
  const user = userEvent.setup();
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <FilterPanel filter={{}} onChange={onChange} />
    </MantineProvider>,
  );
  return { onChange, user };
}

/**
 * Clicks a field until it has the focus: a field in an accordion section just opened is in its opening
 * transition, and a click then may land before it can take the focus (the keys would go nowhere).
 */
async function focusField(user: ReturnType<typeof userEvent.setup>, field: HTMLElement) {
  await waitFor(
    async () => {
      await user.click(field);
      expect(document.activeElement).toBe(field);
    },
    { timeout: 5000 },
  );
}

describe('filter panel', () => {
  it('keeps a value typed, still in its pause, when the name box updates the filter', async () => {
    const onChange = vi.fn<(filter: BookFilter) => void>();
    const panel = (filter: BookFilter) => (
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <FilterPanel filter={filter} onChange={onChange} />
      </MantineProvider>
    );
    const user = userEvent.setup();
    const { rerender } = render(panel({}));
    await user.click(screen.getByRole('button', { name: 'Pattern, fade, blue' }));
    await focusField(user, screen.getByLabelText('Paint index'));
    await user.keyboard('412');
    // the toolbar's name box lands its own change before the panel sent what was typed
    act(() => rerender(panel({ name: 'karambit | doppler' })));
    await user.click(screen.getByTestId('phase-p4'));
    expect((screen.getByLabelText('Paint index') as HTMLInputElement).value).toBe('412');
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith({
        name: 'karambit | doppler',
        paint_index: 412,
        phases: ['Phase 4'],
      }),
    );
  });

  it('names the games as the sales tape does ("Dota 2", not "Dota"), and picking one sends its app id', async () => {
    const { onChange, user } = renderPanel();
    const games = screen.getByRole('radiogroup', { name: 'Game' });
    const labels = within(games)
      .getAllByRole('radio')
      .map((radio) => document.querySelector(`label[for="${radio.id}"]`)?.textContent);
    expect(labels).toEqual(['All', 'CS2', 'Rust', 'Dota 2', 'TF2']);
    await user.click(within(games).getByLabelText('Dota 2'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ app_id: 570 }));
  });
});

describe('filter panel, when a change is applied', () => {
  // fake timers: a change that reaches onChange with no timer run was applied at once, without the pause
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('applies a click at once (wear, phase, StatTrak, game) and waits for the typing pause after a typed name', () => {
    const onChange = vi.fn<(filter: BookFilter) => void>();
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <FilterPanel filter={{}} onChange={onChange} />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByTestId('wear-MW'));
    expect(onChange).toHaveBeenLastCalledWith({ float: { min: 0.07, max: 0.15 } });
    fireEvent.click(screen.getByTestId('phase-p2'));
    expect(onChange).toHaveBeenLastCalledWith({ float: { min: 0.07, max: 0.15 }, phases: ['Phase 2'] });
    // in the closed "Pattern" section: mounted, out of sight
    fireEvent.click(within(screen.getByRole('radiogroup', { name: 'StatTrak', hidden: true })).getByRole('radio', { name: 'yes', hidden: true }));
    expect(onChange.mock.lastCall?.[0]).toMatchObject({ stattrak: true });
    fireEvent.click(screen.getByRole('radio', { name: 'CS2' }));
    expect(onChange.mock.lastCall?.[0]).toMatchObject({ app_id: 730 });
    const clicks = onChange.mock.calls.length;

    fireEvent.click(screen.getByTestId('add-sticker-filter'));
    fireEvent.change(screen.getByLabelText('Sticker name 1'), { target: { value: 'Crown' } });
    expect(onChange).toHaveBeenCalledTimes(clicks);
    act(() => vi.advanceTimersByTime(250));
    expect(onChange).toHaveBeenCalledTimes(clicks + 1);
    expect(onChange.mock.lastCall?.[0]).toMatchObject({ stickers: { all: [{ name: 'Crown' }] } });
  });
});

describe('filter panel, values the query engine cannot take', () => {
  it('shows an out-of-range value and sends nothing, instead of a filter the app refuses', async () => {
    const { onChange, user } = renderPanel();
    await user.type(screen.getByLabelText('Max float'), '5');
    expect((await screen.findByTestId('filter-problems')).textContent).toBe('Float: between 0 and 1');
    await new Promise((r) => setTimeout(r, 400));
    expect(onChange).not.toHaveBeenCalled();
    // a name field stops where the engine's names stop
    await user.click(screen.getByRole('button', { name: 'Item fields' }));
    const weapon = screen.getByLabelText('cs Weapon');
    await user.click(weapon);
    await user.paste('x'.repeat(205));
    expect((weapon as HTMLInputElement).value).toHaveLength(200);
  });
});

describe('filter panel, the per-game item fields', () => {
  it('say they match the whole value in any case, and send the value as typed', async () => {
    const { onChange, user } = renderPanel();
    await user.click(screen.getByRole('radio', { name: 'Dota 2' }));
    await user.click(screen.getByRole('button', { name: 'Item fields' }));
    const hero = screen.getByLabelText('dota Hero') as HTMLInputElement;
    expect(hero.placeholder).toBe('Hero (any case)');
    expect(screen.getByTestId('fields-help').textContent).toBe('Each field matches the whole value, in any case: “arcana” finds Arcana, “arc” does not.');
    await focusField(user, screen.getByLabelText('dota Rarity'));
    await user.keyboard('arcana');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ app_id: 570, fields: { dota_rarity: 'arcana' } }));
  });
});

describe('filter panel, a keychain pattern', () => {
  it('too large for the query engine is said under its field and not sent (the app refused the whole filter)', async () => {
    const { onChange, user } = renderPanel();
    await user.click(screen.getByRole('button', { name: 'Keychains' }));
    await user.click(await screen.findByRole('button', { name: 'Keychain' }));
    await focusField(user, screen.getByLabelText('Keychain pattern 1'));
    await user.keyboard('99999999999999999999');
    expect(await screen.findByText('Keychain pattern: too large')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Keychain pattern 1'));
    await user.keyboard('73');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ keychains: [{ pattern: 73 }] }));
  });
});

describe('filter panel, a range that cannot be sent', () => {
  it('says so under its own inputs, not at the top of the panel (out of sight of a field scrolled to)', async () => {
    const { onChange, user } = renderPanel();
    await user.click(screen.getByRole('button', { name: 'Pattern, fade, blue' }));
    await focusField(user, screen.getByLabelText('Min fade'));
    await user.keyboard('80');
    await focusField(user, screen.getByLabelText('Max fade'));
    await user.keyboard('20');
    const problem = await screen.findByTestId('filter-problems');
    expect(problem.textContent).toBe('Fade: min is above max');
    const after = (a: Node, b: Node) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    // between the fade inputs and the blue ones
    expect(after(screen.getByLabelText('Max fade'), problem)).toBe(true);
    expect(after(problem, screen.getByLabelText('Min blue'))).toBe(true);
    // and the sticker count's under the sticker count
    await focusField(user, screen.getByLabelText('Max sticker count'));
    await user.keyboard('9');
    const countProblem = (await screen.findAllByTestId('filter-problems')).find((el) => el.textContent?.startsWith('Sticker count'));
    expect(countProblem?.textContent).toBe('Sticker count: between 0 and 6');
    expect(after(screen.getByLabelText('Max sticker count'), countProblem!)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('filter panel, a price typed key by key', () => {
  it('keeps the decimal point: "12.50" is $12.50, not $0.50', async () => {
    const { onChange, user } = renderPanel();
    const min = screen.getByLabelText('Min price') as HTMLInputElement;
    await user.type(min, '12.50');
    expect(min.value).toBe('12.50');
    const max = screen.getByLabelText('Max price') as HTMLInputElement;
    await user.type(max, '20.05');
    expect(max.value).toBe('20.05');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ price: { min: 1250, max: 2005 } }));
  });

  it('never loses digits: a key that would pass the app’s ceiling ($100,000,000.00) is refused', async () => {
    const { onChange, user } = renderPanel();
    const max = screen.getByLabelText('Max price') as HTMLInputElement;
    await user.type(max, '99999999999999');
    expect(max.value).toBe('99999999');
    const min = screen.getByLabelText('Min price') as HTMLInputElement;
    await user.type(min, `${MAX_ACCOUNT_CENTS / 100}.01`); // the ceiling itself is taken, a cent more is not
    expect(min.value).toBe('100000000.0');
    await user.clear(min);
    await user.type(min, '5');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ price: { min: 500, max: 99_999_999_00 } }));
  });
});

describe('filter panel, a float typed key by key', () => {
  it('takes every decimal a low-float hunt needs, as typed, and sends what `skindesk search --float-max` would', async () => {
    const { onChange, user } = renderPanel();
    const max = screen.getByLabelText('Max float') as HTMLInputElement;
    await user.type(max, '0.0000005');
    expect(max.value).toBe('0.0000005');
    const min = screen.getByLabelText('Min float') as HTMLInputElement;
    await user.type(min, '0.00000012345678901');
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    // nothing rounded or rewritten under the trader's keys, after the filter went out or the field was left
    await user.tab();
    expect(min.value).toBe('0.00000012345678901');
    expect(max.value).toBe('0.0000005');
    expect(onChange).toHaveBeenLastCalledWith({ float: { min: floatFlag.parse('0.00000012345678901'), max: floatFlag.parse('0.0000005') } });
  });

  it('shows a preset\'s bounds, then keeps zeros typed after the point ("0.10" stays 0.10)', async () => {
    const { onChange, user } = renderPanel();
    const max = screen.getByLabelText('Max float') as HTMLInputElement;
    await user.click(screen.getByTestId('wear-FN'));
    await waitFor(() => expect(max.value).toBe('0.07'));
    await user.clear(max);
    await user.type(max, '0.10');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ float: { min: 0, max: 0.1 } }));
    expect(max.value).toBe('0.10');
  });
});

describe('filter panel, paint seeds typed or pasted', () => {
  /** On a busy machine a tags field answers slowly: the filter is sent a quarter second after the last edit. */
  const SLOW = { timeout: 5000 };

  async function openSeeds(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('button', { name: 'Pattern, fade, blue' }));
    const seeds = screen.getAllByLabelText('Paint seeds').find((el) => el.tagName === 'INPUT') as HTMLInputElement;
    await focusField(user, seeds);
    return seeds;
  }

  it('says what it left out: a negative seed is not dropped unsaid', async () => {
    const { onChange, user } = renderPanel();
    await openSeeds(user);
    await user.keyboard('661{Enter}');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: [661] }), SLOW);
    await user.keyboard('-5{Enter}');
    expect(await screen.findByText('Left out “-5”: a paint seed is a whole number from 0 to 1,000.', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: [661] }), SLOW);
    // the next seed typed takes the note's place
    await user.keyboard('5');
    expect(screen.queryByText('Left out “-5”: a paint seed is a whole number from 0 to 1,000.')).toBeNull();
  });

  it('splits a pasted column of seeds (new lines between them) and names what is not a seed', async () => {
    const { onChange, user } = renderPanel();
    await openSeeds(user);
    await user.paste('661\n555\r\n-3\n1.5\nabc\n6610\n1000\n');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: [661, 555, 1000] }), SLOW);
    // a seed past CS2's last (a digit too many) is named too: it would have matched nothing
    expect(screen.getByText('Left out “-3”, “1.5”, “abc” and 1 more: a paint seed is a whole number from 0 to 1,000.')).toBeTruthy();
  });

  it('a thousand seeds pasted: a few pills and a "+N more" that lists them all and clears them, the filter whole', async () => {
    const { onChange, user } = renderPanel();
    await openSeeds(user);
    const pasted = Array.from({ length: 1000 }, (_, i) => i);
    await user.paste(pasted.join('\n'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: pasted }), SLOW);
    const panel = screen.getByTestId('filter-panel');
    const pills = [...panel.querySelectorAll('.mantine-Pill-root')].map((pill) => pill.textContent);
    expect(pills).toEqual([...pasted.slice(0, SEED_PILLS_SHOWN).map(String), `+${1000 - SEED_PILLS_SHOWN} more`]);
    // the rest, seen on asking: every seed, as text
    await user.click(screen.getByRole('button', { name: `${1000 - SEED_PILLS_SHOWN} more paint seeds: show them all` }));
    const all = await screen.findByTestId('seeds-all', {}, SLOW);
    expect(all.textContent).toContain('1,000 paint seeds in the filter');
    expect(all.textContent).toContain(pasted.join(', '));
    // a shown pill removed takes only its seed
    await user.click(panel.querySelector('.mantine-Pill-root .mantine-Pill-remove') as HTMLElement);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: pasted.slice(1) }), SLOW);
    await user.click(screen.getByRole('button', { name: `${999 - SEED_PILLS_SHOWN} more paint seeds: show them all` }));
    await user.click(await screen.findByRole('button', { name: 'Clear all paint seeds' }, SLOW));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({}), SLOW);
    expect(panel.querySelectorAll('.mantine-Pill-root')).toHaveLength(0);
  });

  it('refuses, in words, a paste that would take the filter past the 1,000 seeds the app takes', async () => {
    const { onChange, user } = renderPanel();
    await openSeeds(user);
    await user.keyboard('7{Enter}');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: [7] }), SLOW);
    // every seed there is, 0 to 1000
    await user.paste(Array.from({ length: 1_001 }, (_, i) => i).join(', '));
    expect(await screen.findByText('A filter takes up to 1,000 paint seeds; these would make 1,001, so none were added.', {}, SLOW)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(onChange).toHaveBeenLastCalledWith({ paint_seeds: [7] });
    expect(onChange.mock.calls.every(([filter]) => (filter.paint_seeds?.length ?? 0) <= 1000)).toBe(true);
  });
});

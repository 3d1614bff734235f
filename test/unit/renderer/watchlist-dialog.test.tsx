// The watchlist dialog saves the filter its panel shows: a filter the panel holds back (a min above its
// max) keeps Save off and is named, instead of the last filter the panel sent being saved silently.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchlistDialog } from '../../../src/renderer/screens/watchlists/WatchlistDialog.tsx';
import { theme } from '../../../src/renderer/theme.ts';
import type { Guardrails, Watchlist } from '../../../src/shared/watchlist.ts';
import { installFakeApp, resetRendererState } from './fake-app.ts';

afterEach(() => {
  cleanup();
  resetRendererState();
});

const saved: Watchlist = {
  id: 1,
  name: 'Cheap',
  filter: { price: { min: 500 } },
  price: { kind: 'ceiling', max_price: 1_000 },
  paused: false,
  alerts: { notify: true, sound: false, webhook: null },
  auto_buy: { mode: 'off' },
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
};

/** The dialog editing the saved watchlist. */
function renderDialog() {
  return render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <WatchlistDialog watchlist={saved} onClose={() => undefined} onSaved={() => undefined} />
    </MantineProvider>,
  );
}

describe('watchlist dialog', () => {
  it('does not save while its filter panel holds back a filter it shows as wrong', async () => {
    const update = vi.fn(() => saved);
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    renderDialog();
    await user.type(await screen.findByLabelText('Max price'), '1');
    expect((await screen.findByTestId('filter-problems')).textContent).toBe('Price: min is above max');
    await new Promise((r) => setTimeout(r, 400));
    await waitFor(() => expect(screen.getByTestId('watchlist-save').hasAttribute('disabled')).toBe(true));
    expect(screen.getByTestId('watchlist-issues').textContent).toContain('Price: min is above max');
    await user.click(screen.getByTestId('watchlist-save'));
    expect(update).not.toHaveBeenCalled();
  });
});

// The panel sends its filter only after a pause in typing: a Save clicked within it saved the previous one.
describe('watchlist dialog, saved at once', () => {
  it('saves the filter typed just before Save, not the one before it', async () => {
    const update = vi.fn((input: unknown) => ({ ...saved, ...(input as object) }));
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    renderDialog();
    await user.type(await screen.findByLabelText('Max price'), '20');
    await user.click(screen.getByTestId('watchlist-save'));
    await waitFor(() => expect(update).toHaveBeenCalled());
    expect(JSON.stringify(update.mock.calls[0])).toContain('"max":2000');
  });
});

// A new watchlist opens without a name: that is said quietly (beside Save, then at the field once its
// text was changed), never as an alert before anything was typed. Leaving the field says nothing new: the
// line it added under Name once pushed the form down between the press and the release of the click that
// left it, so the first click below Name ("At most", a switch) was lost.
/** The dialog as New opens it: no watchlist yet. */
function renderNewDialog() {
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <WatchlistDialog watchlist={null} onClose={() => undefined} onSaved={() => undefined} />
    </MantineProvider>,
  );
}

describe('watchlist dialog, new', () => {
  it('asks for a name without an alert, beside Save, and at the field once its text was changed', async () => {
    const create = vi.fn();
    installFakeApp({ createWatchlist: create });
    const user = userEvent.setup();
    renderNewDialog();
    const name = await screen.findByTestId('watchlist-name');
    expect(screen.queryByTestId('watchlist-issues')).toBeNull();
    expect(screen.getByTestId('watchlist-unnamed').textContent).toBe('Name the watchlist to save it.');
    expect(screen.getByTestId('watchlist-save').hasAttribute('disabled')).toBe(true);
    expect(screen.queryByText('Give the watchlist a name.')).toBeNull();
    await user.type(name, 'C');
    await user.clear(name);
    expect(screen.getByText('Give the watchlist a name.')).toBeTruthy();
    expect(screen.queryByTestId('watchlist-unnamed')).toBeNull();
    await user.type(name, 'Cheap knives');
    expect(screen.queryByText('Give the watchlist a name.')).toBeNull();
    expect(screen.getByTestId('watchlist-save').hasAttribute('disabled')).toBe(false);
  });

  it('leaving the empty name for a control below it adds no line above that control: the first click lands', async () => {
    installFakeApp({});
    const user = userEvent.setup();
    renderNewDialog();
    const name = await screen.findByTestId('watchlist-name');
    await waitFor(() => expect(document.activeElement).toBe(name));
    const atMost = screen.getByText('At most');
    // the press takes the focus from Name; the release comes after: nothing may move in between
    await user.pointer({ keys: '[MouseLeft>]', target: atMost });
    expect(document.activeElement).not.toBe(name);
    expect(screen.queryByText('Give the watchlist a name.')).toBeNull();
    expect(name.getAttribute('aria-invalid')).not.toBe('true');
    await user.pointer({ keys: '[/MouseLeft]', target: atMost });
    expect(await screen.findByTestId('price-ceiling')).toBeTruthy();
    expect(screen.getByTestId('watchlist-unnamed').textContent).toBe('Name the watchlist to save it.');
  });
});

// The book's name search sits outside its filter panel, so the dialog has a field of its own for it: a
// watchlist made from a name search shows that name, and it can be changed or cleared.
describe('watchlist dialog, the item name', () => {
  it('shows the name the watchlist filters on, and saves it changed, or cleared', async () => {
    const update = vi.fn((input: unknown) => ({ ...saved, ...(input as object) }));
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <WatchlistDialog watchlist={{ ...saved, filter: { name: 'Redline', price: { min: 500 } } }} onClose={() => undefined} onSaved={() => undefined} />
      </MantineProvider>,
    );
    const name = (await screen.findByTestId('watchlist-item-name')) as HTMLInputElement;
    expect(name.value).toBe('Redline');
    await user.clear(name);
    await user.type(name, 'Vulcan');
    await user.click(screen.getByTestId('watchlist-save'));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect((update.mock.calls[0]![0] as { watchlist: { filter: unknown } }).watchlist.filter).toEqual({ name: 'Vulcan', price: { min: 500 } });
    await user.clear(name);
    await user.click(screen.getByTestId('watchlist-save'));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(2));
    expect((update.mock.calls[1]![0] as { watchlist: { filter: unknown } }).watchlist.filter).toEqual({ price: { min: 500 } });
  });
});

// "Percent below" out of range stays as typed and is named: Mantine's default put 150 back to 99.99 on
// leaving the field, a condition the trader never typed.
describe('watchlist dialog, percent below', () => {
  it('keeps 150 as typed, names it, and does not save', async () => {
    const update = vi.fn(() => saved);
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    renderDialog();
    await user.click(await screen.findByText('% below a reference'));
    const percent = await screen.findByLabelText('Percent below');
    await user.clear(percent);
    await user.type(percent, '150');
    await user.tab();
    expect((percent as HTMLInputElement).value).toBe('150 %');
    expect(screen.getByTestId('watchlist-issues').textContent).toContain('Percent below: must be below 100.');
    expect(screen.getByTestId('watchlist-save').hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('watchlist-save'));
    expect(update).not.toHaveBeenCalled();
  });
});

// A money guardrail whose text is not an amount ("1.000", "10,5") or is emptied became $0.00 in the draft:
// for "Minimum balance left", where $0.00 is allowed, Save stayed on and saved "no minimum" without a word.
describe('watchlist dialog, a money guardrail that is not an amount', () => {
  const guarded = {
    ...saved,
    auto_buy: {
      mode: 'auto',
      copies: 1,
      guardrails: { max_price: 5_000, total_budget: 20_000, daily_cap: 10_000, max_per_hour: 3, min_balance: 0 },
    },
  } satisfies Watchlist;
  const renderGuarded = (guardrails: Guardrails) =>
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <WatchlistDialog watchlist={{ ...guarded, auto_buy: { ...guarded.auto_buy, guardrails } }} onClose={() => undefined} onSaved={() => undefined} />
      </MantineProvider>,
    );

  it('keeps Save off and saves nothing while Minimum balance left is not an amount, and saves it once it reads', async () => {
    const update = vi.fn((input: unknown) => ({ ...guarded, ...(input as object) }));
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    renderGuarded({ ...guarded.auto_buy.guardrails, min_balance: 10_000 });
    const minBalance = (await screen.findByTestId('rail-min_balance')) as HTMLInputElement;
    const save = screen.getByTestId('watchlist-save');
    for (const [typed, words] of [
      ['1.000', 'Minimum balance left: At most two decimals: dollars and cents.'],
      ['10,5', 'Minimum balance left: Use a point for cents (12.50); a comma only separates thousands (1,250.00).'],
      ['', 'Minimum balance left: Type an amount ($0.00 for no minimum).'],
    ] as const) {
      await user.clear(minBalance);
      if (typed !== '') await user.type(minBalance, typed);
      expect(minBalance.value).toBe(typed);
      expect(save.hasAttribute('disabled')).toBe(true);
      expect(screen.getByTestId('watchlist-issues').textContent).toContain(words);
      await user.click(save);
      expect(update).not.toHaveBeenCalled();
    }
    await user.type(minBalance, '1,000');
    expect(screen.queryByTestId('watchlist-issues')).toBeNull();
    await user.click(save);
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    const sent = update.mock.calls[0]![0] as { watchlist: { auto_buy: { guardrails: { min_balance: number } } } };
    expect(sent.watchlist.auto_buy.guardrails.min_balance).toBe(100_000);
  });

  it('shows no minimum as $0.00: a choice made, not an empty field', async () => {
    installFakeApp({});
    renderGuarded(guarded.auto_buy.guardrails);
    expect(((await screen.findByTestId('rail-min_balance')) as HTMLInputElement).value).toBe('$0.00');
    expect(screen.getByTestId('watchlist-save').hasAttribute('disabled')).toBe(false);
  });

  it('keeps Save off while another money guardrail is unreadable', async () => {
    const update = vi.fn(() => guarded);
    installFakeApp({ updateWatchlist: update });
    const user = userEvent.setup();
    renderGuarded(guarded.auto_buy.guardrails);
    const budget = await screen.findByTestId('rail-total_budget');
    await user.clear(budget);
    await user.type(budget, '200.000');
    expect(screen.getByTestId('watchlist-issues').textContent).toContain('Total budget: At most two decimals: dollars and cents.');
    expect(screen.getByTestId('watchlist-save').hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('watchlist-save'));
    expect(update).not.toHaveBeenCalled();
  });
});

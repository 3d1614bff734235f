// W (or Watch) turns the book's filter into a watchlist at once; with no filter it would alert on every
// new listing of the market, so it asks for a filter instead.
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchFilterButton } from '../../../src/renderer/screens/watchlists/WatchFilterButton.tsx';
import { theme } from '../../../src/renderer/theme.ts';
import { installFakeApp } from './fake-app.ts';

afterEach(() => vi.restoreAllMocks());

function renderButton(filter: Parameters<typeof WatchFilterButton>[0]['filter']) {
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <WatchFilterButton filter={filter} />
    </MantineProvider>,
  );
}

describe('Watch this filter', () => {
  it('with no filter set, saves nothing and says to set one', async () => {
    const create = vi.fn();
    installFakeApp({ createWatchlist: create });
    const shown = vi.spyOn(notifications, 'show');
    renderButton({ name: '  ' });
    await userEvent.setup().click(screen.getByTestId('watch-filter'));
    expect(create).not.toHaveBeenCalled();
    expect(shown).toHaveBeenCalledWith(expect.objectContaining({ title: 'Set a filter first' }));
  });

  it('with only a game chosen (CS2 is most of the market), saves nothing and says to narrow it', async () => {
    const create = vi.fn();
    installFakeApp({ createWatchlist: create });
    const shown = vi.spyOn(notifications, 'show');
    renderButton({ app_id: 730 });
    await userEvent.setup().click(screen.getByTestId('watch-filter'));
    expect(create).not.toHaveBeenCalled();
    expect(shown).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Set a filter first', message: expect.stringMatching(/^A watchlist of the whole game's book would alert on every new listing/) }),
    );
  });

  it('with a filter, saves it as a watchlist', async () => {
    const create = vi.fn(() => ({ name: 'AK-47' }) as never);
    installFakeApp({ createWatchlist: create });
    renderButton({ name: 'AK-47' });
    await userEvent.setup().click(screen.getByTestId('watch-filter'));
    await waitFor(() => expect(create).toHaveBeenCalledWith({ filter: { name: 'AK-47' } }));
  });
});

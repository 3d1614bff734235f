// The watchlists screen as its tests mount it: themed, with the book live (the screen's Buy waits for it).
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { WatchlistsScreen } from '../../../src/renderer/screens/watchlists/WatchlistsScreen.tsx';
import { syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { theme } from '../../../src/renderer/theme.ts';
import { status } from './fake-app.ts';

export function renderWatchlistsScreen(): void {
  syncStatusStore.set(status());
  render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <WatchlistsScreen />
    </MantineProvider>,
  );
}

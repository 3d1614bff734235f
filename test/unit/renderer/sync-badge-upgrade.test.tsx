// While the sync upgrades the book file (seconds on a large book, once after an update), the badge says
// so rather than a bare "opening"; its tooltip has the whole sentence.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SyncBadge } from '../../../src/renderer/shell/StatusBar.tsx';
import { syncStatusStore } from '../../../src/renderer/shell/app-state.ts';
import { resetRendererState, status } from './fake-app.ts';

beforeEach(() => resetRendererState());
afterEach(() => cleanup());

function badge(): string | null {
  render(
    <MantineProvider forceColorScheme="dark">
      <SyncBadge />
    </MantineProvider>,
  );
  return screen.getByTestId('sync-badge').textContent;
}

it('says the book file is being upgraded while the sync does it', () => {
  const problem = 'Upgrading the book file: rebuilding the indexes of the item fields (a few seconds for a large book). Once, after an update; the book shows as it was meanwhile.';
  act(() => syncStatusStore.set(status({ state: 'opening', problem })));
  expect(badge()).toBe('upgrading the book file');
});

it('says opening when the file opens with nothing to upgrade', () => {
  act(() => syncStatusStore.set(status({ state: 'opening', problem: null })));
  expect(badge()).toBe('opening');
});

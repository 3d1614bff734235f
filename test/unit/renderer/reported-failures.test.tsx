// Failures with no form to show them in (a switch, a background load) reach the trader as a toast in
// plain words: the kill switch above all, which must never look engaged when the app refused it.
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PresetMenu } from '../../../src/renderer/screens/market/filters/PresetMenu.tsx';
import { AutoBuyKillSwitch } from '../../../src/renderer/screens/watchlists/AutoBuyKillSwitch.tsx';
import type { BookView, FilterPreset } from '../../../src/shared/ipc/calls-market.ts';
import { SkindeskError } from '../../../src/shared/ipc/index.ts';
import { installFakeApp, resetRendererState } from './fake-app.ts';

function renderKillSwitch() {
  return render(
    <MantineProvider forceColorScheme="dark">
      <Notifications />
      <AutoBuyKillSwitch />
    </MantineProvider>,
  );
}

/** The kill switch over an app that refuses to change it. */
async function renderRefusingKillSwitch(): Promise<HTMLElement> {
  installFakeApp({
    getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    listWatchAlerts: () => ({ alerts: [] }),
    setAutoBuyKillSwitch: () => {
      throw new SkindeskError({ code: 'INTERNAL', message: 'The settings file could not be written.' });
    },
  });
  renderKillSwitch();
  return screen.findByTestId('kill-switch');
}

beforeEach(() => resetRendererState());
afterEach(() => {
  cleanup();
  act(() => notifications.clean());
});

describe('failures without a form', () => {
  it('says so when the kill switch does not engage, and leaves it shown as released', async () => {
    const button = await renderRefusingKillSwitch();
    await userEvent.click(button);
    expect(await screen.findByText('The kill switch did not engage')).toBeTruthy();
    expect(screen.getByText('The settings file could not be written.')).toBeTruthy();
    expect(button.getAttribute('data-engaged')).toBe('false');
  });

  it('reports a background load that failed instead of waiting on it forever', async () => {
    installFakeApp({
      getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
      // listWatchAlerts is not answered: the fake app refuses it as UNAVAILABLE
    });
    renderKillSwitch();
    expect(await screen.findByText('The watchlist alerts could not be read')).toBeTruthy();
    expect(screen.getByText('listWatchAlerts is not part of this test')).toBeTruthy();
  });

  it('shows a failure that repeats while its toast is up only once', async () => {
    const button = await renderRefusingKillSwitch();
    await userEvent.click(button);
    await userEvent.click(button);
    await screen.findByText('The kill switch did not engage');
    await waitFor(() => expect(screen.getAllByText('The kill switch did not engage')).toHaveLength(1));
  });

  it('says so when a preset could not be deleted, and keeps it listed', async () => {
    installFakeApp({
      deleteFilterPreset: () => {
        throw new SkindeskError({ code: 'INTERNAL', message: 'The presets file could not be written.' });
      },
    });
    const view: BookView = { filter: {}, sort: { field: 'price', dir: 'asc' } };
    let presets: FilterPreset[] = [{ name: 'cheap knives', view }];
    render(
      <MantineProvider forceColorScheme="dark">
        <Notifications />
        <PresetMenu presets={presets} current={view} onLoad={() => {}} onPresets={(next) => (presets = [...next])} saveOpened={false} onSaveOpened={() => {}} />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByTestId('presets-button'));
    await userEvent.click(await screen.findByLabelText('Delete preset cheap knives'));
    expect(await screen.findByText('The preset “cheap knives” was not deleted')).toBeTruthy();
    expect(screen.getByText('The presets file could not be written.')).toBeTruthy();
    expect(presets.map((p) => p.name)).toEqual(['cheap knives']);
  });
});

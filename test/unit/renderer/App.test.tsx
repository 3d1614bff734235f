import { notifications } from '@mantine/notifications';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/renderer/App.tsx';
import { type IpcPushPayload, KEYCHAIN_NOTICE_TOPIC, type Notification } from '../../../src/shared/ipc/index.ts';
import { type FakeHandlers, installFakeApp, NOW, resetRendererState, status } from './fake-app.ts';

describe('App shell', () => {
  it('shows the Skindesk header in the dark color scheme', () => {
    render(<App />);
    const heading = screen.getByRole('heading', { level: 1, name: 'Skindesk' });
    expect(heading.closest('header')).not.toBeNull();
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
  });
});

describe('App notifications', () => {
  beforeEach(() => resetRendererState());
  afterEach(() => {
    cleanup();
    act(() => notifications.clean());
  });

  const damagedSettings: Notification = {
    id: 'n-settings',
    level: 'warning',
    title: 'Settings',
    message: 'The settings file settings.json was damaged (it is not valid JSON); defaults are used.',
    at: NOW,
  };

  // what the status bar reads, so that no failure of its own takes a toast's place
  const statusBar: FakeHandlers = {
    getStatus: () => status(),
    getBackfillProgress: () => ({ state: 'done', detailed: 3, total: 3, problem: null, etaMs: null }),
    getRateLimits: () => ({ endpoints: [], rateLimited: 0, queued: 0 }),
    getBalance: () => ({ balance: 50_000, userName: 'trader', asOf: NOW, problem: null }),
    getAutoBuyState: () => ({ killSwitch: false, live: true, log: [] }),
    listWatchAlerts: () => ({ alerts: [] }),
  };

  it('shows what went wrong while the app started, before the window could listen, once', async () => {
    const app = installFakeApp({
      ...statusBar,
      takeStartupNotifications: () => ({ notifications: [damagedSettings] }),
    });
    render(<App />);
    expect(
      await screen.findByText('The settings file settings.json was damaged (it is not valid JSON); defaults are used.'),
    ).toBeTruthy();
    // the same notice arriving as a push too (published while the window subscribed) shows once
    act(() => app.push('notification', damagedSettings));
    act(() =>
      app.push('notification', {
        ...damagedSettings,
        id: 'n-later',
        title: 'Later',
        message: 'a later notice',
      }),
    );
    expect(await screen.findByText('a later notice')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText(/settings\.json was damaged/)).toHaveLength(1));
    expect(app.calls.filter((c) => c.name === 'takeStartupNotifications')).toHaveLength(1);
  });

  it("shows a trade's statuses as one toast that changes, not a stack of them", async () => {
    const app = installFakeApp({ ...statusBar, takeStartupNotifications: () => ({ notifications: [] }) });
    render(<App />);
    const trade = (id: string, status: string): Notification => ({ id, level: 'info', title: `Deposit #7: ${status}`, message: `status ${status}`, at: NOW, topic: 'trade:7' });
    act(() => app.push('notification', trade('a', 'Needs confirmation')));
    expect(await screen.findByText('Deposit #7: Needs confirmation')).toBeTruthy();
    act(() => app.push('notification', trade('b', 'Active')));
    act(() => app.push('notification', { ...damagedSettings, id: 'other', title: 'Another matter', message: 'unrelated' }));
    act(() => app.push('notification', trade('c', 'Accepted')));
    expect(await screen.findByText('Deposit #7: Accepted')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Deposit #7: Needs confirmation')).toBeNull());
    expect(screen.queryByText('Deposit #7: Active')).toBeNull();
    // another topic, or none, is a toast of its own
    expect(screen.getByText('Another matter')).toBeTruthy();
  });

  it('closes the start-up keychain notice, with its "restart Skindesk" advice, once the keychain works again', async () => {
    const problem = 'Could not read the API key in the system keychain: it is locked. Unlock it, then restart Skindesk.';
    const keychain: Notification = { id: 'n-keychain', level: 'warning', title: 'Keychain', message: problem, at: NOW, topic: KEYCHAIN_NOTICE_TOPIC };
    const app = installFakeApp({ ...statusBar, takeStartupNotifications: () => ({ notifications: [damagedSettings, keychain] }) });
    render(<App />);
    expect(await screen.findByText(problem)).toBeTruthy();
    const settings = (storageProblem: string | null): IpcPushPayload<'settingsChanged'> => ({
      market: { useDemo: false, baseUrl: null },
      apiKey: { set: true, last4: '0001' },
      webhookSecret: { set: true, last4: '0002' },
      secretStorage: { kind: 'keyring', problem: storageProblem },
    });
    // settings changed while the keychain still cannot be read: the advice still holds
    act(() => app.push('settingsChanged', settings(problem)));
    expect(screen.getByText(problem)).toBeTruthy();

    // a secret saved: the keychain works, and no restart is needed
    act(() => app.push('settingsChanged', settings(null)));
    await waitFor(() => expect(screen.queryByText(problem)).toBeNull());
    // another matter's notice stays
    expect(screen.getByText(/settings\.json was damaged/)).toBeTruthy();
  });
});

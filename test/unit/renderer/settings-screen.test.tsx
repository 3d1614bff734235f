// The Settings screen says where a pasted API key goes as its own Secrets section says it: the OS keychain
// in the app, memory only where there is none (the browser host), never the keychain when it is not.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsScreen } from '../../../src/renderer/screens/settings/SettingsScreen.tsx';
import type { IpcOutput } from '../../../src/shared/ipc/index.ts';
import { installFakeBridge, renderWithTheme } from './account/fake-bridge.tsx';

afterEach(() => cleanup());

function settings(kind: 'keyring' | 'memory'): IpcOutput<'getSettings'> {
  return {
    market: { useDemo: false, baseUrl: null },
    apiKey: { set: false, last4: null },
    webhookSecret: { set: false, last4: null },
    secretStorage: { kind, problem: null },
  };
}

describe('SettingsScreen: where the API key is kept', () => {
  it('names the OS keychain when the secrets are kept there', async () => {
    installFakeBridge({ getSettings: () => settings('keyring') });
    renderWithTheme(<SettingsScreen />);
    expect((await screen.findByTestId('secret-storage')).textContent).toContain('the OS keychain');
    expect(screen.getByText('Kept in the OS keychain, sent only to this URL')).toBeTruthy();
  });

  it('does not promise the keychain when the secrets are kept in memory', async () => {
    installFakeBridge({ getSettings: () => settings('memory') });
    renderWithTheme(<SettingsScreen />);
    expect((await screen.findByTestId('secret-storage')).textContent).toContain('memory only');
    expect(screen.getByText('Kept in memory until the app closes, sent only to this URL')).toBeTruthy();
    expect(screen.queryByText(/OS keychain/)).toBeNull();
  });

  it('says the removed key is forgotten, not deleted from a keychain it never was in', async () => {
    installFakeBridge({ getSettings: () => ({ ...settings('memory'), apiKey: { set: true, last4: 'abcd' } }) });
    renderWithTheme(<SettingsScreen />);
    fireEvent.click(await screen.findByTestId('settings-remove-key'));
    expect(await screen.findByText(/The key is forgotten/)).toBeTruthy();
    expect(screen.queryByText(/OS keychain/)).toBeNull();
  });

  it('says the removed key is deleted from the OS keychain when it is kept there', async () => {
    installFakeBridge({ getSettings: () => ({ ...settings('keyring'), apiKey: { set: true, last4: 'abcd' } }) });
    renderWithTheme(<SettingsScreen />);
    fireEvent.click(await screen.findByTestId('settings-remove-key'));
    expect(await screen.findByText(/The key is deleted from the OS keychain/)).toBeTruthy();
  });
});

describe('SettingsScreen: why the marketplace is not followed', () => {
  it('says why the connection stopped, where the key is changed, not only in a tooltip of the status bar', async () => {
    const refused = 'The marketplace refused the API key (WebSocket closed with 4401). Check the key; sync stopped.';
    installFakeBridge({
      getSettings: () => ({ ...settings('keyring'), market: { useDemo: false, baseUrl: 'https://market.example' }, apiKey: { set: true, last4: 'abcd' } }),
      getStatus: () => ({
        market: { mode: 'real', baseUrl: 'https://market.example', demoReason: null },
        state: 'stopped',
        since: '2026-01-02T10:00:00.000Z',
        lastSeq: null,
        bookAsOf: null,
        rows: 0,
        eventsPerSecond: 0,
        problem: refused,
        bookRead: null,
      }),
    });
    renderWithTheme(<SettingsScreen />);
    expect((await screen.findByTestId('settings-connection-problem')).textContent).toBe(refused);
  });
});

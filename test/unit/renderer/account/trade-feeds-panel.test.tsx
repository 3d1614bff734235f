// The trade feeds drawer's polling line: one failed poll and a run of them for an hour call for different
// things, so the line says since when polls have been failing, and keeps up with each poll as it happens.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TradeFeedsPanel } from '../../../../src/renderer/screens/account/trades/TradeFeedsPanel.tsx';
import type { IpcOutput } from '../../../../src/shared/ipc/index.ts';
import { installFakeBridge, renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000 - 5_000).toISOString();

describe('TradeFeedsPanel polling line', () => {
  it('says for how long polls have been failing, and drops it after the next good poll', async () => {
    let poller: IpcOutput<'getTradeFeeds'>['poller'] = {
      running: true,
      lastPollAt: minutesAgo(10),
      nextPollAt: null,
      lastError: 'The marketplace is failing on its side (a server error).',
      failingSince: minutesAgo(4),
    };
    const bridge = installFakeBridge({
      getTradeFeeds: () => ({
        settings: {
          notifyOnStatusChange: true,
          webhook: { enabled: false, port: 8931, headerPrefix: 'X-Service-' },
        },
        secretSet: false,
        receiver: { state: 'off', localUrl: null, problem: null, accepted: 0, rejected: 0 },
        poller,
        demo: false,
      }),
    });
    renderWithTheme(<TradeFeedsPanel />);
    const line = await screen.findByTestId('poller-state');
    expect(line.textContent).toBe(
      'running · last poll 10m ago · failing for 4m · last error: the marketplace is failing on its side (a server error)',
    );

    poller = { ...poller, lastPollAt: new Date().toISOString(), lastError: null, failingSince: null };
    bridge.push('tradePollChanged', poller);
    await waitFor(() =>
      expect(screen.getByTestId('poller-state').textContent).toBe('running · last poll 0s ago'),
    );
  });
});

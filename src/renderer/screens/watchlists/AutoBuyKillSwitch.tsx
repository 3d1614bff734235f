/**
 * The auto-buy kill switch for the status bar, self-contained: its state from the app, one click or
 * Ctrl+Shift+K (from any screen) stops every automatic and confirm-first purchase at once, and again
 * releases it. Beside it, the count of new watchlist alerts (a click opens the watchlists), which is
 * also where the alert sound plays, since the status bar is always on screen.
 */
import { Badge, Group, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBell, IconHandStop, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { type Command, hotkeyLabel, useRegisterCommands } from '../../shell/commands.ts';
import { useLive } from '../../shell/app-state.ts';
import { navigate } from '../../shell/navigation.ts';
import { playAlertSound } from './alert-sound.ts';
import { alertFeedStore, autoBuyStore, onNewAlerts, setKillSwitch } from './watch-stores.ts';

export const KILL_SWITCH_HOTKEY = 'mod+shift+k';

export function AutoBuyKillSwitch() {
  const state = useLive(autoBuyStore);
  const feed = useLive(alertFeedStore);
  const engaged = state?.killSwitch ?? false;

  useEffect(
    () =>
      onNewAlerts((alerts) => {
        if (alerts.some((a) => a.sound && a.origin === 'event')) playAlertSound();
      }),
    [],
  );

  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'autobuy.kill',
        label: engaged ? 'Release the auto-buy kill switch' : 'Engage the auto-buy kill switch (stop all auto-buying)',
        group: 'Watchlists',
        hotkey: KILL_SWITCH_HOTKEY,
        keywords: ['panic', 'stop', 'kill', 'auto-buy'],
        inDialogs: true,
        run: () => void setKillSwitch(!engaged),
      },
    ],
    [engaged],
  );
  useRegisterCommands(commands);

  const keys = hotkeyLabel(KILL_SWITCH_HOTKEY).join('+');
  return (
    <Group gap={6} wrap="nowrap">
      {feed.unseen > 0 && (
        <Tooltip label="New watchlist alerts — open the watchlists">
          <UnstyledButton onClick={() => navigate('watchlists')} data-testid="alerts-indicator" aria-label={`${feed.unseen} new watchlist alerts`}>
            <Badge color="yellow" variant="light" radius="sm" leftSection={<IconBell size={11} />} className="sd-num">
              {feed.unseen}
            </Badge>
          </UnstyledButton>
        </Tooltip>
      )}
      <Tooltip
        label={
          engaged
            ? `Automation is stopped: no watchlist buys and no undercut guard reprices until you release it (${keys}).`
            : `Stop all auto-buying and every undercut guard at once (${keys}). Purchases already sent cannot be called back.`
        }
        multiline
        maw={320}
      >
        <UnstyledButton
          onClick={() => void setKillSwitch(!engaged)}
          data-testid="kill-switch"
          data-engaged={engaged}
          aria-pressed={engaged}
          aria-label={engaged ? 'Release the auto-buy kill switch' : 'Engage the auto-buy kill switch'}
        >
          <Badge
            color={engaged ? 'red' : 'gray'}
            variant={engaged ? 'filled' : 'outline'}
            radius="sm"
            leftSection={engaged ? <IconHandStop size={11} /> : <IconPlayerPlay size={11} />}
          >
            {engaged ? 'auto-buy stopped' : 'auto-buy'}
          </Badge>
        </UnstyledButton>
      </Tooltip>
    </Group>
  );
}

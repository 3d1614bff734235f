/**
 * R reads the screen again — what its Refresh, Read again or Poll now button does — and says so in the
 * command palette and the help overlay while the screen is on. Not while a dialog is open (hotkeys.ts),
 * nor typed into a field.
 */
import { useMemo } from 'react';
import { useRegisterCommands } from '../../../shell/commands.ts';
import { useLatest } from './hooks.ts';

export const REFRESH_HOTKEY = 'r';

export function useRefreshKey(label: string, run: () => void): void {
  const latest = useLatest(run);
  const commands = useMemo(
    () => [
      {
        id: 'screen.refresh',
        label,
        group: 'This screen',
        hotkey: REFRESH_HOTKEY,
        keywords: ['refresh', 'reload', 'read again'],
        run: () => latest.current(),
      },
    ],
    [label, latest],
  );
  useRegisterCommands(commands);
}

/**
 * The application frame: a slim header (name, palette, market and sync state), the screen rail, the
 * current screen, and the status bar. The command palette, the help overlay and every hotkey are built
 * from one list: the registered screens plus the commands the mounted components register.
 */
import { AppShell, Group, Text, Title, UnstyledButton } from '@mantine/core';
import { spotlight } from '@mantine/spotlight';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import { allScreens } from '../screens/index.ts';
import { CommandPalette } from './CommandPalette.tsx';
import { type Command, hotkeyLabel, useCommands, useRegisterCommands } from './commands.ts';
import { HelpOverlay, Keys } from './HelpOverlay.tsx';
import { useCommandHotkeys } from './hotkeys.ts';
import { navigationCommand, useCurrentScreenId } from './navigation.ts';
import { NavBar } from './NavBar.tsx';
import { StatusBar } from './StatusBar.tsx';

const HEADER_H = 36;
const FOOTER_H = 26;
const NAV_W = 60;

export function AppFrame() {
  const [helpOpened, help] = useDisclosure(false);
  const currentId = useCurrentScreenId();
  const screens = allScreens();
  const current = screens.find((s) => s.id === currentId);

  const shellCommands = useMemo<Command[]>(
    () => [
      { id: 'app.palette', label: 'Open the command palette', group: 'General', hotkey: 'mod+k', paletteHidden: true, run: () => spotlight.toggle() },
      { id: 'app.help', label: 'Show keyboard shortcuts', group: 'General', hotkey: 'shift+?', keywords: ['help', 'keys'], run: help.toggle },
      ...screens.map(navigationCommand),
    ],
    [screens, help.toggle],
  );
  useRegisterCommands(shellCommands);
  const commands = useCommands();
  useCommandHotkeys(commands);

  const Screen = current?.component;
  return (
    <AppShell
      header={{ height: HEADER_H }}
      navbar={{ width: NAV_W, breakpoint: 0 }}
      footer={{ height: FOOTER_H }}
      padding={0}
    >
      <AppShell.Header>
        <Group h="100%" px="sm" gap="sm" wrap="nowrap">
          <Title order={1} fz={14} fw={700} style={{ letterSpacing: '0.02em' }}>
            Skindesk
          </Title>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {current?.label ?? ''}
          </Text>
          <UnstyledButton
            onClick={() => spotlight.open()}
            data-testid="palette-button"
            style={{ marginLeft: 'auto', border: '1px solid var(--sd-border)', borderRadius: 4, padding: '2px 8px' }}
          >
            <Group gap={6} wrap="nowrap">
              <Text size="xs" c="dimmed">
                Commands
              </Text>
              <Keys hotkey="mod+k" />
            </Group>
          </UnstyledButton>
          <UnstyledButton onClick={help.open} aria-label={`Keyboard shortcuts (${hotkeyLabel('shift+?').join('')})`}>
            <Keys hotkey="shift+?" />
          </UnstyledButton>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <NavBar />
      </AppShell.Navbar>
      <AppShell.Main style={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1, minHeight: 0, display: 'flex' }}>{Screen ? <Screen /> : null}</div>
      </AppShell.Main>
      <AppShell.Footer>
        <StatusBar />
      </AppShell.Footer>
      <CommandPalette commands={commands} />
      <HelpOverlay opened={helpOpened} onClose={help.close} commands={commands} />
    </AppShell>
  );
}

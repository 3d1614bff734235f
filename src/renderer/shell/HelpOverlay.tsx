/** `?`: every hotkey that works right now, by group — built from the same commands the keys run. */
import { Group, Kbd, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type Command, hotkeyLabel } from './commands.ts';

export function Keys({ hotkey }: { hotkey: string }) {
  return (
    <Group gap={3} wrap="nowrap">
      {hotkeyLabel(hotkey).map((k, i) => (
        <Kbd key={i}>{k}</Kbd>
      ))}
    </Group>
  );
}

export function HelpOverlay({ opened, onClose, commands }: { opened: boolean; onClose: () => void; commands: readonly Command[] }) {
  const withKeys = commands.filter((c) => c.hotkey);
  const groups = [...new Set(withKeys.map((c) => c.group))];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Keyboard shortcuts"
      size="xl"
      data-testid="help-overlay"
      // Open at once, the focus inside as it mounts (as the command palette does): an opening animation
      // waits for frames and the focus trap for a timer after them, and on a loaded machine the Escape
      // typed right after "?" went to the screen behind, the overlay not on screen yet
      transitionProps={{ duration: 0 }}
      closeButtonProps={{ autoFocus: true }}
    >
      <SimpleGrid cols={2} spacing="lg" verticalSpacing="md">
        {groups.map((group) => (
          <Stack key={group} gap={4}>
            <Title order={3} c="dimmed" tt="uppercase" fz={11}>
              {group}
            </Title>
            {withKeys
              .filter((c) => c.group === group)
              .map((c) => (
                <Group key={c.id} justify="space-between" wrap="nowrap" gap="sm">
                  <Text size="sm" c={c.enabled === false ? 'dimmed' : undefined}>
                    {c.label}
                  </Text>
                  <Keys hotkey={c.hotkey as string} />
                </Group>
              ))}
          </Stack>
        ))}
      </SimpleGrid>
    </Modal>
  );
}

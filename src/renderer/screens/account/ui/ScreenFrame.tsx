import { Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of an account screen: title and context on the left, tools on the right, content below. */
export function ScreenFrame({ title, subtitle, tools, children, testId }: { title: string; subtitle?: ReactNode; tools?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Stack gap="sm" p="sm" h="100%" data-testid={testId} style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Title order={2}>{title}</Title>
          {typeof subtitle === 'string' ? (
            <Text size="xs" c="dimmed" truncate>
              {subtitle}
            </Text>
          ) : (
            subtitle
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {tools}
        </Group>
      </Group>
      <ScrollArea style={{ flex: 1, minHeight: 0 }} offsetScrollbars type="auto">
        <Stack gap="sm">{children}</Stack>
      </ScrollArea>
    </Stack>
  );
}

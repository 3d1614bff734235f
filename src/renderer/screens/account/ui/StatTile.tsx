import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure of a summary row: a small caption, the number, a detail line. */
export function StatTile({ label, value, detail, testId }: { label: string; value: ReactNode; detail?: ReactNode; testId?: string }) {
  return (
    <Paper withBorder p="xs" radius="sm" bg="dark.7" data-testid={testId} style={{ minWidth: 150, flex: 1 }}>
      <Text size="xs" c="dimmed" tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Text size="lg" fw={600} component="div">
        {value}
      </Text>
      {detail ? (
        <Text size="xs" c="dimmed" component="div">
          {detail}
        </Text>
      ) : null}
    </Paper>
  );
}

import { Text } from '@mantine/core';

/**
 * Why a screen's action buttons are held back, said beside them in dimmed words: a disabled button takes
 * neither hover nor focus, so a reason in its tooltip reached no keyboard and no screen reader. Always
 * there (empty when nothing holds the buttons back) and no taller than the buttons beside it, so nothing
 * moves when a reason comes or goes; the buttons name it with aria-describedby, and a new one is announced.
 */
export function ActionBlockNote({
  id,
  reason,
  testId,
}: {
  id: string;
  reason: string | null;
  testId: string;
}) {
  return (
    <Text id={id} size="xs" c="dimmed" ta="right" lh={1.2} aria-live="polite" data-testid={testId}>
      {reason ?? ''}
    </Text>
  );
}

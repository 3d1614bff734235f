import { Alert, List, Text } from '@mantine/core';
import type { SendProblem } from '../../../../shared/ipc/calls-account.ts';

/** What the pre-send checks found (limits, tokens, pools): shown before anything is sent. */
export function ProblemList({ problems }: { problems: readonly SendProblem[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" p="xs" title="Fix before sending" data-testid="send-problems">
      <List size="xs" spacing={2}>
        {problems.map((p, i) => (
          <List.Item key={i}>
            <Text span ff="monospace" size="xs" c="yellow.3">
              {p.code}
            </Text>{' '}
            {p.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

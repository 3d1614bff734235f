import { Alert, List, Text } from '@mantine/core';
import type { SendProblem } from '../../../../shared/ipc/calls-account.ts';
import { asSentence } from '../../../../shared/sentence.ts';


function Problems({ problems, color }: { problems: readonly SendProblem[]; color: string }) {
  return (
    <List size="xs" spacing={2}>
      {problems.map((p, i) => (
        <List.Item key={i} data-code={p.code}>
          {asSentence(p.message)}{' '}
          <Text span ff="monospace" size="10px" c={color} title="The marketplace's code for this problem">
            {p.code}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/**
 * What the pre-send checks found (limits, tokens, pools): shown before anything is sent. Notes that do
 * not block the send (the backpack is read first, say) are shown apart.
 */
export function ProblemList({ problems }: { problems: readonly SendProblem[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  const blocking = problems.filter((p) => p.blocking);
  const notes = problems.filter((p) => !p.blocking);
  return (
    <>
      {blocking.length > 0 ? (
        <Alert color="yellow" variant="light" p="xs" title="Fix before sending" data-testid="send-problems">
          <Problems problems={blocking} color="yellow.3" />
        </Alert>
      ) : null}
      {notes.length > 0 ? (
        <Alert color="blue" variant="light" p="xs" title="Checked before sending" data-testid="send-notes">
          <Problems problems={notes} color="blue.3" />
        </Alert>
      ) : null}
    </>
  );
}

import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ERROR_EXPLANATIONS, isErrorCode } from '../../../../shared/api/index.ts';
import { SkindeskError } from '../../../bridge/index.ts';

const TITLES: Partial<Record<SkindeskError['code'], string>> = {
  // a refusal, a server error or no answer at all: the message says which
  MARKET: 'The marketplace did not do it',
  REFUSED: 'Not sent',
  UNAVAILABLE: 'Not possible right now',
  INVALID_INPUT: 'Check the form',
  DISCONNECTED: 'Disconnected from the app',
  INTERNAL: 'Something went wrong',
};

/**
 * The spec's code of a failure when its message does not name it already, with the code's explanation
 * when that says more than the message: what a note adds under the words. Null when nothing to add.
 */
export function codeBeyondMessage(e: SkindeskError): { code: string; explanation: string | null } | null {
  if (!e.apiCode || e.message.includes(e.apiCode)) return null;
  const explanation = isErrorCode(e.apiCode) ? ERROR_EXPLANATIONS[e.apiCode] : null;
  return { code: e.apiCode, explanation: explanation && explanation !== e.message ? explanation : null };
}

/** The line under a failure's words with what `codeBeyondMessage` adds ("RATE_LIMITED — …"); nothing when it adds nothing. */
export function CodeLine({ error, mt }: { error: SkindeskError; mt?: number }) {
  const beyond = codeBeyondMessage(error);
  if (!beyond) return null;
  return (
    <Text size="xs" c="dimmed" mt={mt}>
      <Text span ff="monospace" size="xs">
        {beyond.code}
      </Text>
      {beyond.explanation ? ` — ${beyond.explanation}` : ''}
    </Text>
  );
}

/**
 * A failed call in plain words: what happened, the spec's code when the marketplace sent one (with its
 * explanation), every problem found before sending, and a warning when the outcome is not known.
 */
export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const e = error instanceof SkindeskError ? error : new SkindeskError({ code: 'INTERNAL', message: String(error) });
  return (
    <Alert
      color={e.code === 'UNAVAILABLE' || e.outcomeUnknown ? 'yellow' : 'red'}
      variant="light"
      icon={<IconAlertTriangle size={16} />}
      // a lost answer is not a refusal: the marketplace may well have done it
      title={title ?? (e.outcomeUnknown ? 'No clear answer' : (TITLES[e.code] ?? 'Failed'))}
      data-testid="error-note"
      p="xs"
    >
      <Text size="sm">{e.message}</Text>
      {/* the message names a code the contract does not explain already */}
      <CodeLine error={e} mt={4} />
      {e.issues.length > 1 ? (
        <List size="xs" mt={4} spacing={2}>
          {e.issues.map((issue, i) => (
            <List.Item key={i}>
              {issue.path !== '(request)' && issue.path !== '(input)' ? `${issue.path}: ` : ''}
              {issue.message}
            </List.Item>
          ))}
        </List>
      ) : null}
      {e.outcomeUnknown ? (
        <Text size="xs" c="yellow.4" mt={4}>
          The answer was lost on the way: the marketplace may have done it. Check before trying again.
        </Text>
      ) : null}
    </Alert>
  );
}

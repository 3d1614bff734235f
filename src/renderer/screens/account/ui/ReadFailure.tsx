/**
 * An account screen's read that failed (a table's, the portfolio's, the withdrawals', the trading
 * results'), told where it matters. With nothing read to show (the first read, or another page or filter
 * than the one read last, or a table read empty), the failure takes the table's place: an empty table
 * beside it would say there is nothing, which nobody knows. With rows shown, a refresh that failed keeps
 * them and is said in a badge in the header, so the rows do not jump down.
 */
import { Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { inLine } from '../../../../shared/sentence.ts';
import type { CallState, SkindeskError } from '../../../bridge/index.ts';
import { CodeLine, codeBeyondMessage } from './ErrorNote.tsx';
import { formatAsOf } from '../../../format/numbers.ts';

export interface TableReadFailure {
  /** Told in the table's place (the table, its empty words and its pager are not shown). */
  inPlace: SkindeskError | null;
  /** Told in the header, over the rows of the last good read, which stay. */
  overRows: SkindeskError | null;
}

/** Where a read's failure is told, by whether what it read before is on the screen still. */
export function placeFailure(error: SkindeskError | null, shown: boolean): TableReadFailure {
  if (!error) return { inPlace: null, overRows: null };
  return shown ? { inPlace: null, overRows: error } : { inPlace: error, overRows: null };
}

/** Where a table read's failure is told: `rowsOf` picks the rows the table would show from an answer. */
export function tableReadFailure<T>(
  read: CallState<T>,
  rowsOf: (answer: T) => readonly unknown[],
): TableReadFailure {
  return placeFailure(read.error, read.current !== undefined && rowsOf(read.current).length > 0);
}

/** The spec's code and what it means, when the message does not say it already: " (RATE_LIMITED: …)". */
function codeWords(error: SkindeskError): string {
  const beyond = codeBeyondMessage(error);
  return beyond ? ` (${beyond.code}${beyond.explanation ? `: ${inLine(beyond.explanation)}` : ''})` : '';
}

/** The failure in the table's place: what could not be read, the marketplace's words, the code, and Retry. */
export function ReadFailed({
  error,
  title,
  onRetry,
}: {
  error: SkindeskError;
  title: string;
  onRetry: () => void;
}) {
  // Retry spins until this failure is replaced: by the rows (this goes), or by the next failure
  const [retried, setRetried] = useState<SkindeskError | null>(null);
  return (
    <Paper withBorder p="md" bg="dark.7" role="alert" data-testid="read-failed">
      <Stack gap={6} align="flex-start">
        <Group gap={6} wrap="nowrap">
          <IconAlertTriangle size={16} color="var(--mantine-color-red-5)" />
          <Text size="sm" fw={600}>
            {title}
          </Text>
        </Group>
        <Text size="sm">{error.message}</Text>
        <CodeLine error={error} />
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          loading={retried === error}
          onClick={() => {
            setRetried(error);
            onRetry();
          }}
        >
          Retry
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * A refresh that failed while the rows of an earlier read stay shown: a badge in the header line (its
 * words on hover and on focus), "as of" the read the rows come from when that is known.
 */
export function RefreshFailed({
  error,
  title,
  asOf,
}: {
  error: SkindeskError;
  title: string;
  asOf?: string | null;
}) {
  const words = `${title} again: ${inLine(error.message)}${codeWords(error)}. The rows shown are from the last good read.`;
  return (
    <Tooltip label={words} multiline maw={420} events={{ hover: true, focus: true, touch: true }}>
      <Badge
        color="red"
        variant="light"
        tabIndex={0}
        role="status"
        aria-label={words}
        data-testid="read-refresh-failed"
        style={{ flexShrink: 0 }}
      >
        not refreshed{asOf ? ` · as of ${formatAsOf(asOf)}` : ''}
      </Badge>
    </Tooltip>
  );
}

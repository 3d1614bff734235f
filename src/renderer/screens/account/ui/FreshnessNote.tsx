import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { Freshness } from '../../../../shared/ipc/calls-account.ts';
import { formatAsOf } from '../../../format/numbers.ts';
import { formatAgo } from './format.ts';

/**
 * "as of 14:05:12" ("as of 2026-03-13 17:02" on an earlier day): every account read is cached in
 * SQLite, so a screen may show a stored copy; this says how old it is and, when the refresh failed, why.
 */
export function FreshnessNote({ freshness, loading }: { freshness: Freshness | null | undefined; loading?: boolean }) {
  if (!freshness) return loading ? <Text size="xs" c="dimmed">loading…</Text> : null;
  // as the book's "as of": the date too when it was not today, or a copy days old reads as minutes old
  const label = `as of ${formatAsOf(freshness.fetchedAt)}`;
  return (
    <Group gap={6} wrap="nowrap" data-testid="freshness">
      {freshness.problem ? (
        <Tooltip label={freshness.problem} multiline w={320}>
          <Badge color="yellow" variant="light" data-testid="freshness-offline">
            offline · {label}
          </Badge>
        </Tooltip>
      ) : (
        <Tooltip label={`${freshness.fromCache ? 'Stored copy' : 'Read from the marketplace'} ${formatAgo(freshness.fetchedAt)}`}>
          <Text size="xs" c="dimmed" className="sd-num">
            {label}
            {loading ? ' · refreshing…' : ''}
          </Text>
        </Tooltip>
      )}
    </Group>
  );
}

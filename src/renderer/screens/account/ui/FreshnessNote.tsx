import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { Freshness } from '../../../../shared/ipc/calls-account.ts';
import { formatAgo, formatTime } from './format.ts';

/**
 * "as of 14:05:12": every account read is cached in SQLite, so a screen may show a stored copy; this
 * says how old it is and, when the refresh failed, why.
 */
export function FreshnessNote({ freshness, loading }: { freshness: Freshness | null | undefined; loading?: boolean }) {
  if (!freshness) return loading ? <Text size="xs" c="dimmed">loading…</Text> : null;
  const label = `as of ${formatTime(freshness.fetchedAt)}`;
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

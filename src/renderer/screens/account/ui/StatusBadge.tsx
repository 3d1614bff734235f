import { Badge } from '@mantine/core';
import { FINAL_TRADE_STATUSES, IN_FLIGHT_TRADE_STATUSES, type TradeStatus } from '../../../../shared/api/index.ts';
import { statusLabel } from '../../../../shared/status-labels.ts';

/** Trade and withdrawal statuses in the colours a trader scans for: green done, red failed, blue moving. */
export function statusColor(status: string): string {
  if (status === 'Accepted' || status === 'SUCCESS' || status === 'ACTIVE') return 'teal';
  if (status === 'FAILED' || status === 'Declined' || status === 'Reversed' || status === 'InvalidItems' || status === 'Invalid') return 'red';
  if (status === 'Expired' || status === 'Canceled' || status === 'CanceledBySecondFactor' || status === 'DISABLED') return 'gray';
  if (status === 'FILLED') return 'violet';
  if (status === 'PRIVATE') return 'grape';
  if (IN_FLIGHT_TRADE_STATUSES.includes(status as TradeStatus) || status === 'PENDING' || status === 'CONFIRMING' || status === 'CREATED') return 'blue';
  if (FINAL_TRADE_STATUSES.includes(status as TradeStatus)) return 'gray';
  return 'gray';
}

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    // never cut to "A…" by a narrow column: the status is what the row is read for
    <Badge color={statusColor(status)} variant="light" data-testid={testId} data-status={status} miw="max-content">
      {statusLabel(status)}
    </Badge>
  );
}

/**
 * A status column's header label, holding (unseen, no height) a badge of every status the column can
 * show: the column is as wide as the widest from the start, so a long one ("Needs confirmation")
 * arriving or leaving as a status changes live moves no column beside it. Measured in the badges' own
 * font, not guessed in pixels.
 */
export function StatusColumnLabel({ label, statuses }: { label: string; statuses: readonly string[] }) {
  return (
    <>
      {label}
      <div aria-hidden style={{ height: 0, overflow: 'hidden', visibility: 'hidden', display: 'flex', flexDirection: 'column' }}>
        {statuses.map((status) => (
          <StatusBadge key={status} status={status} />
        ))}
      </div>
    </>
  );
}

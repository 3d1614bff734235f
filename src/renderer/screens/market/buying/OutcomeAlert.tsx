/** A purchase report in plain words: green when bought, red when not, yellow when the outcome is unknown. */
import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import type { PurchaseReport } from '../../../../shared/ipc/calls-market.ts';

export function OutcomeAlert({ report, refused }: { report: PurchaseReport | null; refused: string | null }) {
  if (refused) {
    return (
      <Alert color="red" icon={<IconCircleX size={18} />} title="Not sent" data-testid="purchase-outcome" data-status="refused">
        {refused}
      </Alert>
    );
  }
  if (!report) return null;
  const look =
    report.status === 'bought'
      ? { color: 'teal', icon: <IconCircleCheck size={18} /> }
      : report.status === 'unknown'
        ? { color: 'yellow', icon: <IconAlertTriangle size={18} /> }
        : { color: 'red', icon: <IconCircleX size={18} /> };
  return (
    <Alert color={look.color} icon={look.icon} title={report.title} data-testid="purchase-outcome" data-status={report.status} data-code={report.apiCode ?? undefined}>
      {report.message}
    </Alert>
  );
}

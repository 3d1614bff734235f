/**
 * A status as a trader reads it, short (a badge, a notification's title): the spec's run-together
 * trade statuses split into words (a badge in capitals would otherwise read "CREATEDNEEDSCONFIRMATION");
 * every other status is shown as sent.
 */
import type { TradeStatus } from './api/index.ts';

const STATUS_LABELS: Partial<Record<TradeStatus, string>> = {
  CreatedNeedsConfirmation: 'Needs confirmation',
  CanceledBySecondFactor: 'Canceled by 2FA',
  InEscrow: 'In escrow',
  InvalidItems: 'Invalid items',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as TradeStatus] ?? status;
}

// A crypto withdrawal's card: each step of its path carries the time it was seen there, and a step not
// reached yet carries none (the settling step of one still confirming is not stamped with the
// confirmation's time).
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WithdrawalCard } from '../../../../src/renderer/screens/account/wallet/WithdrawalCard.tsx';
import { formatDateTime, formatTime } from '../../../../src/renderer/screens/account/ui/format.ts';
import type { WithdrawalView } from '../../../../src/shared/ipc/calls-account.ts';
import { renderWithTheme } from './fake-bridge.tsx';

afterEach(() => cleanup());

const PENDING_AT = '2026-01-02T10:00:00.000Z';
const CONFIRMING_AT = '2026-01-02T10:00:07.000Z';
const SETTLED_AT = '2026-01-02T10:01:30.000Z';

function view(status: 'CONFIRMING' | 'SUCCESS'): WithdrawalView {
  return {
    withdrawal: {
      withdrawal_id: 30003,
      status,
      balance_amount: 3000,
      token_amount: 0.34941176,
      ticker: 'LTC',
      created_at: PENDING_AT,
      tx_hash: '0xabc',
      network_fee: '0.0001',
    },
    statuses: [
      { status: 'PENDING', seenAt: PENDING_AT },
      { status: 'CONFIRMING', seenAt: CONFIRMING_AT },
      ...(status === 'SUCCESS' ? [{ status: 'SUCCESS', seenAt: SETTLED_AT }] : []),
    ],
    refunded: 0,
    checkTrouble: null,
  };
}

/** The time written under each step of the card's path, in order ('' where none is). */
function stepTimes(): string[] {
  const card = screen.getByTestId('withdrawal');
  return [...card.querySelectorAll('.mantine-Stepper-step')].map(
    (step) => step.querySelector('.mantine-Stepper-stepDescription')?.textContent ?? '',
  );
}

describe('WithdrawalCard', () => {
  it('leaves the settling step without a time while the withdrawal is still confirming', () => {
    renderWithTheme(<WithdrawalCard view={view('CONFIRMING')} />);
    expect(stepTimes()).toEqual([formatTime(PENDING_AT), formatTime(CONFIRMING_AT), '']);
  });

  it('stamps the settling step with the time it settled', () => {
    renderWithTheme(<WithdrawalCard view={view('SUCCESS')} />);
    expect(stepTimes()).toEqual([formatTime(PENDING_AT), formatTime(CONFIRMING_AT), formatTime(SETTLED_AT)]);
  });

  it('says when the status was last seen and why not since, while its checks fail', () => {
    const lastSeenAt = '2026-01-02T10:04:12.000Z';
    renderWithTheme(
      <WithdrawalCard
        view={{ ...view('CONFIRMING'), checkTrouble: { lastSeenAt, failingSince: '2026-01-02T10:04:17.000Z', problem: 'The marketplace is failing on its side (a server error).', retrying: true } }}
      />,
    );
    expect(screen.getByTestId('withdrawal-check-trouble').textContent).toBe(
      `Status as of ${formatDateTime(lastSeenAt)}:12; it could not be checked since then: the marketplace is failing on its side (a server error). Retrying.`,
    );
  });

  it('says nothing of checks while they succeed', () => {
    renderWithTheme(<WithdrawalCard view={view('CONFIRMING')} />);
    expect(screen.queryByTestId('withdrawal-check-trouble')).toBeNull();
  });
});

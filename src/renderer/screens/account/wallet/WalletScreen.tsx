/**
 * Crypto withdrawal: ticker, address (its shape checked for the ticker as it is typed), amount in
 * dollars (cents underneath), fee level, and the two-factor code when the account needs one. The fees
 * and the minimum are explained before sending (their amounts only on the demo market: a real market does
 * not publish them); then the withdrawal is followed to SUCCESS, or to FAILED
 * with the refund shown. One whose answer was lost is shown as unknown, and holds new withdrawals
 * until it is settled (UnsettledWithdrawalCard).
 */
import { Alert, Button, Grid, Group, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { CRYPTO_FEE_LEVELS, CRYPTO_TICKERS, type CryptoTicker } from '../../../../shared/api/index.ts';
import { call, useCall, usePush } from '../../../bridge/index.ts';
import { balanceStore, refreshBalance, syncStatusStore, useLive } from '../../../shell/app-state.ts';
import { CentsInput } from '../ui/CentsInput.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { formatCents } from '../ui/format.ts';
import { Money } from '../ui/Money.tsx';
import { ProblemList } from '../ui/ProblemList.tsx';
import { ReadFailed, RefreshFailed, placeFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { useAction } from '../ui/useAction.ts';
import { blockingMessage, useCheckedDraft } from '../ui/usePreSendCheck.ts';
import { UnsettledWithdrawalCard } from './UnsettledWithdrawalCard.tsx';
import { WithdrawalCard } from './WithdrawalCard.tsx';
import { WithdrawalCostWords } from './WithdrawalCostWords.tsx';

type FeeLevel = (typeof CRYPTO_FEE_LEVELS)[number];

const FEE_WORDS: Record<FeeLevel, string> = {
  LOW: 'slowest, cheapest network fee',
  MEDIUM: 'faster, higher network fee',
  HIGH: 'fastest, highest network fee',
};

const READ_TITLE = 'The withdrawals could not be read';

/** The spec names LOW only: against a real market the others are the demo's, and may be refused. */
const UNPUBLISHED_FEE_LEVEL = ' — not among the marketplace’s published values: it may refuse it';

export function WalletScreen() {
  const [ticker, setTicker] = useState<CryptoTicker>('BTC');
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState<number | null>(null);
  const [feeLevel, setFeeLevel] = useState<FeeLevel>('LOW');
  const [twoFactor, setTwoFactor] = useState('');
  const demo = useLive(syncStatusStore)?.market.mode === 'demo';
  // the status bar's balance: the check's own read (q.balance) is as old as the last draft checked
  const balance = useLive(balanceStore)?.balance ?? null;
  const [confirming, setConfirming] = useState(false);
  const withdrawals = useCall('getWithdrawals', {});
  usePush('withdrawalUpdated', () => {
    withdrawals.reload();
    void refreshBalance();
  });
  const quote = useCheckedDraft({ ticker, amount: amount ?? 0, address }, (draft) => call('checkWithdrawal', draft));
  const send = useAction(async () => {
    try {
      return await call('createWithdrawal', { ticker, address, amount: amount ?? 0, feeLevel, twoFactorCode: twoFactor.trim() || null });
    } finally {
      // also after a failure: one whose answer was lost is listed as unknown
      withdrawals.reload();
      void refreshBalance();
    }
  });
  const q = quote.value;
  const fresh = quote.current && quote.failure === null;
  const problems = q && fresh ? q.check.problems : undefined;
  const needs2fa = send.error?.apiCode === 'TWO_FACTOR_REQUIRED';
  const unsettled = withdrawals.data?.unsettled ?? [];
  const blocked =
    unsettled.length > 0
      ? 'Held: an earlier withdrawal may have been sent; settle it first (on the right).'
      : !amount
        ? 'Enter an amount.'
        : !address
          ? 'Enter the address.'
          : quote.failure
            ? `The check failed: ${quote.failure.message}`
            : !fresh || !q
              ? 'Checking…'
              : blockingMessage(problems);
  const latest = withdrawals.data?.withdrawals ?? [];
  // unread is not "No withdrawals made from this app yet."
  const failure = placeFailure(withdrawals.error, withdrawals.data !== undefined);

  return (
    <ScreenFrame title="Crypto withdrawal" testId="screen-wallet" subtitle={balance !== null ? <Text size="xs" c="dimmed">balance <Money cents={balance} size="xs" /></Text> : undefined}>
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper withBorder p="sm" bg="dark.7">
            <Stack gap="xs">
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  Currency
                </Text>
                <SegmentedControl value={ticker} onChange={(v) => setTicker(v as CryptoTicker)} data={[...CRYPTO_TICKERS]} data-testid="wallet-ticker" />
              </Stack>
              <TextInput
                label={`${ticker} address`}
                placeholder={ticker === 'BTC' ? 'bc1…' : ticker === 'LTC' ? 'ltc1…' : ticker === 'SOL' ? 'base58 address' : '0x…'}
                value={address}
                onChange={(e) => setAddress(e.currentTarget.value)}
                classNames={{ input: 'sd-num' }}
                autoComplete="off"
                spellCheck={false}
                data-testid="wallet-address"
              />
              <Group grow gap="xs" align="flex-start">
                <CentsInput label="Amount (from your balance)" cents={amount} onCents={setAmount} data-testid="wallet-amount" />
                <Stack gap={2}>
                  <Text size="xs" fw={500}>
                    Network fee level
                  </Text>
                  <SegmentedControl value={feeLevel} onChange={(v) => setFeeLevel(v as FeeLevel)} data={[...CRYPTO_FEE_LEVELS]} />
                  <Text size="10px" c="dimmed" data-testid="wallet-fee-words">
                    {FEE_WORDS[feeLevel]}
                    {!demo && feeLevel !== 'LOW' && UNPUBLISHED_FEE_LEVEL}
                  </Text>
                </Stack>
              </Group>
              <PasswordInput
                label="Two-factor code"
                description="Needed when the account protects withdrawals with two-factor authentication"
                value={twoFactor}
                onChange={(e) => setTwoFactor(e.currentTarget.value)}
                error={needs2fa ? 'This account needs the two-factor code (or the code was wrong)' : undefined}
                w={260}
                size="xs"
                autoComplete="one-time-code"
              />
              {q ? (
                <Alert variant="light" color="gray" p="xs" title="What it costs" data-testid="wallet-quote">
                  <WithdrawalCostWords
                    ticker={ticker}
                    amount={amount}
                    terms={
                      q.feeBps !== null && q.platformFee !== null && q.converted !== null && q.minimum !== null
                        ? { feeBps: q.feeBps, platformFee: q.platformFee, converted: q.converted, minimum: q.minimum }
                        : null
                    }
                  />
                </Alert>
              ) : (
                // until the first check answers, the same box, unseen, holds its place: the Review button
                // below does not jump down when the words come
                <Alert variant="light" color="gray" p="xs" title="What it costs" aria-hidden style={{ visibility: 'hidden' }} data-testid="wallet-quote-placeholder">
                  <WithdrawalCostWords ticker={ticker} amount={amount} terms={null} />
                </Alert>
              )}
              {amount !== null && amount > 0 && address ? <ProblemList problems={problems} /> : null}
              <Group justify="flex-end" gap="sm">
                {blocked ? (
                  <Text size="xs" c="dimmed">
                    {blocked}
                  </Text>
                ) : null}
                <Button
                  disabled={blocked !== null}
                  onClick={() => {
                    send.reset();
                    setConfirming(true);
                  }}
                  data-testid="wallet-review"
                >
                  Review withdrawal…
                </Button>
              </Group>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Title order={3}>Withdrawals</Title>
              {failure.overRows ? <RefreshFailed error={failure.overRows} title={READ_TITLE} /> : null}
            </Group>
            <Text size="xs" c="dimmed">
              Followed until they settle, also after a restart. Older ones are in the Ledger.
            </Text>
            {failure.inPlace ? <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={withdrawals.reload} /> : null}
            {unsettled.map((attempt) => (
              <UnsettledWithdrawalCard
                key={attempt.id}
                attempt={attempt}
                onSettled={() => {
                  withdrawals.reload();
                  void refreshBalance();
                }}
              />
            ))}
            {failure.inPlace ? null : latest.length === 0 && unsettled.length === 0 ? (
              <Text size="xs" c="dimmed">
                No withdrawals made from this app yet.
              </Text>
            ) : (
              latest.slice(0, 20).map((view) => <WithdrawalCard key={view.withdrawal.withdrawal_id} view={view} />)
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      {confirming ? (
        <ConfirmDialog
          opened
          onClose={() => setConfirming(false)}
          title={`Withdraw ${formatCents(amount ?? 0)} to ${ticker}`}
          confirmLabel="Withdraw"
          danger
          onConfirm={() => void send.run()}
          running={send.running}
          progressLabel="Sending the withdrawal…"
          error={send.error}
          result={send.result ? <WithdrawalCard view={latest.find((w) => w.withdrawal.withdrawal_id === send.result!.withdrawal.withdrawal_id) ?? send.result} /> : null}
        >
          <Stack gap={4}>
            <Text size="sm">
              <Money cents={amount ?? 0} fw={600} /> leaves your balance now;{' '}
              {q?.converted !== null && q?.converted !== undefined ? (
                <>
                  about <Money cents={q.converted} /> worth of {ticker} (before the network fee)
                </>
              ) : (
                <>what is left of it after the platform fee, in {ticker} (before the network fee),</>
              )}{' '}
              goes to:
            </Text>
            <Text size="sm" className="sd-num" p={6} bg="dark.6" style={{ wordBreak: 'break-all', borderRadius: 4 }} data-testid="confirm-address">
              {address}
            </Text>
            <Text size="xs" c="dimmed">
              Fee level {feeLevel}. Check the address: a transaction on the chain cannot be taken back.
            </Text>
          </Stack>
        </ConfirmDialog>
      ) : null}
    </ScreenFrame>
  );
}

